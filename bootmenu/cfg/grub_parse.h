/* grub_parse.h - grub.cfg's lexer and parser: text in, a syntax tree out.
 *
 * The tree keeps every word as written (quotes, `$var`, backslashes and
 * line continuations still in it); the interpreter (grub_exec.c) expands words
 * when it runs them, as GRUB does. The tree, its words and nothing else
 * belong to the arena passed in.
 */
#ifndef BM_CFG_GRUB_PARSE_H
#define BM_CFG_GRUB_PARSE_H

#include <stddef.h>

struct arena;

/* Deepest nesting of if/for/while/function/menuentry the parser follows;
 * deeper input is refused with a warning (the stack stays bounded). */
#define GRUB_NEST_MAX 64

enum grub_node_kind {
	GN_CMD,	    /* words[0..n) */
	GN_IF,	    /* cond, body (then), other (else: a list or one GN_IF) */
	GN_FOR,	    /* words[0] the variable, words[1..n) the list; body */
	GN_WHILE,   /* cond, body */
	GN_UNTIL,   /* cond, body */
	GN_FUNC,    /* words[0] the name; body */
	GN_MENU,    /* menuentry: words = its arguments; body */
	GN_SUBMENU, /* submenu: words = its arguments; body */
};

struct grub_node {
	struct grub_node *next;
	enum grub_node_kind kind;
	int line; /* 1-based line of the node's first word */
	const char **words;
	size_t n_words;
	struct grub_node *cond, *body, *other;
};

/* Called for each syntax problem; the parser carries on after it. */
typedef void (*grub_parse_warn_fn)(void *data, int line, const char *msg);

/* Parse buf[0..len) (need not be NUL-terminated) into a list of nodes in
 * *out (NULL for an empty file). A syntax error drops only the statement
 * it is in. Never fails. */
void grub_parse(struct arena *a, const char *buf, size_t len,
		struct grub_node **out, grub_parse_warn_fn warn, void *data);

#endif
