/* remote.c - a server's files behind the fs door, fetched on open. */
#include "net/remote.h"
#include "net/fetch.h"
#include "util/arena.h"
#include "util/log.h"

#include <dirent.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#define REMOTE_MISSING_MAX 64
#define REMOTE_KEY_MAX 1024

struct net_remote {
	struct fs_root fs;
	struct fs_net net;
	char server[64];
	char cache[512];
	int cache_fd;
	pthread_mutex_t lock; /* one transfer at a time; the missing list */
	_Atomic pid_t child;
	_Atomic int cancel;
	char *missing[REMOTE_MISSING_MAX];
	size_t n_missing;
};

static bool is_url(const char *s)
{
	return !strncmp(s, "http://", 7) || !strncmp(s, "tftp://", 7) ||
	       !strncmp(s, "https://", 8);
}

/* @path as the server's name for it into key[0..REMOTE_KEY_MAX): no
 * leading '/', "." and ".." resolved without leaving the root; an
 * address kept as written. */
static int remote_key(const char *path, char *key)
{
	size_t n = 0;

	while (*path == '/')
		path++;
	if (is_url(path)) {
		if (strlen(path) >= REMOTE_KEY_MAX)
			return -ENAMETOOLONG;
		strcpy(key, path);
		return 0;
	}
	while (*path) {
		const char *end = strchr(path, '/');
		size_t len = end ? (size_t)(end - path) : strlen(path);

		if (len == 2 && !strncmp(path, "..", 2)) {
			while (n && key[n - 1] != '/')
				n--;
			if (n)
				n--;
		} else if (len && !(len == 1 && *path == '.')) {
			if (n + !!n + len >= REMOTE_KEY_MAX)
				return -ENAMETOOLONG;
			if (n)
				key[n++] = '/';
			memcpy(key + n, path, len);
			n += len;
		}
		path += len;
		while (*path == '/')
			path++;
	}
	key[n] = '\0';
	return n ? 0 : -EISDIR;
}

/* The cache file's name for @key: one flat name, every byte but
 * [A-Za-z0-9._-] as %XX. */
static int cache_name(const char *key, char *out, size_t size)
{
	size_t n = 0;

	for (; *key; key++) {
		unsigned char c = (unsigned char)*key;
		bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			     (c >= '0' && c <= '9') || c == '.' || c == '-' ||
			     c == '_';

		if (n + 4 >= size)
			return -ENAMETOOLONG;
		n += (size_t)snprintf(out + n, size - n,
				      plain ? "%c" : "%%%02X", c);
	}
	if (!strcmp(out, ".") || !strcmp(out, ".."))
		out[0] = '%'; /* never the directory itself */
	return 0;
}

static bool missing(const struct net_remote *rt, const char *key)
{
	for (size_t i = 0; i < rt->n_missing; i++)
		if (!strcmp(rt->missing[i], key))
			return true;
	return false;
}

static unsigned long long remote_cap(void)
{
	struct sysinfo si;
	unsigned long long half;

	if (sysinfo(&si) < 0)
		return NET_REMOTE_MAX;
	half = (unsigned long long)si.freeram * si.mem_unit / 2;
	return half < NET_REMOTE_MAX ? half : NET_REMOTE_MAX;
}

/* Fetch @key into the cache unless it is there. Called with the lock. */
static int fetch_locked(struct net_remote *rt, const char *key,
			const char *name, const struct fs_progress *cb,
			char *why, size_t len)
{
	char dest[1024];
	struct net_fetch f = {.server = rt->server,
			      .remote = key,
			      .dest = dest,
			      .cap = remote_cap(),
			      .child = &rt->child,
			      .cancel = &rt->cancel,
			      .progress = cb};
	struct stat st;
	int rc;

	if (fstatat(rt->cache_fd, name, &st, 0) == 0)
		return 0;
	if (missing(rt, key))
		return -ENOENT;
	if (!strncmp(key, "https://", 8)) {
		snprintf(why, len, "https is not supported yet");
		return -EPROTONOSUPPORT;
	}
	snprintf(dest, sizeof(dest), "%s/%s", rt->cache, name);
	rc = net_fetch(&f);
	if (rc == -ENOENT && rt->n_missing < REMOTE_MISSING_MAX) {
		char *dup = strdup(key);

		if (dup)
			rt->missing[rt->n_missing++] = dup;
	}
	if (rc < 0)
		snprintf(why, len, "%s", f.why[0] ? f.why : strerror(-rc));
	return rc;
}

/* @path's key (remote_key()) and its cache file's name[0..256). */
static int remote_names(const char *path, char *key, char *name)
{
	int rc = remote_key(path, key);

	return rc < 0 ? rc : cache_name(key, name, 256);
}

static int remote_get(struct net_remote *rt, const char *path, char *name,
		      const struct fs_progress *cb, char *why, size_t len)
{
	char key[REMOTE_KEY_MAX];
	int rc = remote_names(path, key, name);

	if (rc < 0)
		return rc;
	pthread_mutex_lock(&rt->lock);
	rc = fetch_locked(rt, key, name, cb, why, len);
	pthread_mutex_unlock(&rt->lock);
	return rc;
}

int net_remote_fetch(struct net_remote *rt, const char *path, char *why,
		     size_t len)
{
	char name[256];

	why[0] = '\0';
	return remote_get(rt, path, name, NULL, why, len);
}

static struct net_remote *of(const struct fs_root *fs)
{
	return fs->priv;
}

/* remote_get(), with the reason in the log when it is not "not there"
 * (the menu's dialog has only the -errno). */
static int fetch_logged(struct net_remote *rt, const char *path, char *name,
			const struct fs_progress *cb)
{
	char why[192] = "";
	int rc = remote_get(rt, path, name, cb, why, sizeof(why));

	if (rc < 0 && rc != -ENOENT && rc != -ECANCELED)
		log_warn("%s: %s: %s", rt->fs.name ? rt->fs.name : "network",
			 path, why[0] ? why : strerror(-rc));
	if (rc < 0 && cb && cb->why && cb->why_len)
		snprintf(cb->why, cb->why_len, "%s",
			 why[0] ? why : strerror(-rc));
	return rc;
}

static int remote_prefetch(const struct fs_root *fs, const char *path,
			   const struct fs_progress *cb)
{
	char name[256];

	return fetch_logged(of(fs), path, name, cb);
}

static int remote_open(const struct fs_root *fs, const char *path,
		       bool want_dir)
{
	struct net_remote *rt = of(fs);
	char name[256];
	int rc, fd;

	if (want_dir)
		return -EOPNOTSUPP; /* a server cannot be listed */
	rc = fetch_logged(rt, path, name, NULL);
	if (rc < 0)
		return rc;
	fd = openat(rt->cache_fd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	return fd < 0 ? -errno : fd;
}

static int remote_stat(const struct fs_root *fs, const char *path,
		       struct stat *st)
{
	struct net_remote *rt = of(fs);
	char key[REMOTE_KEY_MAX], name[256];
	int rc = remote_names(path, key, name);
	bool gone;

	if (rc == -EISDIR) { /* the server's root */
		memset(st, 0, sizeof(*st));
		st->st_mode = S_IFDIR | 0555;
		return 0;
	}
	if (rc < 0)
		return rc;
	if (fstatat(rt->cache_fd, name, st, 0) == 0)
		return 0;
	pthread_mutex_lock(&rt->lock);
	gone = missing(rt, key);
	pthread_mutex_unlock(&rt->lock);
	if (gone)
		return -ENOENT;
	memset(st, 0, sizeof(*st)); /* not fetched yet: a file, size unknown */
	st->st_mode = S_IFREG | 0444;
	return 0;
}

static int remote_list(const struct fs_root *fs, const char *dir,
		       struct arena *a, char ***names, size_t *count)
{
	return -EOPNOTSUPP;
}

static int remote_realpath(const struct fs_root *fs, const char *path,
			   struct arena *a, char **out);

static const struct fs_ops remote_ops = {
    .open = remote_open,
    .stat = remote_stat,
    .list = remote_list,
    .realpath = remote_realpath,
    .prefetch = remote_prefetch,
};

static int remote_realpath(const struct fs_root *fs, const char *path,
			   struct arena *a, char **out)
{
	char key[REMOTE_KEY_MAX];
	int rc = remote_key(path, key);

	if (rc == -EISDIR)
		key[0] = '\0';
	else if (rc < 0)
		return rc;
	*out = arena_alloc(a, strlen(key) + 2);
	sprintf(*out, "/%s", key);
	return 0;
}

struct net_remote *net_remote_new(const char *server, const char *cache)
{
	struct net_remote *rt = calloc(1, sizeof(*rt));

	if (!rt)
		return NULL;
	snprintf(rt->server, sizeof(rt->server), "%s", server);
	snprintf(rt->cache, sizeof(rt->cache), "%s", cache);
	if (mkdir(cache, 0700) < 0 && errno != EEXIST) {
		free(rt);
		return NULL;
	}
	rt->cache_fd = open(cache, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (rt->cache_fd < 0) {
		free(rt);
		return NULL;
	}
	pthread_mutex_init(&rt->lock, NULL);
	rt->fs.ops = &remote_ops;
	rt->fs.root_fd = rt->cache_fd;
	rt->fs.priv = rt;
	rt->fs.net = &rt->net;
	return rt;
}

struct fs_root *net_remote_fs(struct net_remote *rt)
{
	return &rt->fs;
}

struct fs_net *net_remote_net(struct net_remote *rt)
{
	return &rt->net;
}

void net_remote_cancel(struct net_remote *rt)
{
	pid_t pid;

	rt->cancel = 1;
	if ((pid = rt->child) > 0)
		kill(pid, SIGKILL);
}

void net_remote_free(struct net_remote *rt)
{
	DIR *d;
	struct dirent *de;

	if (!rt)
		return;
	net_remote_cancel(rt);
	pthread_mutex_lock(&rt->lock); /* no transfer runs past here */
	pthread_mutex_unlock(&rt->lock);
	if ((d = opendir(rt->cache))) {
		while ((de = readdir(d)))
			if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
				unlinkat(dirfd(d), de->d_name, 0);
		closedir(d);
		rmdir(rt->cache);
	}
	for (size_t i = 0; i < rt->n_missing; i++)
		free(rt->missing[i]);
	close(rt->cache_fd);
	pthread_mutex_destroy(&rt->lock);
	free(rt);
}
