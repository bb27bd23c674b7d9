/* sha256.h - FIPS 180-4 SHA-256 (the purgatory's segment digest in
 * kexec/, a TPM bank's digests in tpm/) and SHA-1 (a TPM's SHA-1 bank
 * only, extended when the TPM reports it active; nothing else relies on
 * it): the two hashes of 512-bit blocks and 32-bit words (util/sha_md.h).
 *
 * Incremental; the context lives with the caller, nothing is allocated.
 * Each state is begun with its _init(), fed with _update() and ended with
 * _final(), after which it must be begun again.
 */
#ifndef BM_SHA256_H
#define BM_SHA256_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SHA1_LEN 20
#define SHA256_LEN 32

struct sha1 {
	uint32_t h[5];
	uint8_t buf[64];
	uint64_t n; /* bytes fed so far */
};

struct sha256 {
	uint32_t h[8];
	uint8_t buf[64];
	uint64_t n;
};

void sha1_init(struct sha1 *s);
void sha256_init(struct sha256 *s);
void sha1_update(struct sha1 *s, const void *data, size_t len);
void sha256_update(struct sha256 *s, const void *data, size_t len);
/* The digests: big-endian words, as printed. */
void sha1_final(struct sha1 *s, uint8_t out[SHA1_LEN]);
void sha256_final(struct sha256 *s, uint8_t out[SHA256_LEN]);

/* SHA-256 uses the CPU's SHA instructions where it has them (x86-64's
 * SHA extensions), the portable code elsewhere; the digests are the
 * same. sha256_cpu(false) keeps to the portable code from then on (the
 * tests compare the two), sha256_cpu(true) asks the CPU again. Returns
 * whether the instructions are used now. */
bool sha256_cpu(bool use);

#endif
