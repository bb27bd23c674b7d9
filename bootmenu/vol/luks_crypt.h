/* luks_crypt.h - dm-crypt's sector encryption, decrypt side only: what a
 * LUKS keyslot's key material is stored with, and what a volume's sectors
 * are, for the cipher specs we do (AES in XTS, CBC or ECB; IVs plain,
 * plain64 or ESSIV with SHA-256).
 *
 * No state, nothing allocated; every key schedule is wiped before return.
 */
#ifndef BM_LUKS_CRYPT_H
#define BM_LUKS_CRYPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* decrypt @len bytes at @buf in place, whole sectors of
 * @sector_size bytes, the first having IV sector number @sector, with a
 * dm-crypt/LUKS cipher spec: cipher "aes", mode one of "xts-plain64",
 * "xts-plain", "cbc-essiv:sha256", "cbc-plain", "cbc-plain64", "ecb".
 * The key is the whole key (XTS: two halves). 0, -ENOTSUP (a spec we do
 * not do: the caller says which), -EINVAL (key length wrong for the mode,
 * len not a multiple of sector_size, sector_size not 512..4096 power of 2).
 *
 * @sector counts 512-byte units whatever @sector_size is, and each sector
 * of @sector_size bytes advances it by @sector_size / 512, as dm-crypt
 * does without iv_large_sectors, which LUKS1 and LUKS2 never set (a
 * LUKS2 segment of 4096-byte sectors: IVs 0, 8, 16...). "plain" keeps
 * the number's low 32 bits, as dm-crypt does. The key is 16, 24 or 32
 * bytes, twice that for XTS. */
int luks_decrypt(const char *cipher, const char *mode, const uint8_t *key,
		 size_t key_len, uint64_t sector, size_t sector_size,
		 uint8_t *buf, size_t len);

/* Does luks_decrypt() know this spec? (for "skipped: cipher X" reasons) */
bool luks_cipher_known(const char *cipher, const char *mode);

#endif
