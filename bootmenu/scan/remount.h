/* remount.h - one filesystem made writable for one small write, and back.
 *
 * The scan mounts everything read-only with no journal replay and sets
 * each block device read-only (BLKROSET). For the saved default
 * (savedef.h) one filesystem is made writable for a moment:
 *
 *	struct remount rw;
 *	remount_rw(&rw, "/dev/vda2", "ext4", scan_mountpoint, err, len);
 *	... write below rw.dir ...
 *	remount_ro(&rw, err, len);
 *
 * How (Linux 6.1, checked in QEMU):
 * - When the filesystem is still mounted at @mountpoint (the menu's scan
 *   holds it), a second mount of the same device is refused (EBUSY: the
 *   kernel shares one superblock per device and will not change its
 *   read-only state from a new mount), so the scan's mount is remounted
 *   read-write (MS_REMOUNT). For ext4 that mount was made with `noload`,
 *   and ext4 loads a journal only when it mounts, so those writes go
 *   without the journal (savedef.c then overwrites in place rather than
 *   renaming: nothing is allocated, no bitmap changes).
 * - When it is not mounted (the caller unmounted it, as
 *   `bootmenu --save-default` does), a fresh mount of our own is made at
 *   REMOUNT_DIR without `noload`: ext4 then loads its journal (empty: a
 *   journal that needs recovery is refused before), so every metadata
 *   change of the write is journalled and a power cut cannot tear it.
 * Both are mounted MS_SYNCHRONOUS | MS_DIRSYNC while writable, so the
 * steps of the write reach the disk in their order.
 */
#ifndef BM_REMOUNT_H
#define BM_REMOUNT_H

#include <stdbool.h>
#include <stddef.h>

#define REMOUNT_DIR "/run/bootmenu-rw"
#define REMOUNT_PATH_MAX 512

struct remount {
	char devnode[REMOUNT_PATH_MAX];
	char fstype[16];
	char dir[REMOUNT_PATH_MAX]; /* where the writable filesystem is */
	bool fresh;		    /* our own mount at dir (else a remount) */
	bool active;		    /* writable now: remount_ro() undoes it */
};

/* True when @fstype is one remount_rw() writes (ext4, ext3, ext2, vfat). */
bool remount_supported(const char *fstype);

/* Read @devnode's superblock and refuse what must not be written: an
 * ext2/3/4 whose journal needs recovery (incompat RECOVER) or that has
 * errors recorded, a FAT whose dirty bit says it was not cleanly
 * unmounted, a superblock that is not @fstype's. 0, or -errno with a
 * sentence in err[0..errlen). Reads only. */
int remount_check(const char *devnode, const char *fstype, char *err,
		  size_t errlen);

/* remount_check(), clear BLKROSET, then a read-write mount as above.
 * 0 with @r->dir writable, or -errno with a sentence; on failure the
 * device and its mount are read-only again. */
int remount_rw(struct remount *r, const char *devnode, const char *fstype,
	       const char *mountpoint, char *err, size_t errlen);

/* Back to read-only: sync, remount read-only (or unmount the fresh
 * mount), BLKROSET again. Safe to call when nothing is active. 0, or the
 * first -errno with a sentence (every step is still tried). */
int remount_ro(struct remount *r, char *err, size_t errlen);

/* The superblock tests behind remount_check(), on bytes already read:
 * @sb is the 512 bytes at offset 1024 (ext) or the first 512 (FAT).
 * 0, or -EUCLEAN (recovery needed / dirty / errors), -EINVAL (not that
 * filesystem), with a sentence. For the unit tests. */
int remount_check_ext(const unsigned char *sb, char *err, size_t errlen);
int remount_check_fat(const unsigned char *bs, char *err, size_t errlen);

#endif
