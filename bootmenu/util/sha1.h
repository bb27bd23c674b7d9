/* sha1.h - FIPS 180-4 SHA-1, for a TPM's SHA-1 PCR bank only (it is
 * extended when the TPM reports it active; nothing else relies on it).
 *
 * Incremental; the context lives with the caller, nothing is allocated.
 */
#ifndef BM_SHA1_H
#define BM_SHA1_H

#include <stddef.h>
#include <stdint.h>

#define SHA1_LEN 20

struct sha1 {
	uint32_t h[5];
	uint8_t buf[64];
	uint64_t n; /* bytes fed so far */
};

void sha1_init(struct sha1 *s);
void sha1_update(struct sha1 *s, const void *data, size_t len);
/* Writes the 20-byte digest; @s must be initialised again before
 * another use. */
void sha1_final(struct sha1 *s, uint8_t out[SHA1_LEN]);

#endif
