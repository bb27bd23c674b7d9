/* blake2b.c - RFC 7693 BLAKE2b, without a key. */
#include <errno.h>
#include <string.h>

#include "util/blake2b.h"

/* RFC 7693 2.6: the SHA-512 initial values. */
static const uint64_t blake2b_iv[8] = {
    0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL,
    0xa54ff53a5f1d36f1ULL, 0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL,
    0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL,
};

/* RFC 7693 2.7: message word schedule, rounds 10 and 11 repeat 0 and 1. */
static const uint8_t blake2b_sigma[12][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
    {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
    {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
    {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
    {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
};

static uint64_t ror64(uint64_t x, int n)
{
	return x >> n | x << (64 - n);
}

static uint64_t load_le64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* RFC 7693 3.1, the mixing function G. */
static void mix(uint64_t v[16], int a, int b, int c, int d, uint64_t x,
		uint64_t y)
{
	v[a] = v[a] + v[b] + x;
	v[d] = ror64(v[d] ^ v[a], 32);
	v[c] = v[c] + v[d];
	v[b] = ror64(v[b] ^ v[c], 24);
	v[a] = v[a] + v[b] + y;
	v[d] = ror64(v[d] ^ v[a], 16);
	v[c] = v[c] + v[d];
	v[b] = ror64(v[b] ^ v[c], 63);
}

/* RFC 7693 3.2, the compression function F. */
static void compress(struct blake2b *b, const uint8_t *block, int last)
{
	uint64_t v[16], m[16];

	for (int i = 0; i < 16; i++)
		m[i] = load_le64(block + 8 * i);
	memcpy(v, b->h, 64);
	memcpy(v + 8, blake2b_iv, 64);
	v[12] ^= b->t[0];
	v[13] ^= b->t[1];
	if (last)
		v[14] = ~v[14];
	for (int r = 0; r < 12; r++) {
		const uint8_t *s = blake2b_sigma[r];

		mix(v, 0, 4, 8, 12, m[s[0]], m[s[1]]);
		mix(v, 1, 5, 9, 13, m[s[2]], m[s[3]]);
		mix(v, 2, 6, 10, 14, m[s[4]], m[s[5]]);
		mix(v, 3, 7, 11, 15, m[s[6]], m[s[7]]);
		mix(v, 0, 5, 10, 15, m[s[8]], m[s[9]]);
		mix(v, 1, 6, 11, 12, m[s[10]], m[s[11]]);
		mix(v, 2, 7, 8, 13, m[s[12]], m[s[13]]);
		mix(v, 3, 4, 9, 14, m[s[14]], m[s[15]]);
	}
	for (int i = 0; i < 8; i++)
		b->h[i] ^= v[i] ^ v[i + 8];
	explicit_bzero(v, sizeof(v));
	explicit_bzero(m, sizeof(m));
}

int blake2b_init(struct blake2b *b, size_t out_len)
{
	if (out_len < 1 || out_len > BLAKE2B_OUT_MAX)
		return -EINVAL;
	memset(b, 0, sizeof(*b));
	memcpy(b->h, blake2b_iv, sizeof(b->h));
	/* 2.5 parameter block: digest length, key length 0, fanout and
	 * depth 1. */
	b->h[0] ^= 0x01010000ULL ^ out_len;
	b->out_len = out_len;
	return 0;
}

static void count(struct blake2b *b, size_t n)
{
	b->t[0] += n;
	if (b->t[0] < n)
		b->t[1]++;
}

void blake2b_update(struct blake2b *b, const void *data, size_t len)
{
	const uint8_t *p = data;

	while (len) {
		size_t n;

		/* The last block is compressed in final(), with its flag:
		 * a full buffer waits until more bytes arrive. */
		if (b->fill == BLAKE2B_BLOCK) {
			count(b, BLAKE2B_BLOCK);
			compress(b, b->buf, 0);
			b->fill = 0;
		}
		n = BLAKE2B_BLOCK - b->fill < len ? BLAKE2B_BLOCK - b->fill
						  : len;
		memcpy(b->buf + b->fill, p, n);
		b->fill += n;
		p += n;
		len -= n;
	}
}

void blake2b_final(struct blake2b *b, uint8_t *out)
{
	count(b, b->fill);
	memset(b->buf + b->fill, 0, BLAKE2B_BLOCK - b->fill);
	compress(b, b->buf, 1);
	for (size_t i = 0; i < b->out_len; i++)
		out[i] = (uint8_t)(b->h[i / 8] >> (8 * (i % 8)));
	explicit_bzero(b, sizeof(*b));
}
