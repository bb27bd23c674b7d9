/* hand_on.h - the boot transaction's hand-on step (issue #33, "Type it
 * once"): the passphrase of a LUKS volume bootmenu unlocked goes on to the
 * booted kernel's initramfs, so the target does not ask for it again.
 *
 * Off unless bootmenu.conf says `luks_pass_key = yes` (or patterns naming
 * the entry). Which volumes: those bootmenu unlocked ("luks-<uuid>")
 * that hold the entry's filesystem or its kernel's: the filesystem is on
 * the volume itself, or on an LVM logical volume or md mirror one of
 * whose members is (the session answers, struct boot_key). What goes: a newc
 * cpio archive, appended after every other initrd and never measured, with for
 * each volume
 * - etc/cryptsetup-keys.d/luks-<uuid>.key, systemd-cryptsetup's key for a
 *   volume of that name (what rd.luks.uuid= makes), and
 * - etc/cryptsetup-keys.d/<name>.key, <name> the volume's name in the
 *   entry's etc/crypttab (a line whose source is UUID=<uuid> or
 *   /dev/disk/by-uuid/<uuid>), when there is one;
 * each mode 0400 holding the passphrase's bytes as typed (no newline).
 * Debian's initramfs-tools reads no such directory: when the entry's
 * filesystem has its cryptroot script and crypttab names the volume, the
 * command line gets "cryptopts=target=<name>,source=UUID=<uuid>,
 * key=/etc/cryptsetup-keys.d/<name>.key,luks" and the line's options that
 * can be passed (vol/crypttab.h). A dry run prints the file names and
 * the words added, never a key's bytes. Every buffer that held a key is
 * wiped (explicit_bzero) before it is freed.
 */
#ifndef BM_BOOT_HAND_ON_H
#define BM_BOOT_HAND_ON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "format/cpio.h"

struct entry;
struct kexec_blob;

#define BOOT_HAND_ON_DIR "etc/cryptsetup-keys.d"
/* Debian's initramfs-tools script that reads cryptopts= (cryptsetup-
 * initramfs): its presence on the entry's filesystem says the target's
 * initramfs is made by it. */
#define BOOT_HAND_ON_DEBIAN                                                    \
	"usr/share/initramfs-tools/scripts/local-top/cryptroot"
#define BOOT_HAND_ON_VOLS_MAX 8	  /* volumes one entry hands on */
#define BOOT_HAND_ON_KEY_MAX 1024 /* longest passphrase handed on */
#define BOOT_HAND_ON_CRYPTTAB_MAX (64u << 10)

/* A key the session kept, for the volume of that name ("luks-<uuid>"):
 * @key[0..len) is the session's, valid during the step. */
#define BOOT_KEY_VOLUME_MAX 64
struct boot_key {
	char volume[BOOT_KEY_VOLUME_MAX];
	const void *key;
	size_t len;
};

/* One boot's hand-on step: boot_run() fills it from boot_opts (pass_key,
 * keys_of, session), hands it to boot_hand_on_step() as
 * boot_opts.hand_on_ctx, then boot_hand_on_free(). */
struct boot_hand_on {
	const char *pattern; /* luks_pass_key (conf_pass_key()); "": off */
	/* The keys kept for the volumes that hold the filesystem named
	 * @fs_name (struct fs_root's name), at most @max into @out: how
	 * many. boot_opts.keys_of. */
	size_t (*keys_of)(void *ctx, const char *fs_name, struct boot_key *out,
			  size_t max);
	void *ctx;
	/* the step's own: the archive handed on; how many volumes went */
	struct cpio cpio;
	size_t handed;
};

/* The boot_opts.hand_on hook (boot.h): @ctx is a struct boot_hand_on.
 * For entry @e, sets *archive to the archive above (the step's memory,
 * valid until boot_hand_on_free()) and cmd_add[0..cmd_len) to the words
 * for the command line ("" when none), or leaves both empty when nothing
 * is handed on. @dry: a dry run's plan, where what would go is printed
 * (NULL: a real boot). Returns 0, or -errno with a sentence in
 * err[0..len) (out of memory). */
int boot_hand_on_step(void *ctx, const struct entry *e, FILE *dry,
		      struct kexec_blob *archive, char *cmd_add, size_t cmd_len,
		      char *err, size_t len);

/* Wipe and free the archive. */
void boot_hand_on_free(struct boot_hand_on *h);

#endif
