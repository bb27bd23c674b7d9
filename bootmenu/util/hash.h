/* hash.h - the hashes by name (as LUKS headers and TPM banks spell them),
 * and what is built on any of them: HMAC (RFC 2104) and PBKDF2 (RFC 8018
 * 5.2).
 *
 * The algorithms themselves are util/sha256.h's and util/sha512.h's; this
 * is a table over them. Nothing is allocated: contexts live on the stack
 * and every one holding key material is wiped before return.
 */
#ifndef BM_HASH_H
#define BM_HASH_H

#include <stddef.h>
#include <stdint.h>

#define HASH_MAX_LEN 64	   /* the longest digest (SHA-512) */
#define HASH_MAX_BLOCK 128 /* the longest block (SHA-384/512) */

/* One hash: @len digest bytes, @block bytes per compression block,
 * @ctx_size bytes of context (at most sizeof(union hash_ctx) in hash.c).
 * @init begins a context, @update feeds it, @final writes @len bytes and
 * leaves the context to be begun again. */
struct hash_alg {
	const char *name; /* "sha1", "sha256", "sha384", "sha512" */
	size_t len, block, ctx_size;
	void (*init)(void *ctx);
	void (*update)(void *ctx, const void *data, size_t len);
	void (*final)(void *ctx, uint8_t *out);
};

/* The hash called @name, case-insensitively ("sha256", "SHA256"); NULL
 * when we do not have it. The result is static: never freed. */
const struct hash_alg *hash_find(const char *name);

/* @out (h->len bytes) = the hash of @data[0..len). */
void hash_once(const struct hash_alg *h, const void *data, size_t len,
	       uint8_t *out);

/* @out (h->len bytes) = HMAC-h(@key, @msg) (RFC 2104); keys longer than a
 * block are hashed first, as the RFC says. */
void hmac(const struct hash_alg *h, const void *key, size_t key_len,
	  const void *msg, size_t msg_len, uint8_t *out);

/* @out[0..out_len) = PBKDF2 with HMAC-h (RFC 8018 5.2) of password @pw and
 * @salt over @iterations rounds. Returns 0, or -EINVAL when @iterations or
 * @out_len is 0 or @out_len exceeds (2^32 - 1) * h->len. */
int pbkdf2(const struct hash_alg *h, const void *pw, size_t pw_len,
	   const void *salt, size_t salt_len, uint32_t iterations, uint8_t *out,
	   size_t out_len);

#endif
