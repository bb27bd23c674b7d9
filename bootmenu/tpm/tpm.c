/* tpm.c - commands to the TPM through the kernel's character device.
 *
 * The kernel's TPM device takes one whole command per write(2) and gives
 * the response to the next read(2) (drivers/char/tpm/tpm-dev-common.c,
 * tpm_common_write(), tpm_common_read()). Opened with O_NONBLOCK (Linux
 * >= 4.20, "tpm: add support for nonblocking operation"), the write only
 * queues the command and poll(2) says POLLIN when the response (or the
 * driver's error, which read(2) returns) is there: that is what bounds a
 * command in time. On an older kernel the write itself waits for the TPM.
 * A stream socket (swtpm, the test double) may split a response; the
 * reader goes on until it has the size the header gives.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tpm/cmd.h"
#include "tpm/tpm.h"

/* After a warning that asks for the command again (TPM 2.0 Part 2, 6.6.3:
 * TPM_RC_RETRY, TPM_RC_YIELDED, TPM_RC_TESTING), wait this long and send
 * it again, within the same time limit. */
#define RETRY_MS 20

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* After a time-out the fd is not closed: closing waits for the command
 * in flight (tpm_common_release() flushes the queued work), which is what
 * the time limit is there to avoid. It stays open, unused (O_CLOEXEC). */
static void give_up(struct tpm *t, int rc)
{
	t->broken = rc;
}

/* Waits for @events on t->fd until @deadline; 0, -ETIMEDOUT or -errno. */
static int wait_fd(struct tpm *t, short events, long long deadline)
{
	for (;;) {
		struct pollfd p = {t->fd, events, 0};
		long long left = deadline - now_ms();
		int n;

		if (left <= 0)
			return -ETIMEDOUT;
		n = poll(&p, 1, (int)(left > 60000 ? 60000 : left));
		if (n > 0)
			return p.revents & (events | POLLHUP | POLLERR) ? 0
									: -EIO;
		if (n < 0 && errno != EINTR)
			return -errno;
	}
}

static int send_cmd(struct tpm *t, const uint8_t *cmd, size_t len,
		    long long deadline)
{
	ssize_t n;
	int rc = wait_fd(t, POLLOUT, deadline);

	if (rc)
		return rc;
	/* a socket (swtpm, a test's) whose peer is gone must not raise
	 * SIGPIPE: send(2) with MSG_NOSIGNAL; the kernel's device is no
	 * socket and takes write(2) */
	do
		n = t->socket ? send(t->fd, cmd, len, MSG_NOSIGNAL)
			      : write(t->fd, cmd, len);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}

/* Reads one response into rsp[0..cap): until the size its header gives. */
static int recv_rsp(struct tpm *t, uint8_t *rsp, size_t cap, size_t *len,
		    long long deadline)
{
	size_t got = 0, want = TPM_HEADER_LEN;

	while (got < want) {
		ssize_t n;
		int rc = wait_fd(t, POLLIN, deadline);

		if (rc)
			return rc;
		n = read(t->fd, rsp + got, cap - got);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		got += (size_t)n;
		if (got >= 6 && tpm_rsp_size(rsp, got, &want))
			return -EBADMSG;
		if (want > cap)
			return -EMSGSIZE;
	}
	*len = got;
	return got == want ? 0 : -EBADMSG;
}

static bool is_retry(const uint8_t *rsp, size_t len)
{
	uint32_t rc;

	if (tpm_rsp_code(rsp, len, &rc) != -EREMOTEIO)
		return false;
	return rc == TPM_RC_RETRY || rc == TPM_RC_YIELDED ||
	       rc == TPM_RC_TESTING;
}

/* Sends @cmd and reads its response, again after a "try again" warning,
 * all within one time limit. A time-out or a broken exchange gives the
 * TPM up: what it would answer later could not be told from the answer
 * to a next command. */
static int transact(struct tpm *t, const uint8_t *cmd, size_t len, uint8_t *rsp,
		    size_t cap, size_t *rlen)
{
	long long deadline = now_ms() + t->timeout_ms;
	int rc;

	if (t->broken)
		return t->broken;
	if (t->fd < 0)
		return -EBADF;
	if (!len)
		return -EINVAL;
	for (;;) {
		rc = send_cmd(t, cmd, len, deadline);
		if (rc == 0)
			rc = recv_rsp(t, rsp, cap, rlen, deadline);
		if (rc || !is_retry(rsp, *rlen) ||
		    now_ms() + RETRY_MS >= deadline)
			break;
		nanosleep(&(struct timespec){0, RETRY_MS * 1000000L}, NULL);
	}
	if (rc)
		give_up(t, rc);
	return rc;
}

/* Keeps the TPM's refusal where the menu finds it. */
int tpm_transact(struct tpm *t, const uint8_t *cmd, size_t len, uint8_t *rsp,
		 size_t cap, size_t *rlen)
{
	return transact(t, cmd, len, rsp, cap, rlen);
}

static int note(struct tpm *t, int rc, uint32_t code)
{
	if (rc == -EREMOTEIO)
		t->rc = code;
	return rc;
}

int tpm_get_banks(struct tpm *t, unsigned *banks)
{
	uint8_t cmd[64], rsp[TPM_BUF_MAX];
	size_t len = tpm_cmd_get_pcrs(cmd, sizeof(cmd)), rlen = 0;
	uint32_t code = 0;
	int rc = transact(t, cmd, len, rsp, sizeof(rsp), &rlen);

	if (rc)
		return rc;
	rc = tpm_rsp_get_pcrs(rsp, rlen, &code, banks, &t->other);
	return note(t, rc, code);
}

int tpm_open_fd(struct tpm *t, int fd)
{
	int rc;
	struct stat st;

	memset(t, 0, sizeof(*t));
	t->fd = fd;
	t->timeout_ms = TPM_TIMEOUT_MS;
	t->path = "fd";
	t->socket = fstat(fd, &st) == 0 && S_ISSOCK(st.st_mode);
	rc = tpm_get_banks(t, &t->banks);
	if (rc == 0 && !t->banks)
		rc = -EOPNOTSUPP; /* only banks we cannot hash (SM3...) */
	if (rc)
		tpm_close(t);
	return rc;
}

int tpm_open(struct tpm *t, const char *path)
{
	const char *try[2] = {path ? path : TPM_DEV_RM,
			      path ? NULL : TPM_DEV_RAW};
	int fd = -1, rc;

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	for (size_t i = 0; i < 2 && try[i] && fd < 0; i++) {
		fd = open(try[i], O_RDWR | O_NONBLOCK | O_CLOEXEC);
		path = try[i];
	}
	if (fd < 0)
		return -errno;
	rc = tpm_open_fd(t, fd);
	t->path = path;
	return rc;
}

void tpm_close(struct tpm *t)
{
	if (t->fd >= 0 && t->broken != -ETIMEDOUT) {
		close(t->fd);
		t->fd = -1;
	}
}

int tpm_pcr_extend(struct tpm *t, unsigned pcr, const struct measure_digests *d)
{
	uint8_t cmd[256], rsp[TPM_BUF_MAX]; /* the command: 203 bytes at most */
	size_t len, rlen = 0;
	uint32_t code = 0;
	int rc;

	if (pcr >= TPM_PCR_COUNT || (d->banks & t->banks) != t->banks)
		return -EINVAL;
	len = tpm_cmd_pcr_extend(cmd, sizeof(cmd), pcr, d, t->banks);
	rc = transact(t, cmd, len, rsp, sizeof(rsp), &rlen);
	if (rc)
		return rc;
	rc = tpm_rsp_pcr_extend(rsp, rlen, &code);
	return note(t, rc, code);
}

int tpm_pcr_read(struct tpm *t, unsigned pcr, unsigned banks,
		 struct measure_digests *out)
{
	uint8_t cmd[64], rsp[TPM_BUF_MAX];

	memset(out, 0, sizeof(*out));
	if (pcr >= TPM_PCR_COUNT)
		return -EINVAL;
	for (unsigned b = 1; b <= MEASURE_BANK_SHA512; b <<= 1) {
		size_t len = tpm_cmd_pcr_read(cmd, sizeof(cmd), pcr, b);
		size_t rlen = 0;
		uint32_t code = 0;
		int rc;

		if (!(banks & b))
			continue;
		rc = transact(t, cmd, len, rsp, sizeof(rsp), &rlen);
		if (rc == 0)
			rc = note(t,
				  tpm_rsp_pcr_read(rsp, rlen, &code, pcr, b,
						   measure_digest_mut(out, b)),
				  code);
		if (rc)
			return rc;
		out->banks |= b;
	}
	return 0;
}

int tpm_measure(struct tpm *t, struct measure_list *l)
{
	int first = 0;

	for (size_t i = 0; i < l->n; i++) {
		struct measure_event *e = &l->ev[i];

		if (e->rc != MEASURE_PENDING)
			continue;
		e->rc = t ? tpm_pcr_extend(t, e->pcr, &e->d) : -ENODEV;
		e->tpm_rc = e->rc == -EREMOTEIO ? t->rc : 0;
		if (e->rc && !first)
			first = e->rc;
	}
	return first;
}

const char *tpm_error_text(int rc, uint32_t tpm_rc, char *buf, size_t len)
{
	if (rc == -EREMOTEIO)
		snprintf(buf, len, "TPM error 0x%x", (unsigned)tpm_rc);
	else if (rc == -ETIMEDOUT)
		snprintf(buf, len, "the TPM did not answer in time");
	else if (rc == -ENOENT || rc == -ENODEV)
		snprintf(buf, len, "no TPM");
	else if (rc == -EPROTONOSUPPORT)
		snprintf(buf, len, "a TPM 1.2 (only TPM 2.0 is spoken)");
	else
		snprintf(buf, len, "%s", strerror(-rc));
	return buf;
}
