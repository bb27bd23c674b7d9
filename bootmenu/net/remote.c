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
#include <sys/resource.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#define REMOTE_KEY_MAX 1024

/* A file the server did not give: missing (-ENOENT), or a queued fetch
 * that failed, with the reason in the tool's words. */
struct remote_known {
	char *key;
	char *why;
	int rc;
};

struct net_remote {
	struct fs_root fs;
	struct fs_net net;
	char server[64];
	char cache[512];
	int cache_fd;
	pthread_mutex_t xfer; /* one transfer at a time, held across it */
	/* the lists and the worker's state below; never held across a
	 * transfer, so the menu's remote_open() never waits on one */
	pthread_mutex_t lock;
	pthread_cond_t wake; /* the worker: a fetch was queued, or quit */
	struct remote_known known[NET_REMOTE_KNOWN_MAX];
	size_t n_known;
	char *queue[NET_REMOTE_QUEUE_MAX];
	size_t n_queue;
	char *current; /* the worker's fetch now, out of the queue */
	pthread_t worker;
	bool worker_on, quit;
	bool open_waits; /* net_remote_open_waits() */
	void (*fetched)(void *ctx, const struct fs_root *fs);
	void *fetched_ctx;
	_Atomic pid_t child; /* the callers' transfers (search, boot) */
	_Atomic int cancel;
	_Atomic pid_t bg_child; /* the worker's */
	_Atomic int bg_cancel;
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

/* What is known of @key: its entry, or NULL. Called with the lock. */
static const struct remote_known *known(const struct net_remote *rt,
					const char *key)
{
	for (size_t i = 0; i < rt->n_known; i++)
		if (!strcmp(rt->known[i].key, key))
			return &rt->known[i];
	return NULL;
}

/* Remember that @key gave @rc (why: @why), unless it is known already
 * or the list is full (remote_ask() then fetches nothing new). Called
 * with the lock. */
static void known_add(struct net_remote *rt, const char *key, int rc,
		      const char *why)
{
	struct remote_known *k = &rt->known[rt->n_known];

	if (known(rt, key) || rt->n_known == NET_REMOTE_KNOWN_MAX)
		return;
	k->key = strdup(key);
	k->why = strdup(why && *why ? why : strerror(-rc));
	k->rc = rc;
	if (k->key && k->why)
		rt->n_known++;
	else {
		free(k->key);
		free(k->why);
	}
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

/* What is known of @key, under the lock: the -errno it gave, or 0. */
static int known_rc(struct net_remote *rt, const char *key)
{
	const struct remote_known *k;
	int rc;

	pthread_mutex_lock(&rt->lock);
	k = known(rt, key);
	rc = k ? k->rc : 0;
	pthread_mutex_unlock(&rt->lock);
	return rc;
}

static bool is_missing(struct net_remote *rt, const char *key)
{
	return known_rc(rt, key) == -ENOENT;
}

/* Fetch @key into the cache unless it is there, at most @f->cap bytes
 * (@f: its cap, child, cancel and progress set). Called with rt->xfer.
 * A file not there is remembered as missing. */
static int fetch_locked(struct net_remote *rt, const char *key,
			const char *name, struct net_fetch *f, char *why,
			size_t len)
{
	char dest[1024];
	struct stat st;
	int rc;

	if (fstatat(rt->cache_fd, name, &st, 0) == 0)
		return 0;
	if (is_missing(rt, key))
		return -ENOENT;
	if (!strncmp(key, "https://", 8)) {
		snprintf(why, len, "https is not supported yet");
		return -EPROTONOSUPPORT;
	}
	snprintf(dest, sizeof(dest), "%s/%s", rt->cache, name);
	f->server = rt->server;
	f->remote = key;
	f->dest = dest;
	rc = net_fetch(f);
	if (rc < 0)
		snprintf(why, len, "%s", f->why[0] ? f->why : strerror(-rc));
	if (rc == -ENOENT) {
		pthread_mutex_lock(&rt->lock);
		known_add(rt, key, rc, why);
		pthread_mutex_unlock(&rt->lock);
	}
	return rc;
}

/* @path's key (remote_key()) and its cache file's name[0..256). */
static int remote_names(const char *path, char *key, char *name)
{
	int rc = remote_key(path, key);

	return rc < 0 ? rc : cache_name(key, name, 256);
}

/* Fetch @path with @f (its cap, child, cancel and progress set), one
 * transfer at a time; name[0..256) gets its cache file's name. */
static int fetch_path(struct net_remote *rt, const char *path, char *name,
		      struct net_fetch *f, char *why, size_t len)
{
	char key[REMOTE_KEY_MAX];
	int rc = remote_names(path, key, name);

	if (rc < 0)
		return rc;
	pthread_mutex_lock(&rt->xfer);
	rc = fetch_locked(rt, key, name, f, why, len);
	pthread_mutex_unlock(&rt->xfer);
	return rc;
}

/* Fetch @path now, on the caller's thread, capped at @cap. */
static int remote_get(struct net_remote *rt, const char *path, char *name,
		      unsigned long long cap, const struct fs_progress *cb,
		      char *why, size_t len)
{
	struct net_fetch f = {.cap = cap,
			      .cap_of =
				  cap == FS_CONFIG_MAX ? "a config file" : NULL,
			      .child = &rt->child,
			      .cancel = &rt->cancel,
			      .progress = cb};

	return fetch_path(rt, path, name, &f, why, len);
}

int net_remote_fetch(struct net_remote *rt, const char *path, char *why,
		     size_t len)
{
	char name[256];

	why[0] = '\0';
	return remote_get(rt, path, name, FS_CONFIG_MAX, NULL, why, len);
}

static struct net_remote *of(const struct fs_root *fs)
{
	return fs->priv;
}

/* The owner's callback, for a queued fetch that ended. */
static void tell_fetched(struct net_remote *rt)
{
	if (rt->fetched)
		rt->fetched(rt->fetched_ctx, &rt->fs);
}

/* Every queued fetch dropped, and the worker's own stopped: nobody waits
 * for them any more. True when there was one. Called with the lock. */
static bool queue_drop(struct net_remote *rt)
{
	bool any = rt->n_queue || rt->current;
	pid_t pid;

	for (size_t i = 0; i < rt->n_queue; i++)
		free(rt->queue[i]);
	rt->n_queue = 0;
	if (rt->current) {
		rt->bg_cancel = 1;
		if ((pid = rt->bg_child) > 0)
			kill(pid, SIGKILL);
	}
	return any;
}

/* The worker's fetch of @key, capped as a config file is. */
static int worker_fetch(struct net_remote *rt, const char *key, char *why,
			size_t len)
{
	char name[256];
	struct net_fetch f = {.cap = FS_CONFIG_MAX,
			      .cap_of = "a config file",
			      .child = &rt->bg_child,
			      .cancel = &rt->bg_cancel};

	return fetch_path(rt, key, name, &f, why, len);
}

/* One queued fetch after another, until net_remote_cancel(); the owner is
 * told after each (done, missing, failed or dropped), so that it reads
 * the file again and finds the copy or the reason. */
static void *worker_run(void *data)
{
	struct net_remote *rt = data;
	char why[192];
	int rc;

	/* below the menu, as the network source's threads */
	if (setpriority(PRIO_PROCESS, 0, 10) < 0)
		log_debug("network: cannot lower the fetches' priority");
	pthread_mutex_lock(&rt->lock);
	while (!rt->quit) {
		if (!rt->n_queue) {
			pthread_cond_wait(&rt->wake, &rt->lock);
			continue;
		}
		rt->current = rt->queue[0];
		memmove(rt->queue, rt->queue + 1,
			--rt->n_queue * sizeof(rt->queue[0]));
		rt->bg_cancel = 0;
		pthread_mutex_unlock(&rt->lock);
		why[0] = '\0';
		rc = worker_fetch(rt, rt->current, why, sizeof(why));
		if (rc < 0 && rt->bg_cancel) /* killed by queue_drop() */
			rc = -ECANCELED;
		/* the menu shows it as the include's warning; a line on the
		 * console would be drawn over the menu */
		if (rc < 0 && rc != -ECANCELED && rc != -ENOENT)
			log_info("%s: %s: %s",
				 rt->fs.name ? rt->fs.name : "network",
				 rt->current, why);
		pthread_mutex_lock(&rt->lock);
		if (rc < 0 && rc != -ECANCELED)
			known_add(rt, rt->current, rc, why);
		free(rt->current);
		rt->current = NULL;
		if (!rt->quit) {
			pthread_mutex_unlock(&rt->lock);
			tell_fetched(rt);
			pthread_mutex_lock(&rt->lock);
		}
	}
	pthread_mutex_unlock(&rt->lock);
	return NULL;
}

static bool queued(const struct net_remote *rt, const char *key)
{
	if (rt->current && !strcmp(rt->current, key))
		return true;
	for (size_t i = 0; i < rt->n_queue; i++)
		if (!strcmp(rt->queue[i], key))
			return true;
	return false;
}

/* Queue @key for the worker, started now if it is not running yet.
 * Called with the lock. */
static int queue_add(struct net_remote *rt, const char *key)
{
	char *dup;

	if (queued(rt, key))
		return -EINPROGRESS;
	if (rt->n_queue == NET_REMOTE_QUEUE_MAX)
		return -EINPROGRESS; /* asked again when one of those ends */
	if (!rt->worker_on) {
		if (pthread_create(&rt->worker, NULL, worker_run, rt) != 0)
			return -EAGAIN;
		rt->worker_on = true;
	}
	if (!(dup = strdup(key)))
		return -ENOMEM;
	rt->queue[rt->n_queue++] = dup;
	pthread_cond_signal(&rt->wake);
	return -EINPROGRESS;
}

/* remote_ask() for a root whose open() waits: fetched on the caller's
 * thread, capped as a config file, a failure remembered as the worker's
 * are. */
static int remote_open_now(struct net_remote *rt, const char *key)
{
	char name[256], why[192] = "";
	int rc = known_rc(rt, key);

	if (rc < 0)
		return rc;
	rc = remote_get(rt, key, name, FS_CONFIG_MAX, NULL, why, sizeof(why));
	if (rc < 0 && rc != -ECANCELED) {
		if (rc != -ENOENT)
			log_warn("%s: %s: %s",
				 rt->fs.name ? rt->fs.name : "network", key,
				 why);
		pthread_mutex_lock(&rt->lock);
		known_add(rt, key, rc, why);
		pthread_mutex_unlock(&rt->lock);
	}
	return rc;
}

/* A file not in the cache, for remote_open(): what is known of it, or
 * -EINPROGRESS once it is queued. */
static int remote_ask(struct net_remote *rt, const char *key)
{
	const struct remote_known *k;
	int rc;

	if (!strncmp(key, "https://", 8))
		return -EPROTONOSUPPORT;
	if (rt->open_waits)
		return remote_open_now(rt, key);
	pthread_mutex_lock(&rt->lock);
	if ((k = known(rt, key)))
		rc = k->rc;
	else if (rt->quit)
		rc = -ECANCELED;
	else if (rt->n_known == NET_REMOTE_KNOWN_MAX)
		rc = -ENOSPC; /* else a reparse could queue them forever */
	else
		rc = queue_add(rt, key);
	pthread_mutex_unlock(&rt->lock);
	return rc;
}

/* The boot room's fetch: now, with its progress, capped at the free RAM.
 * The queued fetches are dropped first (remote_open() queues them again
 * if the menu comes back), so the boot does not wait behind them. */
static int remote_prefetch(const struct fs_root *fs, const char *path,
			   const struct fs_progress *cb)
{
	struct net_remote *rt = of(fs);
	char name[256], why[192] = "";
	bool dropped;
	int rc;

	pthread_mutex_lock(&rt->lock);
	dropped = queue_drop(rt);
	pthread_mutex_unlock(&rt->lock);
	if (dropped)
		tell_fetched(rt);
	rc = remote_get(rt, path, name, remote_cap(), cb, why, sizeof(why));
	if (rc < 0 && rc != -ENOENT && rc != -ECANCELED)
		log_warn("%s: %s: %s", rt->fs.name ? rt->fs.name : "network",
			 path, why[0] ? why : strerror(-rc));
	if (rc < 0 && cb && cb->why && cb->why_len)
		snprintf(cb->why, cb->why_len, "%s",
			 why[0] ? why : strerror(-rc));
	return rc;
}

static int remote_open(const struct fs_root *fs, const char *path,
		       bool want_dir)
{
	struct net_remote *rt = of(fs);
	char key[REMOTE_KEY_MAX], name[256];
	int rc, fd;

	if (want_dir)
		return -EOPNOTSUPP; /* a server cannot be listed */
	if ((rc = remote_names(path, key, name)) < 0)
		return rc;
	fd = openat(rt->cache_fd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd >= 0 || errno != ENOENT)
		return fd < 0 ? -errno : fd;
	return remote_ask(rt, key);
}

static size_t remote_why(const struct fs_root *fs, const char *path, int rc,
			 char *buf, size_t len)
{
	struct net_remote *rt = of(fs);
	char key[REMOTE_KEY_MAX];
	const struct remote_known *k;
	int n = 0;

	if (remote_key(path, key) < 0)
		return 0;
	pthread_mutex_lock(&rt->lock);
	if ((k = known(rt, key)) && k->rc == rc)
		n = snprintf(buf, len, "%s", k->why);
	else if (rc == -EINPROGRESS)
		n = snprintf(buf, len,
			     "not here yet: fetching it from the server, "
			     "its entries follow when it comes");
	else if (rc == -ENOSPC)
		n = snprintf(buf, len,
			     "more than %d files of this server were missing "
			     "or failed: no more are fetched",
			     NET_REMOTE_KNOWN_MAX);
	else if (rc == -EPROTONOSUPPORT)
		n = snprintf(buf, len, "https is not supported yet");
	pthread_mutex_unlock(&rt->lock);
	return n > 0 ? (size_t)n : 0;
}

static int remote_stat(const struct fs_root *fs, const char *path,
		       struct stat *st)
{
	struct net_remote *rt = of(fs);
	char key[REMOTE_KEY_MAX], name[256];
	int rc = remote_names(path, key, name);

	if (rc == -EISDIR) { /* the server's root */
		memset(st, 0, sizeof(*st));
		st->st_mode = S_IFDIR | 0555;
		return 0;
	}
	if (rc < 0)
		return rc;
	if (fstatat(rt->cache_fd, name, st, 0) == 0)
		return 0;
	if (is_missing(rt, key))
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
    .why = remote_why,
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
	pthread_mutex_init(&rt->xfer, NULL);
	pthread_mutex_init(&rt->lock, NULL);
	pthread_cond_init(&rt->wake, NULL);
	rt->fs.ops = &remote_ops;
	rt->fs.root_fd = rt->cache_fd;
	rt->fs.priv = rt;
	rt->fs.net = &rt->net;
	return rt;
}

void net_remote_on_fetched(struct net_remote *rt,
			   void (*fn)(void *ctx, const struct fs_root *fs),
			   void *ctx)
{
	pthread_mutex_lock(&rt->lock);
	rt->fetched = fn;
	rt->fetched_ctx = ctx;
	pthread_mutex_unlock(&rt->lock);
}

void net_remote_open_waits(struct net_remote *rt)
{
	rt->open_waits = true;
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

	pthread_mutex_lock(&rt->lock);
	rt->quit = true;
	queue_drop(rt);
	pthread_cond_signal(&rt->wake);
	pthread_mutex_unlock(&rt->lock);
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
	if (rt->worker_on)
		pthread_join(rt->worker, NULL);
	pthread_mutex_lock(&rt->xfer); /* no transfer runs past here */
	pthread_mutex_unlock(&rt->xfer);
	if ((d = opendir(rt->cache))) {
		while ((de = readdir(d)))
			if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
				unlinkat(dirfd(d), de->d_name, 0);
		closedir(d);
		rmdir(rt->cache);
	}
	for (size_t i = 0; i < rt->n_known; i++) {
		free(rt->known[i].key);
		free(rt->known[i].why);
	}
	close(rt->cache_fd);
	pthread_cond_destroy(&rt->wake);
	pthread_mutex_destroy(&rt->lock);
	pthread_mutex_destroy(&rt->xfer);
	free(rt);
}
