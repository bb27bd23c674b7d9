/* fetch.c - busybox tftp/wget as children, watched for size and progress. */
#include "net/fetch.h"
#include "net/dns.h"
#include "net/tftp.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int spawn(char *const argv[], char *const envp[], const char *log,
		 pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	int rc;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, log ? log : "/dev/null",
					 O_WRONLY | O_CREAT | O_TRUNC, 0600);
	posix_spawn_file_actions_adddup2(&fa, 1, 2);
	rc = posix_spawnp(pid, argv[0], &fa, NULL, argv, envp ? envp : environ);
	posix_spawn_file_actions_destroy(&fa);
	return -rc;
}

/* Wait for @pid; each 50 ms @check may stop it (a nonzero -errno). */
static int watch(pid_t pid, const _Atomic int *cancel, int (*check)(void *data),
		 void *data)
{
	int status, stop = 0;

	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid)
			break;
		if (r < 0 && errno != EINTR)
			return -errno;
		if (!stop && cancel && *cancel)
			stop = -ECANCELED;
		if (!stop && check)
			stop = check(data);
		if (stop)
			kill(pid, SIGKILL);
		usleep(50 * 1000);
	}
	if (stop)
		return stop;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int net_run(char *const argv[], char *const envp[], const char *log,
	    _Atomic pid_t *child, const _Atomic int *cancel)
{
	pid_t pid;
	int rc = spawn(argv, envp, log, &pid);

	if (rc < 0)
		return rc;
	if (child)
		*child = pid;
	rc = watch(pid, cancel, NULL, NULL);
	if (child)
		*child = 0;
	return rc;
}

struct progress {
	struct net_fetch *f;
	const char *part, *log;
	long long size, last_ms;
	bool http; /* look for Content-Length in the log (wget -S) */
};

/* What the tool wrote so far (its stdout and stderr), up to size - 1
 * bytes and a NUL; returns the length ("" when there is no log). */
static size_t read_log(const char *log, char *buf, size_t size)
{
	FILE *fp = fopen(log, "re");
	size_t n = fp ? fread(buf, 1, size - 1, fp) : 0;

	if (fp)
		fclose(fp);
	buf[n] = '\0';
	return n;
}

/* "Content-Length: N" among the headers wget -S printed so far; 0 when
 * there is none or its value is not a plain decimal number (wget itself
 * refuses such a transfer, with its own words). */
static unsigned long long content_length(const char *log)
{
	char buf[4096], *h;

	read_log(log, buf, sizeof(buf));
	for (h = buf; (h = strcasestr(h, "content-length:")); h++) {
		char *v = h + 15, *end;
		unsigned long long n;

		while (*v == ' ' || *v == '\t')
			v++;
		if (*v < '0' || *v > '9')
			return 0;
		errno = 0;
		n = strtoull(v, &end, 10);
		return errno || (*end && *end != '\r' && *end != '\n') ? 0 : n;
	}
	return 0;
}

static int progress(void *data)
{
	struct progress *p = data;
	struct net_fetch *f = p->f;
	struct stat st;
	long long t = now_ms();

	if (p->http && !f->total && (f->total = content_length(p->log)) &&
	    f->total > f->cap)
		return -E2BIG;
	if (stat(p->log, &st) == 0 && st.st_size > NET_FETCH_LOG_MAX)
		return -EMSGSIZE;
	if (stat(p->part, &st) == 0 && st.st_size != p->size) {
		p->size = st.st_size;
		p->last_ms = t;
		if ((unsigned long long)st.st_size > f->cap)
			return -EFBIG;
	}
	if (f->progress && f->progress->fn &&
	    f->progress->fn(f->progress->data, f->remote,
			    p->size > 0 ? (unsigned long long)p->size : 0,
			    f->total))
		return -ECANCELED;
	return t - p->last_ms > NET_FETCH_STALL_S * 1000 ? -ETIMEDOUT : 0;
}

/* A transfer that ended well: the progress told once more, with every
 * byte and the total, since the 50 ms watch may not have seen the
 * headers or the last bytes before the tool exited (a fast server). */
static void progress_done(struct progress *p, unsigned long long got)
{
	struct net_fetch *f = p->f;

	if (p->http && !f->total)
		f->total = content_length(p->log);
	if (f->progress && f->progress->fn)
		f->progress->fn(f->progress->data, f->remote, got, f->total);
}

/* The tool's last words, in f->why, and what they mean as -errno. */
static int reason(struct net_fetch *f, const char *log)
{
	char buf[1024], *line, *nl;
	size_t n = read_log(log, buf, sizeof(buf));

	while (n && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
		buf[--n] = '\0';
	line = (nl = strrchr(buf, '\n')) ? nl + 1 : buf;
	if (!*line)
		line = "the transfer failed";
	n = strlen(line);
	if (n >= sizeof(f->why))
		n = sizeof(f->why) - 1;
	memcpy(f->why, line, n);
	f->why[n] = '\0';
	if (strstr(buf, "(1)") || strstr(buf, " 404") ||
	    strstr(buf, "not found") || strstr(buf, "Not Found"))
		return -ENOENT;
	if (strstr(buf, "refused"))
		return -ECONNREFUSED;
	if (strstr(buf, "timeout") || strstr(buf, "timed out"))
		return -ETIMEDOUT;
	return -EIO;
}

/* @n bytes in words: MiB from 10 MiB on, else KiB (a config's 4 MiB cap
 * and a 4.5 MiB file must not both read "4 MiB"). */
static void size_words(unsigned long long n, char *buf, size_t len)
{
	if (n >= 10ull << 20)
		snprintf(buf, len, "%llu MiB", n >> 20);
	else
		snprintf(buf, len, "%llu KiB", (n + 1023) >> 10);
}

/* What the cap stands for: "the 512 MiB free", "the 4096 KiB a config
 * file may have". */
static void cap_words(const struct net_fetch *f, char *buf, size_t len)
{
	char size[32];

	size_words(f->cap, size, sizeof(size));
	if (f->cap_of)
		snprintf(buf, len, "the %s %s may have", size, f->cap_of);
	else
		snprintf(buf, len, "the %s free", size);
}

/* A size the server announced past the cap: nothing is fetched. */
static int too_big(struct net_fetch *f)
{
	char size[32], cap[96];

	size_words(f->total, size, sizeof(size));
	cap_words(f, cap, sizeof(cap));
	snprintf(f->why, sizeof(f->why),
		 "the server announces %s, more than %s: not fetched", size,
		 cap);
	return -EFBIG;
}

/* Before a TFTP transfer: the size the server announces (tsize), so that
 * a file past the cap is refused before a byte of it comes, and the
 * progress has its total; a missing file, and a server that answers
 * nothing in 3 s, end here. Any other answer leaves it to busybox's
 * tftp. */
static int tftp_ask_size(struct net_fetch *f, const char *server,
			 const char *name)
{
	unsigned long long size = 0;
	const char *why = NULL;
	int rc = net_tftp_size(server, NET_TFTP_PORT, name, &size, &why);

	if (rc == 1) {
		f->total = size;
		if (size > f->cap)
			return too_big(f);
	} else if (rc == -ENOENT || rc == -EACCES) {
		snprintf(f->why, sizeof(f->why), "tftp: server error: %s",
			 why ? why : "file not found");
		return rc;
	} else if (rc == -ETIMEDOUT) { /* busybox's tftp would wait longer */
		snprintf(f->why, sizeof(f->why),
			 "the TFTP server %.64s does not answer", server);
		return rc;
	}
	return 0;
}

/* The transfer ended with @got bytes, not the f->total announced. */
static int short_or_long(struct net_fetch *f, unsigned long long got)
{
	snprintf(f->why, sizeof(f->why),
		 "the server announced %llu bytes and sent %llu: not used",
		 f->total, got);
	return -EBADMSG;
}

/* A tftp:// URL's server that is a name: looked up (busybox's tftp and
 * ours take addresses), in the family of the root's own server first. */
static int tftp_host(struct net_fetch *f, char *host, size_t size)
{
	char addr[NET_DNS_TEXT];
	const char *why;
	bool v6 = f->server && f->server[0] == '[';
	int rc;

	if (!net_dns_is_name(host))
		return 0;
	rc = net_dns_lookup(host, v6 ? AF_INET6 : AF_INET,
			    v6 ? AF_INET : AF_INET6, addr, sizeof(addr), &why);
	if (rc < 0) {
		snprintf(f->why, sizeof(f->why), "the server %.64s: %s", host,
			 why);
		return rc == -EAGAIN ? -ETIMEDOUT : -EHOSTUNREACH;
	}
	snprintf(host, size, "%s", addr);
	return 0;
}

int net_fetch(struct net_fetch *f)
{
	char part[4096], log[4096], host[256];
	bool url = strstr(f->remote, "://") != NULL;
	bool http = !strncmp(f->remote, "http://", 7);
	struct progress p = {f, part, log, -1, now_ms(), http};
	const char *name = f->remote, *server = f->server;
	char *argv[12];
	int i = 0, rc;
	struct stat st;
	pid_t pid;

	f->why[0] = '\0';
	f->total = 0;
	if ((size_t)snprintf(part, sizeof(part), "%s.part", f->dest) >=
		sizeof(part) ||
	    (size_t)snprintf(log, sizeof(log), "%s.log", f->dest) >=
		sizeof(log))
		return -ENAMETOOLONG;
	unlink(part);
	if (http) {
		argv[i++] = "wget"; /* stalls: watch() stops it */
		argv[i++] = "-q";
		argv[i++] = "-S"; /* the headers, for Content-Length */
		argv[i++] = "-O";
		argv[i++] = part;
		argv[i++] = (char *)f->remote;
	} else {
		if (url) { /* tftp://host/path */
			const char *s = f->remote + 7, *slash = strchr(s, '/');
			size_t n = slash ? (size_t)(slash - s) : strlen(s);

			if (n >= sizeof(host) || !slash)
				return -EINVAL;
			memcpy(host, s, n);
			host[n] = '\0';
			server = host;
			name = slash + 1;
			if ((rc = tftp_host(f, host, sizeof(host))) < 0)
				return rc;
		}
		while (*name == '/')
			name++;
		argv[i++] = "tftp";
		argv[i++] = "-g";
		argv[i++] = "-b";
		argv[i++] = "1432";
		argv[i++] = "-r";
		argv[i++] = (char *)name;
		argv[i++] = "-l";
		argv[i++] = part;
		argv[i++] = (char *)server;
		rc = tftp_ask_size(f, server, name);
		if (rc < 0)
			return rc;
	}
	argv[i] = NULL;
	rc = spawn(argv, NULL, log, &pid);
	if (rc < 0) {
		snprintf(f->why, sizeof(f->why), "cannot run %s: %s", argv[0],
			 strerror(-rc));
		return rc;
	}
	if (f->child)
		*f->child = pid;
	rc = watch(pid, f->cancel, progress, &p);
	if (f->child)
		*f->child = 0;
	if (rc == 0 && stat(part, &st) == 0) {
		if ((unsigned long long)st.st_size > f->cap)
			rc = -EFBIG;
		else
			progress_done(&p, (unsigned long long)st.st_size);
		/* busybox's wget ends well at an early close, tftp past a
		 * tsize: a file that is not what the server announced is not
		 * used */
		if (!rc && f->total &&
		    (unsigned long long)st.st_size != f->total)
			rc = short_or_long(f, (unsigned long long)st.st_size);
	}
	if (rc == 0 && rename(part, f->dest) < 0)
		rc = -errno;
	if (rc > 0)
		rc = reason(f, log);
	else if (rc == -E2BIG)
		rc = too_big(f);
	else if (rc == -EFBIG) {
		char cap[96];

		cap_words(f, cap, sizeof(cap));
		snprintf(f->why, sizeof(f->why),
			 "larger than %s: stopped there", cap);
	} else if (rc == -ETIMEDOUT)
		snprintf(f->why, sizeof(f->why),
			 "no data for %d seconds: stopped", NET_FETCH_STALL_S);
	else if (rc == -ECANCELED)
		snprintf(f->why, sizeof(f->why), "cancelled");
	else if (rc == -EMSGSIZE)
		snprintf(f->why, sizeof(f->why),
			 "the server's headers go on past %d KiB: stopped",
			 NET_FETCH_LOG_MAX / 1024);
	if (rc < 0)
		unlink(part);
	unlink(log);
	return rc;
}
