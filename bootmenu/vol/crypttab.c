/* crypttab.c - one volume's line of a target's crypttab (crypttab.h). */
#include "vol/crypttab.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <strings.h>

/* crypttab(5): "Empty lines and lines starting with the "#" character
 * are ignored"; fields are separated by spaces or tabs. */
static bool ct_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* The next field of @p[0..end) into @dst[0..cap): 1, 0 at the line's
 * end, or -ENAMETOOLONG for a field that does not fit. */
static int ct_field(const char **p, const char *end, char *dst, size_t cap)
{
	const char *s = *p;
	size_t n;

	while (s < end && ct_space(*s))
		s++;
	*p = s;
	while (*p < end && !ct_space(**p))
		(*p)++;
	n = (size_t)(*p - s);
	if (!n)
		return 0;
	if (n >= cap)
		return -ENAMETOOLONG;
	memcpy(dst, s, n);
	dst[n] = '\0';
	return 1;
}

/* Whether source field @src names UUID @uuid. */
static bool ct_names(const char *src, const char *uuid)
{
	static const char *const forms[] = {"UUID=", "/dev/disk/by-uuid/"};

	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		size_t n = strlen(forms[i]);

		if (!strncmp(src, forms[i], n) && !strcasecmp(src + n, uuid))
			return true;
	}
	return false;
}

/* Line @s[0..end) split into @l; 0, or -ENOENT for a comment, a blank
 * line, a line without a source or with a field too long. */
static int ct_split(const char *s, const char *end, struct crypttab_line *l)
{
	const char *p = s;
	char rest[2];

	while (p < end && ct_space(*p))
		p++;
	if (p == end || *p == '#')
		return -ENOENT;
	l->key[0] = l->opts[0] = '\0';
	if (ct_field(&p, end, l->name, sizeof(l->name)) != 1 ||
	    ct_field(&p, end, l->source, sizeof(l->source)) != 1 ||
	    ct_field(&p, end, l->key, sizeof(l->key)) < 0 ||
	    ct_field(&p, end, l->opts, sizeof(l->opts)) < 0)
		return -ENOENT;
	/* a fifth field is not crypttab's: the line is not understood */
	if (ct_field(&p, end, rest, sizeof(rest)) != 0)
		return -ENOENT;
	return 0;
}

int crypttab_find(const char *text, size_t len, const char *uuid,
		  struct crypttab_line *out)
{
	const char *p = text, *end;
	unsigned lineno = 0;

	if (len > CRYPTTAB_TEXT_MAX)
		len = CRYPTTAB_TEXT_MAX;
	end = text + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;

		lineno++;
		if ((size_t)(eol - p) < CRYPTTAB_LINE_MAX &&
		    !memchr(p, '\0', (size_t)(eol - p)) &&
		    ct_split(p, eol, out) == 0 && ct_names(out->source, uuid)) {
			out->lineno = lineno;
			return 0;
		}
		p = nl ? nl + 1 : end;
	}
	return -ENOENT;
}

/* cryptroot reads the key file itself (CRYPTTAB_KEY): the options about
 * how to read a key file, or ask for one, would work against it. */
static bool ct_pass_opt(const char *o, size_t n)
{
	static const char *const drop[] = {"keyscript",	      "tries",
					   "keyfile-offset",  "keyfile-size",
					   "keyfile-timeout", "luks"};

	for (size_t i = 0; i < n; i++)
		if (!strchr(
			"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			"0123456789_=.:/-",
			o[i]) ||
		    !o[i])
			return false;
	for (size_t i = 0; i < sizeof(drop) / sizeof(drop[0]); i++) {
		size_t k = strlen(drop[i]);

		if (n >= k && !strncmp(o, drop[i], k) &&
		    (n == k || o[k] == '='))
			return false;
	}
	return n > 0;
}

size_t crypttab_pass_opts(const char *opts, char *out, size_t cap)
{
	size_t used = 0;

	if (!cap)
		return 0;
	out[0] = '\0';
	while (*opts) {
		size_t n = strcspn(opts, ",");

		if (ct_pass_opt(opts, n) && used + (used > 0) + n < cap) {
			if (used)
				out[used++] = ',';
			memcpy(out + used, opts, n);
			used += n;
			out[used] = '\0';
		}
		opts += n + (opts[n] == ',');
	}
	return used;
}
