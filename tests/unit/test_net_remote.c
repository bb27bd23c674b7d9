/* test_net_remote.c - a server's files behind the fs door (net/remote.c)
 * and the transfers under it (net/fetch.c), with stand-ins for busybox's
 * tftp and wget: shell scripts first in PATH that serve a scratch
 * directory, log each name asked for, and can misbehave (an endless
 * transfer). Nothing touches the network. */
#include "net/fetch.h"
#include "net/remote.h"
#include "scan/fs.h"
#include "test.h"
#include "util/arena.h"

#include <errno.h>
#include <ftw.h>
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

/* A new scratch tree and a remote root over it. */
static struct net_remote *fresh(void)
{
	setup();
	return net_remote_new("127.0.0.1", cache);
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

	CHECK_INT(fs_open(fs, "/pxelinux.cfg/01-52-54-00-12-34-56", false),
		  -ENOENT);
	CHECK_INT(asked_count(NULL, 0), 1);
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

	fd = fs_open(fs, "/pxelinux.cfg/../../../default", false);
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
	    0);
	CHECK_STR(buf, "DEFAULT linux\n");
	free(buf);
	asked_count(last, sizeof(last));
	CHECK_STR(last, "wget http://10.0.2.100/default");
	CHECK_INT(fs_open(fs, "/http://10.0.2.100/nothing", false), -ENOENT);
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

TEST_MAIN("test_net_remote", open_fetches_once_then_reads_the_copy,
	  missing_file_is_enoent_and_remembered, stat_does_not_fetch,
	  dot_dot_stays_on_the_server_root,
	  directories_cannot_be_opened_or_listed, http_address_goes_to_wget,
	  endless_transfer_is_cut_at_the_cap, progress_is_told_and_can_cancel,
	  prefetch_failure_says_why_in_the_tools_words,
	  announced_size_past_the_cap_is_not_fetched,
	  fast_http_transfer_tells_its_total, endless_headers_are_stopped,
	  garbage_content_length_is_no_size, short_body_is_not_used)
