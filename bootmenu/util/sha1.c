/* sha1.c - FIPS 180-4 SHA-1 (6.1). */
#include <string.h>

#include "util/sha256.h"
#include "util/sha_md.h"

static uint32_t rol(uint32_t x, int n)
{
	return x << n | x >> (32 - n);
}

/* FIPS 180-4 4.1.1: f and K for each of the four 20-round stages. */
static uint32_t sha1_f(int i, uint32_t b, uint32_t c, uint32_t d)
{
	if (i < 20)
		return ((b & c) | (~b & d)) + 0x5a827999;
	if (i < 40)
		return (b ^ c ^ d) + 0x6ed9eba1;
	if (i < 60)
		return ((b & c) | (b & d) | (c & d)) + 0x8f1bbcdc;
	return (b ^ c ^ d) + 0xca62c1d6;
}

static void sha1_block(uint32_t h[5], const uint8_t *p)
{
	uint32_t w[80], v[5];

	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (int i = 16; i < 80; i++)
		w[i] = rol(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
	memcpy(v, h, sizeof(v));
	for (int i = 0; i < 80; i++) {
		uint32_t t =
		    rol(v[0], 5) + sha1_f(i, v[1], v[2], v[3]) + v[4] + w[i];

		v[4] = v[3];
		v[3] = v[2];
		v[2] = rol(v[1], 30);
		v[1] = v[0];
		v[0] = t;
	}
	for (int i = 0; i < 5; i++)
		h[i] += v[i];
}

void sha1_init(struct sha1 *s)
{
	static const uint32_t h0[5] = {0x67452301, 0xefcdab89, 0x98badcfe,
				       0x10325476, 0xc3d2e1f0};

	memcpy(s->h, h0, sizeof(h0));
	s->n = 0;
}

static struct sha_md sha1_md(struct sha1 *s)
{
	return (struct sha_md){s->h, s->buf, &s->n, 5, sha1_block};
}

void sha1_update(struct sha1 *s, const void *data, size_t len)
{
	struct sha_md m = sha1_md(s);

	sha_md_update(&m, data, len);
}

void sha1_final(struct sha1 *s, uint8_t out[SHA1_LEN])
{
	struct sha_md m = sha1_md(s);

	sha_md_final(&m, out);
}
