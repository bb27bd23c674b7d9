/* luks.h - LUKS1 and LUKS2 headers, keyslots and unlock, read-only.
 *
 * The path: luks_read() takes a device's header through a read callback
 * (LUKS1's 592-byte header; LUKS2's binary header and JSON area, the
 * secondary copy when the primary is damaged, the higher seqid when both
 * are good) into a struct luks_hdr. luks_unlock() turns a passphrase into
 * the volume key by trying the keyslots: KDF, the keyslot area read and
 * decrypted, AF merge, digest check. luks_dm_table() writes the dm-crypt
 * table line for the data segment. Nothing is ever written to the device.
 *
 * Formats from the LUKS1 On-Disk Format Specification 1.2.3 ("LUKS1") and
 * the LUKS2 On-Disk Format Specification 1.1.x ("LUKS2"), with facts
 * checked against cryptsetup 2.6 (read for the facts, no code taken).
 */
#ifndef BM_VOL_LUKS_H
#define BM_VOL_LUKS_H

#include "util/arena.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LUKS_SECTOR 512
#define LUKS1_HDR_SIZE 592
#define LUKS1_SLOTS 8
#define LUKS2_BIN_SIZE 4096	       /* LUKS2 2.1: the binary header */
#define LUKS2_HDR_MIN (16 << 10)       /* LUKS2 2.1: hdr_size 16 KiB .. */
#define LUKS2_HDR_MAX (4 << 20)	       /* .. 4 MiB, a power of two */
#define LUKS_SLOTS_MAX 32	       /* keyslot ids we keep: 0..31 */
#define LUKS_DIGESTS_MAX 8	       /* LUKS2 digests we keep */
#define LUKS_TOKENS_MAX 32	       /* LUKS2 tokens we keep */
#define LUKS_TOKEN_FIELDS_MAX 24       /* members kept of one token */
#define LUKS_KEY_MAX 128	       /* volume and keyslot key bytes */
#define LUKS_SALT_MAX 64	       /* KDF and digest salts */
#define LUKS_STRIPES_MAX 4000	       /* LUKS1 2.4: the AF stripes used */
#define LUKS_PBKDF2_ITER_MAX 100000000 /* a sane bound: minutes of work */
#define LUKS_ARGON2_T_MAX 1000	       /* passes */
#define LUKS_ARGON2_LANES_MAX 16       /* cryptsetup's own bound */
#define LUKS_NAME_MAX 64	       /* cipher, mode, hash, kdf names */

/* One keyslot, both versions described alike: LUKS1's are pbkdf2 with
 * the header's hash and the volume's own cipher. */
struct luks_keyslot {
	int id;
	int priority;	   /* LUKS2 4.2: 0 ignore, 1 normal, 2 high */
	char skip[160];	   /* not "": why this keyslot cannot be used */
	int skip_rc;	   /* -ENOTSUP or -EINVAL, with skip */
	size_t key_size;   /* the volume key's bytes */
	char kdf[16];	   /* "pbkdf2", "argon2i", "argon2id" */
	char kdf_hash[16]; /* pbkdf2 */
	uint32_t iter;	   /* pbkdf2 iterations, or argon2 time (passes) */
	uint32_t mem_kib;  /* argon2 */
	uint32_t lanes;	   /* argon2 cpus */
	uint8_t salt[LUKS_SALT_MAX];
	size_t salt_len;
	char cipher[LUKS_NAME_MAX], mode[LUKS_NAME_MAX]; /* of the area */
	size_t area_key_size;				 /* the KDF's output */
	uint64_t area_offset, area_size;		 /* bytes */
	uint32_t stripes;
	char af_hash[16];
	int digest; /* index into luks_hdr.digest; -1: none */
};

/* What a candidate volume key is checked against (LUKS1's mk-digest is
 * one of these: 20 bytes, every keyslot). */
struct luks_digest {
	uint32_t keyslots; /* bit i: keyslot id i */
	bool segment;	   /* it checks the key of segment 0 */
	char hash[16];
	uint32_t iter;
	uint8_t salt[LUKS_SALT_MAX];
	size_t salt_len;
	uint8_t value[64];
	size_t len;
};

/* A LUKS2 token (LUKS2 4.4). For "systemd-tpm2" every member but type
 * and keyslots is kept in field[] as text: strings decoded, other values
 * as JSON writes them (arrays of numbers as "7,11"). Strings belong to
 * the header's arena. */
struct luks_token {
	int id;
	const char *type;
	uint32_t keyslots;
	size_t n_field;
	struct {
		const char *name, *value;
	} field[LUKS_TOKEN_FIELDS_MAX];
};

struct luks_hdr {
	int version;   /* 1 or 2 */
	char uuid[40]; /* "" when none, or of other bytes than hex and dashes */
	char label[48], subsystem[48]; /* LUKS2 */
	uint64_t seqid, hdr_size;      /* LUKS2 */
	bool secondary;		       /* LUKS2: read from the secondary copy */
	uint64_t dev_size;	       /* bytes, as the caller gave it */
	/* the data segment (LUKS2 segment 0; LUKS1's payload) */
	char cipher[LUKS_NAME_MAX], mode[LUKS_NAME_MAX];
	size_t key_size;      /* volume key bytes */
	uint64_t offset;      /* bytes */
	uint64_t size;	      /* bytes; 0: "dynamic", to the device's end */
	uint64_t iv_tweak;    /* sectors */
	uint32_t sector_size; /* 512 .. 4096 */
	size_t n_slot;
	struct luks_keyslot slot[LUKS_SLOTS_MAX]; /* in id order */
	size_t n_digest;
	struct luks_digest digest[LUKS_DIGESTS_MAX];
	size_t n_token;
	struct luks_token token[LUKS_TOKENS_MAX];
	struct arena a; /* the tokens' strings */
};

/* Read @len bytes at byte @off of the device into @buf; 0 or -errno (a
 * short read is an error: -EIO). */
typedef int (*luks_read_fn)(void *ctx, uint64_t off, void *buf, size_t len);

/* The luks_read_fn of an open device or image: @ctx points to its file
 * descriptor (an int); pread() until @len bytes, EINTR retried. */
int luks_fd_read(void *ctx, uint64_t off, void *buf, size_t len);

/* Read and check the header of a device of @dev_size bytes through @rd.
 * Returns 0 with @h filled (free with luks_free()); -ENOENT when neither
 * LUKS magic is there (not LUKS; a sentence anyway), -ENOTSUP (a version
 * other than 1 or 2), -EINVAL (damaged beyond use: both LUKS2 copies bad,
 * or a LUKS1 header out of bounds), -EIO (@rd failed), -ENOMEM; each with
 * a sentence in err. Keyslots that cannot be used are kept with their
 * reason in skip. @h is zeroed first. */
int luks_read(luks_read_fn rd, void *ctx, uint64_t dev_size, struct luks_hdr *h,
	      char *err, size_t errlen);

/* The pure halves luks_read() is made of (and the fuzz target's way in):
 * a LUKS1 header in buf[0..len) (at least LUKS1_HDR_SIZE bytes), and a
 * LUKS2 JSON area text (up to its NUL) for a header of @hdr_size bytes.
 * They fill @h the way luks_read() does (luks2_json_parse() leaves the
 * binary header's fields alone); same returns. */
int luks1_parse(const uint8_t *buf, size_t len, uint64_t dev_size,
		struct luks_hdr *h, char *err, size_t errlen);
int luks2_json_parse(const char *json, size_t len, uint64_t hdr_size,
		     uint64_t dev_size, struct luks_hdr *h, char *err,
		     size_t errlen);

/* Free what @h owns (the arena); @h is zeroed. */
void luks_free(struct luks_hdr *h);

/* How luks_unlock() may work. */
struct luks_unlock {
	const void *pass;
	size_t pass_len;
	int slot; /* -1: every eligible keyslot; else only this id (even one
		     of priority 0) */
	/* the most memory an Argon2 keyslot may take (KiB), say half of what
	 * the caller can spare; a keyslot wanting more is refused before
	 * anything is allocated */
	uint64_t mem_max_kib;
	/* passed on to argon2_hash(): after each slice, done of total;
	 * nonzero stops with -ECANCELED. May be NULL. */
	int (*progress)(void *ctx, unsigned done, unsigned total);
	void *progress_ctx;
};

/* Open the volume key of @h with @u's passphrase, reading keyslot areas
 * through @rd. Keyslots are tried by priority (2, then 1; 0 only when
 * named by u->slot), each in id order. On success returns 0 with the key
 * in key[0..*key_len) and the keyslot's id in *slot (may be NULL). Else
 * @key is wiped and the return is -EACCES ("wrong passphrase": at least
 * one keyslot was tried and none opened), or, when no keyslot could be
 * tried, the first reason: -ENOTSUP (a cipher, KDF or hash we lack,
 * named), -ENOMEM (an Argon2 keyslot needs more than u->mem_max_kib: the
 * sentence says how many MiB), -ENOENT (no keyslot, or u->slot absent),
 * -EINVAL, -EIO; or -ECANCELED from progress, -ENOSPC when @key_cap is
 * smaller than the volume key. Each with a sentence in err. Every secret
 * it holds on the way is wiped. */
int luks_unlock(const struct luks_hdr *h, luks_read_fn rd, void *ctx,
		const struct luks_unlock *u, uint8_t *key, size_t key_cap,
		size_t *key_len, int *slot, char *err, size_t errlen);

/* The dm-crypt table line (the kernel's dm-crypt.rst) for the data
 * segment of @h on device @dev (a path or "major:minor"): "0 <sectors>
 * crypt <cipher>-<mode> <hex key> <iv_offset> <dev> <offset sectors>",
 * plus " 1 sector_size:<n>" when the sector is not 512 bytes. Sectors
 * are 512 bytes; a "dynamic" segment runs to the end of h->dev_size,
 * whole encryption sectors only. Returns 0, -EINVAL (the segment does
 * not fit the device, the key length is not the header's), -ENOSPC (out
 * too small); each with a sentence. The line holds the key: wipe @out
 * after use. */
int luks_dm_table(const struct luks_hdr *h, const uint8_t *key, size_t key_len,
		  const char *dev, char *out, size_t outlen, char *err,
		  size_t errlen);

#endif
