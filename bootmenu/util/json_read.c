/* json_read.c - see json_read.h. Grammar from RFC 8259 sections 2-7. */
#include "util/json_read.h"

#include "util/hex.h"
#include "util/say.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct jr_p {
	const char *s;
	size_t len, pos;
	struct jr_doc *d;
	size_t used, room; /* bytes of d->text handed out, its size */
	char *err;
	size_t errlen;
};

static int jr_fail(struct jr_p *p, int rc, const char *what)
{
	return say(p->err, p->errlen, rc, "JSON: %s at byte %zu", what, p->pos);
}

static void jr_ws(struct jr_p *p)
{
	while (p->pos < p->len && strchr(" \t\r\n", p->s[p->pos]) &&
	       p->s[p->pos])
		p->pos++;
}

static int jr_peek(const struct jr_p *p)
{
	return p->pos < p->len ? (unsigned char)p->s[p->pos] : -1;
}

static int jr_node_new(struct jr_p *p, enum jr_type type)
{
	struct jr_doc *d = p->d;

	if (d->n == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 64;
		struct jr_node *n;

		if (d->n >= JR_NODES_MAX)
			return jr_fail(p, -E2BIG, "too many values");
		cap = cap > JR_NODES_MAX ? JR_NODES_MAX : cap;
		n = realloc(d->node, cap * sizeof(*n));
		if (!n)
			return jr_fail(p, -ENOMEM, "out of memory");
		d->node = n;
		d->cap = cap;
	}
	d->node[d->n] = (struct jr_node){.type = type, .child = -1, .next = -1};
	return (int)d->n++;
}

/* Room for one more decoded byte; the text buffer is sized so that this
 * cannot run out (decoding never grows a string), but check anyway. */
static int jr_put(struct jr_p *p, char c)
{
	if (p->used >= p->room)
		return jr_fail(p, -E2BIG, "decoded text too long");
	p->d->text[p->used++] = c;
	return 0;
}

static int jr_hex4(struct jr_p *p, unsigned *v)
{
	int hi, lo;

	if (p->len - p->pos < 4)
		return jr_fail(p, -EINVAL, "short \\u escape");
	hi = hex_byte(p->s + p->pos);
	lo = hi < 0 ? -1 : hex_byte(p->s + p->pos + 2);
	if (lo < 0)
		return jr_fail(p, -EINVAL, "bad \\u escape");
	p->pos += 4;
	*v = (unsigned)(hi << 8 | lo);
	return 0;
}

static int jr_utf8(struct jr_p *p, unsigned cp)
{
	int rc = 0;

	if (cp < 0x80)
		return jr_put(p, (char)cp);
	if (cp < 0x800) {
		rc = jr_put(p, (char)(0xc0 | cp >> 6));
	} else if (cp < 0x10000) {
		rc = jr_put(p, (char)(0xe0 | cp >> 12));
		rc = rc ? rc : jr_put(p, (char)(0x80 | (cp >> 6 & 0x3f)));
	} else {
		rc = jr_put(p, (char)(0xf0 | cp >> 18));
		rc = rc ? rc : jr_put(p, (char)(0x80 | (cp >> 12 & 0x3f)));
		rc = rc ? rc : jr_put(p, (char)(0x80 | (cp >> 6 & 0x3f)));
	}
	return rc ? rc : jr_put(p, (char)(0x80 | (cp & 0x3f)));
}

/* RFC 8259 section 7: \uXXXX, a pair for code points past U+FFFF. We
 * refuse U+0000: every string is handed on NUL-terminated. */
static int jr_unicode(struct jr_p *p)
{
	unsigned cp, lo;
	int rc = jr_hex4(p, &cp);

	if (rc)
		return rc;
	if (cp >= 0xdc00 && cp <= 0xdfff)
		return jr_fail(p, -EINVAL, "lone low surrogate");
	if (cp >= 0xd800 && cp <= 0xdbff) {
		if (p->len - p->pos < 2 || p->s[p->pos] != '\\' ||
		    p->s[p->pos + 1] != 'u')
			return jr_fail(p, -EINVAL, "lone high surrogate");
		p->pos += 2;
		rc = jr_hex4(p, &lo);
		if (rc)
			return rc;
		if (lo < 0xdc00 || lo > 0xdfff)
			return jr_fail(p, -EINVAL, "bad surrogate pair");
		cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
	}
	if (cp == 0)
		return jr_fail(p, -EINVAL, "NUL in a string");
	return jr_utf8(p, cp);
}

static int jr_escape(struct jr_p *p)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *at;
	int c = jr_peek(p);

	if (c == 'u') {
		p->pos++;
		return jr_unicode(p);
	}
	at = c > 0 ? strchr(from, c) : NULL;
	if (!at)
		return jr_fail(p, -EINVAL, "bad escape");
	p->pos++;
	return jr_put(p, to[at - from]);
}

/* A string at p->pos (its opening quote); *out points at its decoding. */
static int jr_string(struct jr_p *p, const char **out, size_t *len)
{
	size_t start = p->used;
	int c, rc = 0;

	p->pos++;
	while (!rc && (c = jr_peek(p)) != '"') {
		if (c < 0)
			return jr_fail(p, -EINVAL, "unterminated string");
		if (c < 0x20)
			return jr_fail(p, -EINVAL,
				       "control character in a string");
		p->pos++;
		rc = c == '\\' ? jr_escape(p) : jr_put(p, (char)c);
	}
	if (rc)
		return rc;
	p->pos++;
	*len = p->used - start;
	*out = p->d->text + start;
	return jr_put(p, '\0');
}

static size_t jr_digits(struct jr_p *p)
{
	size_t n = 0;

	while (jr_peek(p) >= '0' && jr_peek(p) <= '9')
		p->pos++, n++;
	return n;
}

/* RFC 8259 section 6: -? int frac? exp? with no leading zeros. */
static int jr_number(struct jr_p *p, int idx)
{
	size_t start = p->pos, first;
	int rc = 0;

	if (jr_peek(p) == '-')
		p->pos++;
	first = p->pos;
	if (!jr_digits(p) || (p->s[first] == '0' && p->pos - first > 1))
		return jr_fail(p, -EINVAL, "bad number");
	if (jr_peek(p) == '.' && (p->pos++, !jr_digits(p)))
		return jr_fail(p, -EINVAL, "bad fraction");
	if (jr_peek(p) == 'e' || jr_peek(p) == 'E') {
		p->pos++;
		if (jr_peek(p) == '+' || jr_peek(p) == '-')
			p->pos++;
		if (!jr_digits(p))
			return jr_fail(p, -EINVAL, "bad exponent");
	}
	p->d->node[idx].str = p->d->text + p->used;
	p->d->node[idx].len = p->pos - start;
	for (size_t i = start; !rc && i < p->pos; i++)
		rc = jr_put(p, p->s[i]);
	return rc ? rc : jr_put(p, '\0');
}

static int jr_literal(struct jr_p *p, int idx)
{
	static const struct {
		const char *word;
		enum jr_type type;
		bool b;
	} lit[] = {{"true", JR_BOOL, true},
		   {"false", JR_BOOL, false},
		   {"null", JR_NULL, false}};

	for (size_t i = 0; i < sizeof(lit) / sizeof(lit[0]); i++) {
		size_t n = strlen(lit[i].word);

		if (p->len - p->pos >= n &&
		    memcmp(p->s + p->pos, lit[i].word, n) == 0) {
			p->pos += n;
			p->d->node[idx].type = lit[i].type;
			p->d->node[idx].b = lit[i].b;
			return 0;
		}
	}
	return jr_fail(p, -EINVAL, "unexpected character");
}

static int jr_value(struct jr_p *p, int depth);

/* Link child @c after @last (or as the first child) of @parent. */
static void jr_link(struct jr_p *p, int parent, int *last, int c)
{
	if (*last < 0)
		p->d->node[parent].child = c;
	else
		p->d->node[*last].next = c;
	*last = c;
	p->d->node[parent].n++;
}

/* An object's member "name": value; the name goes on the value's node. */
static int jr_member(struct jr_p *p, int depth, int *idx)
{
	const char *key;
	size_t klen;
	int rc;

	jr_ws(p);
	if (jr_peek(p) != '"')
		return jr_fail(p, -EINVAL, "expected a member name");
	rc = jr_string(p, &key, &klen);
	if (rc)
		return rc;
	jr_ws(p);
	if (jr_peek(p) != ':')
		return jr_fail(p, -EINVAL, "expected ':'");
	p->pos++;
	*idx = jr_value(p, depth);
	if (*idx < 0)
		return *idx;
	p->d->node[*idx].key = key;
	return 0;
}

/* Array or object at p->pos (its bracket), children until @close. */
static int jr_container(struct jr_p *p, int idx, int depth)
{
	char close = p->d->node[idx].type == JR_OBJ ? '}' : ']';
	int last = -1, c = -1, rc;

	p->pos++;
	jr_ws(p);
	if (jr_peek(p) == close) {
		p->pos++;
		return 0;
	}
	for (;;) {
		if (close == '}')
			rc = jr_member(p, depth, &c);
		else
			rc = c = jr_value(p, depth);
		if (rc < 0)
			return rc;
		jr_link(p, idx, &last, c);
		jr_ws(p);
		if (jr_peek(p) == close)
			break;
		if (jr_peek(p) != ',')
			return jr_fail(p, -EINVAL, "expected ',' or a close");
		p->pos++;
	}
	p->pos++;
	return 0;
}

/* One value (after whitespace); returns its node index or -errno. */
static int jr_value(struct jr_p *p, int depth)
{
	int c, idx, rc;

	jr_ws(p);
	c = jr_peek(p);
	if (depth >= JR_DEPTH_MAX)
		return jr_fail(p, -E2BIG, "nested too deeply");
	idx = jr_node_new(p, c == '{'	? JR_OBJ
			     : c == '[' ? JR_ARR
			     : c == '"' ? JR_STR
					: JR_NUM);
	if (idx < 0)
		return idx;
	if (c == '{' || c == '[')
		rc = jr_container(p, idx, depth + 1);
	else if (c == '"')
		rc = jr_string(p, &p->d->node[idx].str, &p->d->node[idx].len);
	else if (c == '-' || (c >= '0' && c <= '9'))
		rc = jr_number(p, idx);
	else
		rc = jr_literal(p, idx);
	return rc < 0 ? rc : idx;
}

int jr_parse(const char *s, size_t len, struct jr_doc *d, char *err,
	     size_t errlen)
{
	struct jr_p p = {s, len, 0, d, 0, len + 1, err, errlen};
	int rc;

	memset(d, 0, sizeof(*d));
	if (len > JR_TEXT_MAX)
		return say(err, errlen, -E2BIG, "JSON: %zu bytes, more than %d",
			   len, JR_TEXT_MAX);
	d->text = malloc(p.room);
	if (!d->text)
		return jr_fail(&p, -ENOMEM, "out of memory");
	rc = jr_value(&p, 0);
	if (rc >= 0) {
		jr_ws(&p);
		rc = p.pos == len
			 ? 0
			 : jr_fail(&p, -EINVAL, "text after the value");
	}
	if (rc < 0)
		jr_free(d);
	return rc < 0 ? rc : 0;
}

void jr_free(struct jr_doc *d)
{
	free(d->node);
	free(d->text);
	memset(d, 0, sizeof(*d));
}

const struct jr_node *jr_root(const struct jr_doc *d)
{
	return d->n ? &d->node[0] : NULL;
}

const struct jr_node *jr_first(const struct jr_doc *d, const struct jr_node *n)
{
	if (!n || (n->type != JR_ARR && n->type != JR_OBJ) || n->child < 0)
		return NULL;
	return &d->node[n->child];
}

const struct jr_node *jr_next(const struct jr_doc *d, const struct jr_node *n)
{
	return n && n->next >= 0 ? &d->node[n->next] : NULL;
}

const struct jr_node *jr_get(const struct jr_doc *d, const struct jr_node *obj,
			     const char *key)
{
	const struct jr_node *found = NULL;

	if (!obj || obj->type != JR_OBJ)
		return NULL;
	for (const struct jr_node *c = jr_first(d, obj); c; c = jr_next(d, c))
		if (strcmp(c->key, key) == 0)
			found = c;
	return found;
}

const char *jr_str(const struct jr_node *n)
{
	return n && n->type == JR_STR ? n->str : NULL;
}

int jr_u64(const struct jr_node *n, uint64_t *v)
{
	uint64_t x = 0;

	if (!n || (n->type != JR_NUM && n->type != JR_STR) || !n->len)
		return -EINVAL;
	for (size_t i = 0; i < n->len; i++) {
		unsigned dgt = (unsigned)(n->str[i] - '0');

		if (dgt > 9)
			return -EINVAL;
		if (x > (UINT64_MAX - dgt) / 10)
			return -ERANGE;
		x = x * 10 + dgt;
	}
	*v = x;
	return 0;
}
