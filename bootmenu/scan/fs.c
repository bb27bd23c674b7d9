/* fs.c - confined, read-only file access under one filesystem root. */
#include "scan/fs.h"
#include "util/arena.h"

#include <dirent.h>
#include <stdio.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/openat2.h>

#define FS_MAX_LINKS 40

static int openat2_confined(int root, const char *path, int flags)
{
	struct open_how how = {
		.flags = (unsigned long long)(flags | O_CLOEXEC),
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS |
			   RESOLVE_NO_XDEV,
	};
	long fd = syscall(SYS_openat2, root, path, &how, sizeof(how));

	return fd < 0 ? -errno : (int)fd;
}

/* The walk used where openat2 is missing (kernels before 5.6): one
 * component at a time, symlinks expanded by hand against the root, `..`
 * never above it. @rest is a scratch copy of the remaining path. */
static int walk_confined(int root, const char *path, int flags)
{
	char rest[FS_PATH_MAX * 2], link[FS_PATH_MAX], comp[256];
	int stack[64], depth = 0, links = 0, cur, fd;
	size_t len;

	if (strlen(path) >= sizeof(rest))
		return -ENAMETOOLONG;
	strcpy(rest, path);
	cur = dup(root);
	if (cur < 0)
		return -errno;
	for (;;) {
		char *p = rest, *slash;
		struct stat st;

		while (*p == '/')
			p++;
		if (!*p)
			break;
		slash = strchr(p, '/');
		len = slash ? (size_t)(slash - p) : strlen(p);
		if (len >= sizeof(comp)) {
			fd = -ENAMETOOLONG;
			goto err;
		}
		memcpy(comp, p, len);
		comp[len] = '\0';
		memmove(rest, p + len, strlen(p + len) + 1);
		if (!strcmp(comp, "."))
			continue;
		if (!strcmp(comp, "..")) {
			if (depth > 0) {
				close(cur);
				cur = stack[--depth];
			}
			continue;
		}
		fd = openat(cur, comp, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0) {
			fd = -errno;
			goto err;
		}
		if (fstat(fd, &st) < 0) {
			close(fd);
			fd = -errno;
			goto err;
		}
		if (S_ISLNK(st.st_mode)) {
			ssize_t n = readlinkat(fd, "", link, sizeof(link) - 1);

			close(fd);
			if (n < 0 || ++links > FS_MAX_LINKS) {
				fd = n < 0 ? -errno : -ELOOP;
				goto err;
			}
			link[n] = '\0';
			if (strlen(link) + strlen(rest) + 2 > sizeof(rest)) {
				fd = -ENAMETOOLONG;
				goto err;
			}
			memmove(rest + n + 1, rest, strlen(rest) + 1);
			memcpy(rest, link, (size_t)n);
			rest[n] = '/';
			if (link[0] == '/') {
				while (depth > 0)
					close(stack[--depth]);
				close(cur);
				cur = dup(root);
				if (cur < 0)
					return -errno;
			}
			continue;
		}
		if (depth == (int)(sizeof(stack) / sizeof(stack[0]))) {
			close(fd);
			fd = -ENAMETOOLONG;
			goto err;
		}
		stack[depth++] = cur;
		cur = fd;
	}
	/* cur is an O_PATH fd of what the walk reached; reopen it for reading
	 * through our own fd table (never through the disk's names again). */
	{
		char self[64];

		snprintf(self, sizeof(self), "/proc/self/fd/%d", cur);
		fd = open(self, flags | O_CLOEXEC);
		if (fd < 0)
			fd = -errno;
	}
err:
	close(cur);
	while (depth > 0)
		close(stack[--depth]);
	return fd;
}

int fs_open(const struct fs_root *fs, const char *path, bool want_dir)
{
	static int have_openat2 = 1;
	int flags = O_RDONLY | O_NOCTTY | O_NONBLOCK | (want_dir ? O_DIRECTORY : 0);
	int fd;

	if (!path || strlen(path) >= FS_PATH_MAX)
		return path ? -ENAMETOOLONG : -EINVAL;
	while (*path == '/')
		path++;
	if (!*path)
		path = ".";
	if (have_openat2) {
		fd = openat2_confined(fs->root_fd, path, flags);
		if (fd != -ENOSYS && fd != -EPERM)
			goto done;
		have_openat2 = 0;
	}
	fd = walk_confined(fs->root_fd, path, flags);
done:
	if (fd >= 0 && !want_dir) {
		/* O_NONBLOCK was only to keep FIFOs from blocking the open. */
		int fl = fcntl(fd, F_GETFL);

		if (fl >= 0)
			fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	}
	return fd;
}

int fs_stat(const struct fs_root *fs, const char *path, struct stat *st)
{
	int fd = fs_open(fs, path, false), rc = 0;

	if (fd == -EISDIR || fd == -ENXIO || fd == -EACCES)
		fd = fs_open(fs, path, true);
	if (fd < 0)
		return fd;
	if (fstat(fd, st) < 0)
		rc = -errno;
	close(fd);
	return rc;
}

bool fs_is_file(const struct fs_root *fs, const char *path)
{
	struct stat st;

	return fs_stat(fs, path, &st) == 0 && S_ISREG(st.st_mode);
}

int fs_read_file(const struct fs_root *fs, const char *path, size_t max,
		 char **buf, size_t *len)
{
	struct stat st;
	size_t got = 0;
	char *b;
	int fd, rc;

	*buf = NULL;
	*len = 0;
	fd = fs_open(fs, path, false);
	if (fd < 0)
		return fd;
	if (fstat(fd, &st) < 0) {
		rc = -errno;
		goto err_close;
	}
	if (S_ISDIR(st.st_mode)) {
		rc = -EISDIR;
		goto err_close;
	}
	if (!S_ISREG(st.st_mode)) {
		rc = -EINVAL;
		goto err_close;
	}
	if ((unsigned long long)st.st_size > max) {
		rc = -EFBIG;
		goto err_close;
	}
	b = malloc((size_t)st.st_size + 1);
	if (!b) {
		rc = -ENOMEM;
		goto err_close;
	}
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, b + got, (size_t)st.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = -errno;
			free(b);
			goto err_close;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	b[got] = '\0';
	*buf = b;
	*len = got;
	rc = 0;
err_close:
	close(fd);
	return rc;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int fs_list(const struct fs_root *fs, const char *dir, struct arena *a,
	    char ***names, size_t *count)
{
	struct dirent *de;
	size_t n = 0, cap = 16;
	char **v;
	DIR *d;
	int fd;

	*names = NULL;
	*count = 0;
	fd = fs_open(fs, dir, true);
	if (fd < 0)
		return fd;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -errno;
	}
	v = arena_alloc(a, cap * sizeof(*v));
	while ((de = readdir(d)) && n < FS_LIST_MAX) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (n == cap) {
			char **nv = arena_alloc(a, 2 * cap * sizeof(*v));

			memcpy(nv, v, n * sizeof(*v));
			v = nv;
			cap *= 2;
		}
		v[n++] = arena_strdup(a, de->d_name);
	}
	closedir(d);
	qsort(v, n, sizeof(*v), cmp_names);
	*names = v;
	*count = n;
	return 0;
}

int fs_realpath(const struct fs_root *fs, const char *path, struct arena *a,
		char **out)
{
	char buf[FS_PATH_MAX], link[FS_PATH_MAX], self[64];
	int fd = fs_open(fs, path, false);
	ssize_t n;
	size_t rl;

	if (fd == -EISDIR)
		fd = fs_open(fs, path, true);
	if (fd < 0)
		return fd;
	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	n = readlink(self, link, sizeof(link) - 1);
	close(fd);
	if (n < 0)
		return -errno;
	link[n] = '\0';
	snprintf(self, sizeof(self), "/proc/self/fd/%d", fs->root_fd);
	fd = (int)readlink(self, buf, sizeof(buf) - 1);
	if (fd < 0)
		return -errno;
	buf[fd] = '\0';
	rl = strlen(buf);
	if (!strcmp(buf, "/"))
		rl = 0;
	if (strncmp(link, buf, rl) || (link[rl] && link[rl] != '/'))
		return -EXDEV;
	*out = arena_strdup(a, link[rl] ? link + rl : "/");
	return 0;
}

int fs_root_open_dir(struct fs_root *fs, const char *dir)
{
	int fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	fs->root_fd = fd;
	if (!fs->mountpoint)
		fs->mountpoint = dir;
	if (!fs->name)
		fs->name = dir;
	return 0;
}

void fs_root_close(struct fs_root *fs)
{
	if (fs->root_fd >= 0)
		close(fs->root_fd);
	fs->root_fd = -1;
}
