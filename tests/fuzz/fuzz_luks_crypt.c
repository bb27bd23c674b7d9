/* fuzz_luks_crypt.c - the crypto a LUKS header steers, on any bytes: its
 * cipher and mode names (vol/luks_crypt.h), its hash name (util/hash.h)
 * and its KDF parameters (util/argon2.h, kept tiny here).
 *
 * Input: "cipher\nmode\nhash\n", then one byte of key length, 8 bytes of
 * sector number (little-endian), one byte of sector size (512 << (b % 5),
 * so also 8192), 4 bytes of Argon2 parameters (type, passes, KiB / 8,
 * lanes), then the key and the data. Checks: luks_decrypt() answers 0,
 * -ENOTSUP exactly when luks_cipher_known() says no, or -EINVAL, and a
 * refusal leaves the data as it was; decrypting the whole equals
 * decrypting the first sector alone; argon2_hash() answers 0 or -EINVAL.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/argon2.h"
#include "util/hash.h"
#include "util/le.h"
#include "vol/luks_crypt.h"

#define FZ_NAME 40

/* The next line of @d into @name (at most FZ_NAME - 1 bytes, NUL-ended):
 * the bytes it took, newline included; 0 when there is no newline. */
static size_t line(const uint8_t *d, size_t n, char name[FZ_NAME])
{
	const uint8_t *nl = memchr(d, '\n', n < FZ_NAME ? n : FZ_NAME);

	if (!nl)
		return 0;
	memcpy(name, d, (size_t)(nl - d));
	name[nl - d] = '\0';
	return (size_t)(nl - d) + 1;
}

static void fz_decrypt(const char *cipher, const char *mode, const uint8_t *key,
		       size_t key_len, uint64_t sector, size_t ss,
		       const uint8_t *d, size_t n)
{
	uint8_t *buf = malloc(n ? n : 1), *one = malloc(ss);
	int rc;

	memcpy(buf, d, n);
	rc = luks_decrypt(cipher, mode, key, key_len, sector, ss, buf, n);
	if (rc != 0 && rc != -ENOTSUP && rc != -EINVAL)
		abort();
	if ((rc == -ENOTSUP) != !luks_cipher_known(cipher, mode))
		abort();
	if (rc && memcmp(buf, d, n))
		abort();
	if (!rc && n >= ss) {
		memcpy(one, d, ss);
		if (luks_decrypt(cipher, mode, key, key_len, sector, ss, one,
				 ss) ||
		    memcmp(one, buf, ss))
			abort();
	}
	free(buf);
	free(one);
}

static void fz_kdf(const char *hash, const uint8_t *prm, const uint8_t *d,
		   size_t n)
{
	struct argon2_params p = {.type = (enum argon2_type)(prm[0] % 4),
				  .t_cost = prm[1] % 3,
				  .m_kib = 8 * (uint32_t)(prm[2] % 16),
				  .lanes = prm[3] % 5};
	const struct hash_alg *h = hash_find(hash);
	uint8_t out[80];
	size_t salt = n / 2;
	int rc;

	if (h && pbkdf2(h, d, n - salt, d + n - salt, salt, 1 + prm[1] % 3, out,
			1 + prm[0] % sizeof(out)))
		abort();
	rc = argon2_hash(&p, d, n - salt, d + n - salt, salt, out,
			 1 + prm[3] % sizeof(out));
	if (rc != 0 && rc != -EINVAL)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	char cipher[FZ_NAME], mode[FZ_NAME], hash[FZ_NAME];
	size_t at = 0, k, key_len;
	uint64_t sector = 0;
	uint8_t klen = 0, ssb = 0;

	k = line(d, n, cipher);
	at += k;
	k = k ? line(d + at, n - at, mode) : 0;
	at += k;
	k = k ? line(d + at, n - at, hash) : 0;
	if (!k)
		return 0;
	at += k;
	if (get_le8(d, n, at, &klen) || get_le64(d, n, at + 1, &sector) ||
	    get_le8(d, n, at + 9, &ssb) || !le_in(n, at + 10, 4))
		return 0;
	fz_kdf(hash, d + at + 10, d + at + 14, n - at - 14);
	at += 14;
	key_len = klen % 72 < n - at ? klen % 72 : n - at;
	/* the data: what follows the key, capped to keep runs fast */
	k = n - at - key_len < 16384 ? n - at - key_len : 16384;
	fz_decrypt(cipher, mode, d + at, key_len, sector,
		   (size_t)512 << (ssb % 5), d + at + key_len, k);
	return 0;
}
