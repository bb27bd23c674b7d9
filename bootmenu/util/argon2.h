/* argon2.h - Argon2d, Argon2i and Argon2id (RFC 9106, version 0x13), the
 * memory-hard key derivation of LUKS2 keyslots.
 *
 * The lanes of a slice are computed in threads, one per CPU online (RFC
 * 9106 3.4.1 lets no segment refer to another lane's segment of the same
 * slice, so the result does not depend on how many). The memory (m_kib KiB) is
 * mmap'd for the call, wiped and unmapped before it returns; nothing else
 * is allocated. The mapping may be granted and its pages fail later
 * (memory overcommit): a caller compares m_kib with the memory it can
 * spare before calling.
 */
#ifndef BM_ARGON2_H
#define BM_ARGON2_H

#include <stddef.h>
#include <stdint.h>

enum argon2_type { ARGON2_D = 0, ARGON2_I = 1, ARGON2_ID = 2 };

struct argon2_params {
	enum argon2_type type;
	uint32_t t_cost; /* passes, >= 1 */
	uint32_t m_kib;	 /* memory in KiB, >= 8 * lanes */
	uint32_t lanes;	 /* >= 1 */
	/* threads to share a slice's lanes among: 0, one per CPU online
	 * (one when a segment is under 256 KiB: not worth starting threads);
	 * never more than @lanes (or 16). The result is the same. */
	uint32_t threads;
	/* called after each slice of each pass (done of total); nonzero stops
	 * the hash: -ECANCELED. May be NULL. */
	int (*progress)(void *ctx, unsigned done, unsigned total);
	void *ctx;
};

/* @out[0..out_len) = Argon2(@p) of password @pw and @salt, no secret and
 * no associated data (as LUKS2 uses it). In range: t_cost 1..2^30 - 1
 * (so t_cost * 4 slices counts in an unsigned), lanes 1..2^24 - 1, m_kib
 * >= 8 * lanes, @salt_len >= 8, @out_len >= 4 (RFC 9106 3.1). Returns 0,
 * -EINVAL (parameters out of range), -ENOMEM (the memory could not be had:
 * mmap'd, not malloc'd, and unmapped and wiped before return) or -ECANCELED
 * (the progress callback said stop; @out is then zeroed). */
int argon2_hash(const struct argon2_params *p, const void *pw, size_t pw_len,
		const void *salt, size_t salt_len, uint8_t *out,
		size_t out_len);

/* The same with RFC 9106's optional secret @key and associated data @ad
 * (either may be NULL with length 0): what its test vectors use. */
int argon2_hash_keyed(const struct argon2_params *p, const void *pw,
		      size_t pw_len, const void *salt, size_t salt_len,
		      const void *key, size_t key_len, const void *ad,
		      size_t ad_len, uint8_t *out, size_t out_len);

#endif
