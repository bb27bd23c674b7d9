/* conf.c - bootmenu.conf. */
#include "conf/conf.h"
#include "conf/auth.h"
#include "entry/entry.h"

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
	while (end > s &&
	       (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		*--end = '\0';
	return s;
}

static int set_string(char *dst, size_t len, const char *val)
{
	if (strlen(val) >= len)
		return -ENAMETOOLONG;
	strcpy(dst, val);
	return 0;
}

/* yes/no, and the usual spellings of both. */
static int set_bool(bool *dst, const char *val)
{
	static const char *const yes[] = {"yes", "true", "on", "1"};
	static const char *const no[] = {"no", "false", "off", "0"};

	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (!strcasecmp(val, yes[i])) {
			*dst = true;
			return 0;
		}
		if (!strcasecmp(val, no[i])) {
			*dst = false;
			return 0;
		}
	}
	return -EINVAL;
}

static int set_timeout(struct conf *c, const char *val)
{
	char *end;
	double t = strtod(val, &end);

	if (end == val || *end || t < -1)
		return -EINVAL;
	c->timeout = t < 0 ? -1 : t;
	return 0;
}

/* A hash that is not a usable "$6$" one locks the protected actions
 * rather than opening them: the password becomes CONF_PASSWORD_LOCKED,
 * which no password matches (auth_check() is false for it). */
static int set_password(struct conf *c, const char *val)
{
	if (auth_hash_valid(val) && strlen(val) < sizeof(c->password)) {
		strcpy(c->password, val);
		return 0;
	}
	strcpy(c->password, CONF_PASSWORD_LOCKED);
	return -EINVAL;
}

/* LABEL=, UUID=, PARTUUID=, PARTLABEL=, /dev/NAME or a bare NAME. */
/* A filesystem spec: one word ("LABEL=boot", "UUID=...", "vda2"). */
static int set_spec(char *dst, size_t len, const char *val)
{
	if (!*val || strchr(val, ' ') || strchr(val, '\t'))
		return -EINVAL;
	return set_string(dst, len, val);
}

/* A list of patterns: several lines of the key add up. */
static int set_patterns(char *dst, size_t size, const char *val)
{
	size_t n = strlen(dst);

	if (n + 1 + strlen(val) >= size)
		return -ENAMETOOLONG;
	if (n && *val)
		dst[n++] = ' ';
	strcpy(dst + n, val);
	return 0;
}

static int set_tpm(struct conf *c, const char *val)
{
	static const char *const names[] = {
	    [CONF_TPM_AUTO] = "auto",
	    [CONF_TPM_REQUIRED] = "required",
	    [CONF_TPM_OFF] = "off",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcasecmp(val, names[i])) {
			c->tpm = (enum conf_tpm)i;
			return 0;
		}
	return -EINVAL;
}

/* no, yes, or patterns: "" for no and "*" for yes, so that
 * conf_pass_key() has patterns alone to match. */
static int set_pass_key(struct conf *c, const char *val)
{
	bool on;

	if (!*val)
		return -EINVAL;
	if (set_bool(&on, val) == 0)
		return set_string(c->pass_key, sizeof(c->pass_key),
				  on ? "*" : "");
	return set_string(c->pass_key, sizeof(c->pass_key), val);
}

static int set_key(struct conf *c, const char *key, const char *val)
{
	if (!strcmp(key, "timeout"))
		return set_timeout(c, val);
	if (!strcmp(key, "default"))
		return set_string(c->default_pat, sizeof(c->default_pat), val);
	if (!strcmp(key, "default_device"))
		return set_spec(c->default_device, sizeof(c->default_device),
				val);
	if (!strcmp(key, "password"))
		return set_password(c, val);
	if (!strcmp(key, "save_default"))
		return set_bool(&c->save_default, val);
	if (!strcmp(key, "save_default_on"))
		return set_spec(c->save_on, sizeof(c->save_on), val);
	if (!strcmp(key, "hide"))
		return set_patterns(c->hide, sizeof(c->hide), val);
	if (!strcmp(key, "unlock_at_start"))
		return set_patterns(c->unlock_at_start,
				    sizeof(c->unlock_at_start), val);
	if (!strcmp(key, "network"))
		return set_spec(c->network, sizeof(c->network), val);
	if (!strcmp(key, "colour") || !strcmp(key, "color"))
		return set_bool(&c->colour, val);
	if (!strcmp(key, "tpm"))
		return set_tpm(c, val);
	if (!strcmp(key, "luks_pass_key"))
		return set_pass_key(c, val);
	return -ENOENT;
}

static int parse_line(struct conf *c, char *line, const char **key)
{
	char *eq;

	*key = NULL;
	line = trim(line);
	if (!*line || *line == '#')
		return 0;
	eq = strchr(line, '=');
	if (!eq)
		return -EINVAL;
	*eq = '\0';
	*key = trim(line);
	return set_key(c, *key, trim(eq + 1));
}

static const char *why(int rc, const char *key)
{
	if (rc == -ENOENT)
		return "unknown key";
	if (!key)
		return "not a \"key = value\" line";
	if (rc == -ENAMETOOLONG)
		return "value too long";
	if (!strcmp(key, "password"))
		return "password is not a crypt(3) SHA-512 hash ($6$...): "
		       "protected actions are locked";
	return "bad value";
}

int conf_parse(struct conf *c, const char *text, char *err, size_t errlen)
{
	int rc = 0, n = 0;

	if (errlen)
		err[0] = '\0';
	while (*text) {
		size_t k = strcspn(text, "\n");
		char line[CONF_LINE_MAX];
		const char *key;
		int r;

		n++;
		if (k >= sizeof(line)) {
			r = -ENAMETOOLONG;
			key = "";
		} else {
			snprintf(line, sizeof(line), "%.*s", (int)k, text);
			r = parse_line(c, line, &key);
		}
		if (r < 0 && !rc) {
			snprintf(err, errlen, "line %d: %s", n, why(r, key));
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

enum conf_net conf_network(const char *value, char *only, size_t len)
{
	bool on;

	if (len)
		only[0] = '\0';
	if (!value[0] || !strcasecmp(value, "auto"))
		return CONF_NET_AUTO;
	if (set_bool(&on, value) == 0)
		return on ? CONF_NET_ON : CONF_NET_OFF;
	if (len)
		snprintf(only, len, "%s", value);
	return CONF_NET_ON;
}

bool conf_match(const char *pat, const char *title, const char *id)
{
	if (!pat || !*pat)
		return false;
	return (title && fnmatch(pat, title, 0) == 0) ||
	       (id && fnmatch(pat, id, 0) == 0);
}

bool conf_pass_key(const char *val, const char *title, const char *id)
{
	char pat[sizeof(((struct conf *)0)->pass_key)];

	while (val && *val) {
		size_t n = strcspn(val, " \t");

		if (n && n < sizeof(pat)) {
			memcpy(pat, val, n);
			pat[n] = '\0';
			if (conf_match(pat, title, id))
				return true;
		}
		val += n;
		val += strspn(val, " \t");
	}
	return false;
}
