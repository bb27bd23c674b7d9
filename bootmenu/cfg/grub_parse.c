/* grub_parse.c - grub.cfg's lexer and recursive-descent parser.
 *
 * GRUB manual, "Shell-like scripting": words are split at blanks, `;` and
 * newlines; `{` and `}` are tokens of their own outside quotes; `#` at the
 * start of a word begins a comment; backslash-newline continues a line.
 * Quotes and `$` expansions stay in the words for the interpreter.
 */
#include "cfg/grub_parse.h"
#include "util/arena.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

enum grub_tok { T_EOF, T_SEP, T_WORD, T_LBR, T_RBR };

struct grub_lexer {
	struct arena *a;
	const char *p, *end;
	int line;
	grub_parse_warn_fn warn;
	void *data;
	bool peeked;
	enum grub_tok tok;
	const char *word; /* the T_WORD's raw text */
	int tline;	  /* line of the current token */
	int depth;
	bool stop; /* nesting limit hit: parse nothing more */
};

struct grub_words {
	const char **v;
	size_t n, cap;
};

static void grub_lex_warn(struct grub_lexer *lx, int line, const char *msg)
{
	if (lx->warn)
		lx->warn(lx->data, line, msg);
}

static void grub_lex_quote(struct grub_lexer *lx, char q)
{
	int start = lx->line;

	for (lx->p++; lx->p < lx->end && *lx->p != q; lx->p++) {
		if (q == '"' && *lx->p == '\\' && lx->p + 1 < lx->end)
			lx->p++;
		if (*lx->p == '\n')
			lx->line++;
	}
	if (lx->p < lx->end)
		lx->p++;
	else
		grub_lex_warn(lx, start, "unterminated quote");
}

/* Advance over one word, leaving lx->p at the first byte after it. */
static void grub_lex_word(struct grub_lexer *lx)
{
	while (lx->p < lx->end) {
		char c = *lx->p;

		if (strchr(" \t\r\n;{}", c) && c)
			break;
		if (c == '\\') {
			if (++lx->p < lx->end && *lx->p++ == '\n')
				lx->line++;
		} else if (c == '\'' || c == '"') {
			grub_lex_quote(lx, c);
		} else if (c == '$' && lx->p + 1 < lx->end && lx->p[1] == '{') {
			for (lx->p += 2; lx->p < lx->end && *lx->p != '}' &&
					 *lx->p != '\n';)
				lx->p++;
			if (lx->p < lx->end && *lx->p == '}')
				lx->p++;
		} else {
			lx->p++;
		}
	}
}

/* Skip blanks, line continuations and comments. */
static void grub_lex_blank(struct grub_lexer *lx)
{
	while (lx->p < lx->end) {
		char c = *lx->p;

		if (c == ' ' || c == '\t' || c == '\r') {
			lx->p++;
		} else if (c == '\\' && lx->p + 1 < lx->end &&
			   lx->p[1] == '\n') {
			lx->p += 2;
			lx->line++;
		} else if (c == '#') {
			while (lx->p < lx->end && *lx->p != '\n')
				lx->p++;
		} else {
			break;
		}
	}
}

static enum grub_tok grub_lex_next(struct grub_lexer *lx)
{
	const char *start;

	grub_lex_blank(lx);
	lx->tline = lx->line;
	if (lx->p >= lx->end)
		return T_EOF;
	switch (*lx->p) {
	case '\n':
		lx->line++;
		/* fallthrough */
	case ';':
		lx->p++;
		return T_SEP;
	case '{':
		lx->p++;
		return T_LBR;
	case '}':
		lx->p++;
		return T_RBR;
	}
	start = lx->p;
	grub_lex_word(lx);
	lx->word = arena_strndup(lx->a, start, (size_t)(lx->p - start));
	return T_WORD;
}

static enum grub_tok grub_peek(struct grub_lexer *lx)
{
	if (!lx->peeked) {
		lx->tok = grub_lex_next(lx);
		lx->peeked = true;
	}
	return lx->tok;
}

static void grub_take(struct grub_lexer *lx)
{
	grub_peek(lx);
	lx->peeked = false;
}

static bool grub_peek_word(struct grub_lexer *lx, const char *kw)
{
	return grub_peek(lx) == T_WORD && !strcmp(lx->word, kw);
}

static void grub_skip_seps(struct grub_lexer *lx)
{
	while (grub_peek(lx) == T_SEP)
		grub_take(lx);
}

static void grub_words_push(struct arena *a, struct grub_words *w,
			    const char *s)
{
	if (w->n == w->cap) {
		size_t cap = w->cap ? 2 * w->cap : 8;
		const char **v = arena_alloc(a, cap * sizeof(*v));

		if (w->n)
			memcpy(v, w->v, w->n * sizeof(*v));
		w->v = v;
		w->cap = cap;
	}
	w->v[w->n++] = s;
}

static struct grub_node *grub_node_new(struct grub_lexer *lx,
				       enum grub_node_kind kind, int line)
{
	struct grub_node *n = arena_alloc(lx->a, sizeof(*n));

	n->kind = kind;
	n->line = line;
	return n;
}

/* Words up to the end of the command (a separator, brace or the end). */
static void grub_collect_words(struct grub_lexer *lx, struct grub_node *n)
{
	struct grub_words w = {0};

	while (grub_peek(lx) == T_WORD) {
		grub_words_push(lx->a, &w, lx->word);
		grub_take(lx);
	}
	n->words = w.v;
	n->n_words = w.n;
}

static bool grub_is_closer(const char *w)
{
	static const char *const kws[] = {"then", "elif", "else",
					  "fi",	  "do",	  "done"};

	for (size_t i = 0; i < sizeof(kws) / sizeof(kws[0]); i++)
		if (!strcmp(w, kws[i]))
			return true;
	return false;
}

static struct grub_node *grub_parse_list(struct grub_lexer *lx,
					 const char *const *ends, bool brace,
					 const char **hit);

static const char *const grub_end_then[] = {"then", NULL};
static const char *const grub_end_if[] = {"elif", "else", "fi", NULL};
static const char *const grub_end_fi[] = {"fi", NULL};
static const char *const grub_end_do[] = {"do", NULL};
static const char *const grub_end_done[] = {"done", NULL};

static void grub_expect(struct grub_lexer *lx, const char *hit,
			const char *want, int line, const char *what)
{
	char msg[96];

	if (hit && !strcmp(hit, want))
		return;
	if (lx->stop)
		return;
	strcpy(msg, what);
	strcat(msg, " without '");
	strcat(msg, want);
	strcat(msg, "'");
	grub_lex_warn(lx, line, msg);
}

/* After `if` or `elif`: COND then LIST [elif ...|else LIST] fi */
static struct grub_node *grub_parse_if(struct grub_lexer *lx, int line)
{
	struct grub_node *n = grub_node_new(lx, GN_IF, line);
	const char *hit;

	n->cond = grub_parse_list(lx, grub_end_then, false, &hit);
	grub_expect(lx, hit, "then", line, "'if'");
	if (!hit)
		return n;
	n->body = grub_parse_list(lx, grub_end_if, false, &hit);
	if (hit && !strcmp(hit, "elif")) {
		n->other = grub_parse_if(lx, lx->tline);
		return n;
	}
	if (hit && !strcmp(hit, "else"))
		n->other = grub_parse_list(lx, grub_end_fi, false, &hit);
	grub_expect(lx, hit, "fi", line, "'if'");
	return n;
}

/* After `for`: NAME in WORDS... ; do LIST done */
static struct grub_node *grub_parse_for(struct grub_lexer *lx, int line)
{
	struct grub_node *n = grub_node_new(lx, GN_FOR, line);
	struct grub_words w = {0};
	const char *hit = NULL;

	if (grub_peek(lx) != T_WORD) {
		grub_lex_warn(lx, line, "'for' without a variable name");
		return NULL;
	}
	grub_words_push(lx->a, &w, lx->word);
	grub_take(lx);
	if (grub_peek_word(lx, "in"))
		grub_take(lx);
	while (grub_peek(lx) == T_WORD) {
		grub_words_push(lx->a, &w, lx->word);
		grub_take(lx);
	}
	n->words = w.v;
	n->n_words = w.n;
	grub_skip_seps(lx);
	if (grub_peek_word(lx, "do")) {
		grub_take(lx);
		n->body = grub_parse_list(lx, grub_end_done, false, &hit);
		grub_expect(lx, hit, "done", line, "'for'");
	} else {
		grub_expect(lx, NULL, "do", line, "'for'");
	}
	return n;
}

static struct grub_node *grub_parse_while(struct grub_lexer *lx, int line,
					  enum grub_node_kind kind)
{
	struct grub_node *n = grub_node_new(lx, kind, line);
	const char *hit;

	n->cond = grub_parse_list(lx, grub_end_do, false, &hit);
	grub_expect(lx, hit, "do", line, "'while'");
	if (!hit)
		return n;
	n->body = grub_parse_list(lx, grub_end_done, false, &hit);
	grub_expect(lx, hit, "done", line, "'while'");
	return n;
}

/* `{ LIST }` after a function name or menuentry arguments. */
static bool grub_parse_block(struct grub_lexer *lx, struct grub_node *n,
			     const char *what)
{
	const char *hit;

	grub_skip_seps(lx);
	if (grub_peek(lx) != T_LBR) {
		grub_expect(lx, NULL, "{", n->line, what);
		return false;
	}
	grub_take(lx);
	n->body = grub_parse_list(lx, NULL, true, &hit);
	grub_expect(lx, hit, "}", n->line, what);
	return true;
}

static struct grub_node *grub_parse_func(struct grub_lexer *lx, int line)
{
	struct grub_node *n = grub_node_new(lx, GN_FUNC, line);

	if (grub_peek(lx) != T_WORD) {
		grub_lex_warn(lx, line, "'function' without a name");
		return NULL;
	}
	n->words = arena_alloc(lx->a, sizeof(*n->words));
	n->words[0] = lx->word;
	n->n_words = 1;
	grub_take(lx);
	return grub_parse_block(lx, n, "'function'") ? n : NULL;
}

static struct grub_node *grub_parse_menu(struct grub_lexer *lx, int line,
					 enum grub_node_kind kind)
{
	struct grub_node *n = grub_node_new(lx, kind, line);

	grub_collect_words(lx, n);
	return grub_parse_block(lx, n,
				kind == GN_MENU ? "'menuentry'" : "'submenu'")
		   ? n
		   : NULL;
}

static struct grub_node *grub_parse_compound(struct grub_lexer *lx,
					     const char *kw, int line)
{
	if (!strcmp(kw, "if"))
		return grub_parse_if(lx, line);
	if (!strcmp(kw, "for"))
		return grub_parse_for(lx, line);
	if (!strcmp(kw, "while"))
		return grub_parse_while(lx, line, GN_WHILE);
	if (!strcmp(kw, "until"))
		return grub_parse_while(lx, line, GN_UNTIL);
	if (!strcmp(kw, "function"))
		return grub_parse_func(lx, line);
	if (!strcmp(kw, "menuentry"))
		return grub_parse_menu(lx, line, GN_MENU);
	return grub_parse_menu(lx, line, GN_SUBMENU);
}

static bool grub_is_opener(const char *w)
{
	static const char *const kws[] = {
	    "if", "for", "while", "until", "function", "menuentry", "submenu"};

	for (size_t i = 0; i < sizeof(kws) / sizeof(kws[0]); i++)
		if (!strcmp(w, kws[i]))
			return true;
	return false;
}

/* One statement; the current token is a word. NULL when it was dropped. */
static struct grub_node *grub_parse_command(struct grub_lexer *lx)
{
	int line = lx->tline;
	struct grub_node *n;
	const char *kw = lx->word;

	if (!grub_is_opener(kw)) {
		n = grub_node_new(lx, GN_CMD, line);
		grub_collect_words(lx, n);
		return n;
	}
	grub_take(lx);
	if (++lx->depth > GRUB_NEST_MAX) {
		grub_lex_warn(lx, line,
			      "nested too deeply: the rest is ignored");
		lx->stop = true;
		return NULL;
	}
	n = grub_parse_compound(lx, kw, line);
	lx->depth--;
	return n;
}

static bool grub_is_end(const char *w, const char *const *ends)
{
	for (; ends && *ends; ends++)
		if (!strcmp(w, *ends))
			return true;
	return false;
}

/* Returns true when the list ends here (the token is left or taken). */
static bool grub_list_stops(struct grub_lexer *lx, const char *const *ends,
			    bool brace, const char **hit)
{
	enum grub_tok t = grub_peek(lx);
	char msg[64];

	if (lx->stop || t == T_EOF)
		return true;
	if (t == T_RBR) {
		if (brace) {
			grub_take(lx);
			*hit = "}";
			return true;
		}
		if (lx->depth > 0)
			return true; /* an unclosed if in a block: let } close
					it */
		grub_lex_warn(lx, lx->tline, "unexpected '}'");
	} else if (t == T_LBR) {
		grub_lex_warn(lx, lx->tline, "unexpected '{'");
	} else if (t == T_WORD && grub_is_end(lx->word, ends)) {
		*hit = lx->word;
		grub_take(lx);
		return true;
	} else if (t == T_WORD && grub_is_closer(lx->word)) {
		if (lx->depth > 0 && !ends)
			return true;
		snprintf(msg, sizeof(msg), "unexpected '%.20s'", lx->word);
		grub_lex_warn(lx, lx->tline, msg);
	} else {
		return false;
	}
	grub_take(lx);
	return false;
}

static struct grub_node *grub_parse_list(struct grub_lexer *lx,
					 const char *const *ends, bool brace,
					 const char **hit)
{
	struct grub_node *head = NULL, **tail = &head;

	*hit = NULL;
	for (;;) {
		grub_skip_seps(lx);
		if (grub_list_stops(lx, ends, brace, hit))
			break;
		if (grub_peek(lx) != T_WORD)
			continue;
		struct grub_node *n = grub_parse_command(lx);
		if (n) {
			*tail = n;
			tail = &n->next;
		}
	}
	return head;
}

void grub_parse(struct arena *a, const char *buf, size_t len,
		struct grub_node **out, grub_parse_warn_fn warn, void *data)
{
	struct grub_lexer lx = {
	    .a = a,
	    .p = buf,
	    .end = buf + len,
	    .line = 1,
	    .warn = warn,
	    .data = data,
	};
	const char *hit;

	*out = grub_parse_list(&lx, NULL, false, &hit);
}
