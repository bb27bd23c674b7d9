/* auth.c - the menu's password: crypt(3)'s SHA-512 scheme ("$6$"), done
 * here because the static musl we link has no crypt(), and compared in
 * constant time.
 *
 * SHA-512 is util/sha512.h's (FIPS 180-4). The "$6$" scheme
 * follows Ulrich Drepper's "Unix crypt using SHA-256 and SHA-512"
 * specification, steps named as there.
 */
#include "conf/auth.h"
#include "util/sha512.h"

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
		sha512_update(c, d, 64);
	sha512_update(c, d, len);
}

/* Steps 1-12: digest A from the key and salt, with digest B mixed in. */
static void digest_a(const char *key, size_t kl, const struct auth_setting *st,
		     uint8_t a[64])
{
	struct sha512 c;
	uint8_t b[64];

	sha512_init(&c);
	sha512_update(&c, key, kl);
	sha512_update(&c, st->salt, st->salt_len);
	sha512_update(&c, key, kl);
	sha512_final(&c, b);
	sha512_init(&c);
	sha512_update(&c, key, kl);
	sha512_update(&c, st->salt, st->salt_len);
	add_repeated(&c, b, kl);
	for (size_t n = kl; n; n >>= 1)
		if (n & 1)
			sha512_update(&c, b, 64);
		else
			sha512_update(&c, key, kl);
	sha512_final(&c, a);
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
		sha512_update(&c, key, kl);
	sha512_final(&c, dp);
	for (i = 0; i + 64 <= kl; i += 64)
		memcpy(p + i, dp, 64);
	memcpy(p + i, dp, kl - i);
	sha512_init(&c);
	for (i = 0; i < 16u + a[0]; i++)
		sha512_update(&c, st->salt, st->salt_len);
	sha512_final(&c, ds);
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
			sha512_update(&c, p, kl);
		else
			sha512_update(&c, a, 64);
		if (i % 3)
			sha512_update(&c, s, sl);
		if (i % 7)
			sha512_update(&c, p, kl);
		if (i & 1)
			sha512_update(&c, a, 64);
		else
			sha512_update(&c, p, kl);
		sha512_final(&c, a);
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
