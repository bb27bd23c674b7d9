/* test_net_remote.c - a server's files behind the fs door (net/remote.c)
 * and the transfers under it (net/fetch.c), with stand-ins for busybox's
 * tftp and wget: shell scripts first in PATH that serve a scratch
 * directory, log each name asked for, and can misbehave (an endless
 * transfer, one that stalls, a refusal). Nothing touches the network.
 * open() queues a fetch and answers -EINPROGRESS; the tests wait for the
 * root's "fetched" callback, as the network source does. */
#include "net/fetch.h"
#include "net/remote.h"
#include "scan/fs.h"
#include "test.h"
#include "util/arena.h"

#include <errno.h>
#include <ftw.h>
#include <pthread.h>
#include <time.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char top[64], srv[128], bin[128], cache[128], asked[128];

/* tftp -g -b N -r NAME -l DEST HOST: copy $SRV/NAME, or say what busybox
 * says for a missing file; NAME "endless" never ends. */
static const char fake_tftp[] =
    "#!/bin/sh\n"
    "while [ $# -gt 1 ]; do case $1 in -r) r=$2; shift;; -l) l=$2; shift;;"
    " esac; shift; done\n"
    "echo \"tftp $1 $r\" >> \"$ASKED\"\n"
    "[ \"$r\" = endless ] && exec cat /dev/zero > \"$l\"\n"
    "[ \"$r\" = stall ] && exec sleep 100\n"
    "[ \"$r\" = refused ] && { echo 'tftp: recvfrom: Connection refused'"
    " >&2; exit 1; }\n"
    "[ \"$r\" = slow ] && { while :; do head -c 65536 /dev/zero; sleep 0.1;"
    " done > \"$l\"; }\n"
    "[ -f \"$SRV/$r\" ] || { echo 'tftp: server error: (1) File not found'"
    " >&2; exit 1; }\n"
    "cp \"$SRV/$r\" \"$l\"\n";
/* wget -q -S -O DEST URL: the headers (-S) on stderr, as busybox's */
static const char fake_wget[] =
    "#!/bin/sh\n"
    "while [ $# -gt 1 ]; do case $1 in -O) o=$2; shift;; esac; shift; done\n"
    "echo \"wget $1\" >> \"$ASKED\"\n"
    "n=${1#http://*/}\n"
    "[ \"$n\" = huge ] && { echo '  Content-Length: 99999999999999' >&2;"
    " sleep 5; exit 1; }\n"
    "[ \"$n\" = endless-header ] && while :; do"
    " echo '  x-pad: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' >&2; done\n"
    "[ \"$n\" = short ] && { echo '  Content-Length: 1000' >&2;"
    " echo 0123456789 > \"$o\"; exit 0; }\n"
    "[ \"$n\" = garbage-length ] && { echo '  Content-Length: -1' >&2;"
    " sleep 1; echo 'wget: content-length -1 is garbage' >&2; exit 1; }\n"
    "[ -f \"$SRV/$n\" ] || { echo 'wget: server returned error: HTTP/1.1 "
    "404 Not Found' >&2; exit 1; }\n"
    "echo \"  Content-Length: $(wc -c < \"$SRV/$n\")\" >&2\n"
    "cp \"$SRV/$n\" \"$o\"\n";

static void put(const char *dir, const char *name, const char *text,
		mode_t mode)
{
	char p[PATH_MAX];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "w");
	if (!f || fputs(text, f) < 0)
		abort();
	fclose(f);
	chmod(p, mode);
}

static void setup(void)
{
	static char path[PATH_MAX];
	char env[PATH_MAX];

	snprintf(top, sizeof(top), "/tmp/bm-remote.XXXXXX");
	if (!mkdtemp(top))
		abort();
	snprintf(srv, sizeof(srv), "%s/srv", top);
	snprintf(bin, sizeof(bin), "%s/bin", top);
	snprintf(cache, sizeof(cache), "%s/cache", top);
	snprintf(asked, sizeof(asked), "%s/asked", top);
	mkdir(srv, 0755);
	mkdir(bin, 0755);
	mkdir(srv, 0755);
	put(bin, "tftp", fake_tftp, 0755);
	put(bin, "wget", fake_wget, 0755);
	put(srv, "default", "DEFAULT linux\n", 0644);
	mkdir(strcat(strcpy(env, srv), "/pxelinux.cfg"), 0755);
	put(srv, "pxelinux.cfg/default", "LABEL x\n", 0644);
	snprintf(path, sizeof(path), "%s:%s", bin, getenv("PATH"));
	setenv("PATH", path, 1);
	setenv("SRV", srv, 1);
	setenv("ASKED", asked, 1);
}

static void teardown(void)
{
	test_rmtree(top);
}

/* The root's "fetched" callback, counted. */
static pthread_mutex_t told_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t told_cond = PTHREAD_COND_INITIALIZER;
static int told;

static void on_fetched(void *ctx, const struct fs_root *fs)
{
	(void)fs;
	CHECK(ctx == &told);
	pthread_mutex_lock(&told_lock);
	told++;
	pthread_cond_broadcast(&told_cond);
	pthread_mutex_unlock(&told_lock);
}

/* Wait until the callback was called @n times in all, at most 10 s;
 * returns the count. */
static int wait_told(int n)
{
	struct timespec end;
	int got;

	clock_gettime(CLOCK_REALTIME, &end);
	end.tv_sec += 10;
	pthread_mutex_lock(&told_lock);
	while (told < n &&
	       pthread_cond_timedwait(&told_cond, &told_lock, &end) == 0)
		;
	got = told;
	pthread_mutex_unlock(&told_lock);
	return got;
}

static long ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000 +
	       (t.tv_nsec - t0->tv_nsec) / 1000000;
}

/* A new scratch tree and a remote root over it, its callback counted. */
static struct net_remote *fresh(void)
{
	struct net_remote *rt;

	setup();
	rt = net_remote_new("127.0.0.1", cache);
	if (!rt)
		abort();
	told = 0;
	net_remote_on_fetched(rt, on_fetched, &told);
	return rt;
}

/* fs_open() of @path once its queued fetch ended. */
static int open_fetched(const struct fs_root *fs, const char *path)
{
	int before = told, rc = fs_open(fs, path, false);

	if (rc != -EINPROGRESS)
		return rc;
	CHECK_INT(wait_told(before + 1), before + 1);
	return fs_open(fs, path, false);
}

/* How many transfers were asked for so far; the last in last[]. */
static int asked_count(char *last, size_t len)
{
	char line[512];
	FILE *f = fopen(asked, "r");
	int n = 0;

	if (last)
		last[0] = '\0';
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		n++;
		if (last)
			snprintf(last, len, "%.*s", (int)strcspn(line, "\n"),
				 line);
	}
	fclose(f);
	return n;
}

TEST(open_fetches_once_then_reads_the_copy)
{
	struct net_remote *rt = fresh();
	const struct fs_root *fs;
	char *buf, last[512];
	size_t len;

	CHECK(rt != NULL);
	fs = net_remote_fs(rt);
	/* not here yet: queued, and the worker tells when it came */
	CHECK_INT(fs_read_file(fs, "/pxelinux.cfg/default", 4096, &buf, &len),
		  -EINPROGRESS);
	CHECK_INT(wait_told(1), 1);
	CHECK_INT(fs_read_file(fs, "/pxelinux.cfg/default", 4096, &buf, &len),
		  0);
	CHECK_STR(buf, "LABEL x\n");
	free(buf);
	CHECK_INT(asked_count(last, sizeof(last)), 1);
	CHECK_STR(last, "tftp 127.0.0.1 pxelinux.cfg/default");
	CHECK_INT(fs_read_file(fs, "pxelinux.cfg/./default", 4096, &buf, &len),
		  0);
	free(buf);
	CHECK_INT(asked_count(NULL, 0), 1);
	net_remote_free(rt);
	CHECK(access(cache, F_OK) != 0); /* the cache goes with it */
	teardown();
}

TEST(missing_file_is_enoent_and_remembered)
{
	struct net_remote *rt = fresh();
	const struct fs_root *fs = net_remote_fs(rt);
	struct stat st;
	char why[192];

	CHECK_INT(open_fetched(fs, "/pxelinux.cfg/01-52-54-00-12-34-56"),
		  -ENOENT);
	CHECK_INT(asked_count(NULL, 0), 1);
	CHECK_INT(fs_open(fs, "/pxelinux.cfg/01-52-54-00-12-34-56", false),
		  -ENOENT);
	CHECK_INT(fs_stat(fs, "/pxelinux.cfg/01-52-54-00-12-34-56", &st),
		  -ENOENT);
	CHECK_INT(net_remote_fetch(rt, "pxelinux.cfg/01-52-54-00-12-34-56", why,
				   sizeof(why)),
		  -ENOENT);
	CHECK_INT(asked_count(NULL, 0), 1);
	net_remote_free(rt);
	teardown();
}

TEST(stat_does_not_fetch)
{
	struct net_remote *rt = fresh();
	const struct fs_root *fs = net_remote_fs(rt);
	struct stat st;

	CHECK_INT(fs_stat(fs, "/vmlinuz", &st), 0);
	CHECK(S_ISREG(st.st_mode));
	CHECK_INT(fs_stat(fs, "/", &st), 0);
	CHECK(S_ISDIR(st.st_mode));
	CHECK_INT(asked_count(NULL, 0), 0);
	net_remote_free(rt);
	teardown();
}

TEST(dot_dot_stays_on_the_server_root)
{
	struct net_remote *rt = fresh();
	const struct fs_root *fs = net_remote_fs(rt);
	struct arena a = {0};
	char last[512], *real;
	int fd;

	fd = open_fetched(fs, "/pxelinux.cfg/../../../default");
	CHECK(fd >= 0);
	close(fd);
	asked_count(last, sizeof(last));
	CHECK_STR(last, "tftp 127.0.0.1 default");
	CHECK_INT(fs_realpath(fs, "a/../../b/./c", &a, &real), 0);
	CHECK_STR(real, "/b/c");
	arena_free(&a);
	net_remote_free(rt);
	teardown();
}

TEST(directories_cannot_be_opened_or_listed)
{
	struct net_remote *rt = fresh();
	const struct fs_root *fs = net_remote_fs(rt);
	struct arena a = {0};
	char **names;
	size_t n;

	CHECK_INT(fs_open(fs, "/pxelinux.cfg", true), -EOPNOTSUPP);
	CHECK_INT(fs_list(fs, "/pxelinux.cfg", &a, &names, &n), -EOPNOTSUPP);
	CHECK_INT(fs_open(fs, "/", false), -EISDIR);
	arena_free(&a);
	net_remote_free(rt);
	teardown();
}

TEST(http_address_goes_to_wget)
{
	struct net_remote *rt = fresh();
	const struct fs_root *fs = net_remote_fs(rt);
	char *buf, last[512];
	size_t len;

	CHECK_INT(
	    fs_read_file(fs, "/http://10.0.2.100/default", 4096, &buf, &len),
	    -EINPROGRESS);
	CHECK_INT(wait_told(1), 1);
	CHECK_INT(
	    fs_read_file(fs, "/http://10.0.2.100/default", 4096, &buf, &len),
	    0);
	CHECK_STR(buf, "DEFAULT linux\n");
	free(buf);
	asked_count(last, sizeof(last));
	CHECK_STR(last, "wget http://10.0.2.100/default");
	CHECK_INT(open_fetched(fs, "/http://10.0.2.100/nothing"), -ENOENT);
	CHECK_INT(fs_open(fs, "https://10.0.2.100/x", false), -EPROTONOSUPPORT);
	net_remote_free(rt);
	teardown();
}

TEST(endless_transfer_is_cut_at_the_cap)
{
	char dest[PATH_MAX];
	_Atomic pid_t child = 0;
	struct net_fetch f = {.server = "127.0.0.1",
			      .remote = "endless",
			      .dest = dest,
			      .cap = 256 << 10,
			      .child = &child};

	setup();
	mkdir(cache, 0700);
	snprintf(dest, sizeof(dest), "%s/endless", cache);
	CHECK_INT(net_fetch(&f), -EFBIG);
	CHECK(strstr(f.why, "larger than") != NULL);
	CHECK(access(dest, F_OK) != 0);
	CHECK_INT(child, 0);
	f.remote = "absent";
	CHECK_INT(net_fetch(&f), -ENOENT);
	CHECK_STR(f.why, "tftp: server error: (1) File not found");
	teardown();
}

struct seen {
	int calls;
	unsigned long long last;
};

static int stop_at_128k(void *data, const char *path, unsigned long long done,
			unsigned long long total)
{
	struct seen *s = data;

	(void)path, (void)total;
	s->calls++;
	s->last = done;
	return done >= (128 << 10);
}

TEST(progress_is_told_and_can_cancel)
{
	struct net_remote *rt = fresh();
	struct seen seen = {0};
	const struct fs_progress cb = {.fn = stop_at_128k, .data = &seen};

	CHECK_INT(fs_prefetch(net_remote_fs(rt), "/slow", &cb), -ECANCELED);
	CHECK(seen.calls > 1);
	CHECK(seen.last >= (128 << 10));
	/* nothing half-fetched stays: the next open asks again */
	CHECK_INT(asked_count(NULL, 0), 1);
	net_remote_free(rt);
	teardown();
}

TEST(prefetch_failure_says_why_in_the_tools_words)
{
	struct net_remote *rt = fresh();
	char why[192] = "";
	const struct fs_progress cb = {NULL, NULL, why, sizeof(why)};

	CHECK_INT(fs_prefetch(net_remote_fs(rt), "/vmlinuz-gone", &cb),
		  -ENOENT);
	CHECK_STR(why, "tftp: server error: (1) File not found");
	net_remote_free(rt);
	teardown();
}

TEST(announced_size_past_the_cap_is_not_fetched)
{
	char dest[PATH_MAX];
	struct net_fetch f = {
	    .remote = "http://10.0.2.100/huge", .dest = dest, .cap = 1 << 20};

	setup();
	mkdir(cache, 0700);
	snprintf(dest, sizeof(dest), "%s/huge", cache);
	CHECK_INT(net_fetch(&f), -EFBIG);
	CHECK(strstr(f.why, "announces") != NULL);
	CHECK(f.total == 99999999999999ull);
	CHECK(access(dest, F_OK) != 0);
	teardown();
}

static int remember(void *data, const char *path, unsigned long long done,
		    unsigned long long total)
{
	unsigned long long *seen = data;

	(void)path;
	seen[0] = done;
	seen[1] = total;
	return 0;
}

/* Headers without end (issue #36, hostile answers): the transfer stops
 * once the tool's log passes NET_FETCH_LOG_MAX, with a sentence, instead
 * of filling the RAM the log is kept in until the stall timer. */
TEST(endless_headers_are_stopped)
{
	char dest[PATH_MAX];
	struct net_fetch f = {.remote = "http://10.0.2.100/endless-header",
			      .dest = dest,
			      .cap = 1 << 20};

	setup();
	mkdir(cache, 0700);
	snprintf(dest, sizeof(dest), "%s/endless-header", cache);
	CHECK_INT(net_fetch(&f), -EMSGSIZE);
	CHECK_STR(f.why, "the server's headers go on past 64 KiB: stopped");
	CHECK(access(dest, F_OK) != 0);
	teardown();
}

/* A Content-Length that is not a number ("-1", seen by the watch for a
 * second before the tool gives up) is no size: not read as a huge
 * announcement; the tool's own refusal is the reason. */
TEST(garbage_content_length_is_no_size)
{
	char dest[PATH_MAX];
	struct net_fetch f = {.remote = "http://10.0.2.100/garbage-length",
			      .dest = dest,
			      .cap = 1 << 20};

	setup();
	mkdir(cache, 0700);
	snprintf(dest, sizeof(dest), "%s/garbage-length", cache);
	CHECK_INT(net_fetch(&f), -EIO);
	CHECK(f.total == 0);
	CHECK_STR(f.why, "wget: content-length -1 is garbage");
	teardown();
}

/* A server that closes before the Content-Length it gave (busybox's
 * wget ends well then): the short file is not used. */
TEST(short_body_is_not_used)
{
	char dest[PATH_MAX];
	struct net_fetch f = {
	    .remote = "http://10.0.2.100/short", .dest = dest, .cap = 1 << 20};

	setup();
	mkdir(cache, 0700);
	snprintf(dest, sizeof(dest), "%s/short", cache);
	CHECK_INT(net_fetch(&f), -EBADMSG);
	CHECK_STR(f.why,
		  "the server announced 1000 bytes and sent 11: not used");
	CHECK(access(dest, F_OK) != 0);
	teardown();
}

/* A server that sends the whole file before the first 50 ms look: the
 * progress is still told the bytes and the Content-Length it gave. */
TEST(fast_http_transfer_tells_its_total)
{
	char dest[PATH_MAX];
	unsigned long long seen[2] = {0, 0};
	const struct fs_progress cb = {.fn = remember, .data = seen};
	struct net_fetch f = {.remote = "http://10.0.2.100/default",
			      .dest = dest,
			      .cap = 1 << 20,
			      .progress = &cb};

	setup();
	mkdir(cache, 0700);
	snprintf(dest, sizeof(dest), "%s/default", cache);
	CHECK_INT(net_fetch(&f), 0);
	CHECK(f.total == sizeof("DEFAULT linux\n") - 1);
	CHECK(seen[0] == f.total);
	CHECK(seen[1] == f.total);
	teardown();
}

/* Wait up to 5 s for the fake tools to have been asked @n times. */
static int asked_wait(int n)
{
	for (int i = 0; i < 100 && asked_count(NULL, 0) < n; i++)
		usleep(50 * 1000);
	return asked_count(NULL, 0);
}

/* open() never waits for a transfer: a stalled one holds the worker,
 * the same file asked again is not queued twice, another waits behind
 * it; freeing the root stops the transfer, drops the queue and joins the
 * worker at once, with no callback. */
TEST(open_queues_once_and_never_waits)
{
	struct net_remote *rt = fresh();
	const struct fs_root *fs = net_remote_fs(rt);
	struct timespec t0;
	long ms;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int i = 0; i < 3; i++)
		CHECK_INT(fs_open(fs, "/stall", false), -EINPROGRESS);
	CHECK_INT(fs_open(fs, "/pxelinux.cfg/default", false), -EINPROGRESS);
	ms = ms_since(&t0);
	printf("  note: 4 opens while a transfer stalls: %ld ms\n", ms);
	CHECK(ms < 1000); /* a transfer would be 100 s */
	CHECK_INT(asked_wait(1), 1);
	usleep(300 * 1000);
	CHECK_INT(asked_count(NULL, 0), 1); /* "stall" once, "default" waits */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	net_remote_free(rt);
	ms = ms_since(&t0);
	printf("  note: free with a stalled transfer: %ld ms\n", ms);
	CHECK(ms < 3000);
	CHECK_INT(told, 0);
	CHECK_INT(asked_count(NULL, 0), 1);
	teardown();
}

/* A queued fetch that fails is remembered with its reason: open() gives
 * the same -errno at once, fs_strerror() the tool's words, and nothing
 * is fetched again. A file still queued says so. */
TEST(failure_is_remembered_with_its_reason)
{
	struct net_remote *rt = fresh();
	const struct fs_root *fs = net_remote_fs(rt);
	char why[256];

	CHECK_INT(fs_open(fs, "/refused", false), -EINPROGRESS);
	CHECK(
	    strstr(fs_strerror(fs, "/refused", -EINPROGRESS, why, sizeof(why)),
		   "fetching it from the server") != NULL);
	CHECK_INT(wait_told(1), 1);
	CHECK_INT(fs_open(fs, "/refused", false), -ECONNREFUSED);
	CHECK_STR(fs_strerror(fs, "/refused", -ECONNREFUSED, why, sizeof(why)),
		  "tftp: recvfrom: Connection refused");
	CHECK_INT(fs_open(fs, "refused", false), -ECONNREFUSED);
	usleep(200 * 1000);
	CHECK_INT(asked_count(NULL, 0), 1);
	CHECK_INT(told, 1);
	net_remote_free(rt);
	teardown();
}

/* What open() fetches is a config: capped at FS_CONFIG_MAX, with a
 * sentence; an HTTP server's Content-Length past it stops the transfer
 * as soon as the headers come. */
TEST(open_is_capped_as_a_config)
{
	struct net_remote *rt = fresh();
	const struct fs_root *fs = net_remote_fs(rt);
	char why[256];
	struct timespec t0;

	CHECK_INT(open_fetched(fs, "/endless"), -EFBIG);
	CHECK_STR(fs_strerror(fs, "/endless", -EFBIG, why, sizeof(why)),
		  "larger than the 4096 KiB a config file may have: stopped "
		  "there");
	clock_gettime(CLOCK_MONOTONIC, &t0);
	CHECK_INT(open_fetched(fs, "/http://10.0.2.100/huge"), -EFBIG);
	CHECK(ms_since(&t0) < 4000); /* the fake server sends for 5 s */
	CHECK(strstr(fs_strerror(fs, "/http://10.0.2.100/huge", -EFBIG, why,
				 sizeof(why)),
		     "more than the 4096 KiB a config file may have: not "
		     "fetched") != NULL);
	net_remote_free(rt);
	teardown();
}

/* The boot room's prefetch drops what is queued and stops the worker's
 * transfer, so the boot does not wait behind it; the owner is told, and
 * a later open() queues the dropped file again (it did not fail). */
TEST(prefetch_drops_the_queue)
{
	struct net_remote *rt = fresh();
	const struct fs_root *fs = net_remote_fs(rt);
	struct timespec t0;

	CHECK_INT(fs_open(fs, "/stall", false), -EINPROGRESS);
	CHECK_INT(asked_wait(1), 1);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	CHECK_INT(fs_prefetch(fs, "/pxelinux.cfg/default", NULL), 0);
	printf("  note: prefetch behind a stalled queued fetch: %ld ms\n",
	       ms_since(&t0));
	CHECK(ms_since(&t0) < 3000);
	CHECK(wait_told(1) >= 1);
	CHECK_INT(fs_open(fs, "/stall", false), -EINPROGRESS);
	CHECK_INT(asked_wait(3), 3); /* stall, default, stall again */
	net_remote_free(rt);
	teardown();
}

/* A server that answers "missing" to everything: its first
 * NET_REMOTE_KNOWN_MAX failures are remembered, and past them nothing new
 * is fetched (-ENOSPC, with a sentence), so a config naming endless
 * missing files cannot keep the worker busy forever. What was fetched or
 * remembered before still answers. */
TEST(known_failures_are_capped)
{
	struct net_remote *rt = fresh();
	const struct fs_root *fs = net_remote_fs(rt);
	char path[32], why[256];
	int fd, gone = 0;

	fd = open_fetched(fs, "/default");
	CHECK(fd >= 0);
	if (fd >= 0)
		close(fd);
	for (int i = 0; i < NET_REMOTE_KNOWN_MAX; i++) {
		snprintf(path, sizeof(path), "/gone-%d", i);
		gone += open_fetched(fs, path) == -ENOENT;
	}
	CHECK_INT(gone, NET_REMOTE_KNOWN_MAX);
	CHECK_INT(asked_count(NULL, 0), NET_REMOTE_KNOWN_MAX + 1);
	CHECK_INT(fs_open(fs, "/gone-more", false), -ENOSPC);
	CHECK(strstr(fs_strerror(fs, "/gone-more", -ENOSPC, why, sizeof(why)),
		     "more than 128 files of this server were missing") !=
	      NULL);
	CHECK_INT(fs_open(fs, "/pxelinux.cfg/default", false), -ENOSPC);
	CHECK_INT(fs_open(fs, "/gone-7", false), -ENOENT);
	fd = fs_open(fs, "/default", false);
	CHECK(fd >= 0);
	if (fd >= 0)
		close(fd);
	usleep(200 * 1000);
	CHECK_INT(asked_count(NULL, 0), NET_REMOTE_KNOWN_MAX + 1);
	net_remote_free(rt);
	teardown();
}

TEST_MAIN("test_net_remote", open_fetches_once_then_reads_the_copy,
	  missing_file_is_enoent_and_remembered, stat_does_not_fetch,
	  dot_dot_stays_on_the_server_root,
	  directories_cannot_be_opened_or_listed, http_address_goes_to_wget,
	  endless_transfer_is_cut_at_the_cap, progress_is_told_and_can_cancel,
	  prefetch_failure_says_why_in_the_tools_words,
	  announced_size_past_the_cap_is_not_fetched,
	  fast_http_transfer_tells_its_total, endless_headers_are_stopped,
	  garbage_content_length_is_no_size, short_body_is_not_used,
	  open_queues_once_and_never_waits,
	  failure_is_remembered_with_its_reason, open_is_capped_as_a_config,
	  prefetch_drops_the_queue, known_failures_are_capped)
