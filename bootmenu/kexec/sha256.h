/* sha256.h - FIPS 180-4 SHA-256, for the purgatory's segment digest.
 * Incremental; the context lives with the caller, nothing is allocated. */
#ifndef BM_KEXEC_SHA256_H
#define BM_KEXEC_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct kexec_sha256 {
	uint32_t h[8];
	uint8_t buf[64];
	uint64_t n; /* bytes fed so far */
};

void kexec_sha256_init(struct kexec_sha256 *s);
void kexec_sha256_update(struct kexec_sha256 *s, const void *data, size_t len);
/* Writes the 32-byte digest (big-endian words, as printed). */
void kexec_sha256_final(struct kexec_sha256 *s, uint8_t out[32]);

#endif
