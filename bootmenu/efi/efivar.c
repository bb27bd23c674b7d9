/* efivar.c - EFI variables through efivarfs (efivar.h). Kernel 6.1
 * fs/efivarfs: file.c writes the whole variable per write(2) and ignores
 * the offset; inode.c creates every variable that is not well-known
 * (efivar_variable_is_removable()) with S_IMMUTABLE, and its fileattr
 * hooks let FS_IOC_SETFLAGS change only FS_IMMUTABLE_FL. */
#include "efi/efivar.h"
#include "util/file.h"
#include "efi/guid.h"
#include "efi/loadopt.h"
#include "util/le.h"
#include "util/say.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/vfs.h>
#include <unistd.h>

#ifndef EFIVARFS_MAGIC
#define EFIVARFS_MAGIC 0xde5e81e4 /* linux/magic.h */
#endif

static const char *efi_dir(const struct efi_vars *v)
{
	return v && v->dir ? v->dir : EFI_VARS_DIR;
}

int efi_var_file(const struct efi_vars *v, const char *name, const char *guid,
		 char *out, size_t len)
{
	uint8_t g[EFI_GUID_SIZE];
	char text[EFI_GUID_TEXT];
	int n;

	if (!name || !name[0] || efi_guid_parse(guid, g) < 0)
		return -EINVAL;
	/* efivarfs turns each byte of the name into one CHAR16 */
	for (const char *c = name; *c; c++)
		if (*c <= ' ' || *c > '~' || *c == '/')
			return -EINVAL;
	if (strlen(name) > EFI_VAR_NAME_MAX)
		return -ENAMETOOLONG;
	efi_guid_format(g, text);
	n = snprintf(out, len, "%s/%s-%s", efi_dir(v), name, text);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* --- The immutable flag */

static int efi_flags(const struct efi_vars *v, int fd, unsigned long req,
		     int *flags)
{
	if (v && v->flags_ioctl)
		return v->flags_ioctl(fd, req, flags, v->ctx);
	return ioctl(fd, req, flags) < 0 ? -errno : 0;
}

/* Clear FS_IMMUTABLE_FL on @fd; *saved gets the flags to put back, or -1
 * when nothing was cleared. A filesystem without the ioctls (a test
 * directory) has nothing to clear. */
static int efi_unlock(const struct efi_vars *v, int fd, int *saved)
{
	int flags = 0, cleared, rc;

	*saved = -1;
	rc = efi_flags(v, fd, FS_IOC_GETFLAGS, &flags);
	if (rc == -ENOTTY || rc == -EOPNOTSUPP || rc == -ENOSYS ||
	    rc == -EINVAL)
		return 0;
	if (rc < 0 || !(flags & FS_IMMUTABLE_FL))
		return rc;
	cleared = flags & ~FS_IMMUTABLE_FL;
	rc = efi_flags(v, fd, FS_IOC_SETFLAGS, &cleared);
	if (rc < 0)
		return rc;
	*saved = flags;
	return 0;
}

static void efi_relock(const struct efi_vars *v, int fd, int saved)
{
	if (saved >= 0)
		efi_flags(v, fd, FS_IOC_SETFLAGS, &saved);
}

/* --- Reading */

/* The whole file: attributes and data, one byte more than fits so that
 * "too large" shows. efivarfs fetches the variable anew on each read(2),
 * so the buffer is made large enough to take it in one. */
static ssize_t efi_var_slurp(const char *path, uint8_t **out, size_t cap)
{
	uint8_t *tmp = malloc(EFI_VAR_ATTR_SIZE + cap + 1);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0 || !tmp) {
		n = fd < 0 ? -errno : -ENOMEM;
		free(tmp);
		if (fd >= 0)
			close(fd);
		return n;
	}
	n = util_read_full(fd, tmp, EFI_VAR_ATTR_SIZE + cap + 1);
	close(fd);
	*out = tmp;
	return n;
}

/* efi_var_file() with the sentence for a bad name; "" in @err else. */
static int efi_var_path(const struct efi_vars *v, const char *name,
			const char *guid, char *path, size_t len, char *err,
			size_t errlen)
{
	say(err, errlen, 0, "%s", "");
	if (efi_var_file(v, name, guid, path, len) < 0)
		return say(err, errlen, -EINVAL,
			   "\"%s\" is not an EFI variable name",
			   name ? name : "");
	return 0;
}

int efi_var_read(const struct efi_vars *v, const char *name, const char *guid,
		 uint32_t *attrs, uint8_t *buf, size_t cap, size_t *len,
		 char *err, size_t errlen)
{
	char path[4096];
	uint8_t *tmp = NULL;
	ssize_t n;

	*len = 0;
	if (efi_var_path(v, name, guid, path, sizeof(path), err, errlen) < 0)
		return -EINVAL;
	cap = cap < EFI_VAR_DATA_MAX ? cap : EFI_VAR_DATA_MAX;
	n = efi_var_slurp(path, &tmp, cap);
	if (n == 0)
		n = -ENOENT; /* efivarfs: created, never written */
	else if (n > 0 && n < EFI_VAR_ATTR_SIZE)
		n = -EIO;
	else if (n > (ssize_t)(EFI_VAR_ATTR_SIZE + cap))
		n = -EFBIG;
	if (n < 0) {
		free(tmp);
		return say(err, errlen, (int)n,
			   "cannot read EFI variable %s: %s", name,
			   strerror((int)-n));
	}
	get_le32(tmp, (size_t)n, 0, attrs);
	*len = (size_t)n - EFI_VAR_ATTR_SIZE;
	memcpy(buf, tmp + EFI_VAR_ATTR_SIZE, *len);
	free(tmp);
	return 0;
}

/* --- Writing */

static int efi_on_efivarfs(int fd)
{
	struct statfs st;

	return fstatfs(fd, &st) == 0 &&
	       (unsigned long)st.f_type == (unsigned long)EFIVARFS_MAGIC;
}

/* The one write(2). A plain directory's file is cut to the new length
 * afterwards; on efivarfs the write alone sets the size (and with
 * EFI_VARIABLE_APPEND_WRITE a cut would be wrong). */
static int efi_put_fd(const char *path, const uint8_t *buf, size_t n,
		      int create)
{
	int flags = O_WRONLY | O_CLOEXEC | (create ? O_CREAT | O_EXCL : 0);
	int fd = open(path, flags, 0644);
	ssize_t w;
	int rc;

	if (fd < 0)
		return -errno;
	w = write(fd, buf, n);
	rc = w < 0 ? -errno : (size_t)w != n ? -EIO : 0;
	if (rc == 0 && !efi_on_efivarfs(fd) && ftruncate(fd, (off_t)n) < 0)
		rc = -errno;
	if (close(fd) < 0 && rc == 0)
		rc = -errno;
	if (rc < 0 && create)
		unlink(path);
	return rc;
}

/* Clear the flag, write, put the flag back: the one way in and out. */
static int efi_put(const struct efi_vars *v, const char *path,
		   const uint8_t *buf, size_t n)
{
	int rfd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	int saved = -1, rc = 0;

	if (rfd < 0 && errno != ENOENT)
		return -errno;
	if (rfd >= 0)
		rc = efi_unlock(v, rfd, &saved);
	if (rc == 0)
		rc = efi_put_fd(path, buf, n, rfd < 0);
	if (rfd >= 0) {
		efi_relock(v, rfd, saved);
		close(rfd);
	}
	return rc;
}

int efi_var_write(const struct efi_vars *v, const char *name, const char *guid,
		  uint32_t attrs, const uint8_t *data, size_t len, char *err,
		  size_t errlen)
{
	char path[4096];
	uint8_t *buf;
	int rc;

	if (efi_var_path(v, name, guid, path, sizeof(path), err, errlen) < 0)
		return -EINVAL;
	/* no data would be SetVariable()'s way to delete it */
	if (!len || len > EFI_VAR_DATA_MAX || !data)
		return say(err, errlen, len ? -EFBIG : -EINVAL,
			   "cannot write EFI variable %s: %zu bytes of "
			   "data is not a variable",
			   name, len);
	buf = malloc(EFI_VAR_ATTR_SIZE + len);
	if (!buf)
		return say(err, errlen, -ENOMEM,
			   "cannot write EFI variable %s: out of memory", name);
	put_le32(buf, EFI_VAR_ATTR_SIZE, 0, attrs);
	memcpy(buf + EFI_VAR_ATTR_SIZE, data, len);
	rc = efi_put(v, path, buf, EFI_VAR_ATTR_SIZE + len);
	free(buf);
	if (rc < 0)
		return say(err, errlen, rc, "cannot write EFI variable %s: %s",
			   name, strerror(-rc));
	return 0;
}

/* --- Deleting and listing */

int efi_var_delete(const struct efi_vars *v, const char *name, const char *guid,
		   char *err, size_t errlen)
{
	char path[4096];
	int fd, saved = -1, rc;

	if (efi_var_path(v, name, guid, path, sizeof(path), err, errlen) < 0)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	rc = fd < 0 ? -errno : efi_unlock(v, fd, &saved);
	if (rc == 0 && unlink(path) < 0)
		rc = -errno;
	if (rc < 0 && fd >= 0)
		efi_relock(v, fd, saved);
	if (fd >= 0)
		close(fd);
	if (rc < 0)
		return say(err, errlen, rc, "cannot delete EFI variable %s: %s",
			   name, strerror(-rc));
	return 0;
}

static int efi_cmp_u16(const void *a, const void *b)
{
	return (int)*(const uint16_t *)a - (int)*(const uint16_t *)b;
}

/* The number of a directory entry "Boot####-<EFI_GLOBAL_GUID>". */
static int efi_boot_entry(const char *d_name, uint16_t *num)
{
	char name[EFI_BOOT_NAME_LEN];

	if (strlen(d_name) != 8 + 1 + EFI_GUID_TEXT - 1 || d_name[8] != '-' ||
	    strcasecmp(d_name + 9, EFI_GLOBAL_GUID))
		return -EINVAL;
	memcpy(name, d_name, 8);
	name[8] = '\0';
	return efi_boot_name_parse(name, num);
}

int efi_var_boot_nums(const struct efi_vars *v, uint16_t *nums, size_t cap,
		      size_t *n)
{
	DIR *d = opendir(efi_dir(v));
	struct dirent *de;
	int rc = 0;

	*n = 0;
	if (!d)
		return -errno;
	while (rc == 0 && (de = readdir(d))) {
		uint16_t num;

		if (efi_boot_entry(de->d_name, &num) < 0)
			continue;
		if (*n == cap)
			rc = -E2BIG;
		else
			nums[(*n)++] = num;
	}
	closedir(d);
	if (*n)
		qsort(nums, *n, sizeof(*nums), efi_cmp_u16);
	return rc;
}
