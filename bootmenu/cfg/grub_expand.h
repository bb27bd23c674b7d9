/* grub_expand.h - turning one raw grub.cfg word into arguments.
 *
 * GRUB manual, "Shell-like scripting": inside '...' nothing is special;
 * inside "..." `$` expands and a backslash escapes `$`, `"`, `\` and a
 * newline; outside quotes a backslash escapes any character, and the
 * value of an unquoted `$var` is split into several arguments at blanks
 * (an empty one gives none). Strings returned belong to the arena.
 */
#ifndef BM_CFG_GRUB_EXPAND_H
#define BM_CFG_GRUB_EXPAND_H

#include <stdbool.h>
#include <stddef.h>

struct arena;

/* The value of variable name[0..n) ("root", "1", "#", "?", "@"), or NULL
 * when it is not set. */
typedef const char *(*grub_lookup_fn)(void *data, const char *name, size_t n);

/* A growing list of arguments, owned by the arena. */
struct grub_fields {
	const char **v;
	size_t n, cap;
};

void grub_fields_push(struct arena *a, struct grub_fields *f, const char *s);

/* Expand @word, appending its arguments to @out. No argument is longer
 * than @max bytes (longer ones are cut). Returns the number of bytes
 * produced, which the caller counts against its budget; *cut is set when
 * something was cut. */
size_t grub_expand_word(struct arena *a, const char *word, grub_lookup_fn look,
			void *data, size_t max, struct grub_fields *out,
			bool *cut);

/* @s with every `$name` and `${name}` replaced, nothing else changed
 * (blscfg's expand_val: BLS options are not grub script). */
char *grub_expand_refs(struct arena *a, const char *s, grub_lookup_fn look,
		       void *data, size_t max);

/* True when @c may appear in a variable name. */
bool grub_is_name_char(char c);

#endif
