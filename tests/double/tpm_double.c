/* tpm_double.c - a fake TPM 2.0 on a socketpair (tpm_double.h).
 *
 * Its own parsing of the commands (TPM 2.0 Library Part 3: 30.2
 * GetCapability, 22.2 PCR_Extend, 22.4 PCR_Read): big-endian fields read
 * by offset from the command's start, as a TPM reads them.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "tpm/measure.h"
#include "tpm_double.h"

#define BUF 4096
#define NPCR 24
#define ALG_SM3 0x0012

#define RC_COMMAND_CODE 0x143u
#define RC_COMMAND_SIZE 0x142u
#define RC_AUTH_FAIL 0x98Eu
#define RC_VALUE 0x084u
#define RC_TAG 0x017u

struct tpm_double {
	pthread_t thread;
	pthread_mutex_t lock;
	int fd; /* the double's end */
	unsigned banks;
	struct measure_digests pcr[NPCR];
	uint32_t fail_cc, fail_rc;
	unsigned fail_times, stall_times;
	size_t split;
	uint8_t reply[BUF];
	size_t reply_len;
	struct tpm_double_counts n;
};

static uint32_t be(const uint8_t *p, size_t n)
{
	uint32_t v = 0;

	for (size_t i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

static void put_be(uint8_t *p, uint32_t v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * (n - 1 - i)));
}

/* A response header of @len bytes in total. */
static size_t header(uint8_t *r, uint16_t tag, size_t len, uint32_t rc)
{
	put_be(r, tag, 2);
	put_be(r + 2, (uint32_t)len, 4);
	put_be(r + 6, rc, 4);
	return len;
}

static size_t error(uint8_t *r, uint32_t rc)
{
	return header(r, 0x8001, 10, rc);
}

/* Every algorithm the double implements, allocated or not, as a TPM
 * lists them (allocated ones with all 24 PCRs selected). */
static size_t get_capability(struct tpm_double *d, const uint8_t *c, size_t len,
			     uint8_t *r)
{
	static const uint16_t algs[] = {TPM_ALG_SHA1, TPM_ALG_SHA256,
					TPM_ALG_SHA384, TPM_ALG_SHA512,
					ALG_SM3};
	size_t o = 10;

	if (len != 22 || be(c, 2) != 0x8001 || be(c + 10, 4) != 5)
		return error(r, RC_VALUE);
	r[o++] = 0; /* moreData */
	put_be(r + o, 5, 4);
	put_be(r + o + 4, 5, 4);
	o += 8;
	for (size_t i = 0; i < 5; i++) {
		unsigned bit = algs[i] == ALG_SM3 ? TPM_DOUBLE_SM3
						  : measure_alg_bank(algs[i]);
		uint8_t on = d->banks & bit ? 0xff : 0;

		put_be(r + o, algs[i], 2);
		r[o + 2] = 3;
		memset(r + o + 3, on, 3);
		o += 6;
	}
	return header(r, 0x8001, o, 0);
}

/* The empty password session: handle, empty nonce, attributes, empty
 * hmac; returns the parameters' offset, 0 for anything else. */
static size_t password_session(const uint8_t *c, size_t len)
{
	if (len < 27 || be(c + 14, 4) != 9 || be(c + 18, 4) != 0x40000009u ||
	    be(c + 22, 2) != 0 || be(c + 25, 2) != 0)
		return 0;
	return 27;
}

static void extend_one(struct measure_digests *pcr, unsigned bank,
		       const uint8_t *digest)
{
	struct measure_hash h;
	struct measure_digests out;
	size_t n = measure_bank_size(bank);

	measure_hash_init(&h, bank);
	measure_hash_update(&h, measure_digest(pcr, bank), n);
	measure_hash_update(&h, digest, n);
	measure_hash_final(&h, &out);
	memcpy(measure_digest_mut(pcr, bank), measure_digest(&out, bank), n);
}

static size_t digest_size(uint16_t alg)
{
	return alg == ALG_SM3 ? 32 : measure_bank_size(measure_alg_bank(alg));
}

/* Checks the digest list first and extends only a whole valid one. */
static size_t pcr_extend(struct tpm_double *d, const uint8_t *c, size_t len,
			 uint8_t *r)
{
	uint32_t pcr = be(c + 10, 4), count;
	size_t o = password_session(c, len), start;
	unsigned seen = 0;

	if (be(c, 2) != 0x8002)
		return error(r, RC_TAG);
	if (!o)
		return error(r, RC_AUTH_FAIL);
	if (pcr >= NPCR || o + 4 > len || (count = be(c + o, 4)) > 8)
		return error(r, RC_VALUE);
	start = o += 4;
	for (uint32_t i = 0; i < count; i++) {
		uint16_t alg = o + 2 <= len ? (uint16_t)be(c + o, 2) : 0;
		size_t n = digest_size(alg);

		if (!n || o + 2 + n > len)
			return error(r, RC_VALUE);
		seen |= measure_alg_bank(alg);
		o += 2 + n;
	}
	if (o != len)
		return error(r, RC_COMMAND_SIZE);
	for (o = start; count--; o += 2 + digest_size((uint16_t)be(c + o, 2))) {
		unsigned bank = measure_alg_bank((uint16_t)be(c + o, 2));

		if (bank & d->banks)
			extend_one(&d->pcr[pcr], bank, c + o + 2);
	}
	d->n.extends++;
	if ((seen & d->banks & MEASURE_BANKS_ALL) !=
	    (d->banks & MEASURE_BANKS_ALL))
		d->n.partial++;
	/* parameterSize 0, then the session: nonce, continueSession, hmac */
	put_be(r + 10, 0, 4);
	put_be(r + 14, 0, 2);
	r[16] = 1;
	put_be(r + 17, 0, 2);
	return header(r, 0x8002, 19, 0);
}

static size_t pcr_read(struct tpm_double *d, const uint8_t *c, size_t len,
		       uint8_t *r)
{
	unsigned bank;
	uint32_t pcr = 0;
	size_t n, o = 14;

	if (len != 20 || be(c + 10, 4) != 1 || c[16] != 3)
		return error(r, RC_VALUE);
	bank = measure_alg_bank((uint16_t)be(c + 14, 2));
	for (unsigned i = 0; i < 24; i++)
		if (c[17 + i / 8] & 1u << (i % 8))
			pcr = pcr ? 99 : i + 1;
	if (pcr == 0 || pcr == 99)
		return error(r, RC_VALUE);
	pcr--;
	put_be(r + 10, 7, 4); /* pcrUpdateCounter */
	put_be(r + o, 1, 4);
	memcpy(r + o + 4, c + 14, 6); /* the selection asked for */
	o += 10;
	if (!(bank & d->banks)) { /* no such bank: nothing selected */
		memset(r + o - 3, 0, 3);
		put_be(r + o, 0, 4);
		return header(r, 0x8001, o + 4, 0);
	}
	n = measure_bank_size(bank);
	put_be(r + o, 1, 4);
	put_be(r + o + 4, (uint32_t)n, 2);
	memcpy(r + o + 6, measure_digest(&d->pcr[pcr], bank), n);
	return header(r, 0x8001, o + 6 + n, 0);
}

static size_t answer(struct tpm_double *d, const uint8_t *c, size_t len,
		     uint8_t *r)
{
	uint32_t cc = be(c + 6, 4);

	if (d->fail_times && (!d->fail_cc || d->fail_cc == cc)) {
		d->fail_times--;
		return error(r, d->fail_rc);
	}
	switch (cc) {
	case 0x17A:
		return get_capability(d, c, len, r);
	case 0x182:
		return pcr_extend(d, c, len, r);
	case 0x17E:
		return pcr_read(d, c, len, r);
	}
	return error(r, RC_COMMAND_CODE);
}

static bool read_full(int fd, uint8_t *p, size_t n)
{
	while (n) {
		ssize_t k = read(fd, p, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return false;
		p += k;
		n -= (size_t)k;
	}
	return true;
}

static void write_split(int fd, const uint8_t *r, size_t len, size_t first)
{
	if (first && first < len) {
		if (write(fd, r, first) < 0)
			return;
		nanosleep(&(struct timespec){0, 20 * 1000000L}, NULL);
		r += first;
		len -= first;
	}
	if (write(fd, r, len) < 0)
		return;
}

/* One command: read it whole, answer it (or not). */
static bool serve_one(struct tpm_double *d, uint8_t *c, uint8_t *r)
{
	size_t len, rlen, split;

	if (!read_full(d->fd, c, 10))
		return false;
	len = be(c + 2, 4);
	if (len < 10 || len > BUF || !read_full(d->fd, c + 10, len - 10))
		return false;
	pthread_mutex_lock(&d->lock);
	d->n.commands++;
	if (d->stall_times) {
		d->stall_times--;
		pthread_mutex_unlock(&d->lock);
		return true;
	}
	if (d->reply_len) {
		rlen = d->reply_len;
		memcpy(r, d->reply, rlen);
		d->reply_len = 0;
	} else {
		rlen = answer(d, c, len, r);
	}
	split = d->split;
	pthread_mutex_unlock(&d->lock);
	write_split(d->fd, r, rlen, split);
	return true;
}

static void *serve(void *arg)
{
	struct tpm_double *d = arg;
	uint8_t c[BUF], r[BUF];

	while (serve_one(d, c, r))
		;
	return NULL;
}

struct tpm_double *tpm_double_start(unsigned banks, int *fd)
{
	struct tpm_double *d = calloc(1, sizeof(*d));
	int sv[2];

	if (!d || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) {
		free(d);
		return NULL;
	}
	d->banks = banks;
	d->fd = sv[1];
	for (unsigned i = 0; i < NPCR; i++)
		d->pcr[i].banks = banks & MEASURE_BANKS_ALL;
	pthread_mutex_init(&d->lock, NULL);
	if (pthread_create(&d->thread, NULL, serve, d)) {
		close(sv[0]);
		close(sv[1]);
		free(d);
		return NULL;
	}
	*fd = sv[0];
	return d;
}

void tpm_double_fail(struct tpm_double *d, uint32_t cc, uint32_t rc,
		     unsigned times)
{
	pthread_mutex_lock(&d->lock);
	d->fail_cc = cc;
	d->fail_rc = rc;
	d->fail_times = times;
	pthread_mutex_unlock(&d->lock);
}

void tpm_double_stall(struct tpm_double *d, unsigned times)
{
	pthread_mutex_lock(&d->lock);
	d->stall_times = times;
	pthread_mutex_unlock(&d->lock);
}

void tpm_double_split(struct tpm_double *d, size_t first)
{
	pthread_mutex_lock(&d->lock);
	d->split = first;
	pthread_mutex_unlock(&d->lock);
}

void tpm_double_reply(struct tpm_double *d, const void *buf, size_t len)
{
	pthread_mutex_lock(&d->lock);
	d->reply_len = len > BUF ? BUF : len;
	memcpy(d->reply, buf, d->reply_len);
	pthread_mutex_unlock(&d->lock);
}

int tpm_double_pcr(struct tpm_double *d, unsigned pcr, unsigned bank,
		   uint8_t *out)
{
	int rc = -1;

	pthread_mutex_lock(&d->lock);
	if (pcr < NPCR && (bank & d->banks & MEASURE_BANKS_ALL) &&
	    measure_bank_size(bank)) {
		memcpy(out, measure_digest(&d->pcr[pcr], bank),
		       measure_bank_size(bank));
		rc = 0;
	}
	pthread_mutex_unlock(&d->lock);
	return rc;
}

struct tpm_double_counts tpm_double_counts(struct tpm_double *d)
{
	struct tpm_double_counts n;

	pthread_mutex_lock(&d->lock);
	n = d->n;
	pthread_mutex_unlock(&d->lock);
	return n;
}

void tpm_double_stop(struct tpm_double *d)
{
	shutdown(d->fd, SHUT_RDWR);
	pthread_join(d->thread, NULL);
	close(d->fd);
	pthread_mutex_destroy(&d->lock);
	free(d);
}
