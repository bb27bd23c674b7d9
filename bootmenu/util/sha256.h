/* sha256.h - FIPS 180-4 SHA-256: the purgatory's segment digest (kexec/)
 * and a TPM bank's digests (tpm/).
 *
 * Incremental; the context lives with the caller, nothing is allocated.
 */
#ifndef BM_SHA256_H
#define BM_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_LEN 32

struct sha256 {
	uint32_t h[8];
	uint8_t buf[64];
	uint64_t n; /* bytes fed so far */
};

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t len);
/* Writes the 32-byte digest (big-endian words, as printed); @s must be
 * initialised again before another use. */
void sha256_final(struct sha256 *s, uint8_t out[SHA256_LEN]);

#endif
