/* hash.c - the hash table, HMAC (RFC 2104) and PBKDF2 (RFC 8018 5.2). */
#include <errno.h>
#include <string.h>
#include <strings.h>

#include "util/hash.h"
#include "util/sha256.h"
#include "util/sha512.h"

/* Room for any context in the table, so HMAC and PBKDF2 keep theirs on
 * the stack. */
union hash_ctx {
	struct sha1 s1;
	struct sha256 s256;
	struct sha512 s512;
};

static void h_sha1_init(void *c)
{
	sha1_init(c);
}

static void h_sha1_update(void *c, const void *d, size_t n)
{
	sha1_update(c, d, n);
}

static void h_sha1_final(void *c, uint8_t *out)
{
	sha1_final(c, out);
}

static void h_sha256_init(void *c)
{
	sha256_init(c);
}

static void h_sha256_update(void *c, const void *d, size_t n)
{
	sha256_update(c, d, n);
}

static void h_sha256_final(void *c, uint8_t *out)
{
	sha256_final(c, out);
}

static void h_sha384_init(void *c)
{
	sha384_init(c);
}

static void h_sha384_final(void *c, uint8_t *out)
{
	sha384_final(c, out);
}

static void h_sha512_init(void *c)
{
	sha512_init(c);
}

static void h_sha512_update(void *c, const void *d, size_t n)
{
	sha512_update(c, d, n);
}

static void h_sha512_final(void *c, uint8_t *out)
{
	sha512_final(c, out);
}

static const struct hash_alg hash_algs[] = {
    {"sha1", SHA1_LEN, 64, sizeof(struct sha1), h_sha1_init, h_sha1_update,
     h_sha1_final},
    {"sha256", SHA256_LEN, 64, sizeof(struct sha256), h_sha256_init,
     h_sha256_update, h_sha256_final},
    {"sha384", SHA384_LEN, 128, sizeof(struct sha512), h_sha384_init,
     h_sha512_update, h_sha384_final},
    {"sha512", SHA512_LEN, 128, sizeof(struct sha512), h_sha512_init,
     h_sha512_update, h_sha512_final},
};

const struct hash_alg *hash_find(const char *name)
{
	for (size_t i = 0; name && i < sizeof(hash_algs) / sizeof(*hash_algs);
	     i++)
		if (!strcasecmp(name, hash_algs[i].name))
			return &hash_algs[i];
	return NULL;
}

void hash_once(const struct hash_alg *h, const void *data, size_t len,
	       uint8_t *out)
{
	union hash_ctx c;

	h->init(&c);
	h->update(&c, data, len);
	h->final(&c, out);
	explicit_bzero(&c, sizeof(c));
}

/* The keyed inner and outer contexts of RFC 2104 section 2, each already
 * fed its padded key: PBKDF2 copies them instead of hashing the key again
 * in every round. */
struct hmac_keyed {
	union hash_ctx in, out;
};

static void hmac_key(const struct hash_alg *h, struct hmac_keyed *k,
		     const void *key, size_t key_len)
{
	uint8_t pad[HASH_MAX_BLOCK] = {0};

	if (key_len > h->block)
		hash_once(h, key, key_len, pad);
	else if (key_len)
		memcpy(pad, key, key_len);
	for (size_t i = 0; i < h->block; i++)
		pad[i] ^= 0x36;
	h->init(&k->in);
	h->update(&k->in, pad, h->block);
	for (size_t i = 0; i < h->block; i++)
		pad[i] ^= 0x36 ^ 0x5c;
	h->init(&k->out);
	h->update(&k->out, pad, h->block);
	explicit_bzero(pad, sizeof(pad));
}

/* One HMAC of @msg with the keyed contexts @k (left as they were). */
static void hmac_keyed_mac(const struct hash_alg *h, const struct hmac_keyed *k,
			   const void *msg, size_t msg_len, uint8_t *out)
{
	union hash_ctx c;
	uint8_t inner[HASH_MAX_LEN];

	memcpy(&c, &k->in, h->ctx_size);
	h->update(&c, msg, msg_len);
	h->final(&c, inner);
	memcpy(&c, &k->out, h->ctx_size);
	h->update(&c, inner, h->len);
	h->final(&c, out);
	explicit_bzero(&c, sizeof(c));
	explicit_bzero(inner, sizeof(inner));
}

void hmac(const struct hash_alg *h, const void *key, size_t key_len,
	  const void *msg, size_t msg_len, uint8_t *out)
{
	struct hmac_keyed k;

	hmac_key(h, &k, key, key_len);
	hmac_keyed_mac(h, &k, msg, msg_len, out);
	explicit_bzero(&k, sizeof(k));
}

/* RFC 8018 5.2 step 3: T_i = U_1 ^ U_2 ^ ... ^ U_c, U_1 = PRF(P, S ||
 * INT(i)), U_j = PRF(P, U_{j-1}). The salt goes through the keyed inner
 * context once, then INT(i). */
static void pbkdf2_block(const struct hash_alg *h, const struct hmac_keyed *k,
			 const void *salt, size_t salt_len, uint32_t i,
			 uint32_t iterations, uint8_t *t)
{
	uint8_t be[4] = {(uint8_t)(i >> 24), (uint8_t)(i >> 16),
			 (uint8_t)(i >> 8), (uint8_t)i};
	uint8_t u[HASH_MAX_LEN];
	union hash_ctx c;

	memcpy(&c, &k->in, h->ctx_size);
	h->update(&c, salt, salt_len);
	h->update(&c, be, 4);
	h->final(&c, u);
	memcpy(&c, &k->out, h->ctx_size);
	h->update(&c, u, h->len);
	h->final(&c, u);
	memcpy(t, u, h->len);
	for (uint32_t j = 1; j < iterations; j++) {
		hmac_keyed_mac(h, k, u, h->len, u);
		for (size_t b = 0; b < h->len; b++)
			t[b] ^= u[b];
	}
	explicit_bzero(u, sizeof(u));
	explicit_bzero(&c, sizeof(c));
}

int pbkdf2(const struct hash_alg *h, const void *pw, size_t pw_len,
	   const void *salt, size_t salt_len, uint32_t iterations, uint8_t *out,
	   size_t out_len)
{
	struct hmac_keyed k;
	uint8_t t[HASH_MAX_LEN];
	uint32_t i = 1;

	/* 5.2 step 1: dkLen > (2^32 - 1) * hLen is "derived key too long". */
	if (!iterations || !out_len || out_len / h->len > UINT32_MAX ||
	    (out_len / h->len == UINT32_MAX && out_len % h->len))
		return -EINVAL;
	hmac_key(h, &k, pw, pw_len);
	for (size_t done = 0; done < out_len; done += h->len, i++) {
		size_t n = out_len - done < h->len ? out_len - done : h->len;

		pbkdf2_block(h, &k, salt, salt_len, i, iterations, t);
		memcpy(out + done, t, n);
	}
	explicit_bzero(t, sizeof(t));
	explicit_bzero(&k, sizeof(k));
	return 0;
}
