/* crypttab.h - find a volume's line in a target's /etc/crypttab.
 *
 * crypttab(5): one volume a line, fields separated by spaces or tabs:
 * the volume's name, its source device, a key file (optional; "none" or
 * "-" for none) and comma-separated options (optional); '#' starts a
 * comment line. Pure: text in, one line's fields out. The bytes are the
 * target's (outside bytes): every field is bounded, an over-long line or
 * field is skipped, never cut.
 */
#ifndef BM_VOL_CRYPTTAB_H
#define BM_VOL_CRYPTTAB_H

#include <stddef.h>

#define CRYPTTAB_NAME_MAX 128	     /* a dm name: 127 bytes and the NUL */
#define CRYPTTAB_FIELD_MAX 256	     /* a source or key file path */
#define CRYPTTAB_OPTS_MAX 1024	     /* the options field */
#define CRYPTTAB_LINE_MAX 4096	     /* longer lines are skipped */
#define CRYPTTAB_TEXT_MAX (1u << 20) /* larger text: only its start is read */

struct crypttab_line {
	char name[CRYPTTAB_NAME_MAX];
	char source[CRYPTTAB_FIELD_MAX];
	char key[CRYPTTAB_FIELD_MAX]; /* "" when the field is absent */
	char opts[CRYPTTAB_OPTS_MAX]; /* "" when the field is absent */
	unsigned lineno;	      /* 1-based */
};

/* The first line of @text[0..len) whose source names the LUKS volume of
 * UUID @uuid: "UUID=<uuid>" or "/dev/disk/by-uuid/<uuid>", the UUID
 * compared case-insensitively (quotes around it are not crypttab's).
 * Returns 0 with @out filled, or -ENOENT when no line names it (lines
 * without a source, over-long lines and fields are passed over). */
int crypttab_find(const char *text, size_t len, const char *uuid,
		  struct crypttab_line *out);

/* The options of @opts (a crypttab options field) that may go on to
 * Debian's cryptroot through the kernel command line (cryptopts=), comma
 * separated into @out[0..cap): every option but keyscript=, tries=, the
 * key file's (keyfile-offset=, keyfile-size=, keyfile-timeout=, key-slot
 * stays), "luks" (the caller says it) and any option with a character
 * outside [A-Za-z0-9_=.:/-] (a space or comma would split the line).
 * Returns the length written; an option that does not fit is left out. */
size_t crypttab_pass_opts(const char *opts, char *out, size_t cap);

#endif
