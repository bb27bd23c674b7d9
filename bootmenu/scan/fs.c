/* fs.c - confined, read-only file access under one filesystem root.
 *
 * Two resolvers give the same answers: openat2(2) with RESOLVE_IN_ROOT |
 * RESOLVE_NO_MAGICLINKS (Linux >= 5.6), and a component walk for older
 * kernels or seccomp'd environments that expands symlinks by hand against
 * the root and never lets `..` above it. Mounts inside a --root directory
 * are crossed on purpose (`bootmenu --root /` with a separate /boot); a
 * scanned filesystem has no submounts.
 */
#include "scan/fs.h"
#include "util/arena.h"
#include "util/file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/openat2.h>

#ifndef SYS_openat2
#define SYS_openat2 437 /* the same on every architecture */
#endif

/* openat2 returns -EAGAIN when a rename raced the lookup; retry a little. */
#define FS_OPENAT2_RETRIES 4
#define FS_NAME_MAX 255

static int openat2_raw(int dirfd, const char *path, int flags)
{
	/* openat2 refuses O_PATH with any flag but a few (O_NOCTTY too) */
	int extra = (flags & O_PATH) ? O_CLOEXEC : O_CLOEXEC | O_NOCTTY;
	struct open_how how = {
	    .flags = (unsigned long long)(flags | extra),
	    .resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	long fd = syscall(SYS_openat2, dirfd, path, &how, sizeof(how));

	return fd < 0 ? -errno : (int)fd;
}

/* 1: openat2 works; -1: it does not (ENOSYS, or EPERM from a seccomp
 * filter); 0: not asked yet. Racing first calls compute the same value. */
static atomic_int fs_openat2_state;

bool fs_have_openat2(void)
{
	int st = atomic_load(&fs_openat2_state), fd;

	if (st)
		return st > 0;
	fd = openat2_raw(AT_FDCWD, "/", O_PATH | O_DIRECTORY);
	st = (fd == -ENOSYS || fd == -EPERM) ? -1 : 1;
	if (fd >= 0)
		close(fd);
	atomic_store(&fs_openat2_state, st);
	return st > 0;
}

/* --- the component walk */

struct walk {
	int fds[FS_WALK_DEPTH + 1];	/* fds[0]: a dup of the root */
	size_t plen[FS_WALK_DEPTH + 1]; /* strlen(path) at each depth */
	size_t depth;
	char path[FS_PATH_MAX];	    /* resolved so far: "/boot/grub" */
	char rest[2 * FS_PATH_MAX]; /* still to resolve */
	int links;
	bool casefold;
};

static bool ascii_caseeq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		unsigned char x = (unsigned char)*a, y = (unsigned char)*b;

		if (x >= 'A' && x <= 'Z')
			x = (unsigned char)(x - 'A' + 'a');
		if (y >= 'A' && y <= 'Z')
			y = (unsigned char)(y - 'A' + 'a');
		if (x != y)
			return false;
	}
	return *a == *b;
}

/* The name in @dir equal to @comp but for ASCII case, into @out; the
 * bytewise smallest when several match, so the answer is stable. */
static int casefold_name(int dir, const char *comp, char *out)
{
	int fd = openat(dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int rc = -ENOENT;
	struct dirent *de;
	DIR *d;

	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -errno;
	}
	while ((de = readdir(d))) {
		if (!ascii_caseeq(de->d_name, comp))
			continue;
		if (rc == 0 && strcmp(de->d_name, out) >= 0)
			continue;
		strcpy(out, de->d_name); /* d_name <= NAME_MAX == FS_NAME_MAX */
		rc = 0;
	}
	closedir(d);
	return rc;
}

/* Take the next component of w->rest into @comp. Returns 1, 0 at the
 * end, or -ENAMETOOLONG. */
static int walk_next(struct walk *w, char *comp)
{
	char *p = w->rest;
	size_t len;

	while (*p == '/')
		p++;
	if (!*p)
		return 0;
	len = strcspn(p, "/");
	if (len > FS_NAME_MAX)
		return -ENAMETOOLONG;
	memcpy(comp, p, len);
	comp[len] = '\0';
	memmove(w->rest, p + len, strlen(p + len) + 1);
	return 1;
}

static bool walk_at_end(const struct walk *w)
{
	return w->rest[strspn(w->rest, "/")] == '\0';
}

static void walk_pop(struct walk *w)
{
	close(w->fds[w->depth]);
	w->depth--;
	w->path[w->plen[w->depth]] = '\0';
}

static int walk_append(struct walk *w, const char *name)
{
	size_t len = strlen(w->path), n = strlen(name);

	if (n + 2 > sizeof(w->path) - len)
		return -ENAMETOOLONG;
	w->path[len] = '/';
	memcpy(w->path + len + 1, name, n + 1);
	return 0;
}

/* @fd is an O_PATH fd of a symlink: splice its target in front of what is
 * left, and restart from the root for an absolute one. */
static int walk_follow(struct walk *w, int fd)
{
	char link[FS_PATH_MAX];
	size_t rest_len = strlen(w->rest);
	ssize_t n;

	if (++w->links > FS_LINKS_MAX)
		return -ELOOP;
	n = readlinkat(fd, "", link, sizeof(link));
	if (n < 0)
		return -errno;
	if ((size_t)n >= sizeof(link) ||
	    (size_t)n + 1 + rest_len >= sizeof(w->rest))
		return -ENAMETOOLONG;
	memmove(w->rest + n + 1, w->rest, rest_len + 1);
	memcpy(w->rest, link, (size_t)n);
	w->rest[n] = '/';
	if (link[0] == '/')
		while (w->depth > 0)
			walk_pop(w);
	return 0;
}

/* Look @comp up in the current directory without following it, with the
 * FAT fallback; @comp becomes the name as it is on disk. */
static int walk_lookup(struct walk *w, char *comp, struct stat *st)
{
	int cur = w->fds[w->depth];
	int fd = openat(cur, comp, O_PATH | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0 && errno == ENOENT && w->casefold) {
		char real[FS_NAME_MAX + 1];

		if (casefold_name(cur, comp, real) == 0) {
			strcpy(comp, real);
			fd = openat(cur, comp, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		} else {
			errno = ENOENT;
		}
	}
	if (fd < 0)
		return -errno;
	if (fstat(fd, st) < 0) {
		int rc = -errno;

		close(fd);
		return rc;
	}
	return fd;
}

/* One step of the walk: returns 1 to go on, 0 when *out holds the opened
 * final component, or -errno. */
static int walk_step(struct walk *w, char *comp, int flags, int *out)
{
	struct stat st;
	int fd, rc;

	if (!strcmp(comp, "."))
		return 1;
	if (!strcmp(comp, "..")) {
		if (w->depth > 0)
			walk_pop(w);
		return 1;
	}
	fd = walk_lookup(w, comp, &st);
	if (fd < 0)
		return fd;
	if (S_ISLNK(st.st_mode)) {
		rc = walk_follow(w, fd);
		close(fd);
		return rc < 0 ? rc : 1;
	}
	if (walk_at_end(w)) {
		close(fd);
		/* O_NOFOLLOW: a symlink swapped in since the lookup fails */
		fd = openat(w->fds[w->depth], comp,
			    flags | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
		if (fd < 0)
			return -errno;
		rc = walk_append(w, comp);
		if (rc < 0) {
			close(fd);
			return rc;
		}
		*out = fd;
		return 0;
	}
	if (!S_ISDIR(st.st_mode))
		rc = -ENOTDIR;
	else if (w->depth == FS_WALK_DEPTH)
		rc = -ENAMETOOLONG;
	else
		rc = walk_append(w, comp);
	if (rc < 0) {
		close(fd);
		return rc;
	}
	w->depth++;
	w->fds[w->depth] = fd;
	w->plen[w->depth] = strlen(w->path);
	return 1;
}

/* Resolve @path below @root by hand and open it with @flags; the resolved
 * path is left in w->path ("" for the root itself). */
static int walk_open(struct walk *w, int root, const char *path, int flags,
		     bool casefold)
{
	char comp[FS_NAME_MAX + 1];
	int fd = -1, rc;

	if (strlen(path) >= sizeof(w->rest))
		return -ENAMETOOLONG;
	strcpy(w->rest, path);
	w->path[0] = '\0';
	w->plen[0] = 0;
	w->depth = 0;
	w->links = 0;
	w->casefold = casefold;
	w->fds[0] = fcntl(root, F_DUPFD_CLOEXEC, 0);
	if (w->fds[0] < 0)
		return -errno;
	while ((rc = walk_next(w, comp)) > 0) {
		rc = walk_step(w, comp, flags, &fd);
		if (rc <= 0)
			break;
	}
	if (rc == 0 && fd < 0) {
		/* the path ended on a directory already walked: "", ".", "a/.."
		 */
		fd =
		    openat(w->fds[w->depth], ".", flags | O_CLOEXEC | O_NOCTTY);
		if (fd < 0)
			rc = -errno;
	}
	for (size_t i = 0; i <= w->depth; i++)
		close(w->fds[i]); /* w->path stays: fs_realpath() reads it */
	return rc < 0 ? rc : fd;
}

/* --- the public door */

static const char *fs_rel(const char *path)
{
	while (*path == '/')
		path++;
	return *path ? path : ".";
}

int fs_open_how(const struct fs_root *fs, const char *path, int flags,
		enum fs_resolver how)
{
	struct walk w;
	int fd = -EAGAIN;

	if (!path)
		return -EINVAL;
	if (strlen(path) >= FS_PATH_MAX)
		return -ENAMETOOLONG;
	path = fs_rel(path);
	if (how == FS_RESOLVE_AUTO)
		how = fs_have_openat2() ? FS_RESOLVE_OPENAT2 : FS_RESOLVE_WALK;
	if (how == FS_RESOLVE_OPENAT2) {
		if (!fs_have_openat2())
			return -ENOSYS;
		for (int i = 0; i < FS_OPENAT2_RETRIES && fd == -EAGAIN; i++)
			fd = openat2_raw(fs->root_fd, path, flags);
		if (fd != -ENOENT || !fs->casefold)
			return fd;
	}
	return walk_open(&w, fs->root_fd, path, flags, fs->casefold);
}

static int fs_check_type(int fd, bool want_dir)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (S_ISDIR(st.st_mode))
		return want_dir ? 0 : -EISDIR;
	if (want_dir)
		return -ENOTDIR;
	return S_ISREG(st.st_mode) ? 0 : -EINVAL;
}

int fs_open(const struct fs_root *fs, const char *path, bool want_dir)
{
	int flags = O_RDONLY | O_NONBLOCK | (want_dir ? O_DIRECTORY : 0);
	int fd, rc;

	if (fs->ops)
		return fs->ops->open ? fs->ops->open(fs, path, want_dir)
				     : -EOPNOTSUPP;
	/* Look first through O_PATH: a FIFO or device node is refused
	 * without ever being opened (opening one can block or act). */
	fd = fs_open_how(fs, path, O_PATH, FS_RESOLVE_AUTO);
	if (fd < 0)
		return fd;
	rc = fs_check_type(fd, want_dir);
	close(fd);
	if (rc < 0)
		return rc;
	fd = fs_open_how(fs, path, flags, FS_RESOLVE_AUTO);
	if (fd < 0)
		return fd;
	rc = fs_check_type(fd, want_dir); /* it may have changed meanwhile */
	if (rc < 0) {
		close(fd);
		return rc;
	}
	if (!want_dir) /* O_NONBLOCK was for the open only */
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

int fs_prefetch(const struct fs_root *fs, const char *path,
		const struct fs_progress *cb)
{
	if (!fs->ops || !fs->ops->prefetch)
		return 0;
	return fs->ops->prefetch(fs, path, cb);
}

const char *fs_strerror(const struct fs_root *fs, const char *path, int rc,
			char *buf, size_t len)
{
	if (fs->ops && fs->ops->why && len &&
	    fs->ops->why(fs, path, rc, buf, len))
		return buf;
	return strerror(-rc);
}

int fs_stat(const struct fs_root *fs, const char *path, struct stat *st)
{
	int fd, rc = 0;

	if (fs->ops)
		return fs->ops->stat ? fs->ops->stat(fs, path, st)
				     : -EOPNOTSUPP;
	fd = fs_open_how(fs, path, O_PATH, FS_RESOLVE_AUTO);
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
	ssize_t n;
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
	if ((unsigned long long)st.st_size > max) {
		rc = -EFBIG;
		goto err_close;
	}
	b = malloc((size_t)st.st_size + 1);
	if (!b) {
		rc = -ENOMEM;
		goto err_close;
	}
	/* a file that grows while read is cut at its size from fstat */
	n = util_read_full(fd, b, (size_t)st.st_size);
	rc = n < 0 ? (int)n : 0;
	*len = n < 0 ? 0 : (size_t)n;
	if (rc < 0) {
		free(b);
		goto err_close;
	}
	b[*len] = '\0';
	*buf = b;
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
	if (fs->ops)
		return fs->ops->list ? fs->ops->list(fs, dir, a, names, count)
				     : -EOPNOTSUPP;
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

/* Always the walk: it knows the names it went through, and needs no
 * /proc (which a detached mount would make ambiguous anyway). */
int fs_realpath(const struct fs_root *fs, const char *path, struct arena *a,
		char **out)
{
	struct walk w;
	int fd;

	if (!path)
		return -EINVAL;
	if (strlen(path) >= FS_PATH_MAX)
		return -ENAMETOOLONG;
	if (fs->ops)
		return fs->ops->realpath ? fs->ops->realpath(fs, path, a, out)
					 : -EOPNOTSUPP;
	fd = walk_open(&w, fs->root_fd, fs_rel(path), O_PATH, fs->casefold);
	if (fd < 0)
		return fd;
	close(fd);
	*out = arena_strdup(a, w.path[0] ? w.path : "/");
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
	if (fs->btrfs && fs->btrfs->home == fs && fs->btrfs->top->root_fd >= 0)
		close(fs->btrfs->top->root_fd);
	if (fs->btrfs && fs->btrfs->home == fs)
		fs->btrfs->top->root_fd = -1;
	if (fs->root_fd >= 0)
		close(fs->root_fd);
	fs->root_fd = -1;
}

/* @b's subvolumes, the default first (the cap never drops it), copied
 * into @a without leading or trailing '/'. */
static int fs_btrfs_subvols(struct fs_btrfs *b, struct arena *a,
			    const char *const *list, size_t n)
{
	const char **v = arena_alloc(a, (n + 1) * sizeof(*v));
	size_t k = 0;

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i <= n && k < FS_SUBVOL_MAX; i++) {
		const char *s = i ? list[i - 1] : b->default_path;
		size_t l;

		s += strspn(s, "/");
		for (l = strlen(s); l && s[l - 1] == '/'; l--)
			;
		if (l && !(v[k++] = arena_strndup(a, s, l)))
			return -ENOMEM;
	}
	b->subvols = v;
	b->n_subvols = k;
	return 0;
}

int fs_root_add_btrfs(struct fs_root *home, struct arena *a, int top_fd,
		      const char *home_path, const char *default_path,
		      const char *const *subvols, size_t n_subvols)
{
	struct fs_btrfs *b = arena_alloc(a, sizeof(*b));
	struct fs_root *top = arena_alloc(a, sizeof(*top));

	if (b) {
		b->home_path = arena_strdup(a, home_path);
		b->default_path = arena_strdup(a, default_path);
	}
	if (!b || !top || !b->home_path || !b->default_path ||
	    fs_btrfs_subvols(b, a, subvols, n_subvols) < 0) {
		close(top_fd);
		return -ENOMEM;
	}
	*top = *home; /* the same filesystem: same identities */
	top->name = arena_printf(a, "%s:top", home->name ? home->name : "");
	top->root_fd = top_fd;
	top->mountpoint = NULL;
	b->top = top;
	b->home = home;
	top->btrfs = home->btrfs = b;
	return 0;
}

size_t fs_subvol_prefix(const char *const *subvols, size_t n, const char *path)
{
	size_t best = 0;

	for (size_t i = 0; i < n; i++) {
		size_t l = strlen(subvols[i]);

		if (l > best && !strncmp(path, subvols[i], l) &&
		    (path[l] == '/' || path[l] == '\0'))
			best = l;
	}
	return best;
}

/* Append @path's components to buf[0..*n), '/' between them, leaving
 * out empty and "." ones; -EINVAL at a "..". */
static int fs_top_append(char *buf, size_t size, size_t *n, const char *path)
{
	for (const char *p = path + strspn(path, "/"); *p;
	     p += strspn(p, "/")) {
		size_t l = strcspn(p, "/");

		if (l == 2 && p[0] == '.' && p[1] == '.')
			return -EINVAL;
		if (!(l == 1 && p[0] == '.')) {
			if (l + 1 >= size - *n)
				return -ENAMETOOLONG;
			if (*n)
				buf[(*n)++] = '/';
			memcpy(buf + *n, p, l);
			*n += l;
		}
		p += l;
	}
	return 0;
}

int fs_subvol(const struct fs_root *fs, const char *path, char *buf,
	      size_t size, size_t *sub)
{
	const struct fs_btrfs *b = fs ? fs->btrfs : NULL;
	size_t n = 0;
	int rc;

	*sub = 0;
	if (!b || !path || size == 0)
		return -EINVAL;
	rc = fs_top_append(buf, size, &n, fs == b->home ? b->home_path : "");
	if (rc == 0)
		rc = fs_top_append(buf, size, &n, path);
	if (rc < 0)
		return rc;
	buf[n] = '\0';
	*sub = fs_subvol_prefix(b->subvols, b->n_subvols, buf);
	return 0;
}

bool fs_matches(const char *spec, const struct fs_root *fs)
{
	static const struct {
		const char *key;
		size_t off;
	} keys[] = {
	    {"UUID=", offsetof(struct fs_root, uuid)},
	    {"LABEL=", offsetof(struct fs_root, label)},
	    {"PARTUUID=", offsetof(struct fs_root, partuuid)},
	    {"PARTLABEL=", offsetof(struct fs_root, partlabel)},
	};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		size_t n = strlen(keys[i].key);
		const char *v;

		if (strncasecmp(spec, keys[i].key, n))
			continue;
		v = *(const char *const *)((const char *)fs + keys[i].off);
		/* UUIDs compare without case (lilo and grub write either). */
		return v && !strcasecmp(v, spec + n);
	}
	return (fs->device && !strcmp(spec, fs->device)) ||
	       (fs->name && !strcmp(spec, fs->name));
}

const struct fs_root *fs_find(const char *spec,
			      const struct fs_root *const *fss, size_t n_fss)
{
	for (size_t i = 0; spec && i < n_fss; i++)
		if (fs_matches(spec, fss[i]))
			return fss[i];
	return NULL;
}
