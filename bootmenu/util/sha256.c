/* sha256.c - FIPS 180-4 SHA-256 (the purgatory has its own copy in
 * assembly; tests/unit/test_kexec.c checks that both agree). */
#include <stdbool.h>
#include <string.h>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

#include "util/sha256.h"
#include "util/sha2_block.h"
#include "util/sha_md.h"

/* FIPS 180-4 4.2.2: the first 32 bits of the fractional parts of the
 * cube roots of the first 64 primes. */
static const uint32_t sha_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
    0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
    0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
    0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
    0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
    0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
    0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

/* FIPS 180-4 4.1.2: the rotations of Sigma0, Sigma1, sigma0, sigma1 */
static const int sha_rot[12] = {2, 13, 22, 6, 11, 25, 7, 18, 3, 17, 19, 10};

SHA2_BLOCK(sha_block, uint32_t, 64, sha_k, sha_rot)

#if defined(__x86_64__)
/* The same block with the CPU's SHA extensions (Intel's SHA-NI, in most
 * x86 CPUs since 2017): what a PBKDF2-SHA256 LUKS keyslot waits on. The
 * round instruction wants the state as two halves, ABEF and CDGH, high
 * word first; four rounds per step take W + K of four rounds, the message
 * schedule of 6.2.2 step 1 comes from msg1 (W[t-16] + sigma0 of W[t-15]),
 * the add of W[t-7] and msg2 (sigma1 of W[t-2]). */
__attribute__((target("sha,sse4.1"))) static void sha_block_ni(uint32_t h[8],
							       const uint8_t *p)
{
	const __m128i be =
	    _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
	__m128i t = _mm_shuffle_epi32(_mm_loadu_si128((const void *)h), 0xb1);
	__m128i s1 =
	    _mm_shuffle_epi32(_mm_loadu_si128((const void *)(h + 4)), 0x1b);
	__m128i s0 = _mm_alignr_epi8(t, s1, 8); /* ABEF */
	__m128i m[4], save0, save1;

	s1 = _mm_blend_epi16(s1, t, 0xf0); /* CDGH */
	save0 = s0, save1 = s1;
	for (int g = 0; g < 16; g++) { /* m[(g + i) & 3]: group g - 4 + i */
		__m128i w, k;

		if (g < 4) {
			w = _mm_shuffle_epi8(
			    _mm_loadu_si128((const void *)(p + 16 * g)), be);
		} else {
			w = _mm_sha256msg1_epu32(m[g & 3], m[(g + 1) & 3]);
			w = _mm_add_epi32(
			    w,
			    _mm_alignr_epi8(m[(g + 3) & 3], m[(g + 2) & 3], 4));
			w = _mm_sha256msg2_epu32(w, m[(g + 3) & 3]);
		}
		m[g & 3] = w;
		k = _mm_add_epi32(
		    w, _mm_loadu_si128((const void *)(sha_k + 4 * g)));
		s1 = _mm_sha256rnds2_epu32(s1, s0, k);
		s0 = _mm_sha256rnds2_epu32(s0, s1, _mm_shuffle_epi32(k, 0x0e));
	}
	s0 = _mm_shuffle_epi32(_mm_add_epi32(s0, save0),
			       0x1b); /* ABEF -> FEBA */
	s1 = _mm_shuffle_epi32(_mm_add_epi32(s1, save1),
			       0xb1); /* CDGH -> GHCD */
	_mm_storeu_si128((void *)h, _mm_blend_epi16(s0, s1, 0xf0));
	_mm_storeu_si128((void *)(h + 4), _mm_alignr_epi8(s1, s0, 8));
}

/* -1: not asked yet; sha256_cpu() may turn it off (the tests). */
static int sha_ni = -1;

static bool sha_ni_here(void)
{
	unsigned a, b, c, d;

	if (sha_ni < 0) /* CPUID 7.0 EBX bit 29: SHA; 1 ECX bit 19: SSE4.1 */
		sha_ni = __get_cpuid_count(7, 0, &a, &b, &c, &d) &&
			 (b >> 29 & 1) && __get_cpuid(1, &a, &b, &c, &d) &&
			 (c >> 19 & 1);
	return sha_ni > 0;
}

bool sha256_cpu(bool use)
{
	sha_ni = -1;
	if (use)
		return sha_ni_here();
	sha_ni = 0;
	return false;
}

static sha_md_block_fn sha256_fn(void)
{
	return sha_ni_here() ? sha_block_ni : sha_block;
}
#else
bool sha256_cpu(bool use)
{
	(void)use;
	return false;
}

static sha_md_block_fn sha256_fn(void)
{
	return sha_block;
}
#endif

void sha256_init(struct sha256 *s)
{
	static const uint32_t h0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372,
				       0xa54ff53a, 0x510e527f, 0x9b05688c,
				       0x1f83d9ab, 0x5be0cd19};

	memcpy(s->h, h0, sizeof(h0));
	s->n = 0;
}

static struct sha_md sha256_md(struct sha256 *s)
{
	return (struct sha_md){s->h, s->buf, &s->n, 8, sha256_fn()};
}

void sha256_update(struct sha256 *s, const void *data, size_t len)
{
	struct sha_md m = sha256_md(s);

	sha_md_update(&m, data, len);
}

void sha256_final(struct sha256 *s, uint8_t out[SHA256_LEN])
{
	struct sha_md m = sha256_md(s);

	sha_md_final(&m, out);
}
