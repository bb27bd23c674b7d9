/* sha512.h - FIPS 180-4 SHA-512 and SHA-384 (the same function with
 * other initial values, cut to 48 bytes), for a TPM's PCR banks.
 *
 * Incremental; the context lives with the caller, nothing is allocated.
 * A context begun with sha384_init() ends with sha384_final(), one begun
 * with sha512_init() with sha512_final(); both feed with sha512_update().
 */
#ifndef BM_SHA512_H
#define BM_SHA512_H

#include <stddef.h>
#include <stdint.h>

#define SHA384_LEN 48
#define SHA512_LEN 64

struct sha512 {
	uint64_t h[8];
	uint8_t buf[128];
	uint64_t n; /* bytes fed so far (2^64 bytes is plenty) */
};

void sha512_init(struct sha512 *s);
void sha384_init(struct sha512 *s);
void sha512_update(struct sha512 *s, const void *data, size_t len);
/* Write the digest; @s must be initialised again before another use. */
void sha512_final(struct sha512 *s, uint8_t out[SHA512_LEN]);
void sha384_final(struct sha512 *s, uint8_t out[SHA384_LEN]);

#endif
