/* argon2.c - RFC 9106 Argon2 (version 0x13), a slice's lanes in threads. */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util/argon2.h"
#include "util/blake2b.h"

#define A2_VERSION 0x13
#define A2_WORDS 128 /* 64-bit words in a 1024-byte block */
#define A2_SLICES 4  /* RFC 9106 3.2: SL */
#define A2_THREADS_MAX 16
#define A2_SEG_THREAD 256 /* blocks (KiB) of a segment worth a thread */

struct a2_block {
	uint64_t v[A2_WORDS];
};

/* One run: the memory and its shape (3.2: m' blocks in p lanes of q). */
struct a2_run {
	const struct argon2_params *p;
	struct a2_block *mem;
	size_t mem_size;
	uint32_t lane_len, seg_len;
};

/* Where in the run a segment is (3.4: pass r, lane l, slice sl). */
struct a2_pos {
	uint32_t pass, lane, slice;
};

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void b2_put32(struct blake2b *b, uint32_t v)
{
	uint8_t le[4];

	put32(le, v);
	blake2b_update(b, le, 4);
}

/* 3.3: H'^T(A), the variable-length hash. A is @in[0..in_len). */
static void hprime(uint8_t *out, size_t out_len, const void *in, size_t in_len)
{
	struct blake2b b;
	uint8_t v[BLAKE2B_OUT_MAX];

	blake2b_init(&b, out_len < 64 ? out_len : 64);
	b2_put32(&b, (uint32_t)out_len);
	blake2b_update(&b, in, in_len);
	if (out_len <= 64) {
		blake2b_final(&b, out);
		return;
	}
	blake2b_final(&b, v);
	/* V_1..V_r each give their first 32 bytes; V_{r+1} is the rest. */
	while (out_len > 64) {
		memcpy(out, v, 32);
		out += 32;
		out_len -= 32;
		blake2b_init(&b, out_len < 64 ? out_len : 64);
		blake2b_update(&b, v, 64);
		blake2b_final(&b, out_len < 64 ? out : v);
	}
	if (out_len == 64)
		memcpy(out, v, 64);
	explicit_bzero(v, sizeof(v));
}

/* 3.2 step 1: H_0 over the parameters and every input, each behind its
 * length. */
static void a2_h0(const struct argon2_params *p, uint32_t tag_len,
		  const void *const in[4], const size_t in_len[4],
		  uint8_t h0[64])
{
	struct blake2b b;

	blake2b_init(&b, 64);
	b2_put32(&b, p->lanes);
	b2_put32(&b, tag_len);
	b2_put32(&b, p->m_kib);
	b2_put32(&b, p->t_cost);
	b2_put32(&b, A2_VERSION);
	b2_put32(&b, (uint32_t)p->type);
	for (int i = 0; i < 4; i++) {
		b2_put32(&b, (uint32_t)in_len[i]);
		if (in_len[i])
			blake2b_update(&b, in[i], in_len[i]);
	}
	blake2b_final(&b, h0);
}

static uint64_t rotr(uint64_t x, int n)
{
	return x >> n | x << (64 - n);
}

/* 3.6: GB, BLAKE2b's G with the additions made multiplicative. */
static void gb(uint64_t *a, uint64_t *b, uint64_t *c, uint64_t *d)
{
	const uint64_t m = 0xffffffffULL;

	*a = *a + *b + 2 * (*a & m) * (*b & m);
	*d = rotr(*d ^ *a, 32);
	*c = *c + *d + 2 * (*c & m) * (*d & m);
	*b = rotr(*b ^ *c, 24);
	*a = *a + *b + 2 * (*a & m) * (*b & m);
	*d = rotr(*d ^ *a, 16);
	*c = *c + *d + 2 * (*c & m) * (*d & m);
	*b = rotr(*b ^ *c, 63);
}

/* 3.6: P over the 16 words at @w[i[0]], ..., @w[i[15]]. */
static void perm(uint64_t *w, const unsigned i[16])
{
	uint64_t *v[16];

	for (int k = 0; k < 16; k++)
		v[k] = &w[i[k]];
	gb(v[0], v[4], v[8], v[12]);
	gb(v[1], v[5], v[9], v[13]);
	gb(v[2], v[6], v[10], v[14]);
	gb(v[3], v[7], v[11], v[15]);
	gb(v[0], v[5], v[10], v[15]);
	gb(v[1], v[6], v[11], v[12]);
	gb(v[2], v[7], v[8], v[13]);
	gb(v[3], v[4], v[9], v[14]);
}

/* 3.5: G(X, Y) = P-columns(P-rows(X ^ Y)) ^ X ^ Y. The rows are the
 * block's 8 runs of 16 words; column c is words 2c and 2c + 1 of each
 * row. With @acc (3.2 step 6, later passes) the result is XORed into
 * @out instead of replacing it. */
static void a2_g(const struct a2_block *x, const struct a2_block *y,
		 struct a2_block *out, bool acc)
{
	struct a2_block r, z;
	unsigned idx[16];

	for (int k = 0; k < A2_WORDS; k++)
		r.v[k] = z.v[k] = x->v[k] ^ y->v[k];
	for (unsigned row = 0; row < 8; row++) {
		for (unsigned k = 0; k < 16; k++)
			idx[k] = 16 * row + k;
		perm(z.v, idx);
	}
	for (unsigned col = 0; col < 8; col++) {
		for (unsigned k = 0; k < 16; k++)
			idx[k] = 16 * (k / 2) + 2 * col + k % 2;
		perm(z.v, idx);
	}
	for (int k = 0; k < A2_WORDS; k++)
		out->v[k] = (acc ? out->v[k] : 0) ^ z.v[k] ^ r.v[k];
	/* Argon2d and id mix password-derived words in here. */
	explicit_bzero(&r, sizeof(r));
	explicit_bzero(&z, sizeof(z));
}

static void a2_load(struct a2_block *b, const uint8_t *bytes)
{
	for (int k = 0; k < A2_WORDS; k++) {
		uint64_t v = 0;

		for (int i = 7; i >= 0; i--)
			v = v << 8 | bytes[8 * k + i];
		b->v[k] = v;
	}
}

static void a2_store(uint8_t *bytes, const struct a2_block *b)
{
	for (int k = 0; k < A2_WORDS; k++)
		for (int i = 0; i < 8; i++)
			bytes[8 * k + i] = (uint8_t)(b->v[k] >> (8 * i));
}

static bool a2_independent(const struct a2_run *run, const struct a2_pos *at)
{
	/* 3.4.1.3: Argon2id addresses like Argon2i in the first half of
	 * the first pass. */
	if (run->p->type == ARGON2_I)
		return true;
	return run->p->type == ARGON2_ID && at->pass == 0 && at->slice < 2;
}

/* 3.4.1.2: the address block numbered @counter of segment @at, G(0,
 * G(0, Z || counter || 0...)). */
static void a2_addresses(const struct a2_run *run, const struct a2_pos *at,
			 uint64_t counter, struct a2_block *addr)
{
	struct a2_block zero = {{0}}, in = {{0}};

	in.v[0] = at->pass;
	in.v[1] = at->lane;
	in.v[2] = at->slice;
	in.v[3] = (uint64_t)run->lane_len * run->p->lanes;
	in.v[4] = run->p->t_cost;
	in.v[5] = (uint64_t)run->p->type;
	in.v[6] = counter;
	a2_g(&zero, &in, addr, false);
	a2_g(&zero, addr, addr, false);
}

/* 3.4.2: the block of lane @lane that J1 picks for the block at index
 * @i of segment @at: out of the blocks already finished that the
 * reference set W allows, nearer ones likelier. */
static uint32_t a2_ref_index(const struct a2_run *run, const struct a2_pos *at,
			     uint32_t i, uint32_t lane, uint32_t j1)
{
	uint64_t w, x, y, start = 0;

	/* W: the other lanes' finished segments (less their last block
	 * while the current segment has none of its own yet); in the own
	 * lane also this segment's blocks so far, less the previous. */
	if (at->pass == 0)
		w = (uint64_t)at->slice * run->seg_len;
	else
		w = (uint64_t)run->lane_len - run->seg_len;
	if (lane == at->lane)
		w += (uint64_t)i - 1;
	else if (i == 0)
		w -= 1;
	x = (uint64_t)j1 * j1 >> 32;
	y = w * x >> 32;
	/* Later passes count from the segment after the current one. */
	if (at->pass != 0 && at->slice != A2_SLICES - 1)
		start = (uint64_t)(at->slice + 1) * run->seg_len;
	return (uint32_t)((start + w - 1 - y) % run->lane_len);
}

static struct a2_block *a2_at(const struct a2_run *run, uint32_t lane,
			      uint32_t col)
{
	return &run->mem[(size_t)lane * run->lane_len + col];
}

/* 3.2 steps 5 and 6 for one segment. */
static void a2_segment(const struct a2_run *run, const struct a2_pos *at)
{
	bool indep = a2_independent(run, at);
	uint32_t first = at->pass == 0 && at->slice == 0 ? 2 : 0;
	struct a2_block addr;

	for (uint32_t i = first; i < run->seg_len; i++) {
		uint32_t col = at->slice * run->seg_len + i;
		uint32_t prev = col ? col - 1 : run->lane_len - 1;
		uint64_t rnd;
		uint32_t lane;

		if (indep && (i == first || i % A2_WORDS == 0))
			a2_addresses(run, at, i / A2_WORDS + 1, &addr);
		rnd = indep ? addr.v[i % A2_WORDS]
			    : a2_at(run, at->lane, prev)->v[0];
		/* 3.4.1.1: J2 picks the lane, but never another one in the
		 * first slice of the first pass. */
		lane = (uint32_t)((rnd >> 32) % run->p->lanes);
		if (at->pass == 0 && at->slice == 0)
			lane = at->lane;
		a2_g(a2_at(run, at->lane, prev),
		     a2_at(run, lane,
			   a2_ref_index(run, at, i, lane, (uint32_t)rnd)),
		     a2_at(run, at->lane, col), at->pass != 0);
	}
	explicit_bzero(&addr, sizeof(addr));
}

/* 3.2 steps 3 and 4: the first two blocks of each lane from H_0. */
static void a2_first_blocks(const struct a2_run *run, const uint8_t h0[64])
{
	uint8_t in[72], bytes[1024];

	memcpy(in, h0, 64);
	for (uint32_t l = 0; l < run->p->lanes; l++) {
		for (uint32_t j = 0; j < 2; j++) {
			put32(in + 64, j);
			put32(in + 68, l);
			hprime(bytes, sizeof(bytes), in, sizeof(in));
			a2_load(a2_at(run, l, j), bytes);
		}
	}
	explicit_bzero(in, sizeof(in));
	explicit_bzero(bytes, sizeof(bytes));
}

/* One thread's share of a slice: lanes @first, @first + @step, ... */
struct a2_share {
	const struct a2_run *run;
	struct a2_pos at;
	uint32_t first, step;
	pthread_t thread;
	bool started;
};

static void *a2_share_run(void *arg)
{
	struct a2_share *w = arg;

	for (w->at.lane = w->first; w->at.lane < w->run->p->lanes;
	     w->at.lane += w->step)
		a2_segment(w->run, &w->at);
	return NULL;
}

/* One slice, its lanes shared among @n threads, this one among them:
 * 3.4.1 keeps every segment of a slice from referring to another lane's
 * segment of the same slice, so they may run at once, and the joins are
 * the synchronisation points between slices. A thread that cannot be
 * started has its share done here. */
static void a2_slice(const struct a2_run *run, const struct a2_pos *at,
		     struct a2_share *w, uint32_t n)
{
	for (uint32_t k = 0; k < n; k++)
		w[k] = (struct a2_share){
		    .run = run, .at = *at, .first = k, .step = n};
	for (uint32_t k = 1; k < n; k++)
		w[k].started =
		    !pthread_create(&w[k].thread, NULL, a2_share_run, &w[k]);
	a2_share_run(&w[0]);
	for (uint32_t k = 1; k < n; k++) {
		if (w[k].started)
			pthread_join(w[k].thread, NULL);
		else
			a2_share_run(&w[k]);
	}
}

/* How many threads: p->threads, or the CPUs online when a segment is
 * worth a thread (A2_SEG_THREAD blocks: starting one costs about what a
 * few blocks do); at most the lanes and A2_THREADS_MAX. */
static uint32_t a2_threads(const struct a2_run *run)
{
	const struct argon2_params *p = run->p;
	long cpus = p->threads ? (long)p->threads
		    : run->seg_len < A2_SEG_THREAD
			? 1
			: sysconf(_SC_NPROCESSORS_ONLN);
	uint32_t n =
	    cpus > 0 ? (uint32_t)(cpus < A2_THREADS_MAX ? cpus : A2_THREADS_MAX)
		     : 1;

	return n < p->lanes ? n : p->lanes;
}

/* Every pass, slice by slice. */
static int a2_passes(const struct a2_run *run)
{
	const struct argon2_params *p = run->p;
	unsigned total = p->t_cost * A2_SLICES, done = 0;
	struct a2_share w[A2_THREADS_MAX];
	uint32_t n = a2_threads(run);
	struct a2_pos at = {0};

	for (at.pass = 0; at.pass < p->t_cost; at.pass++) {
		for (at.slice = 0; at.slice < A2_SLICES; at.slice++) {
			a2_slice(run, &at, w, n);
			done++;
			if (p->progress && p->progress(p->ctx, done, total))
				return -ECANCELED;
		}
	}
	return 0;
}

/* 3.2 step 7: the tag from the last column's XOR. */
static void a2_tag(const struct a2_run *run, uint8_t *out, size_t out_len)
{
	struct a2_block c;
	uint8_t bytes[1024];

	c = *a2_at(run, 0, run->lane_len - 1);
	for (uint32_t l = 1; l < run->p->lanes; l++)
		for (int k = 0; k < A2_WORDS; k++)
			c.v[k] ^= a2_at(run, l, run->lane_len - 1)->v[k];
	a2_store(bytes, &c);
	hprime(out, out_len, bytes, sizeof(bytes));
	explicit_bzero(&c, sizeof(c));
	explicit_bzero(bytes, sizeof(bytes));
}

/* 3.1's ranges; the salt's 8-byte minimum is the one RFC 9106 3.1 asks
 * of password hashing. */
static bool a2_params_ok(const struct argon2_params *p, size_t salt_len,
			 size_t out_len, const size_t len[4])
{
	if (p->type != ARGON2_D && p->type != ARGON2_I && p->type != ARGON2_ID)
		return false;
	/* the progress count, t_cost * 4 slices, must fit an unsigned */
	if (!p->t_cost || p->t_cost > UINT32_MAX / A2_SLICES)
		return false;
	if (!p->lanes || p->lanes > 0xffffff || p->m_kib / 8 < p->lanes)
		return false;
	if (salt_len < 8 || out_len < 4 || out_len > UINT32_MAX)
		return false;
	for (int i = 0; i < 4; i++)
		if (len[i] > UINT32_MAX)
			return false;
	return true;
}

int argon2_hash_keyed(const struct argon2_params *p, const void *pw,
		      size_t pw_len, const void *salt, size_t salt_len,
		      const void *key, size_t key_len, const void *ad,
		      size_t ad_len, uint8_t *out, size_t out_len)
{
	const void *in[4] = {pw, salt, key, ad};
	const size_t len[4] = {pw_len, salt_len, key_len, ad_len};
	struct a2_run run = {.p = p};
	uint32_t blocks;
	uint64_t bytes;
	uint8_t h0[64];
	void *mem;
	int rc;

	if (!a2_params_ok(p, salt_len, out_len, len))
		return -EINVAL;
	/* 3.2 step 2: m' = 4p * floor(m / 4p) blocks. */
	blocks = p->m_kib / (4 * p->lanes) * (4 * p->lanes);
	run.lane_len = blocks / p->lanes;
	run.seg_len = run.lane_len / A2_SLICES;
	bytes = (uint64_t)blocks * sizeof(struct a2_block);
	run.mem_size = (size_t)bytes;
	if (run.mem_size != bytes) /* a 32-bit machine */
		return -ENOMEM;
	mem = mmap(NULL, run.mem_size, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		return -ENOMEM;
	run.mem = mem;
	a2_h0(p, (uint32_t)out_len, in, len, h0);
	a2_first_blocks(&run, h0);
	explicit_bzero(h0, sizeof(h0));
	rc = a2_passes(&run);
	if (!rc)
		a2_tag(&run, out, out_len);
	else
		memset(out, 0, out_len);
	explicit_bzero(mem, run.mem_size);
	munmap(mem, run.mem_size);
	return rc;
}

int argon2_hash(const struct argon2_params *p, const void *pw, size_t pw_len,
		const void *salt, size_t salt_len, uint8_t *out, size_t out_len)
{
	return argon2_hash_keyed(p, pw, pw_len, salt, salt_len, NULL, 0, NULL,
				 0, out, out_len);
}
