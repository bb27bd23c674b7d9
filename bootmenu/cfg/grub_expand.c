/* grub_expand.c - quote removal, `$var`/`${var}` expansion and field
 * splitting of one word (grub-core/script/yylex.l's rules, in C). */
#include "cfg/grub_expand.h"
#include "util/arena.h"

#include <stdlib.h>
#include <string.h>

struct grub_xbuf {
	struct arena *a;
	struct grub_fields *out;
	char *s;
	size_t len, cap, max, total;
	bool have; /* a field has started (even an empty quoted one) */
	bool cut;
};

void grub_fields_push(struct arena *a, struct grub_fields *f, const char *s)
{
	if (f->n == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 8;
		const char **v = arena_alloc(a, cap * sizeof(*v));

		if (f->n)
			memcpy(v, f->v, f->n * sizeof(*v));
		f->v = v;
		f->cap = cap;
	}
	f->v[f->n++] = s;
}

bool grub_is_name_char(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

static void grub_xbuf_put(struct grub_xbuf *b, char c)
{
	b->have = true;
	if (b->len >= b->max) {
		b->cut = true;
		return;
	}
	if (b->len + 1 >= b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 64;
		char *s = realloc(b->s, cap);

		if (!s)
			abort(); /* as arena_alloc: no memory, no menu */
		b->s = s;
		b->cap = cap;
	}
	b->s[b->len++] = c;
}

/* Append s[0..n) as grub_xbuf_put() would, byte by byte, in one copy. */
static void grub_xbuf_add(struct grub_xbuf *b, const char *s, size_t n)
{
	size_t room = b->max - b->len; /* len never passes max */

	b->have = true;
	if (n > room) {
		n = room;
		b->cut = true;
	}
	if (b->len + n >= b->cap) {
		size_t cap = b->cap ? b->cap : 64;
		char *p;

		while (b->len + n >= cap)
			cap *= 2;
		p = realloc(b->s, cap);
		if (!p)
			abort(); /* as arena_alloc: no memory, no menu */
		b->s = p;
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
}

static void grub_xbuf_end(struct grub_xbuf *b)
{
	if (!b->have)
		return;
	grub_fields_push(b->a, b->out,
			 arena_strndup(b->a, b->s ? b->s : "", b->len));
	b->total += b->len + 1;
	b->len = 0;
	b->have = false;
}

static bool grub_is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* An unquoted value: blanks separate arguments. */
static void grub_xbuf_split(struct grub_xbuf *b, const char *v)
{
	for (; *v; v++) {
		if (grub_is_blank(*v))
			grub_xbuf_end(b);
		else
			grub_xbuf_put(b, *v);
	}
}

static void grub_xbuf_value(struct grub_xbuf *b, const char *v, bool quoted)
{
	if (!v)
		return;
	if (!quoted) {
		grub_xbuf_split(b, v);
		return;
	}
	grub_xbuf_add(b, v, strlen(v));
}

/* At p[0] == '$': expand the reference, return the byte after it. */
static const char *grub_expand_var(struct grub_xbuf *b, const char *p,
				   grub_lookup_fn look, void *data, bool quoted)
{
	const char *name = p + 1, *end;

	if (*name == '{') {
		end = strchr(++name, '}');
		if (!end) {
			grub_xbuf_put(b, '$');
			return p + 1;
		}
		grub_xbuf_value(b, look(data, name, (size_t)(end - name)),
				quoted);
		return end + 1;
	}
	if (*name == '?' || *name == '#' || *name == '@' || *name == '*' ||
	    (*name >= '0' && *name <= '9')) {
		grub_xbuf_value(b, look(data, name, 1), quoted);
		return name + 1;
	}
	for (end = name; grub_is_name_char(*end); end++)
		;
	if (end == name) {
		grub_xbuf_put(b, '$');
		return p + 1;
	}
	grub_xbuf_value(b, look(data, name, (size_t)(end - name)), quoted);
	return end;
}

static const char *grub_expand_dquote(struct grub_xbuf *b, const char *p,
				      grub_lookup_fn look, void *data)
{
	b->have = true;
	while (*p && *p != '"') {
		if (*p == '\\' && p[1] && strchr("$\"\\\n", p[1])) {
			if (p[1] != '\n')
				grub_xbuf_put(b, p[1]);
			p += 2;
		} else if (*p == '$') {
			p = grub_expand_var(b, p, look, data, true);
		} else {
			grub_xbuf_put(b, *p++);
		}
	}
	return *p ? p + 1 : p;
}

static const char *grub_expand_squote(struct grub_xbuf *b, const char *p)
{
	size_t n = strcspn(p, "'");

	grub_xbuf_add(b, p, n);
	p += n;
	return *p ? p + 1 : p;
}

size_t grub_expand_word(struct arena *a, const char *word, grub_lookup_fn look,
			void *data, size_t max, struct grub_fields *out,
			bool *cut)
{
	struct grub_xbuf b = {.a = a, .out = out, .max = max};
	const char *p = word;
	size_t plain = strcspn(word, "\\'\"$");

	/* Most words have nothing to expand: one field, as it is. */
	if (!word[plain] && plain <= max) {
		if (cut)
			*cut = false;
		if (!plain)
			return 0;
		grub_fields_push(a, out, arena_strndup(a, word, plain));
		return plain + 1;
	}
	while (*p) {
		if (*p == '\\') {
			if (p[1] && p[1] != '\n')
				grub_xbuf_put(&b, p[1]);
			p += p[1] ? 2 : 1;
		} else if (*p == '\'') {
			p = grub_expand_squote(&b, p + 1);
		} else if (*p == '"') {
			p = grub_expand_dquote(&b, p + 1, look, data);
		} else if (*p == '$') {
			p = grub_expand_var(&b, p, look, data, false);
		} else {
			grub_xbuf_put(&b, *p++);
		}
	}
	grub_xbuf_end(&b);
	free(b.s);
	if (cut)
		*cut = b.cut;
	return b.total;
}

char *grub_expand_refs(struct arena *a, const char *s, grub_lookup_fn look,
		       void *data, size_t max)
{
	struct grub_fields out = {0};
	struct grub_xbuf b = {.a = a, .out = &out, .max = max};

	b.have = true;
	while (*s) {
		if (*s == '$') {
			s = grub_expand_var(&b, s, look, data, true);
		} else {
			grub_xbuf_put(&b, *s++);
		}
	}
	grub_xbuf_end(&b);
	free(b.s);
	return (char *)out.v[0];
}
