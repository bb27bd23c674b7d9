/* savedef.h - the saved default and boot-once, written with care.
 *
 * Only when bootmenu.conf says save_default = yes. The value goes to the
 * filesystem conf.save_on names (else the first one with a grubenv):
 * into its grubenv as saved_entry when it has one (rewritten at its own
 * size, 1024 bytes for grub-editenv's), else into /bootmenu/default (one
 * line: the entry id). The write: remount that filesystem read-write for
 * just this, write a temporary file, fsync, rename over, fsync the
 * directory, remount read-only. Never on a filesystem whose journal
 * needed recovery, never on one that is not the user's choice.
 */
#ifndef BM_SAVEDEF_H
#define BM_SAVEDEF_H

#include <stddef.h>

struct conf;
struct entry;
struct session;

/* The saved default's id into @id ("" when none or not allowed).
 * Returns 0 or -errno (not found is 0 with ""). */
int savedef_load(const struct session *s, const struct conf *c, char *id,
		 size_t len);
/* Save @e as the default. 0, or -errno with a sentence for the user in
 * err[0..errlen) ("saving a default is off in bootmenu.conf", ...). */
int savedef_save(struct session *s, const struct conf *c,
		 const struct entry *e, char *err, size_t errlen);
/* Boot-once: grub's next_entry was honoured for this boot; clear it the
 * same careful way (only when allowed). 0 or -errno. */
int savedef_clear_once(struct session *s, const struct conf *c, char *err,
		       size_t errlen);

#endif
