/* sha_md.h - what SHA-1 and SHA-256 share (FIPS 180-4 5.1.1, 5.2.1):
 * 512-bit blocks gathered from any number of updates, and the padding
 * (0x80, zeros to 56 mod 64, the message length in bits as a 64-bit
 * big-endian number), the state's 32-bit words written out big-endian.
 * Internal to util/sha1.c and util/sha256.c, which give the block
 * function and the state.
 */
#ifndef BM_SHA_MD_H
#define BM_SHA_MD_H

#include <stddef.h>
#include <stdint.h>

/* One 64-byte block @p into the state @h. */
typedef void (*sha_md_block_fn)(uint32_t *h, const uint8_t *p);

struct sha_md {
	uint32_t *h;	    /* the state, @words of them */
	uint8_t *buf;	    /* 64 bytes */
	uint64_t *n;	    /* bytes fed so far */
	size_t words;	    /* 5 (SHA-1), 8 (SHA-256) */
	sha_md_block_fn fn; /* the compression function */
};

void sha_md_update(const struct sha_md *m, const void *data, size_t len);
/* Pads, then writes the state into out[0..4 * words). */
void sha_md_final(const struct sha_md *m, uint8_t *out);

#endif
