/* luks.c - LUKS1 and LUKS2 binary headers, the choice between LUKS2's two
 * copies, keyslot unlock and the dm-crypt table line. See luks.h; the
 * LUKS2 JSON metadata is read in luks_json.c. */
#include "vol/luks.h"

#include "util/argon2.h"
#include "util/hash.h"
#include "util/file.h"
#include "util/hex.h"
#include "util/le.h"
#include "util/say.h"
#include "vol/luks_crypt.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint8_t luks_magic[6] = {'L', 'U', 'K', 'S', 0xba, 0xbe};
static const uint8_t luks2_magic2[6] = {'S', 'K', 'U', 'L', 0xba, 0xbe};

/* LUKS1 2.4 and LUKS2 2.1: every integer on disk is big-endian
 * (util/le.h get_be16/32/64). */

/* A NUL-terminated text field of @n bytes at @off into dst[0..cap). */
static int get_text(const uint8_t *buf, size_t len, size_t off, size_t n,
		    char *dst, size_t cap)
{
	size_t k;

	if (!le_in(len, off, n))
		return -ERANGE;
	k = strnlen((const char *)buf + off, n);
	if (k == n || k >= cap)
		return -EINVAL;
	memcpy(dst, buf + off, k);
	dst[k] = '\0';
	return 0;
}

/* A UUID names the volume's device-mapper table and the scan's record
 * ("luks-<uuid>"): one of other bytes than cryptsetup writes (hex and
 * dashes; letters and digits kept) is dropped, and the volume is then
 * named by its device. */
static void uuid_clean(char *u)
{
	for (const char *p = u; *p; p++)
		if (!(*p == '-' || (*p >= '0' && *p <= '9') ||
		      (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z'))) {
			u[0] = '\0';
			return;
		}
}

int luks_fd_read(void *ctx, uint64_t off, void *buf, size_t len)
{
	ssize_t n;

	if (off > INT64_MAX || len > INT64_MAX - off)
		return -EINVAL;
	n = util_pread_full(*(const int *)ctx, buf, len, off);
	if (n < 0)
		return (int)n;
	return (size_t)n == len ? 0 : -EIO; /* luks.h: short is an error */
}

void luks_free(struct luks_hdr *h)
{
	arena_free(&h->a);
	explicit_bzero(h, sizeof(*h));
}

/* LUKS1 2.4 table 2: the 592-byte phdr. */
enum {
	L1_VERSION = 6,
	L1_CIPHER = 8,
	L1_MODE = 40,
	L1_HASH = 72,
	L1_PAYLOAD = 104,
	L1_KEY_BYTES = 108,
	L1_MK_DIGEST = 112,
	L1_MK_SALT = 132,
	L1_MK_ITER = 164,
	L1_UUID = 168,
	L1_SLOT = 208,
	L1_SLOT_SIZE = 48,
	L1_DIGEST_LEN = 20,
	L1_SALT_LEN = 32,
	L1_ACTIVE = 0x00AC71F3,
};

/* LUKS1 2.4 table 3: one key slot. Every slot uses the volume's cipher
 * and the header's hash, with PBKDF2 (LUKS1 2.5). */
static int luks1_slot(const uint8_t *buf, size_t len, struct luks_hdr *h, int i)
{
	struct luks_keyslot *s = &h->slot[h->n_slot];
	size_t o = L1_SLOT + (size_t)i * L1_SLOT_SIZE;
	uint32_t active = 0, it = 0, off = 0, st = 0;
	uint64_t need;

	if (get_be32(buf, len, o, &active) < 0 || active != L1_ACTIVE)
		return 0;
	memset(s, 0, sizeof(*s));
	*s = (struct luks_keyslot){.id = i, .priority = 1, .digest = 0};
	get_be32(buf, len, o + 4, &it);
	get_be32(buf, len, o + 40, &off);
	get_be32(buf, len, o + 44, &st);
	memcpy(s->salt, buf + o + 8, L1_SALT_LEN);
	s->salt_len = L1_SALT_LEN;
	strcpy(s->kdf, "pbkdf2");
	snprintf(s->kdf_hash, sizeof(s->kdf_hash), "%s", h->digest[0].hash);
	snprintf(s->af_hash, sizeof(s->af_hash), "%s", h->digest[0].hash);
	memcpy(s->cipher, h->cipher, sizeof(s->cipher));
	memcpy(s->mode, h->mode, sizeof(s->mode));
	s->key_size = s->area_key_size = h->key_size;
	s->iter = it;
	s->stripes = st;
	s->area_offset = (uint64_t)off * LUKS_SECTOR;
	need = ((uint64_t)h->key_size * st + LUKS_SECTOR - 1) / LUKS_SECTOR;
	s->area_size = need * LUKS_SECTOR;
	h->n_slot++;
	if (!it || it > LUKS_PBKDF2_ITER_MAX || !st || st > LUKS_STRIPES_MAX)
		return -EINVAL;
	if (s->area_offset < LUKS1_HDR_SIZE || h->dev_size < s->area_offset ||
	    s->area_size > h->dev_size - s->area_offset)
		return -ERANGE;
	return 0;
}

static int luks1_fields(const uint8_t *buf, size_t len, struct luks_hdr *h)
{
	struct luks_digest *g = &h->digest[0];
	uint32_t payload = 0, kb = 0;

	if (get_text(buf, len, L1_CIPHER, 32, h->cipher, sizeof(h->cipher)) ||
	    get_text(buf, len, L1_MODE, 32, h->mode, sizeof(h->mode)) ||
	    get_text(buf, len, L1_HASH, 32, g->hash, sizeof(g->hash)) ||
	    get_text(buf, len, L1_UUID, 40, h->uuid, sizeof(h->uuid)) ||
	    get_be32(buf, len, L1_PAYLOAD, &payload) ||
	    get_be32(buf, len, L1_KEY_BYTES, &kb) ||
	    get_be32(buf, len, L1_MK_ITER, &g->iter))
		return -EINVAL;
	uuid_clean(h->uuid);
	if (!kb || kb > LUKS_KEY_MAX || !g->iter ||
	    g->iter > LUKS_PBKDF2_ITER_MAX)
		return -EINVAL;
	h->offset = (uint64_t)payload * LUKS_SECTOR;
	if (h->offset > h->dev_size)
		return -ERANGE;
	h->key_size = kb;
	memcpy(g->value, buf + L1_MK_DIGEST, L1_DIGEST_LEN);
	g->len = L1_DIGEST_LEN;
	memcpy(g->salt, buf + L1_MK_SALT, L1_SALT_LEN);
	g->salt_len = L1_SALT_LEN;
	g->keyslots = (1u << LUKS1_SLOTS) - 1;
	g->segment = true;
	h->n_digest = 1;
	return 0;
}

int luks1_parse(const uint8_t *buf, size_t len, uint64_t dev_size,
		struct luks_hdr *h, char *err, size_t errlen)
{
	uint16_t version = 0;
	int rc;

	memset(h, 0, sizeof(*h));
	if (len < LUKS1_HDR_SIZE || memcmp(buf, luks_magic, 6) != 0)
		return say(err, errlen, -ENOENT, "no LUKS header");
	get_be16(buf, len, L1_VERSION, &version);
	if (version != 1)
		return say(err, errlen, -ENOTSUP, "LUKS version %u is not 1",
			   version);
	h->version = 1;
	h->dev_size = dev_size;
	h->sector_size = LUKS_SECTOR;
	rc = luks1_fields(buf, len, h);
	if (rc < 0)
		return say(err, errlen, -EINVAL,
			   "LUKS1 header is damaged "
			   "(a name, the key size or an offset is out of "
			   "bounds)");
	for (int i = 0; i < LUKS1_SLOTS; i++) {
		struct luks_keyslot *s = &h->slot[h->n_slot];

		if (luks1_slot(buf, len, h, i) < 0) {
			snprintf(s->skip, sizeof(s->skip),
				 "key slot %d: its iterations, stripes or "
				 "area are out of bounds",
				 i);
			s->skip_rc = -EINVAL;
		}
	}
	return 0;
}

/* LUKS2 2.1 table 1: the binary header. */
enum {
	L2_VERSION = 6,
	L2_HDR_SIZE = 8,
	L2_SEQID = 16,
	L2_LABEL = 24,
	L2_CSUM_ALG = 72,
	L2_UUID = 168,
	L2_SUBSYSTEM = 208,
	L2_HDR_OFFSET = 256,
	L2_CSUM = 448,
	L2_CSUM_LEN = 64,
};

/* LUKS2 2.2: where a secondary header may start (the primary's hdr_size,
 * one of the allowed sizes), tried when the primary cannot say. */
static const uint64_t luks2_offsets[] = {
    0x4000,  0x8000,   0x10000,	 0x20000,  0x40000,
    0x80000, 0x100000, 0x200000, 0x400000,
};

static bool luks2_size_ok(uint64_t size)
{
	for (size_t i = 0; i < sizeof(luks2_offsets) / sizeof(luks2_offsets[0]);
	     i++)
		if (size == luks2_offsets[i])
			return true;
	return false;
}

/* The binary header of the copy at @off: magic (LUKS2 2.1: "LUKS" for
 * the primary, "SKUL" for the secondary), version, hdr_size, its own
 * offset. -ENOENT when the magic is not there. */
static int luks2_bin(const uint8_t *b, uint64_t off, struct luks_hdr *h,
		     char *err, size_t errlen)
{
	uint64_t own = 0;
	uint16_t v = 0;

	if (memcmp(b, off ? luks2_magic2 : luks_magic, 6) != 0)
		return say(err, errlen, -ENOENT, "no LUKS2 magic");
	get_be16(b, LUKS2_BIN_SIZE, L2_VERSION, &v);
	get_be64(b, LUKS2_BIN_SIZE, L2_HDR_SIZE, &h->hdr_size);
	get_be64(b, LUKS2_BIN_SIZE, L2_SEQID, &h->seqid);
	get_be64(b, LUKS2_BIN_SIZE, L2_HDR_OFFSET, &own);
	if (v != 2)
		return say(err, errlen, -EINVAL, "version %u, not 2", v);
	if (!luks2_size_ok(h->hdr_size) || own != off)
		return say(err, errlen, -EINVAL, "bad header size or offset");
	if (get_text(b, LUKS2_BIN_SIZE, L2_LABEL, 48, h->label,
		     sizeof(h->label)) ||
	    get_text(b, LUKS2_BIN_SIZE, L2_SUBSYSTEM, 48, h->subsystem,
		     sizeof(h->subsystem)) ||
	    get_text(b, LUKS2_BIN_SIZE, L2_UUID, 40, h->uuid, sizeof(h->uuid)))
		return say(err, errlen, -EINVAL, "a name is not terminated");
	uuid_clean(h->uuid);
	return 0;
}

/* LUKS2 2.1: the checksum covers the whole header (binary part with the
 * checksum field zeroed, then the JSON area); @b is changed. */
static int luks2_csum(uint8_t *b, size_t len, char *err, size_t errlen)
{
	uint8_t want[L2_CSUM_LEN], got[HASH_MAX_LEN];
	const struct hash_alg *hs;
	char alg[32];
	int rc;

	if (get_text(b, len, L2_CSUM_ALG, 32, alg, sizeof(alg)) < 0 ||
	    !(hs = hash_find(alg)))
		return say(err, errlen, -ENOTSUP,
			   "checksum algorithm is not "
			   "one we have");
	memcpy(want, b + L2_CSUM, L2_CSUM_LEN);
	memset(b + L2_CSUM, 0, L2_CSUM_LEN);
	hash_once(hs, b, len, got);
	rc = memcmp(want, got, hs->len) ? -EINVAL : 0;
	memcpy(b + L2_CSUM, want, L2_CSUM_LEN);
	return rc ? say(err, errlen, rc, "bad %s checksum", alg) : 0;
}

static int luks_rd(luks_read_fn rd, void *ctx, uint64_t off, void *buf,
		   size_t len, char *err, size_t errlen)
{
	int rc = rd(ctx, off, buf, len);

	if (rc == 0)
		return 0;
	return say(err, errlen, rc < 0 ? rc : -EIO,
		   "could not read %zu bytes at byte %" PRIu64, len, off);
}

/* The whole header in b[0..h->hdr_size): its checksum, then the JSON
 * area (LUKS2 2.1: text up to a NUL, zeros after it). */
static int luks2_area(uint8_t *b, struct luks_hdr *h, char *err, size_t errlen)
{
	size_t max = h->hdr_size - LUKS2_BIN_SIZE, n;
	int rc = luks2_csum(b, h->hdr_size, err, errlen);

	if (rc)
		return rc;
	n = strnlen((char *)b + LUKS2_BIN_SIZE, max);
	if (n == max)
		return say(err, errlen, -EINVAL, "JSON area not terminated");
	return luks2_json_parse((char *)b + LUKS2_BIN_SIZE, n, h->hdr_size,
				h->dev_size, h, err, errlen);
}

/* One LUKS2 copy at @off into @h (zeroed first). */
static int luks2_copy(luks_read_fn rd, void *ctx, uint64_t dev_size,
		      uint64_t off, struct luks_hdr *h, char *err,
		      size_t errlen)
{
	uint8_t bin[LUKS2_BIN_SIZE], *b;
	int rc;

	memset(h, 0, sizeof(*h));
	h->version = 2;
	h->dev_size = dev_size;
	if (dev_size < off || dev_size - off < LUKS2_BIN_SIZE)
		return say(err, errlen, -ENOENT, "past the device's end");
	rc = luks_rd(rd, ctx, off, bin, sizeof(bin), err, errlen);
	rc = rc ? rc : luks2_bin(bin, off, h, err, errlen);
	if (rc)
		return rc;
	if (dev_size - off < h->hdr_size)
		return say(err, errlen, -EINVAL, "runs past the device's end");
	b = malloc(h->hdr_size);
	if (!b)
		return say(err, errlen, -ENOMEM, "out of memory");
	memcpy(b, bin, sizeof(bin));
	rc = luks_rd(rd, ctx, off + LUKS2_BIN_SIZE, b + LUKS2_BIN_SIZE,
		     h->hdr_size - LUKS2_BIN_SIZE, err, errlen);
	rc = rc ? rc : luks2_area(b, h, err, errlen);
	free(b);
	return rc;
}

/* LUKS2 2.2: with no primary to say where, the secondary is looked for
 * at every allowed header size; the first copy whose magic is there is
 * the one. */
static int luks2_scan(luks_read_fn rd, void *ctx, uint64_t dev_size,
		      struct luks_hdr *s, char *err, size_t errlen)
{
	int rc = say(err, errlen, -ENOENT, "no LUKS2 magic");

	for (size_t i = 0; i < sizeof(luks2_offsets) / sizeof(luks2_offsets[0]);
	     i++) {
		rc = luks2_copy(rd, ctx, dev_size, luks2_offsets[i], s, err,
				errlen);
		if (rc != -ENOENT)
			break;
		luks_free(s);
	}
	return rc;
}

/* Both copies read; the good one, or the higher seqid of two good ones
 * (LUKS2 2.3), ends in @h. */
static int luks2_choose(struct luks_hdr *h, struct luks_hdr *s, int r1, int r2,
			const char *e1, const char *e2, char *err,
			size_t errlen)
{
	if (r1 == 0 && (r2 != 0 || s->seqid <= h->seqid)) {
		luks_free(s);
		return 0;
	}
	luks_free(h);
	if (r2 == 0) {
		*h = *s;
		h->secondary = true;
		memset(s, 0, sizeof(*s));
		return 0;
	}
	luks_free(s);
	if (r1 == -ENOENT && r2 == -ENOENT)
		return say(err, errlen, -ENOENT, "no LUKS header");
	/* both copies sound but asking for what is not supported (a
	 * re-encryption under way): that reason alone, nothing is damaged */
	if (r1 == -ENOTSUP && r2 == -ENOTSUP)
		return say(err, errlen, -ENOTSUP, "%s", e1);
	return say(err, errlen, r1 != -ENOENT ? r1 : r2,
		   "LUKS2 header damaged in both copies: primary: %s; "
		   "secondary: %s",
		   e1, e2);
}

static int luks2_read(luks_read_fn rd, void *ctx, uint64_t dev_size,
		      struct luks_hdr *h, char *err, size_t errlen)
{
	struct luks_hdr *s = malloc(sizeof(*s));
	char e1[200] = "", e2[200] = "";
	int r1, r2 = -ENOENT;

	if (!s)
		return say(err, errlen, -ENOMEM, "out of memory");
	memset(s, 0, sizeof(*s));
	r1 = luks2_copy(rd, ctx, dev_size, 0, h, e1, sizeof(e1));
	if (luks2_size_ok(h->hdr_size))
		r2 = luks2_copy(rd, ctx, dev_size, h->hdr_size, s, e2,
				sizeof(e2));
	if (r2 == -ENOENT) {
		luks_free(s);
		r2 = luks2_scan(rd, ctx, dev_size, s, e2, sizeof(e2));
	}
	r1 = luks2_choose(h, s, r1, r2, e1, e2, err, errlen);
	free(s);
	return r1;
}

int luks_read(luks_read_fn rd, void *ctx, uint64_t dev_size, struct luks_hdr *h,
	      char *err, size_t errlen)
{
	uint8_t b[LUKS1_HDR_SIZE];
	uint16_t v = 0;
	int rc;

	memset(h, 0, sizeof(*h));
	if (dev_size < LUKS1_HDR_SIZE)
		return say(err, errlen, -ENOENT, "too small for a LUKS header");
	rc = luks_rd(rd, ctx, 0, b, sizeof(b), err, errlen);
	if (rc)
		return rc;
	get_be16(b, sizeof(b), 6, &v);
	if (memcmp(b, luks_magic, 6) == 0 && v == 1)
		return luks1_parse(b, sizeof(b), dev_size, h, err, errlen);
	if (memcmp(b, luks_magic, 6) == 0 && v != 2)
		return say(err, errlen, -ENOTSUP,
			   "LUKS version %u: we read versions 1 and 2", v);
	/* LUKS2, or a primary whose magic is damaged: the secondary may
	 * still be good */
	return luks2_read(rd, ctx, dev_size, h, err, errlen);
}

/* Can keyslot @s be tried at all, and within what @u allows? Decided
 * before any work or allocation. */
static int lk_check(const struct luks_hdr *h, const struct luks_keyslot *s,
		    const struct luks_unlock *u, size_t key_cap, char *err,
		    size_t errlen)
{
	const struct luks_digest *g =
	    s->digest >= 0 ? &h->digest[s->digest] : NULL;

	if (s->skip[0])
		return say(err, errlen, s->skip_rc ? s->skip_rc : -EINVAL, "%s",
			   s->skip);
	if (!g)
		return say(err, errlen, -EINVAL,
			   "keyslot %d: bound to no digest", s->id);
	if (s->key_size > key_cap)
		return say(err, errlen, -ENOSPC,
			   "keyslot %d: its %zu-byte key does not fit in %zu",
			   s->id, s->key_size, key_cap);
	if (!luks_cipher_known(s->cipher, s->mode))
		return say(err, errlen, -ENOTSUP,
			   "keyslot %d: cipher %s%s%s is not one we have",
			   s->id, s->cipher, s->mode[0] ? "-" : "", s->mode);
	if (!hash_find(s->af_hash) || !hash_find(g->hash) ||
	    (!strcmp(s->kdf, "pbkdf2") && !hash_find(s->kdf_hash)))
		return say(err, errlen, -ENOTSUP,
			   "keyslot %d: hash %s is not one we have", s->id,
			   !hash_find(s->af_hash) ? s->af_hash
			   : !hash_find(g->hash)  ? g->hash
						  : s->kdf_hash);
	if (strcmp(s->kdf, "pbkdf2") != 0 && s->mem_kib > u->mem_max_kib)
		return say(err, errlen, -ENOMEM,
			   "keyslot %d: %s needs %u MiB of memory, more than "
			   "the %" PRIu64 " MiB we can spare",
			   s->id, s->kdf, (s->mem_kib + 1023) / 1024,
			   u->mem_max_kib / 1024);
	return 0;
}

/* The passphrase into the key that encrypts the keyslot's area. */
static int lk_kdf(const struct luks_keyslot *s, const struct luks_unlock *u,
		  uint8_t *dk, char *err, size_t errlen)
{
	struct argon2_params p = {
	    .type = strcmp(s->kdf, "argon2i") ? ARGON2_ID : ARGON2_I,
	    .t_cost = s->iter,
	    .m_kib = s->mem_kib,
	    .lanes = s->lanes,
	    .progress = u->progress,
	    .ctx = u->progress_ctx,
	};
	int rc;

	if (strcmp(s->kdf, "pbkdf2") == 0)
		rc =
		    pbkdf2(hash_find(s->kdf_hash), u->pass, u->pass_len,
			   s->salt, s->salt_len, s->iter, dk, s->area_key_size);
	else
		rc = argon2_hash(&p, u->pass, u->pass_len, s->salt, s->salt_len,
				 dk, s->area_key_size);
	if (rc == -ECANCELED)
		return say(err, errlen, rc, "cancelled");
	if (rc == -ENOMEM)
		return say(err, errlen, rc,
			   "keyslot %d: could not have the "
			   "%u MiB %s needs",
			   s->id, s->mem_kib / 1024, s->kdf);
	return rc ? say(err, errlen, rc, "keyslot %d: bad %s parameters", s->id,
			s->kdf)
		  : 0;
}

/* LUKS1 2.4 (AF-splitting): diffuse hashes the buffer in blocks of the
 * digest's size, each prefixed by its big-endian index; the last block
 * may be short and is hashed as it is, its hash cut to its length. */
static void lk_diffuse(const struct hash_alg *hs, uint8_t *d, size_t len)
{
	uint8_t in[4 + HASH_MAX_LEN], out[HASH_MAX_LEN];
	uint32_t blk = 0;

	for (size_t i = 0; i < len; i += hs->len, blk++) {
		size_t n = len - i < hs->len ? len - i : hs->len;

		in[0] = (uint8_t)(blk >> 24);
		in[1] = (uint8_t)(blk >> 16);
		in[2] = (uint8_t)(blk >> 8);
		in[3] = (uint8_t)blk;
		memcpy(in + 4, d + i, n);
		hash_once(hs, in, 4 + n, out);
		memcpy(d + i, out, n);
	}
	explicit_bzero(in, sizeof(in));
	explicit_bzero(out, sizeof(out));
}

/* LUKS1 2.4 AF-merge: d = 0; d = diffuse(d ^ s_i) for all stripes but
 * the last; the key is d ^ s_last. */
static void lk_af_merge(const uint8_t *split, size_t key_size, uint32_t stripes,
			const struct hash_alg *hs, uint8_t *key)
{
	memset(key, 0, key_size);
	for (uint32_t i = 0; i < stripes; i++) {
		const uint8_t *s = split + (size_t)i * key_size;

		for (size_t k = 0; k < key_size; k++)
			key[k] ^= s[k];
		if (i + 1 < stripes)
			lk_diffuse(hs, key, key_size);
	}
}

/* Read the keyslot's area (LUKS1 2.4: key_size * stripes bytes, whole
 * sectors) and decrypt it with the derived key, IV sectors from 0. */
static int lk_area(const struct luks_keyslot *s, luks_read_fn rd, void *ctx,
		   const uint8_t *dk, uint8_t **out, size_t *len, char *err,
		   size_t errlen)
{
	size_t n = (s->key_size * s->stripes + LUKS_SECTOR - 1) / LUKS_SECTOR *
		   LUKS_SECTOR;
	uint8_t *b = malloc(n);
	int rc;

	if (!b)
		return say(err, errlen, -ENOMEM, "out of memory");
	rc = luks_rd(rd, ctx, s->area_offset, b, n, err, errlen);
	if (!rc)
		rc = luks_decrypt(s->cipher, s->mode, dk, s->area_key_size, 0,
				  LUKS_SECTOR, b, n);
	if (rc == -ENOTSUP || rc == -EINVAL)
		say(err, errlen, rc,
		    "keyslot %d: cannot decrypt with %s-%s "
		    "and a %zu-byte key",
		    s->id, s->cipher, s->mode, s->area_key_size);
	if (rc) {
		explicit_bzero(b, n);
		free(b);
		return rc;
	}
	*out = b;
	*len = n;
	return 0;
}

/* LUKS1 2.6 / LUKS2 3.4: PBKDF2 of the candidate key with the digest's
 * salt and iterations must give its value. */
static int lk_digest(const struct luks_digest *g, const uint8_t *key,
		     size_t key_size)
{
	uint8_t got[sizeof(g->value)];
	uint8_t diff = 0;
	int rc = pbkdf2(hash_find(g->hash), key, key_size, g->salt, g->salt_len,
			g->iter, got, g->len);

	for (size_t i = 0; !rc && i < g->len; i++)
		diff |= got[i] ^ g->value[i];
	explicit_bzero(got, sizeof(got));
	return rc ? rc : diff ? -EACCES : 0;
}

/* One keyslot: 0 with the volume key in @key, -EACCES when the
 * passphrase is not this keyslot's, else why it could not be tried. */
static int lk_try(const struct luks_hdr *h, const struct luks_keyslot *s,
		  luks_read_fn rd, void *ctx, const struct luks_unlock *u,
		  uint8_t *key, size_t key_cap, char *err, size_t errlen)
{
	uint8_t dk[LUKS_KEY_MAX], *area = NULL;
	size_t n = 0;
	int rc = lk_check(h, s, u, key_cap, err, errlen);

	rc = rc ? rc : lk_kdf(s, u, dk, err, errlen);
	rc = rc ? rc : lk_area(s, rd, ctx, dk, &area, &n, err, errlen);
	if (!rc) {
		lk_af_merge(area, s->key_size, s->stripes,
			    hash_find(s->af_hash), key);
		rc = lk_digest(&h->digest[s->digest], key, s->key_size);
		explicit_bzero(area, n);
		free(area);
	}
	explicit_bzero(dk, sizeof(dk));
	if (rc)
		explicit_bzero(key, key_cap);
	return rc;
}

/* Is keyslot @s tried in the pass for priority @prio? (LUKS2 3.2:
 * priority 2 first, then 1; 0 only when asked for by id.) */
static bool lk_turn(const struct luks_keyslot *s, const struct luks_unlock *u,
		    int prio)
{
	if (u->slot >= 0)
		return prio == 2 && s->id == u->slot;
	return s->priority == prio && prio != 0;
}

int luks_unlock(const struct luks_hdr *h, luks_read_fn rd, void *ctx,
		const struct luks_unlock *u, uint8_t *key, size_t key_cap,
		size_t *key_len, int *slot, char *err, size_t errlen)
{
	char why[256] = "";
	int tried = 0, first = 0, rc;

	for (int prio = 2; prio >= 0; prio--) {
		for (size_t i = 0; i < h->n_slot; i++) {
			const struct luks_keyslot *s = &h->slot[i];

			if (!lk_turn(s, u, prio))
				continue;
			rc = lk_try(h, s, rd, ctx, u, key, key_cap, why,
				    first ? 0 : sizeof(why));
			if (rc == 0) {
				*key_len = s->key_size;
				if (slot)
					*slot = s->id;
				return 0;
			}
			if (rc == -ECANCELED)
				return say(err, errlen, rc, "cancelled");
			if (rc == -EACCES)
				tried++;
			else if (!first)
				first = rc;
		}
	}
	explicit_bzero(key, key_cap);
	if (tried)
		return say(err, errlen, -EACCES, "wrong passphrase%s%s%s",
			   first ? " (also: " : "", first ? why : "",
			   first ? ")" : "");
	if (first)
		return say(err, errlen, first, "%s", why);
	if (u->slot >= 0)
		return say(err, errlen, -ENOENT, "no keyslot %d", u->slot);
	return say(err, errlen, -ENOENT, "no keyslot to try");
}

/* The data's extent in bytes: "dynamic" runs to the device's end;
 * whole encryption sectors only (dm-crypt.rst: sector_size). */
static int lk_extent(const struct luks_hdr *h, uint64_t *bytes)
{
	uint32_t ss = h->sector_size ? h->sector_size : LUKS_SECTOR;

	if (h->offset > h->dev_size || h->offset % LUKS_SECTOR ||
	    h->size > h->dev_size - h->offset)
		return -EINVAL;
	*bytes = h->size ? h->size : h->dev_size - h->offset;
	*bytes -= *bytes % ss;
	return *bytes ? 0 : -EINVAL;
}

int luks_dm_table(const struct luks_hdr *h, const uint8_t *key, size_t key_len,
		  const char *dev, char *out, size_t outlen, char *err,
		  size_t errlen)
{
	char hex[2 * LUKS_KEY_MAX + 1], opt[32] = "";
	uint64_t bytes = 0;
	int n;

	if (!key_len || key_len > LUKS_KEY_MAX ||
	    (h->key_size && key_len != h->key_size))
		return say(err, errlen, -EINVAL,
			   "a %zu-byte key for a volume "
			   "of %zu-byte keys",
			   key_len, h->key_size);
	if (!dev[0] || strpbrk(dev, " \t\n"))
		return say(err, errlen, -EINVAL, "bad device name \"%s\"", dev);
	if (lk_extent(h, &bytes) < 0)
		return say(err, errlen, -EINVAL,
			   "the encrypted data does not "
			   "fit the device");
	if (h->sector_size && h->sector_size != LUKS_SECTOR)
		snprintf(opt, sizeof(opt), " 1 sector_size:%u", h->sector_size);
	hex_encode(key, key_len, hex);
	/* dm-crypt.rst: <cipher> <key> <iv_offset> <device path> <offset>
	 * [<#opt_params> <opt_params>]; LUKS2 counts IVs in 512-byte
	 * sectors whatever the sector size, so no iv_large_sectors */
	n = snprintf(
	    out, outlen,
	    "0 %" PRIu64 " crypt %s%s%s %s %" PRIu64 " %s %" PRIu64 "%s",
	    bytes / LUKS_SECTOR, h->cipher, h->mode[0] ? "-" : "", h->mode, hex,
	    h->iv_tweak, dev, h->offset / LUKS_SECTOR, opt);
	explicit_bzero(hex, sizeof(hex));
	if (n < 0 || (size_t)n >= outlen) {
		explicit_bzero(out, outlen);
		return say(err, errlen, -ENOSPC, "table line too long");
	}
	return 0;
}
