/* mount.c - read-only mounts without journal replay.
 *
 * Options per type, from the kernel's filesystem documentation:
 * ext3/ext4 "noload" (do not load the journal), xfs "norecovery",
 * btrfs "rescue=nologreplay" (5.9+; "norecovery" before) with
 * "subvolid=5", the top level, where GRUB starts its paths (scan_worker.c
 * then finds the default subvolume inside it), f2fs
 * "norecovery"; vfat gets a codepage and UTF-8 names; iso9660 uses Rock
 * Ridge and Joliet by default. ext2/ext3 fall back to the ext4 driver,
 * which serves them when the kernel has no ext2/ext3 of its own.
 */
#include "scan/mount.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#define MOUNT_FLAGS (MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_SILENT)
#define MOUNT_TRIES 4
#define MOUNTINFO_LINE 4096

struct mount_type {
	const char *type;		 /* blkid's TYPE */
	const char *kernel[MOUNT_TRIES]; /* mount(2) types, in order */
	const char *opts[MOUNT_TRIES];	 /* option strings, in order */
};

static const struct mount_type mount_types[] = {
    {"ext4", {"ext4"}, {"noload"}},
    {"ext3", {"ext3", "ext4"}, {"noload"}},
    {"ext2", {"ext2", "ext4"}, {""}},
    {"xfs", {"xfs"}, {"norecovery"}},
    {"btrfs",
     {"btrfs"},
     {"rescue=nologreplay,subvolid=5", "norecovery,subvolid=5"}},
    {"f2fs", {"f2fs"}, {"norecovery"}},
    {"vfat",
     {"vfat"},
     {"utf8,codepage=437,iocharset=iso8859-1", "utf8,codepage=437", ""}},
    {"iso9660", {"iso9660"}, {""}},
    {"udf", {"udf"}, {""}},
    {"squashfs", {"squashfs"}, {""}},
    {"erofs", {"erofs"}, {""}},
};

static const struct mount_type *find_type(const char *fstype)
{
	for (size_t i = 0;
	     fstype && i < sizeof(mount_types) / sizeof(mount_types[0]); i++)
		if (!strcmp(mount_types[i].type, fstype))
			return &mount_types[i];
	return NULL;
}

bool mount_supported(const char *fstype)
{
	return find_type(fstype) != NULL;
}

const char *const *mount_options(const char *fstype)
{
	const struct mount_type *t = find_type(fstype);

	return t ? t->opts : NULL;
}

const char *const *mount_kernel_types(const char *fstype)
{
	const struct mount_type *t = find_type(fstype);

	return t ? t->kernel : NULL;
}

/* BLKROSET: from here on the block layer refuses every write to the
 * device, whatever a filesystem driver decides. */
static int set_blk_ro(const char *devnode)
{
	int fd = open(devnode, O_RDONLY | O_CLOEXEC | O_NONBLOCK), one = 1,
	    rc = 0;

	if (fd < 0)
		return -errno;
	if (ioctl(fd, BLKROSET, &one) < 0)
		rc = -errno;
	close(fd);
	return rc;
}

static int make_dir(const char *path)
{
	char p[512];

	if (strlen(path) >= sizeof(p))
		return -ENAMETOOLONG;
	strcpy(p, path);
	for (char *s = strchr(p + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		if (mkdir(p, 0700) < 0 && errno != EEXIST)
			return -errno;
		*s = '/';
	}
	if (mkdir(p, 0700) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

static int try_mounts(const struct mount_type *t, const char *devnode,
		      const char *target, char *detail)
{
	int rc = -ENODEV;

	for (int k = 0; k < MOUNT_TRIES && t->kernel[k]; k++) {
		for (int o = 0; o < MOUNT_TRIES && t->opts[o]; o++) {
			if (mount(devnode, target, t->kernel[k], MOUNT_FLAGS,
				  t->opts[o]) == 0) {
				snprintf(detail, MOUNT_DETAIL_MAX, "%s %s",
					 t->kernel[k],
					 *t->opts[o] ? t->opts[o]
						     : "(no options)");
				return 0;
			}
			rc = -errno;
			snprintf(detail, MOUNT_DETAIL_MAX, "mount %s -o %s: %s",
				 t->kernel[k],
				 *t->opts[o] ? t->opts[o] : "(none)",
				 strerror(-rc));
			/* only a refused option or type is worth another try */
			if (rc != -EINVAL && rc != -ENODEV)
				return rc;
			if (rc == -ENODEV)
				break;
		}
	}
	return rc;
}

int mount_fs(const char *devnode, const char *fstype, const char *target,
	     bool set_ro, char *detail)
{
	const struct mount_type *t = find_type(fstype);
	int rc;

	detail[0] = '\0';
	if (!t) {
		snprintf(detail, MOUNT_DETAIL_MAX, "no support for %s",
			 fstype ? fstype : "?");
		return -EPROTONOSUPPORT;
	}
	if (set_ro) {
		rc = set_blk_ro(devnode);
		if (rc < 0 && rc != -ENOTTY) {
			snprintf(detail, MOUNT_DETAIL_MAX, "BLKROSET: %s",
				 strerror(-rc));
			return rc;
		}
	}
	rc = make_dir(target);
	if (rc < 0) {
		snprintf(detail, MOUNT_DETAIL_MAX, "mkdir %s: %s", target,
			 strerror(-rc));
		return rc;
	}
	rc = try_mounts(t, devnode, target, detail);
	if (rc < 0)
		rmdir(target);
	return rc;
}

static bool has_dir(int dirfd, const char *sub, const char *name)
{
	char p[MOUNT_DETAIL_MAX];
	struct stat st;

	snprintf(p, sizeof(p), "%s%s%s", sub, *sub ? "/" : "", name);
	return fstatat(dirfd, p, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	       S_ISDIR(st.st_mode);
}

void mount_pick_root(int mnt_fd, const char *fstype, char *out)
{
	/* Ubuntu/Debian installers: @ (and @/boot inside it); some: @rootfs;
	 * Fedora: root. Subvolumes show as directories of the top level. */
	static const char *const layouts[] = {"@", "@rootfs", "root"};

	out[0] = '\0';
	if (!fstype || strcmp(fstype, "btrfs") || has_dir(mnt_fd, "", "boot"))
		return;
	for (size_t i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++) {
		if (has_dir(mnt_fd, layouts[i], "boot")) {
			snprintf(out, MOUNT_DETAIL_MAX, "%s", layouts[i]);
			return;
		}
	}
}

int mount_release(const char *target, bool lazy)
{
	int rc = 0;

	if (lazy || umount2(target, 0) < 0) {
		if (!lazy && errno != EBUSY)
			rc = -errno;
		else if (umount2(target, MNT_DETACH) < 0)
			rc = -errno;
	}
	rmdir(target); /* may still be busy: harmless */
	return rc;
}

/* mountinfo(5) escapes space, tab, newline and backslash as \ooo. */
static void unescape(char *s)
{
	char *d = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '7' && s[2] &&
		    s[3]) {
			*d++ = (char)(((s[1] - '0') << 6) |
				      ((s[2] - '0') << 3) | (s[3] - '0'));
			s += 3;
		} else {
			*d++ = *s;
		}
	}
	*d = '\0';
}

int mount_cleanup(const char *base)
{
	char line[MOUNTINFO_LINE], mp[MOUNTINFO_LINE];
	size_t blen = strlen(base);
	FILE *f = fopen("/proc/self/mountinfo", "re");
	int n = 0;

	if (!f)
		return -errno;
	/* innermost last in mountinfo order; MNT_DETACH takes submounts too */
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*s %*s %*s %*s %4095s", mp) != 1)
			continue;
		unescape(mp);
		if (strncmp(mp, base, blen) || mp[blen] != '/')
			continue;
		if (umount2(mp, MNT_DETACH) == 0)
			n++;
	}
	fclose(f);
	return n;
}
