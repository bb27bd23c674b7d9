/* auth.c - the menu's password: crypt(3)'s SHA-512 scheme ("$6$"), done
 * here because the static musl we link has no crypt(), and compared in
 * constant time.
 *
 * SHA-512 follows FIPS 180-4; its constants are the first 64 bits of the
 * fractional parts of the square roots (H0) and cube roots (K) of the
 * first 8 and 80 primes (computed, then written out). The "$6$" scheme
 * follows Ulrich Drepper's "Unix crypt using SHA-256 and SHA-512"
 * specification, steps named as there.
 */
#include "conf/auth.h"

#include <stdint.h>
#include <string.h>

#define AUTH_SHA512_LEN 86 /* characters of the encoded hash */
#define AUTH_SALT_MAX 16
#define AUTH_HASH_MAX 255
#define AUTH_ROUNDS_DEFAULT 5000
#define AUTH_ROUNDS_MIN 1000
#define AUTH_ROUNDS_MAX 999999999UL
#define AUTH_KEY_MAX 4096 /* longer passwords are refused, not hashed */

static const char auth_b64t[] =
    "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/* ---- SHA-512 */

struct sha512 {
	uint64_t h[8];
	uint8_t buf[128];
	size_t n;     /* bytes in buf */
	uint64_t len; /* bytes hashed in all */
};

static const uint64_t sha512_h0[8] = {
    0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL,
    0xa54ff53a5f1d36f1ULL, 0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL,
    0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL,
};

static const uint64_t sha512_k[80] = {
    0x428a2f98d728ae22ULL, 0x7137449123ef65cdULL, 0xb5c0fbcfec4d3b2fULL,
    0xe9b5dba58189dbbcULL, 0x3956c25bf348b538ULL, 0x59f111f1b605d019ULL,
    0x923f82a4af194f9bULL, 0xab1c5ed5da6d8118ULL, 0xd807aa98a3030242ULL,
    0x12835b0145706fbeULL, 0x243185be4ee4b28cULL, 0x550c7dc3d5ffb4e2ULL,
    0x72be5d74f27b896fULL, 0x80deb1fe3b1696b1ULL, 0x9bdc06a725c71235ULL,
    0xc19bf174cf692694ULL, 0xe49b69c19ef14ad2ULL, 0xefbe4786384f25e3ULL,
    0x0fc19dc68b8cd5b5ULL, 0x240ca1cc77ac9c65ULL, 0x2de92c6f592b0275ULL,
    0x4a7484aa6ea6e483ULL, 0x5cb0a9dcbd41fbd4ULL, 0x76f988da831153b5ULL,
    0x983e5152ee66dfabULL, 0xa831c66d2db43210ULL, 0xb00327c898fb213fULL,
    0xbf597fc7beef0ee4ULL, 0xc6e00bf33da88fc2ULL, 0xd5a79147930aa725ULL,
    0x06ca6351e003826fULL, 0x142929670a0e6e70ULL, 0x27b70a8546d22ffcULL,
    0x2e1b21385c26c926ULL, 0x4d2c6dfc5ac42aedULL, 0x53380d139d95b3dfULL,
    0x650a73548baf63deULL, 0x766a0abb3c77b2a8ULL, 0x81c2c92e47edaee6ULL,
    0x92722c851482353bULL, 0xa2bfe8a14cf10364ULL, 0xa81a664bbc423001ULL,
    0xc24b8b70d0f89791ULL, 0xc76c51a30654be30ULL, 0xd192e819d6ef5218ULL,
    0xd69906245565a910ULL, 0xf40e35855771202aULL, 0x106aa07032bbd1b8ULL,
    0x19a4c116b8d2d0c8ULL, 0x1e376c085141ab53ULL, 0x2748774cdf8eeb99ULL,
    0x34b0bcb5e19b48a8ULL, 0x391c0cb3c5c95a63ULL, 0x4ed8aa4ae3418acbULL,
    0x5b9cca4f7763e373ULL, 0x682e6ff3d6b2b8a3ULL, 0x748f82ee5defb2fcULL,
    0x78a5636f43172f60ULL, 0x84c87814a1f0ab72ULL, 0x8cc702081a6439ecULL,
    0x90befffa23631e28ULL, 0xa4506cebde82bde9ULL, 0xbef9a3f7b2c67915ULL,
    0xc67178f2e372532bULL, 0xca273eceea26619cULL, 0xd186b8c721c0c207ULL,
    0xeada7dd6cde0eb1eULL, 0xf57d4f7fee6ed178ULL, 0x06f067aa72176fbaULL,
    0x0a637dc5a2c898a6ULL, 0x113f9804bef90daeULL, 0x1b710b35131c471bULL,
    0x28db77f523047d84ULL, 0x32caab7b40c72493ULL, 0x3c9ebe0a15c9bebcULL,
    0x431d67c49c100d4cULL, 0x4cc5d4becb3e42b6ULL, 0x597f299cfc657e2aULL,
    0x5fcb6fab3ad6faecULL, 0x6c44198c4a475817ULL,
};

static uint64_t ror(uint64_t x, int n)
{
	return (x >> n) | (x << (64 - n));
}

static uint64_t be64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = (v << 8) | p[i];
	return v;
}

static void sha512_block(struct sha512 *c, const uint8_t *p)
{
	uint64_t w[80], v[8], t1, t2;

	for (int i = 0; i < 16; i++)
		w[i] = be64(p + 8 * i);
	for (int i = 16; i < 80; i++)
		w[i] =
		    (ror(w[i - 2], 19) ^ ror(w[i - 2], 61) ^ (w[i - 2] >> 6)) +
		    w[i - 7] +
		    (ror(w[i - 15], 1) ^ ror(w[i - 15], 8) ^ (w[i - 15] >> 7)) +
		    w[i - 16];
	memcpy(v, c->h, sizeof(v));
	for (int i = 0; i < 80; i++) {
		t1 = v[7] + (ror(v[4], 14) ^ ror(v[4], 18) ^ ror(v[4], 41)) +
		     ((v[4] & v[5]) ^ (~v[4] & v[6])) + sha512_k[i] + w[i];
		t2 = (ror(v[0], 28) ^ ror(v[0], 34) ^ ror(v[0], 39)) +
		     ((v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]));
		memmove(v + 1, v, 7 * sizeof(v[0]));
		v[4] += t1;
		v[0] = t1 + t2;
	}
	for (int i = 0; i < 8; i++)
		c->h[i] += v[i];
}

static void sha512_init(struct sha512 *c)
{
	memcpy(c->h, sha512_h0, sizeof(c->h));
	c->n = 0;
	c->len = 0;
}

static void sha512_add(struct sha512 *c, const void *data, size_t len)
{
	const uint8_t *p = data;

	c->len += len;
	while (len) {
		size_t k =
		    sizeof(c->buf) - c->n < len ? sizeof(c->buf) - c->n : len;

		memcpy(c->buf + c->n, p, k);
		c->n += k;
		p += k;
		len -= k;
		if (c->n == sizeof(c->buf)) {
			sha512_block(c, c->buf);
			c->n = 0;
		}
	}
}

/* FIPS 180-4 5.1.2: 0x80, zeros, the length in bits as 128 bits. */
static void sha512_done(struct sha512 *c, uint8_t out[64])
{
	uint64_t bits = c->len * 8;
	uint8_t pad[144] = {0x80};
	size_t k = (c->n < 112 ? 112 : 240) - c->n;

	for (int i = 0; i < 8; i++)
		pad[k + 8 + i] = (uint8_t)(bits >> (56 - 8 * i));
	sha512_add(c, pad, k + 16);
	for (int i = 0; i < 8; i++)
		for (int j = 0; j < 8; j++)
			out[8 * i + j] = (uint8_t)(c->h[i] >> (56 - 8 * j));
}

/* ---- the "$6$" scheme */

struct auth_setting {
	unsigned long rounds;
	bool custom; /* "rounds=N$" was given */
	const char *salt;
	size_t salt_len;
};

/* "rounds=N$" with AUTH_ROUNDS_MIN <= N <= AUTH_ROUNDS_MAX, as crypt(5)
 * documents for the hashes it accepts here. */
static const char *auth_rounds(const char *p, struct auth_setting *st)
{
	unsigned long n = 0;
	int digits = 0;

	st->rounds = AUTH_ROUNDS_DEFAULT;
	st->custom = false;
	if (strncmp(p, "rounds=", 7))
		return p;
	for (p += 7; *p >= '0' && *p <= '9' && digits < 10; p++, digits++)
		n = n * 10 + (unsigned long)(*p - '0');
	if (!digits || *p != '$' || n < AUTH_ROUNDS_MIN || n > AUTH_ROUNDS_MAX)
		return NULL;
	st->rounds = n;
	st->custom = true;
	return p + 1;
}

static bool auth_b64(char ch)
{
	return ch && strchr(auth_b64t, ch) != NULL;
}

/* Split a "$6$" hash into its setting; NULL when it is not a usable one.
 * Returns the encoded hash part. */
static const char *auth_parse(const char *hash, struct auth_setting *st)
{
	const char *p;
	size_t n;

	if (!hash || strncmp(hash, "$6$", 3) || strlen(hash) > AUTH_HASH_MAX)
		return NULL;
	p = auth_rounds(hash + 3, st);
	if (!p)
		return NULL;
	for (st->salt = p; *p && *p != '$'; p++)
		if (*p == ':' || *p == '\n' || *p == ' ')
			return NULL;
	st->salt_len = (size_t)(p - st->salt);
	if (*p != '$' || !st->salt_len || st->salt_len > AUTH_SALT_MAX)
		return NULL;
	for (n = 0, p++; p[n]; n++)
		if (!auth_b64(p[n]))
			return NULL;
	return n == AUTH_SHA512_LEN ? p : NULL;
}

bool auth_hash_valid(const char *hash)
{
	struct auth_setting st;

	return auth_parse(hash, &st) != NULL;
}

/* Add @len bytes of the sequence "@d repeated" (steps 11, 16, 20). */
static void add_repeated(struct sha512 *c, const uint8_t d[64], size_t len)
{
	for (; len > 64; len -= 64)
		sha512_add(c, d, 64);
	sha512_add(c, d, len);
}

/* Steps 1-12: digest A from the key and salt, with digest B mixed in. */
static void digest_a(const char *key, size_t kl, const struct auth_setting *st,
		     uint8_t a[64])
{
	struct sha512 c;
	uint8_t b[64];

	sha512_init(&c);
	sha512_add(&c, key, kl);
	sha512_add(&c, st->salt, st->salt_len);
	sha512_add(&c, key, kl);
	sha512_done(&c, b);
	sha512_init(&c);
	sha512_add(&c, key, kl);
	sha512_add(&c, st->salt, st->salt_len);
	add_repeated(&c, b, kl);
	for (size_t n = kl; n; n >>= 1)
		if (n & 1)
			sha512_add(&c, b, 64);
		else
			sha512_add(&c, key, kl);
	sha512_done(&c, a);
}

/* Steps 13-20: the P sequence (from the key) and the S sequence (from
 * the salt, repeated 16 + A[0] times). */
static void sequences(const char *key, size_t kl, const struct auth_setting *st,
		      const uint8_t a[64], uint8_t *p, uint8_t s[AUTH_SALT_MAX])
{
	struct sha512 c;
	uint8_t dp[64], ds[64];
	size_t i;

	sha512_init(&c);
	for (i = 0; i < kl; i++)
		sha512_add(&c, key, kl);
	sha512_done(&c, dp);
	for (i = 0; i + 64 <= kl; i += 64)
		memcpy(p + i, dp, 64);
	memcpy(p + i, dp, kl - i);
	sha512_init(&c);
	for (i = 0; i < 16u + a[0]; i++)
		sha512_add(&c, st->salt, st->salt_len);
	sha512_done(&c, ds);
	memcpy(s, ds, st->salt_len);
}

/* Step 21: the rounds. */
static void rounds(uint8_t a[64], const uint8_t *p, size_t kl, const uint8_t *s,
		   size_t sl, unsigned long n)
{
	struct sha512 c;

	for (unsigned long i = 0; i < n; i++) {
		sha512_init(&c);
		if (i & 1)
			sha512_add(&c, p, kl);
		else
			sha512_add(&c, a, 64);
		if (i % 3)
			sha512_add(&c, s, sl);
		if (i % 7)
			sha512_add(&c, p, kl);
		if (i & 1)
			sha512_add(&c, a, 64);
		else
			sha512_add(&c, p, kl);
		sha512_done(&c, a);
	}
}

/* Step 22: the specification's byte order, 3 bytes to 4 characters. */
static void encode(const uint8_t a[64], char out[AUTH_SHA512_LEN + 1])
{
	static const uint8_t order[21][3] = {
	    {0, 21, 42},  {22, 43, 1},	{44, 2, 23},  {3, 24, 45},
	    {25, 46, 4},  {47, 5, 26},	{6, 27, 48},  {28, 49, 7},
	    {50, 8, 29},  {9, 30, 51},	{31, 52, 10}, {53, 11, 32},
	    {12, 33, 54}, {34, 55, 13}, {56, 14, 35}, {15, 36, 57},
	    {37, 58, 16}, {59, 17, 38}, {18, 39, 60}, {40, 61, 19},
	    {62, 20, 41},
	};
	uint32_t w;
	char *o = out;

	for (int i = 0; i < 21; i++) {
		w = (uint32_t)a[order[i][0]] << 16 |
		    (uint32_t)a[order[i][1]] << 8 | a[order[i][2]];
		for (int k = 0; k < 4; k++, w >>= 6)
			*o++ = auth_b64t[w & 0x3f];
	}
	w = a[63];
	for (int k = 0; k < 2; k++, w >>= 6)
		*o++ = auth_b64t[w & 0x3f];
	*o = '\0';
}

/* Every byte is looked at whatever the earlier ones were, so the time
 * does not say how much of a guess was right. */
static bool auth_equal(const char *a, const char *b, size_t n)
{
	unsigned char diff = 0;

	for (size_t i = 0; i < n; i++)
		diff |= (unsigned char)(a[i] ^ b[i]);
	return diff == 0;
}

bool auth_check(const char *hash, const char *password)
{
	uint8_t p[AUTH_KEY_MAX];
	struct auth_setting st;
	uint8_t a[64], s[AUTH_SALT_MAX];
	char out[AUTH_SHA512_LEN + 1];
	const char *want = auth_parse(hash, &st);
	size_t kl;
	bool ok;

	if (!want || !password || (kl = strlen(password)) > AUTH_KEY_MAX)
		return false;
	digest_a(password, kl, &st, a);
	sequences(password, kl, &st, a, p, s);
	rounds(a, p, kl, s, st.salt_len, st.rounds);
	encode(a, out);
	ok = auth_equal(out, want, AUTH_SHA512_LEN);
	memset(p, 0, kl);
	memset(a, 0, sizeof(a));
	return ok;
}
