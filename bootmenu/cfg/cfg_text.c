/* cfg_text.c - line, word and path helpers for the parsers (cfg_text.h). */
#include "cfg/cfg_text.h"
#include "util/arena.h"

#include <string.h>
#include <strings.h>

void cfg_text_lines_init(struct cfg_text_lines *it, const char *buf, size_t len)
{
	const char *nul = buf ? memchr(buf, '\0', len) : NULL;

	it->p = buf;
	it->end = nul ? nul : buf + len;
	it->line = 0;
}

bool cfg_text_next_line(struct cfg_text_lines *it, const char **s, size_t *n)
{
	const char *nl;
	size_t len;

	if (!it->p || it->p >= it->end)
		return false;
	nl = memchr(it->p, '\n', (size_t)(it->end - it->p));
	len = (size_t)((nl ? nl : it->end) - it->p);
	*s = it->p;
	if (len && it->p[len - 1] == '\r')
		len--;
	*n = len;
	it->p = nl ? nl + 1 : it->end;
	it->line++;
	return true;
}

bool cfg_text_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r';
}

const char *cfg_text_ltrim(const char *s, size_t *n)
{
	while (*n && cfg_text_is_space(*s)) {
		s++;
		(*n)--;
	}
	return s;
}

char *cfg_text_trimdup(struct arena *a, const char *s, size_t n)
{
	s = cfg_text_ltrim(s, &n);
	while (n && cfg_text_is_space(s[n - 1]))
		n--;
	return arena_strndup(a, s, n);
}

void cfg_text_split_word(const char *s, size_t n, const char **w, size_t *wn,
			 const char **r, size_t *rn)
{
	size_t i = 0;

	s = cfg_text_ltrim(s, &n);
	while (i < n && !cfg_text_is_space(s[i]))
		i++;
	*w = s;
	*wn = i;
	*rn = n - i;
	*r = cfg_text_ltrim(s + i, rn);
	while (*rn && cfg_text_is_space((*r)[*rn - 1]))
		(*rn)--;
}

char *cfg_text_join(struct arena *a, const char *x, const char *y)
{
	if (!x || !*x)
		return arena_strdup(a, y ? y : "");
	if (!y || !*y)
		return arena_strdup(a, x);
	return arena_printf(a, "%s %s", x, y);
}

/* Append component c[0..n) to out (which holds an absolute path). */
static void path_push(char *out, size_t *len, const char *c, size_t n)
{
	if (n == 1 && c[0] == '.')
		return;
	if (n == 2 && c[0] == '.' && c[1] == '.') {
		while (*len > 1 && out[*len - 1] != '/')
			(*len)--;
		if (*len > 1)
			(*len)--;
		out[*len] = '\0';
		return;
	}
	if (*len > 1)
		out[(*len)++] = '/';
	memcpy(out + *len, c, n);
	*len += n;
	out[*len] = '\0';
}

static void path_push_all(char *out, size_t *len, const char *p)
{
	while (*p) {
		size_t n;

		p += strspn(p, "/");
		n = strcspn(p, "/");
		if (n)
			path_push(out, len, p, n);
		p += n;
	}
}

char *cfg_text_path(struct arena *a, const char *dir, const char *path)
{
	size_t cap = (dir ? strlen(dir) : 0) + strlen(path) + 3, len = 1;
	char *out = arena_alloc(a, cap);

	out[0] = '/';
	if (path[0] != '/' && dir)
		path_push_all(out, &len, dir);
	path_push_all(out, &len, path);
	return out;
}

char *cfg_text_dirname(struct arena *a, const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash || slash == path)
		return arena_strdup(a, "/");
	return arena_strndup(a, path, (size_t)(slash - path));
}

const char *cfg_text_basename(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

bool cfg_text_eq_nocase(const char *s, size_t n, const char *kw)
{
	return strlen(kw) == n && !strncasecmp(s, kw, n);
}
