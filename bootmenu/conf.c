/* conf.c - bootmenu.conf. */
#include "conf.h"
#include "entry.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void conf_init(struct conf *c)
{
	memset(c, 0, sizeof(*c));
	c->timeout = -2;
	c->colour = true;
}

static char *trim(char *s)
{
	char *end = s + strlen(s);

	while (*s == ' ' || *s == '\t')
		s++;
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		*--end = '\0';
	return s;
}

static int set_key(struct conf *c, const char *key, const char *val)
{
	if (!strcmp(key, "timeout")) {
		char *end;
		double t = strtod(val, &end);

		if (end == val || *end || t < -1)
			return -EINVAL;
		c->timeout = t < 0 ? -1 : t;
		return 0;
	}
	if (!strcmp(key, "default")) {
		if (strlen(val) >= sizeof(c->default_pat))
			return -ENAMETOOLONG;
		strcpy(c->default_pat, val);
		return 0;
	}
	return -ENOENT;
}

static int parse_line(struct conf *c, char *line)
{
	char *eq, *key;

	line = trim(line);
	if (!*line || *line == '#')
		return 0;
	eq = strchr(line, '=');
	if (!eq)
		return -EINVAL;
	*eq = '\0';
	key = trim(line);
	return set_key(c, key, trim(eq + 1));
}

int conf_parse(struct conf *c, const char *text, char *err, size_t errlen)
{
	int rc = 0, n = 0;

	if (errlen)
		err[0] = '\0';
	while (*text) {
		size_t k = strcspn(text, "\n");
		char line[1024];
		int r;

		n++;
		snprintf(line, sizeof(line), "%.*s", (int)k, text);
		r = parse_line(c, line);
		if (r < 0 && !rc) {
			snprintf(err, errlen, "line %d: %s", n,
				 r == -ENOENT ? "unknown key" : "bad value");
			rc = -EINVAL;
		}
		text += k + (text[k] == '\n');
	}
	return rc;
}

int conf_load(struct conf *c, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *buf;
	size_t n;
	int rc;

	if (errlen)
		err[0] = '\0';
	if (!f)
		return errno == ENOENT ? 0 : -errno;
	buf = malloc(CONF_MAX + 1);
	if (!buf) {
		fclose(f);
		return -ENOMEM;
	}
	n = fread(buf, 1, CONF_MAX, f);
	buf[n] = '\0';
	fclose(f);
	rc = conf_parse(c, buf, err, errlen);
	free(buf);
	return rc;
}

double conf_timeout(double opt_s, double cmdline_s, double conf_s,
		    int timeout_ds)
{
	double t = 5;

	if (opt_s > -2)
		t = opt_s;
	else if (cmdline_s > -2)
		t = cmdline_s;
	else if (conf_s > -2)
		t = conf_s;
	else if (timeout_ds >= 0)
		t = timeout_ds / 10.0;
	return t < 0 ? -1 : t;
}

bool conf_match(const char *pat, const char *title, const char *id)
{
	if (!pat || !*pat)
		return false;
	return (title && fnmatch(pat, title, 0) == 0) ||
	       (id && fnmatch(pat, id, 0) == 0);
}
