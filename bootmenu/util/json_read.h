/* json_read.h - a small, bounded JSON reader (RFC 8259) for outside bytes.
 *
 * jr_parse() turns text into a tree of nodes held in one struct jr_doc:
 * strings decoded (escapes, \u with surrogate pairs, to UTF-8) and
 * NUL-terminated, numbers kept as their text. Nesting, node count and
 * text size are bounded by the constants below. util/json.h is the
 * writer; this is its reading half, kept apart because it parses bytes
 * from disks (LUKS2 metadata) and is fuzzed on its own terms.
 *
 * Nodes are addressed by pointer; children of an array or object are
 * walked with jr_first() and jr_next(). Every pointer stays valid until
 * jr_free(). Nothing here allocates after jr_parse() returns.
 */
#ifndef BM_UTIL_JSON_READ_H
#define BM_UTIL_JSON_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JR_DEPTH_MAX 32	       /* nesting of [ ] and { } */
#define JR_NODES_MAX 65536     /* values in one document */
#define JR_TEXT_MAX (16 << 20) /* bytes of text jr_parse() takes */

enum jr_type { JR_NULL, JR_BOOL, JR_NUM, JR_STR, JR_ARR, JR_OBJ };

struct jr_node {
	enum jr_type type;
	const char *key; /* the member's name inside an object, else NULL */
	const char *str; /* JR_STR: the decoded string; JR_NUM: its text */
	size_t len;	 /* strlen(str) */
	bool b;		 /* JR_BOOL */
	size_t n;	 /* JR_ARR, JR_OBJ: the number of children */
	int child, next; /* indices into the document; -1: none */
};

struct jr_doc {
	struct jr_node *node; /* node[0] is the top value */
	size_t n, cap;
	char *text; /* the decoded strings */
};

/* Parse s[0..len) as one JSON value with only whitespace around it.
 * Returns 0 with @d filled (free with jr_free()); -EINVAL (bad syntax,
 * a NUL inside a string), -E2BIG (a bound above exceeded) or -ENOMEM,
 * each with a sentence in err naming the byte offset. On failure @d is
 * left empty. */
int jr_parse(const char *s, size_t len, struct jr_doc *d, char *err,
	     size_t errlen);

/* Free what jr_parse() allocated; @d is empty afterwards. */
void jr_free(struct jr_doc *d);

/* The top value; NULL for an empty document. */
const struct jr_node *jr_root(const struct jr_doc *d);

/* The first child of an array or object, the one after @n; NULL at the
 * end (or when @n is not a container / is NULL). */
const struct jr_node *jr_first(const struct jr_doc *d, const struct jr_node *n);
const struct jr_node *jr_next(const struct jr_doc *d, const struct jr_node *n);

/* The member @key of object @obj; with duplicate names the last one, as
 * json-c (cryptsetup's reader) does. NULL when absent or @obj is not an
 * object (or NULL). */
const struct jr_node *jr_get(const struct jr_doc *d, const struct jr_node *obj,
			     const char *key);

/* The string of @n when it is a JR_STR, else NULL. */
const char *jr_str(const struct jr_node *n);

/* A non-negative integer from a number without sign, fraction or
 * exponent, or from a string of decimal digits (LUKS2 writes 64-bit
 * values as strings). Returns 0, -EINVAL (not such a value, or NULL),
 * -ERANGE (above UINT64_MAX). */
int jr_u64(const struct jr_node *n, uint64_t *v);

#endif
