/* savedef.h - the saved default and boot-once, written with care.
 *
 * Only when bootmenu.conf says save_default = yes. The value goes to the
 * filesystem conf.save_on names (else the first one with a grubenv):
 * into its grubenv as saved_entry when it has one (rewritten at its own
 * size, 1024 bytes for grub-editenv's, every other variable kept), else
 * into /bootmenu/default (the entry id on the first line, padded to one
 * 512-byte sector). The write: make that filesystem writable for just
 * this (scan/remount.h), write a temporary file, fsync, rename over,
 * fsync the directory, back to read-only and BLKROSET. Where no journal
 * is under the write (FAT, and an ext4 remounted from the scan's noload
 * mount), a rename is not atomic on disk (a power cut left a lost FAT
 * cluster, e2fsck errors on ext4): there a file that already has the new
 * size is rewritten in place and fsynced instead, allocating nothing;
 * only creating it goes through the rename. Never on a filesystem whose journal
 * needs recovery (or a FAT whose dirty bit is set), never on one that is not
 * the user's choice, only ext2/3/4 and vfat, never on a volume the scan
 * mapped (fs->volume: an LVM logical volume or md mirror, -EROFS). A --root
 * directory (no device) is written in place with the same steps and no mount
 * (the unit tests use that).
 *
 * The value for a grub entry inside a submenu is GRUB's path form,
 * "Submenu title>entry id", so GRUB itself boots the same entry with
 * `set default="${saved_entry}"`; every other entry is saved by its id.
 */
#ifndef BM_SAVEDEF_H
#define BM_SAVEDEF_H

#include <stdbool.h>
#include <stddef.h>

struct conf;
struct entry;
struct entry_list;
struct fs_root;
struct session;

#define SAVEDEF_STATE_DIR "/bootmenu"
#define SAVEDEF_STATE_NAME "default"
#define SAVEDEF_VALUE_MAX 1024 /* longest saved value (an id, a grub path) */
#define SAVEDEF_STATE_SIZE 512 /* the state file: one sector */

/* The saved default's id into @id ("" when none or not allowed): the id
 * of the entry in s->list the saved value names (choose_default() takes
 * it), or the value itself when no entry has it. Returns 0 or -errno
 * (not found is 0 with ""). */
int savedef_load(const struct session *s, const struct conf *c, char *id,
		 size_t len);
/* Save @e as the default. 0, or -errno with a sentence for the user in
 * err[0..errlen) ("saving a default is off in bootmenu.conf", ...); ""
 * on success.
 * When the target is still mounted by the scan (the menu), that mount is
 * remounted read-write; for ext4 this writes without the journal
 * (remount.h says why), so the file is rewritten in place when it
 * exists with the new size (always, for a grubenv and the state file). */
int savedef_save(struct session *s, const struct conf *c, const struct entry *e,
		 char *err, size_t errlen);
/* savedef_save() for a one-shot process (`bootmenu --save-default N`):
 * chooses the target, then unmounts every filesystem of the session
 * (session_unmount(): the entries' files cannot be read after it) so the
 * write gets a fresh mount of its own, with the ext4 journal. */
int savedef_save_detached(struct session *s, const struct conf *c,
			  const struct entry *e, char *err, size_t errlen);
/* `bootmenu --save-default N`: savedef_save_detached() with its outcome
 * printed (on stdout when saved, else the reason on stderr). Returns the
 * exit status: 0 saved, 1 not. */
int savedef_save_cli(struct session *s, const struct conf *c,
		     const struct entry *e);
/* Boot-once: grub's next_entry was honoured for this boot; clear it the
 * same careful way (only when allowed, and only when the target's grubenv
 * has a non-empty next_entry). 0 or -errno. */
int savedef_clear_once(struct session *s, const struct conf *c, char *err,
		       size_t errlen);

/* --- The parts without I/O, for the tests. */

/* The filesystem saving goes to: conf.save_on (LABEL=, UUID=, PARTUUID=,
 * PARTLABEL=, /dev/NAME, or a device name), else the first filesystem of
 * the session with a grubenv. NULL with a sentence when there is none.
 * @envpath (may be NULL) gets the grubenv's path on it, or NULL. */
const struct fs_root *savedef_target(const struct session *s,
				     const struct conf *c, const char **envpath,
				     char *err, size_t errlen);
/* The value saved for @e (see above) into @out. 0, or -ENAMETOOLONG. */
int savedef_value(const struct entry *e, char *out, size_t len);
/* The entry of @l that saved value @v names: by id, by "group>id" or
 * "group>title" (GRUB's path form), or by title. NULL when none. */
const struct entry *savedef_find(const struct entry_list *l, const char *v);

/* Set variable @name to @value in the grubenv block buf[0..len), in
 * place, keeping its size and every other line (a line with the same
 * name is replaced where it was; a new one goes after the others); '\'
 * and newlines in @value are escaped as GRUB does. Returns 0, -EINVAL
 * (no signature, a bad name), or -ENOSPC when the result does not fit
 * (@buf is then unchanged). */
int savedef_env_set(char *buf, size_t len, const char *name, const char *value);
/* The first value of @name in the block into @out ("" when absent).
 * Returns 1 found, 0 absent, -EINVAL no signature, -ENAMETOOLONG. */
int savedef_env_get(const char *buf, size_t len, const char *name, char *out,
		    size_t outlen);
/* The state file: "ID\n", padded with '#' to SAVEDEF_STATE_SIZE bytes
 * (the last one a newline), so it never changes size. format needs
 * SAVEDEF_STATE_SIZE + 1 bytes and returns SAVEDEF_STATE_SIZE, or -EINVAL
 * for an empty id or one with a newline, -ENAMETOOLONG; parse takes the
 * first line. */
int savedef_state_format(const char *id, char *out, size_t len);
int savedef_state_parse(const char *buf, size_t len, char *id, size_t idlen);

#endif
