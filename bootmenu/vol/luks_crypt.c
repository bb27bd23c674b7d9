/* luks_crypt.c - decrypting dm-crypt sectors: XTS (IEEE 1619), CBC and
 * ECB (SP 800-38A) over AES, with the IV generators dm-crypt names
 * (Documentation/admin-guide/device-mapper/dm-crypt.rst). */
#include <errno.h>
#include <string.h>
#include <strings.h>

#include "util/aes.h"
#include "util/hash.h"
#include "util/sha256.h"
#include "vol/luks_crypt.h"

enum lc_chain { LC_ECB, LC_CBC, LC_XTS };
enum lc_iv { LC_IV_NONE, LC_IV_PLAIN, LC_IV_PLAIN64, LC_IV_ESSIV };

struct lc_mode {
	const char *name;
	enum lc_chain chain;
	enum lc_iv iv;
};

static const struct lc_mode lc_modes[] = {
    {"xts-plain64", LC_XTS, LC_IV_PLAIN64},
    {"xts-plain", LC_XTS, LC_IV_PLAIN},
    {"cbc-essiv:sha256", LC_CBC, LC_IV_ESSIV},
    {"cbc-plain", LC_CBC, LC_IV_PLAIN},
    {"cbc-plain64", LC_CBC, LC_IV_PLAIN64},
    {"ecb", LC_ECB, LC_IV_NONE},
};

/* The keys of one call: @data decrypts, @iv makes IVs (XTS's second
 * half, ESSIV's hashed key). */
struct lc_keys {
	const struct lc_mode *mode;
	struct aes data, iv;
};

static const struct lc_mode *lc_find(const char *cipher, const char *mode)
{
	if (!cipher || !mode || strcasecmp(cipher, "aes"))
		return NULL;
	for (size_t i = 0; i < sizeof(lc_modes) / sizeof(*lc_modes); i++)
		if (!strcmp(mode, lc_modes[i].name))
			return &lc_modes[i];
	return NULL;
}

bool luks_cipher_known(const char *cipher, const char *mode)
{
	return lc_find(cipher, mode) != NULL;
}

static int lc_setkeys(struct lc_keys *k, const uint8_t *key, size_t key_len)
{
	uint8_t salt[SHA256_LEN];
	int rc;

	if (k->mode->chain == LC_XTS) {
		/* IEEE 1619 5.1: Key = Key1 | Key2, Key2 encrypts the tweak. */
		if (key_len % 2)
			return -EINVAL;
		rc = aes_setkey(&k->data, key, key_len / 2);
		if (!rc)
			rc = aes_setkey(&k->iv, key + key_len / 2, key_len / 2);
		return rc;
	}
	rc = aes_setkey(&k->data, key, key_len);
	if (rc || k->mode->iv != LC_IV_ESSIV)
		return rc;
	/* dm-crypt essiv: IV = E_salt(sector), salt = hash(key). */
	hash_once(hash_find("sha256"), key, key_len, salt);
	rc = aes_setkey(&k->iv, salt, sizeof(salt));
	explicit_bzero(salt, sizeof(salt));
	return rc;
}

/* The sector's IV (XTS: its tweak, already encrypted with Key2). */
static void lc_iv(const struct lc_keys *k, uint64_t sector,
		  uint8_t iv[AES_BLOCK])
{
	int n = k->mode->iv == LC_IV_PLAIN ? 4 : 8;

	memset(iv, 0, AES_BLOCK);
	if (k->mode->iv == LC_IV_NONE)
		return;
	for (int i = 0; i < n; i++)
		iv[i] = (uint8_t)(sector >> (8 * i));
	if (k->mode->chain == LC_XTS || k->mode->iv == LC_IV_ESSIV)
		aes_encrypt(&k->iv, iv, iv);
}

/* IEEE 1619 5.2: the tweak times alpha in GF(2^128), little-endian. */
static void xts_next(uint8_t t[AES_BLOCK])
{
	uint8_t carry = t[15] >> 7;

	for (int i = 15; i > 0; i--)
		t[i] = (uint8_t)(t[i] << 1 | t[i - 1] >> 7);
	t[0] = (uint8_t)(t[0] << 1 ^ (0x87 & -carry));
}

static void xor_block(uint8_t *d, const uint8_t *s)
{
	for (int i = 0; i < AES_BLOCK; i++)
		d[i] ^= s[i];
}

/* One sector in place: IEEE 1619 5.4 (no stealing: sectors are whole
 * blocks), SP 800-38A 6.2 for CBC, 6.1 for ECB. */
static void lc_sector(const struct lc_keys *k, uint64_t sector, uint8_t *p,
		      size_t size)
{
	uint8_t iv[AES_BLOCK], c[AES_BLOCK];

	lc_iv(k, sector, iv);
	for (size_t off = 0; off < size; off += AES_BLOCK, p += AES_BLOCK) {
		if (k->mode->chain == LC_XTS) {
			xor_block(p, iv);
			aes_decrypt(&k->data, p, p);
			xor_block(p, iv);
			xts_next(iv);
			continue;
		}
		memcpy(c, p, AES_BLOCK);
		aes_decrypt(&k->data, p, p);
		if (k->mode->chain == LC_CBC) {
			xor_block(p, iv);
			memcpy(iv, c, AES_BLOCK);
		}
	}
	explicit_bzero(iv, sizeof(iv));
	explicit_bzero(c, sizeof(c));
}

int luks_decrypt(const char *cipher, const char *mode, const uint8_t *key,
		 size_t key_len, uint64_t sector, size_t sector_size,
		 uint8_t *buf, size_t len)
{
	struct lc_keys k = {.mode = lc_find(cipher, mode)};
	int rc;

	if (!k.mode)
		return -ENOTSUP;
	if (sector_size < 512 || sector_size > 4096 ||
	    (sector_size & (sector_size - 1)) || len % sector_size)
		return -EINVAL;
	rc = lc_setkeys(&k, key, key_len);
	/* dm-crypt.rst: without iv_large_sectors the IV counts 512-byte
	 * sectors, also when one encrypted sector is larger. */
	for (size_t off = 0; !rc && off < len; off += sector_size)
		lc_sector(&k, sector + off / 512, buf + off, sector_size);
	aes_wipe(&k.data);
	aes_wipe(&k.iv);
	return rc;
}
