/* remount.c - a filesystem writable for one small write, then read-only
 * again (remount.h says why a remount here and a fresh mount there). */
#include "scan/remount.h"
#include "util/le.h"

#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#define RW_FLAGS                                                               \
	(MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_SILENT | MS_SYNCHRONOUS |       \
	 MS_DIRSYNC)
#define RO_FLAGS (MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_SILENT)

/* ext2/3/4 superblock (Documentation/filesystems/ext4/super.rst) */
#define EXT_SB_OFF 1024
#define EXT_MAGIC 0xEF53
#define EXT_STATE_ERROR 0x0002
#define EXT_INCOMPAT_RECOVER 0x0004
/* FAT boot sector: the "state" byte Linux keeps its dirty bit in
 * (include/uapi/linux/msdos_fs.h, struct fat_boot_sector) */
#define FAT_STATE_FAT16 37
#define FAT_STATE_FAT32 65
#define FAT_STATE_DIRTY 0x01

/* Fields of a superblock buffer of REMOUNT_SB_LEN bytes. */
#define REMOUNT_SB_LEN 512u
static unsigned sb16(const unsigned char *b, size_t off)
{
	uint16_t v = 0;

	get_le16(b, REMOUNT_SB_LEN, off, &v);
	return v;
}

static uint32_t sb32(const unsigned char *b, size_t off)
{
	uint32_t v = 0;

	get_le32(b, REMOUNT_SB_LEN, off, &v);
	return v;
}

static const char *const remount_types[] = {"ext4", "ext3", "ext2", "vfat"};

bool remount_supported(const char *fstype)
{
	for (size_t i = 0;
	     fstype && i < sizeof(remount_types) / sizeof(remount_types[0]);
	     i++)
		if (!strcmp(fstype, remount_types[i]))
			return true;
	return false;
}

static bool is_ext(const char *fstype)
{
	return !strncmp(fstype, "ext", 3);
}

int remount_check_ext(const unsigned char *sb, char *err, size_t errlen)
{
	if (sb16(sb, 0x38) != EXT_MAGIC) {
		snprintf(err, errlen, "no ext2/3/4 superblock");
		return -EINVAL;
	}
	if (sb32(sb, 0x60) & EXT_INCOMPAT_RECOVER) {
		snprintf(err, errlen,
			 "its journal needs recovery (it was not "
			 "cleanly unmounted): not written; boot the system "
			 "that owns it, or run e2fsck");
		return -EUCLEAN;
	}
	if (sb16(sb, 0x3a) & EXT_STATE_ERROR) {
		snprintf(err, errlen,
			 "it has errors recorded: not written; "
			 "run e2fsck");
		return -EUCLEAN;
	}
	return 0;
}

int remount_check_fat(const unsigned char *bs, char *err, size_t errlen)
{
	bool fat32;

	if (bs[510] != 0x55 || bs[511] != 0xAA || sb16(bs, 11) < 512) {
		snprintf(err, errlen, "no FAT boot sector");
		return -EINVAL;
	}
	fat32 = sb16(bs, 22) == 0; /* sectors per FAT16: 0 on FAT32 */
	if (bs[fat32 ? FAT_STATE_FAT32 : FAT_STATE_FAT16] & FAT_STATE_DIRTY) {
		snprintf(err, errlen,
			 "it was not cleanly unmounted (FAT dirty "
			 "bit): not written; run fsck.vfat");
		return -EUCLEAN;
	}
	return 0;
}

int remount_check(const char *devnode, const char *fstype, char *err,
		  size_t errlen)
{
	unsigned char b[REMOUNT_SB_LEN];
	off_t off = is_ext(fstype) ? EXT_SB_OFF : 0;
	int fd, rc;
	ssize_t n;

	if (!remount_supported(fstype)) {
		snprintf(err, errlen,
			 "%s filesystems are not written (ext4 and "
			 "vfat are)",
			 fstype ? fstype : "unknown");
		return -EOPNOTSUPP;
	}
	fd = open(devnode, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "cannot open %s: %s", devnode,
			 strerror(errno));
		return rc;
	}
	n = pread(fd, b, sizeof(b), off);
	rc = n < 0 ? -errno : 0;
	close(fd);
	if (n != (ssize_t)sizeof(b)) {
		snprintf(err, errlen, "cannot read the superblock of %s: %s",
			 devnode, rc ? strerror(-rc) : "short read");
		return rc ? rc : -EIO;
	}
	return is_ext(fstype) ? remount_check_ext(b, err, errlen)
			      : remount_check_fat(b, err, errlen);
}

/* BLKROSET: 0 lets the block layer pass writes again, 1 refuses them. */
static int set_blk_ro(const char *devnode, int ro)
{
	int fd = open(devnode, O_RDONLY | O_CLOEXEC | O_NONBLOCK), rc = 0;

	if (fd < 0)
		return -errno;
	if (ioctl(fd, BLKROSET, &ro) < 0)
		rc = -errno;
	close(fd);
	return rc == -ENOTTY ? 0 : rc; /* a regular file (tests) has none */
}

/* Is @mountpoint the root of a mount of @devnode? */
static bool mounted_at(const char *devnode, const char *mountpoint)
{
	struct stat dev, mp;

	return mountpoint && stat(devnode, &dev) == 0 && S_ISBLK(dev.st_mode) &&
	       stat(mountpoint, &mp) == 0 && mp.st_dev == dev.st_rdev;
}

static int fresh_mount(struct remount *r, char *err, size_t errlen)
{
	/* ext3/ext2 go through the ext4 driver too (CONFIG_EXT4_USE_FOR_EXT2)
	 */
	const char *type = is_ext(r->fstype) ? "ext4" : "vfat";
	const char *opts =
	    is_ext(r->fstype) ? "" : "utf8,codepage=437,iocharset=iso8859-1";
	int rc;

	snprintf(r->dir, sizeof(r->dir), "%s", REMOUNT_DIR);
	/* a mount a killed bootmenu left here would be written instead */
	umount2(r->dir, MNT_DETACH);
	if (mkdir(r->dir, 0700) < 0 && errno != EEXIST) {
		rc = -errno;
		snprintf(err, errlen, "mkdir %s: %s", r->dir, strerror(errno));
		return rc;
	}
	if (mount(r->devnode, r->dir, type, RW_FLAGS, opts) < 0 &&
	    (is_ext(r->fstype) ||
	     mount(r->devnode, r->dir, type, RW_FLAGS, "") < 0)) {
		rc = -errno;
		snprintf(err, errlen, "cannot mount %s read-write: %s",
			 r->devnode, strerror(errno));
		rmdir(r->dir);
		return rc;
	}
	r->fresh = true;
	return 0;
}

int remount_rw(struct remount *r, const char *devnode, const char *fstype,
	       const char *mountpoint, char *err, size_t errlen)
{
	int rc;

	memset(r, 0, sizeof(*r));
	if (snprintf(r->devnode, sizeof(r->devnode), "%s", devnode) >=
		(int)sizeof(r->devnode) ||
	    snprintf(r->fstype, sizeof(r->fstype), "%s",
		     fstype ? fstype : "") >= (int)sizeof(r->fstype)) {
		snprintf(err, errlen, "device name too long");
		return -ENAMETOOLONG;
	}
	rc = remount_check(devnode, fstype, err, errlen);
	if (rc < 0)
		return rc;
	rc = set_blk_ro(devnode, 0);
	if (rc < 0) {
		snprintf(err, errlen, "cannot make %s writable (BLKROSET): %s",
			 devnode, strerror(-rc));
		return rc;
	}
	if (mounted_at(devnode, mountpoint)) {
		snprintf(r->dir, sizeof(r->dir), "%s", mountpoint);
		if (mount(NULL, r->dir, NULL, MS_REMOUNT | RW_FLAGS, NULL) <
		    0) {
			rc = -errno;
			snprintf(err, errlen,
				 "cannot remount %s read-write: %s", devnode,
				 strerror(errno));
		}
	} else {
		rc = fresh_mount(r, err, errlen);
	}
	if (rc < 0) {
		set_blk_ro(devnode, 1);
		return rc;
	}
	r->active = true;
	return 0;
}

static void first_error(int *rc, int e, char *err, size_t errlen,
			const char *what, const char *dev)
{
	if (*rc)
		return;
	*rc = e;
	snprintf(err, errlen,
		 "%s %s: %s (the block device is set read-only "
		 "anyway)",
		 what, dev, strerror(-e));
}

int remount_ro(struct remount *r, char *err, size_t errlen)
{
	int rc = 0, e;

	if (!r->active)
		return 0;
	r->active = false;
	sync();
	if (r->fresh) {
		if (umount2(r->dir, 0) < 0 && umount2(r->dir, MNT_DETACH) < 0)
			first_error(&rc, -errno, err, errlen, "cannot unmount",
				    r->devnode);
		rmdir(r->dir);
	} else if (mount(NULL, r->dir, NULL, MS_REMOUNT | RO_FLAGS, NULL) < 0) {
		/* a writer we do not know of: one more sync, one more try */
		sync();
		if (mount(NULL, r->dir, NULL, MS_REMOUNT | RO_FLAGS, NULL) < 0)
			first_error(&rc, -errno, err, errlen,
				    "cannot remount read-only", r->devnode);
	}
	e = set_blk_ro(r->devnode, 1);
	if (e < 0)
		first_error(&rc, e, err, errlen,
			    "cannot set read-only (BLKROSET)", r->devnode);
	return rc;
}
