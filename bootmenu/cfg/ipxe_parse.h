/* ipxe_parse.h - an iPXE script split into its lines, before anything
 * runs (ipxe_parse.c).
 *
 * A line is what script.c's process_script() hands exec.c: backslash
 * continuations joined, a ":label" split off, the rest split at blanks
 * into words up to a word that starts with '#'. Nothing is expanded or
 * run here: ipxe_exec.c does that. The lines, labels and words belong to
 * the arena passed in.
 */
#ifndef BM_CFG_IPXE_PARSE_H
#define BM_CFG_IPXE_PARSE_H

#include <stdbool.h>
#include <stddef.h>

struct arena;

/* Longest logical line (backslash continuations joined); longer ones are
 * cut there with a warning. Words and ${...} expansions obey it too. */
#define IPXE_LINE_MAX 4096
/* Most words one command line is split into. */
#define IPXE_ARGS_MAX 256

/* One logical line: its label and its words up to a '#' word. */
struct ipxe_line {
	int line; /* 1-based, of its first physical line */
	const char *label;
	char **tok;
	size_t n_tok;
};

struct ipxe_script {
	struct ipxe_line *lines;
	size_t n_lines;
};

/* Called for each line cut or word dropped; the split carries on. */
typedef void (*ipxe_warn_fn)(void *data, int line, const char *msg);

/* script.c script_probe(): buf[0..len) starts with "#!ipxe" (or the older
 * "#!gpxe") and a blank. */
bool ipxe_magic(const char *buf, size_t len);

/* Split buf[0..len) (need not be NUL-terminated) into @out's lines, in
 * @a. Never fails. */
void ipxe_script_parse(struct arena *a, const char *buf, size_t len,
		       ipxe_warn_fn warn, void *data, struct ipxe_script *out);

/* True when @s is a URL ("http://...", "tftp://..."): entries keep such
 * kernel and initrd names verbatim (see ipxe_exec.c). */
bool ipxe_is_url(const char *s);

#endif
