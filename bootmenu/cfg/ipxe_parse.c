/* ipxe_parse.c - splitting an iPXE script into lines (ipxe_parse.h), as
 * iPXE's src/image/script.c and core/exec.c do.
 *
 * "\r\n" ends a line as "\n" does; a line ending in a backslash goes on
 * on the next one; ":name" at a line's start is a label; the words are
 * split at blanks (there is no quoting) and a word starting with '#'
 * ends the line.
 */
#include "cfg/ipxe_parse.h"
#include "cfg/cfg_text.h"
#include "util/arena.h"

#include <stdio.h>
#include <string.h>

/* The split of one script. */
struct ipxe_lexer {
	struct arena *a;
	ipxe_warn_fn warn;
	void *data;
	struct ipxe_script *out;
	char buf[IPXE_LINE_MAX + 1]; /* the line being joined */
};

static void ipxe_lex_warn(struct ipxe_lexer *lx, int line, const char *msg)
{
	if (lx->warn)
		lx->warn(lx->data, line, msg);
}

static bool ipxe_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' ||
	       c == '\r';
}

bool ipxe_is_url(const char *s)
{
	size_t n = 0;

	if (!s || !((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')))
		return false;
	while (s[n] && (strchr("+-.", s[n]) || (s[n] >= '0' && s[n] <= '9') ||
			((s[n] | 0x20) >= 'a' && (s[n] | 0x20) <= 'z')))
		n++;
	return !strncmp(s + n, "://", 3);
}

bool ipxe_magic(const char *buf, size_t len)
{
	return len > 6 &&
	       (!memcmp(buf, "#!ipxe", 6) || !memcmp(buf, "#!gpxe", 6)) &&
	       ipxe_space(buf[6]);
}

/* Split one logical line into its label and words (script.c splits off
 * the label, exec.c the words; a word starting with '#' ends the line). */
static void ipxe_add_line(struct ipxe_lexer *lx, char *t, int line)
{
	struct ipxe_script *sc = lx->out;
	struct ipxe_line *l = &sc->lines[sc->n_lines++];
	char *w[IPXE_ARGS_MAX];

	l->line = line;
	while (ipxe_space(*t))
		t++;
	if (*t == ':') {
		char *p = ++t;

		while (*p && !ipxe_space(*p))
			p++;
		l->label = arena_strndup(lx->a, t, (size_t)(p - t));
		t = p;
	}
	for (char *tok = strtok(t, " \t\n\v\f\r"); tok && *tok != '#';
	     tok = strtok(NULL, " \t\n\v\f\r")) {
		if (l->n_tok == IPXE_ARGS_MAX) {
			char msg[96];

			snprintf(msg, sizeof(msg),
				 "more than %d words: the rest are ignored",
				 IPXE_ARGS_MAX);
			ipxe_lex_warn(lx, line, msg);
			break;
		}
		w[l->n_tok++] = arena_strdup(lx->a, tok);
	}
	l->tok = arena_alloc(lx->a, (l->n_tok + 1) * sizeof(*l->tok));
	memcpy(l->tok, w, l->n_tok * sizeof(*w));
}

/* Append text[0..n) to the line being joined in lx->buf. */
static void ipxe_append(struct ipxe_lexer *lx, size_t *len, const char *text,
			size_t n, int line, bool *cut)
{
	if (n > IPXE_LINE_MAX - *len) {
		n = IPXE_LINE_MAX - *len;
		if (!*cut) {
			char msg[96];

			snprintf(msg, sizeof(msg),
				 "a line longer than %d bytes is cut",
				 IPXE_LINE_MAX);
			ipxe_lex_warn(lx, line, msg);
		}
		*cut = true;
	}
	memcpy(lx->buf + *len, text, n);
	*len += n;
}

static void ipxe_split(struct ipxe_lexer *lx, const char *buf, size_t len)
{
	struct cfg_text_lines it;
	const char *t;
	size_t n, joined = 0, cap = 1;
	int first = 0;
	bool cut = false;

	for (size_t i = 0; i < len; i++)
		cap += buf[i] == '\n';
	lx->out->lines = arena_alloc(lx->a, cap * sizeof(*lx->out->lines));
	cfg_text_lines_init(&it, buf, len);
	while (cfg_text_next_line(&it, &t, &n)) {
		first = joined || cut ? first : it.line;
		ipxe_append(lx, &joined, t, n, it.line, &cut);
		if (n && t[n - 1] == '\\' && joined) {
			joined--; /* the backslash goes */
			continue;
		}
		lx->buf[joined] = '\0';
		ipxe_add_line(lx, lx->buf, first);
		joined = 0;
		cut = false;
	}
	if (joined || cut) {
		lx->buf[joined] = '\0';
		ipxe_add_line(lx, lx->buf, first);
	}
}

void ipxe_script_parse(struct arena *a, const char *buf, size_t len,
		       ipxe_warn_fn warn, void *data, struct ipxe_script *out)
{
	struct ipxe_lexer lx = {.a = a, .warn = warn, .data = data, .out = out};

	out->lines = NULL;
	out->n_lines = 0;
	ipxe_split(&lx, buf, len);
}
