/* file.c - the installer's writes to the ESP (install_int.h): every path
 * is relative to the ESP's root directory fd, and a file is written whole
 * to a temporary name, fsync'd, renamed over its place, and the directory
 * fsync'd, so a power cut leaves the old file or the new one. */
#include "install/install_int.h"
#include "util/file.h"
#include "util/say.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#define TMP_SUFFIX ".bootmenu-tmp"

void inst_say(struct inst *in, const char *verb, const char *path,
	      const char *more)
{
	char head[16];

	snprintf(head, sizeof(head), "%s:", verb);
	fprintf(in->out, "%-9s %s%s\n", head, path, more ? more : "");
	fflush(in->out);
}

/* fsync the directory holding @path, then the whole filesystem, so a
 * rename in it lasts. On FAT the fsync alone is not enough: a renamed
 * file's size and first cluster live in its new directory entry, which
 * Linux writes only with the file's inode, and a power cut right after
 * an install that had returned left EFI/BOOT/BOOTX64.EFI and
 * EFI/bootmenu/bootmenu.efi 0 bytes long and the record unrenamed
 * (tests/e2e/test_powercut.py). syncfs() writes every dirty inode and
 * buffer of the ESP. */
static int file_sync_dir(struct inst *in, const char *path)
{
	char dir[REC_PATH_MAX];
	const char *slash = strrchr(path, '/');
	int fd, rc;

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) : 1,
		 slash ? path : ".");
	fd = openat(in->espfd, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	rc = fsync(fd) < 0 && errno != EINVAL ? -errno : 0;
	if (rc == 0 && syncfs(fd) < 0)
		rc = -errno;
	close(fd);
	return rc;
}

static int file_write_tmp(struct inst *in, const char *tmp, const void *buf,
			  size_t len)
{
	int fd = openat(in->espfd, tmp,
			O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	const char *p = buf;
	int rc = 0;

	if (fd < 0)
		return -errno;
	while (len && rc == 0) {
		ssize_t w = write(fd, p, len);

		if (w < 0 && errno != EINTR)
			rc = -errno;
		else if (w > 0)
			p += w, len -= (size_t)w;
	}
	if (rc == 0 && fsync(fd) < 0)
		rc = -errno;
	if (close(fd) < 0 && rc == 0)
		rc = -errno;
	return rc;
}

int file_put(struct inst *in, const char *path, const char *keep,
	     const void *buf, size_t len)
{
	char tmp[REC_PATH_MAX + sizeof(TMP_SUFFIX)];
	int rc;

	snprintf(tmp, sizeof(tmp), "%s%s", path, TMP_SUFFIX);
	rc = file_write_tmp(in, tmp, buf, len);
	/* the old file moves aside only once the new one is whole */
	if (rc == 0 && keep && renameat(in->espfd, path, in->espfd, keep) < 0)
		rc = -errno;
	if (rc == 0 && renameat(in->espfd, tmp, in->espfd, path) < 0) {
		rc = -errno;
		if (keep)
			renameat(in->espfd, keep, in->espfd, path);
	}
	if (rc < 0) {
		unlinkat(in->espfd, tmp, 0);
		return say(in->err, in->errlen, rc, "cannot write %s/%s: %s",
			   in->esp, path, strerror(-rc));
	}
	return file_sync_dir(in, path);
}

ssize_t file_get(struct inst *in, const char *path, char *buf, size_t cap)
{
	int fd = openat(in->espfd, path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = util_read_full(fd, buf, cap);
	close(fd);
	if (n >= 0 && (size_t)n == cap)
		n = -EFBIG;
	if (n >= 0)
		buf[n] = '\0';
	return n;
}

bool file_exists(struct inst *in, const char *path)
{
	struct stat st;

	return fstatat(in->espfd, path, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

int file_mkdir(struct inst *in, const char *path)
{
	return mkdirat(in->espfd, path, 0755) < 0 ? -errno : 0;
}

int file_rename(struct inst *in, const char *from, const char *to)
{
	if (renameat(in->espfd, from, in->espfd, to) < 0)
		return -errno;
	return file_sync_dir(in, to);
}

/* extlinux makes ldlinux.sys immutable on ext2/3/4 (chattr +i), so
 * nothing moves the sectors its boot sector points at. */
static void file_mutable(struct inst *in, const char *path)
{
	int fd = openat(in->espfd, path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	int flags;

	if (fd < 0)
		return;
	if (ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0 &&
	    (flags & FS_IMMUTABLE_FL)) {
		flags &= ~FS_IMMUTABLE_FL;
		ioctl(fd, FS_IOC_SETFLAGS, &flags);
	}
	close(fd);
}

int file_unlink(struct inst *in, const char *path)
{
	if (unlinkat(in->espfd, path, 0) == 0)
		return 0;
	if (errno != EPERM)
		return -errno;
	file_mutable(in, path);
	return unlinkat(in->espfd, path, 0) < 0 ? -errno : 0;
}

int file_rmdir(struct inst *in, const char *path)
{
	return unlinkat(in->espfd, path, AT_REMOVEDIR) < 0 ? -errno : 0;
}

int file_room(struct inst *in, uint64_t need)
{
	struct statvfs sv;
	uint64_t have;

	if (fstatvfs(in->espfd, &sv) < 0)
		return say(in->err, in->errlen, -errno, "cannot stat %s: %s",
			   in->esp, strerror(errno));
	if (sv.f_flag & ST_RDONLY)
		return say(in->err, in->errlen, -EROFS,
			   "%s is mounted read-only: remount it read-write "
			   "(mount -o remount,rw %s) and run this again",
			   in->esp, in->esp);
	if (faccessat(in->espfd, ".", W_OK, 0) < 0)
		return say(in->err, in->errlen, -EACCES,
			   "%s cannot be written by this user: run this as "
			   "root",
			   in->esp);
	have = (uint64_t)sv.f_bavail * sv.f_frsize;
	if (have < need)
		return say(in->err, in->errlen, -ENOSPC,
			   "%s has %llu KiB free and this needs %llu KiB: "
			   "make room on it (old kernels or loaders) and run "
			   "this again",
			   in->esp, (unsigned long long)(have / 1024),
			   (unsigned long long)((need + 1023) / 1024));
	return 0;
}
