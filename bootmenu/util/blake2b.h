/* blake2b.h - BLAKE2b (RFC 7693), unkeyed, 1 to 64 bytes of output: the
 * hash inside Argon2 (util/argon2.h).
 *
 * Incremental; the context lives with the caller, nothing is allocated.
 * Begin with blake2b_init(), feed with blake2b_update(), end with
 * blake2b_final(), which wipes the context.
 */
#ifndef BM_BLAKE2B_H
#define BM_BLAKE2B_H

#include <stddef.h>
#include <stdint.h>

#define BLAKE2B_OUT_MAX 64
#define BLAKE2B_BLOCK 128

struct blake2b {
	uint64_t h[8];
	uint64_t t[2]; /* bytes compressed so far */
	uint8_t buf[BLAKE2B_BLOCK];
	size_t fill; /* bytes waiting in buf */
	size_t out_len;
};

/* Begin a hash of @out_len bytes (1..64). Returns 0, or -EINVAL. */
int blake2b_init(struct blake2b *b, size_t out_len);
void blake2b_update(struct blake2b *b, const void *data, size_t len);
/* Write the out_len bytes given to blake2b_init() and wipe @b. */
void blake2b_final(struct blake2b *b, uint8_t *out);

#endif
