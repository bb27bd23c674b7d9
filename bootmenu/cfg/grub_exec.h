/* grub_exec.h - running grub.cfg's syntax tree (grub_exec.c): lists,
 * if/for/while, functions, menuentry declarations, and commands through
 * the table in st->cmds.
 *
 * The interpreter knows no command by name: grub.c hands it grub_cmd.c's
 * table, and the commands call back only through this header.
 */
#ifndef BM_CFG_GRUB_EXEC_H
#define BM_CFG_GRUB_EXEC_H

#include "cfg/grub_expand.h"
#include "cfg/grub_state.h"

struct grub_node;

/* Run one command: argv[0] is its name, argv[argc] is NULL, the words
 * are st->a's. Returns its exit status ($?). */
typedef int (*grub_cmd_fn)(struct grub_state *st, const char *const *argv,
			   size_t argc);

/* One entry of a command table; a table ends with a NULL name. */
struct grub_cmd {
	const char *name;
	grub_cmd_fn fn; /* NULL: accepted, and it changes nothing here */
};

/* Run the list @n; returns st->status. */
int grub_exec_list(struct grub_state *st, struct grub_node *n);
/* Expand words[0..n) into arguments (owned by st->a), counting their
 * bytes against GRUB_BYTES_MAX. */
void grub_expand(struct grub_state *st, const char *const *words, size_t n,
		 struct grub_fields *out);
/* Parse buf[0..len) and run it as the file @path on @fs (source,
 * configfile, eval); @buf stays the caller's. Returns st->status. */
int grub_exec_buffer(struct grub_state *st, const struct fs_root *fs,
		     const char *path, const char *buf, size_t len);

#endif
