/* aes.h - the AES block cipher (FIPS-197) with 128, 192 and 256-bit keys,
 * for LUKS keyslots and the sector modes of vol/luks_crypt.h.
 *
 * Plain C, no tables beyond the S-boxes, nothing allocated. The key
 * schedule lives in the caller's struct aes, which holds key material:
 * end every use with aes_wipe(). The S-box lookups are indexed by secret
 * bytes, so this is not hardened against a cache-timing observer on the
 * same CPU (the boot menu runs alone); about 15 MB/s at -O2, plenty for
 * keyslot material, while volumes themselves go through dm-crypt.
 */
#ifndef BM_AES_H
#define BM_AES_H

#include <stddef.h>
#include <stdint.h>

#define AES_BLOCK 16

/* @ek: the round keys in encryption order (4 words per round, FIPS-197
 * 5.2); @dk: the same in the order decryption uses them; @rounds: 10, 12
 * or 14. */
struct aes {
	uint32_t ek[60], dk[60];
	unsigned rounds;
};

/* Expand @key of @len bytes (16, 24 or 32) into @a. Returns 0, or -EINVAL
 * for any other length (@a is then left wiped). */
int aes_setkey(struct aes *a, const uint8_t *key, size_t len);

/* Encrypt or decrypt one block with the key in @a; @in and @out may be
 * the same buffer. */
void aes_encrypt(const struct aes *a, const uint8_t in[AES_BLOCK],
		 uint8_t out[AES_BLOCK]);
void aes_decrypt(const struct aes *a, const uint8_t in[AES_BLOCK],
		 uint8_t out[AES_BLOCK]);

/* Erase the key schedule in @a (explicit_bzero). */
void aes_wipe(struct aes *a);

#endif
