/* test_luks.c - LUKS1/LUKS2 headers, keyslots, unlock and the dm-crypt
 * table line, against images made by Debian's cryptsetup 2.6.1
 * (tests/fixtures/luks/make.sh; each volume key, as cryptsetup luksDump
 * --dump-volume-key printed it, is in tests/fixtures/luks/expected), and
 * the JSON reader the LUKS2 metadata goes through. */
#include "test.h"

#include "util/hash.h"
#include "util/hex.h"
#include "util/json_read.h"
#include "vol/luks.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>

#define FIX "tests/fixtures/luks/"
#define PW1 "correct horse"
#define PW2 "battery staple"
#define MIB (1024u)

/* ---- the device: an image in memory, with a log of reads ---- */

struct img {
	uint8_t *b;
	size_t len;
	uint64_t reads[64];
	size_t n_reads;
};

static int img_read(void *ctx, uint64_t off, void *buf, size_t len)
{
	struct img *m = ctx;

	if (m->n_reads < 64)
		m->reads[m->n_reads++] = off;
	if (off > m->len || len > m->len - off)
		return -EIO;
	memcpy(buf, m->b + off, len);
	return 0;
}

static int fd_read(void *ctx, uint64_t off, void *buf, size_t len)
{
	ssize_t n = pread(*(int *)ctx, buf, len, (off_t)off);

	return n == (ssize_t)len ? 0 : -EIO;
}

static bool img_load(struct img *m, const char *name)
{
	char path[128];

	memset(m, 0, sizeof(*m));
	snprintf(path, sizeof(path), FIX "%s.img", name);
	m->b = (uint8_t *)test_slurp(path, &m->len);
	if (!m->b)
		printf("  cannot read %s\n", path);
	CHECK(m->b != NULL);
	return m->b != NULL;
}

/* The volume key and UUID cryptsetup reported for image @name. */
static bool expected(const char *name, char *uuid, uint8_t *key, size_t *len)
{
	char line[512], n[64], u[64], hex[300];
	FILE *f = fopen(FIX "expected", "r");
	bool found = false;

	while (f && !found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %63s %299s", n, u, hex) == 3 &&
		    strcmp(n, name) == 0)
			found = true;
	if (f)
		fclose(f);
	CHECK(found);
	if (!found)
		return false;
	strcpy(uuid, u);
	*len = strlen(hex) / 2;
	for (size_t i = 0; i < *len; i++)
		key[i] = (uint8_t)hex_byte(hex + 2 * i);
	return true;
}

static struct luks_unlock opts(const char *pw)
{
	return (struct luks_unlock){.pass = pw,
				    .pass_len = strlen(pw),
				    .slot = -1,
				    .mem_max_kib = 64 * MIB};
}

static bool all_zero(const uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (b[i])
			return false;
	return true;
}

static struct luks_hdr hdr;

/* Open @name with @pw; check the key and slot against cryptsetup's. */
static void open_ok(const char *name, const char *pw, int want_slot)
{
	uint8_t key[LUKS_KEY_MAX], want[LUKS_KEY_MAX];
	struct luks_unlock u = opts(pw);
	char err[300] = "", uuid[64];
	size_t key_len = 0, want_len = 0;
	struct img m;
	int slot = -1;

	if (!img_load(&m, name) || !expected(name, uuid, want, &want_len))
		return;
	CHECK_INT(luks_read(img_read, &m, m.len, &hdr, err, sizeof(err)), 0);
	CHECK_STR(hdr.uuid, uuid);
	CHECK_INT(luks_unlock(&hdr, img_read, &m, &u, key, sizeof(key),
			      &key_len, &slot, err, sizeof(err)),
		  0);
	if (err[0])
		printf("  %s: %s\n", name, err);
	CHECK_INT(key_len, want_len);
	CHECK(memcmp(key, want, want_len) == 0);
	CHECK_INT(slot, want_slot);
	luks_free(&hdr);
	free(m.b);
}

/* ---- the JSON reader ---- */

TEST(t_json_values)
{
	const char *t =
	    " {\"a\": [1, -2.5e3, true, null, \"x\\u00e9\\ud83d"
	    "\\ude00\\n\"], \"b\": {\"c\": \"18446744073709551615\"},"
	    " \"a\": 7} ";
	const struct jr_node *a, *c;
	struct jr_doc d;
	uint64_t v = 0;

	CHECK_INT(jr_parse(t, strlen(t), &d, NULL, 0), 0);
	a = jr_get(&d, jr_root(&d), "a");
	CHECK(a && a->type == JR_NUM); /* the last of duplicates */
	CHECK_INT(jr_u64(a, &v), 0);
	CHECK_INT(v, 7);
	a = jr_first(&d, jr_root(&d));
	CHECK(a && a->type == JR_ARR && a->n == 5);
	c = jr_first(&d, a);
	CHECK_STR(c->str, "1");
	c = jr_next(&d, c);
	CHECK_STR(c->str, "-2.5e3");
	CHECK_INT(jr_u64(c, &v), -EINVAL);
	c = jr_next(&d, c);
	CHECK(c->type == JR_BOOL && c->b);
	c = jr_next(&d, jr_next(&d, c));
	CHECK_STR(jr_str(c), "x\xc3\xa9\xf0\x9f\x98\x80\n");
	c = jr_get(&d, jr_get(&d, jr_root(&d), "b"), "c");
	CHECK_INT(jr_u64(c, &v), 0);
	CHECK(v == UINT64_MAX);
	jr_free(&d);
}

TEST(t_json_errors)
{
	static const char *bad[] = {
	    "",
	    "{",
	    "{\"a\"}",
	    "[1,]",
	    "[01]",
	    "\"\\x\"",
	    "\"\\u0000\"",
	    "\"\\udc00\"",
	    "\"\\ud800x\"",
	    "tru",
	    "[1] 2",
	    "\"a\nb\"",
	    "{\"a\":1,}",
	    "-",
	    "1.",
	    "1e",
	};
	char deep[100], err[200];
	uint64_t v;
	struct jr_doc d;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc = jr_parse(bad[i], strlen(bad[i]), &d, err, sizeof(err));

		if (rc != -EINVAL)
			printf("  \"%s\" gave %d\n", bad[i], rc);
		CHECK_INT(rc, -EINVAL);
		CHECK(strstr(err, "JSON") != NULL);
	}
	memset(deep, '[', sizeof(deep));
	CHECK_INT(jr_parse(deep, sizeof(deep), &d, err, sizeof(err)), -E2BIG);
	CHECK(strstr(err, "deep") != NULL);
	/* an embedded NUL ends nothing: it is a bad character */
	CHECK_INT(jr_parse("[1]\0", 4, &d, NULL, 0), -EINVAL);
	CHECK_INT(jr_parse("\"184467440737095516160\"", 23, &d, NULL, 0), 0);
	CHECK_INT(jr_u64(jr_root(&d), &v), -ERANGE);
	jr_free(&d);
}

/* ---- headers and unlock on cryptsetup's images ---- */

TEST(t_luks1_sha1_cbc_essiv)
{
	struct img m;
	char err[200];

	open_ok("luks1-sha1", PW1, 0);
	if (!img_load(&m, "luks1-sha1"))
		return;
	CHECK_INT(luks_read(img_read, &m, m.len, &hdr, err, sizeof(err)), 0);
	CHECK_INT(hdr.version, 1);
	CHECK_STR(hdr.cipher, "aes");
	CHECK_STR(hdr.mode, "cbc-essiv:sha256");
	CHECK_STR(hdr.digest[0].hash, "sha1");
	CHECK_INT(hdr.key_size, 32);
	CHECK_INT(hdr.offset, 2056 * 512);
	CHECK_INT(hdr.n_slot, 1);
	CHECK_INT(hdr.slot[0].iter, 1000);
	CHECK_INT(hdr.slot[0].stripes, 4000);
	CHECK_INT(hdr.slot[0].area_offset, 8 * 512);
	luks_free(&hdr);
	free(m.b);
}

TEST(t_luks1_sha256_xts_two_slots)
{
	open_ok("luks1-sha256", PW1, 0);
	open_ok("luks1-sha256", PW2, 1);
}

TEST(t_luks2_pbkdf2_sha512)
{
	struct img m;
	char err[200];

	open_ok("luks2-pbkdf2", PW1, 0);
	if (!img_load(&m, "luks2-pbkdf2"))
		return;
	CHECK_INT(luks_read(img_read, &m, m.len, &hdr, err, sizeof(err)), 0);
	CHECK_INT(hdr.version, 2);
	CHECK_INT(hdr.hdr_size, 16384);
	CHECK(!hdr.secondary);
	CHECK_STR(hdr.cipher, "aes");
	CHECK_STR(hdr.mode, "xts-plain64");
	CHECK_INT(hdr.key_size, 64);
	CHECK_INT(hdr.offset, 32768 + 262144);
	CHECK_INT(hdr.size, 0);
	CHECK_INT(hdr.sector_size, 512);
	CHECK_STR(hdr.slot[0].kdf, "pbkdf2");
	CHECK_STR(hdr.slot[0].kdf_hash, "sha512");
	CHECK_STR(hdr.slot[0].af_hash, "sha512");
	CHECK_STR(hdr.digest[0].hash, "sha512");
	CHECK_INT(hdr.slot[0].area_offset, 32768);
	luks_free(&hdr);
	free(m.b);
}

TEST(t_luks2_argon2i_4k)
{
	struct img m;
	char err[200];

	open_ok("luks2-argon2i", PW1, 0);
	if (!img_load(&m, "luks2-argon2i"))
		return;
	CHECK_INT(luks_read(img_read, &m, m.len, &hdr, err, sizeof(err)), 0);
	CHECK_STR(hdr.label, "cr_root");
	CHECK_INT(hdr.sector_size, 4096);
	CHECK_STR(hdr.slot[0].kdf, "argon2i");
	CHECK_INT(hdr.slot[0].iter, 4);
	CHECK_INT(hdr.slot[0].mem_kib, 8192);
	luks_free(&hdr);
	free(m.b);
}

/* Keyslot 1 has priority 2: it is tried (its area read) before keyslot
 * 0, which opens with PW1; PW2 opens keyslot 1 with one area read. */
TEST(t_luks2_argon2id_priority)
{
	struct luks_unlock u = opts(PW1);
	uint8_t key[LUKS_KEY_MAX];
	size_t key_len = 0;
	char err[200];
	struct img m;
	int slot = -1;

	open_ok("luks2-argon2id", PW1, 0);
	open_ok("luks2-argon2id", PW2, 1);
	if (!img_load(&m, "luks2-argon2id"))
		return;
	CHECK_INT(luks_read(img_read, &m, m.len, &hdr, err, sizeof(err)), 0);
	CHECK_INT(hdr.n_slot, 2);
	CHECK_INT(hdr.slot[0].priority, 1);
	CHECK_INT(hdr.slot[1].priority, 2);
	CHECK_INT(hdr.slot[0].lanes, 2);
	CHECK_INT(hdr.slot[1].lanes, 1);
	m.n_reads = 0;
	CHECK_INT(luks_unlock(&hdr, img_read, &m, &u, key, sizeof(key),
			      &key_len, &slot, err, sizeof(err)),
		  0);
	CHECK_INT(m.n_reads, 2);
	CHECK(m.reads[0] == hdr.slot[1].area_offset);
	CHECK(m.reads[1] == hdr.slot[0].area_offset);
	/* named: only that keyslot */
	u.slot = 1;
	CHECK_INT(luks_unlock(&hdr, img_read, &m, &u, key, sizeof(key),
			      &key_len, &slot, err, sizeof(err)),
		  -EACCES);
	u.slot = 5;
	CHECK_INT(luks_unlock(&hdr, img_read, &m, &u, key, sizeof(key),
			      &key_len, &slot, err, sizeof(err)),
		  -ENOENT);
	CHECK_STR(err, "no keyslot 5");
	luks_free(&hdr);
	free(m.b);
}

TEST(t_luks2_tpm2_token)
{
	const struct luks_token *t = &hdr.token[0];
	struct img m;
	char err[200];
	const char *want[][2] = {
	    {"tpm2-blob", "AJ4AIEJsb2IgYnl0ZXMgKG5vdCBhIHJlYWwgVFBNIGJsb2Ip"},
	    {"tpm2-pcrs", "7,11"},
	    {"tpm2-pcr-bank", "sha256"},
	    {"tpm2-primary-alg", "ecc"},
	    {"tpm2-policy-hash", "3c1bd6b86a0d3a0dc6b4d1fa7cf8f8cf0d2f4b33b2c9"
				 "a07e8d1c4a06ef0d9a11"},
	    {"tpm2-pin", "true"},
	    {"tpm2_pcrlock", "false"},
	    {"tpm2_srk", "AAAA"},
	};

	if (!img_load(&m, "luks2-argon2id"))
		return;
	CHECK_INT(luks_read(img_read, &m, m.len, &hdr, err, sizeof(err)), 0);
	CHECK_INT(hdr.n_token, 1);
	CHECK_INT(t->id, 0);
	CHECK_STR(t->type, "systemd-tpm2");
	CHECK_INT(t->keyslots, 1u << 1);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const char *got = NULL;

		for (size_t k = 0; k < t->n_field; k++)
			if (strcmp(t->field[k].name, want[i][0]) == 0)
				got = t->field[k].value;
		CHECK_STR(got, want[i][1]);
	}
	luks_free(&hdr);
	free(m.b);
}

TEST(t_wrong_passphrase)
{
	static const char *names[] = {"luks1-sha1", "luks1-sha256",
				      "luks2-pbkdf2", "luks2-argon2i",
				      "luks2-argon2id"};
	struct luks_unlock u = opts("not it");
	uint8_t key[LUKS_KEY_MAX];
	size_t key_len = 99;
	char err[300];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct img m;

		if (!img_load(&m, names[i]))
			continue;
		CHECK_INT(
		    luks_read(img_read, &m, m.len, &hdr, err, sizeof(err)), 0);
		memset(key, 0x55, sizeof(key));
		CHECK_INT(luks_unlock(&hdr, img_read, &m, &u, key, sizeof(key),
				      &key_len, NULL, err, sizeof(err)),
			  -EACCES);
		CHECK_STR(err, "wrong passphrase");
		CHECK(all_zero(key, sizeof(key)));
		CHECK_INT(key_len, 99);
		luks_free(&hdr);
		free(m.b);
	}
}

/* ---- damaged and hostile headers (copies changed in memory) ---- */

#define L2_SIZE 16384 /* the fixtures' LUKS2 header size */

static void put_be64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (56 - 8 * i));
}

/* Recompute the sha256 checksum of the LUKS2 copy at @off. */
static void fix_csum(uint8_t *b, size_t off)
{
	uint8_t d[HASH_MAX_LEN];

	memset(b + off + 448, 0, 64);
	hash_once(hash_find("sha256"), b + off, L2_SIZE, d);
	memcpy(b + off + 448, d, 32);
}

/* Replace every @from by @to in the JSON text of the copy at @off, and
 * fix its checksum. */
static void json_edit(uint8_t *b, size_t off, const char *from, const char *to)
{
	char *json = (char *)b + off + 4096, out[L2_SIZE], *at, *p = json;
	size_t n = 0;

	while ((at = strstr(p, from))) {
		n += (size_t)sprintf(out + n, "%.*s%s", (int)(at - p), p, to);
		p = at + strlen(from);
	}
	n += (size_t)sprintf(out + n, "%s", p);
	memset(json, 0, L2_SIZE - 4096);
	memcpy(json, out, n);
	fix_csum(b, off);
}

static int read_img(struct img *m, char *err, size_t errlen)
{
	return luks_read(img_read, m, m->len, &hdr, err, errlen);
}

static void sha_file(const char *path, uint8_t *d)
{
	size_t len = 0;
	char *b = test_slurp(path, &len);

	CHECK(b != NULL);
	hash_once(hash_find("sha256"), b ? b : "", len, d);
	free(b);
}

/* A damaged primary: the secondary is read, the key opens; read through
 * a file descriptor, whose bytes are the same afterwards. */
static void secondary_opens(struct img *m, const char *what)
{
	char path[] = "/tmp/test_luks.XXXXXX", err[300] = "";
	uint8_t key[LUKS_KEY_MAX], want[LUKS_KEY_MAX], d1[64], d2[64];
	struct luks_unlock u = opts(PW1);
	size_t key_len = 0, want_len = 0;
	int fd = mkstemp(path);
	char uuid[64];

	CHECK(fd >= 0 && write(fd, m->b, m->len) == (ssize_t)m->len);
	expected("luks2-pbkdf2", uuid, want, &want_len);
	sha_file(path, d1);
	CHECK_INT(luks_read(fd_read, &fd, m->len, &hdr, err, sizeof(err)), 0);
	if (!hdr.secondary)
		printf("  %s: the secondary was not used (%s)\n", what, err);
	CHECK(hdr.secondary);
	CHECK_STR(hdr.uuid, uuid);
	CHECK_INT(luks_unlock(&hdr, fd_read, &fd, &u, key, sizeof(key),
			      &key_len, NULL, err, sizeof(err)),
		  0);
	CHECK(key_len == want_len && memcmp(key, want, want_len) == 0);
	sha_file(path, d2);
	CHECK(memcmp(d1, d2, 32) == 0);
	luks_free(&hdr);
	close(fd);
	unlink(path);
}

TEST(t_primary_damaged)
{
	struct img m;

	if (!img_load(&m, "luks2-pbkdf2"))
		return;
	memset(m.b, 0, 6); /* the magic */
	secondary_opens(&m, "magic");
	free(m.b);
	img_load(&m, "luks2-pbkdf2");
	m.b[4096 + 10] ^= 0x20; /* a JSON byte: the checksum fails */
	secondary_opens(&m, "checksum");
	free(m.b);
	img_load(&m, "luks2-pbkdf2");
	memcpy(m.b + 4096, "{\"garbage", 10); /* checksum right, JSON bad */
	fix_csum(m.b, 0);
	secondary_opens(&m, "JSON");
	free(m.b);
	img_load(&m, "luks2-pbkdf2");
	memset(m.b + 8, 0xff, 8); /* hdr_size: the secondary is searched */
	secondary_opens(&m, "hdr_size");
	free(m.b);
}

TEST(t_seqid_wins)
{
	char err[200];
	struct img m;
	uint64_t seq;

	if (!img_load(&m, "luks2-pbkdf2"))
		return;
	CHECK_INT(read_img(&m, err, sizeof(err)), 0);
	seq = hdr.seqid;
	CHECK(!hdr.secondary);
	luks_free(&hdr);
	put_be64(m.b + L2_SIZE + 16, seq + 1);
	fix_csum(m.b, L2_SIZE);
	CHECK_INT(read_img(&m, err, sizeof(err)), 0);
	CHECK(hdr.secondary);
	CHECK_INT(hdr.seqid, seq + 1);
	luks_free(&hdr);
	put_be64(m.b + 16, seq + 2);
	fix_csum(m.b, 0);
	CHECK_INT(read_img(&m, err, sizeof(err)), 0);
	CHECK(!hdr.secondary);
	luks_free(&hdr);
	free(m.b);
}

TEST(t_both_copies_bad)
{
	char err[400] = "";
	struct img m;

	if (!img_load(&m, "luks2-pbkdf2"))
		return;
	for (size_t off = 0; off <= L2_SIZE; off += L2_SIZE) {
		memset(m.b + off + 4096, 0, L2_SIZE - 4096);
		memcpy(m.b + off + 4096, "{\"keyslots\": [garbage", 21);
		fix_csum(m.b, off);
	}
	CHECK_INT(read_img(&m, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "primary: JSON") && strstr(err, "secondary: JSON"));
	printf("  said: %s\n", err);
	m.b[4096] ^= 1;
	m.b[L2_SIZE + 4096] ^= 1;
	CHECK_INT(read_img(&m, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "checksum") != NULL);
	memset(m.b, 0, 2 * L2_SIZE);
	CHECK_INT(read_img(&m, err, sizeof(err)), -ENOENT);
	CHECK_STR(err, "no LUKS header");
	free(m.b);
}

/* A re-encryption cryptsetup set up (both copies sound, each naming the
 * mandatory requirement "online-reencrypt-v2"): refused with that reason,
 * not called damaged. */
TEST(t_reencrypt_requirement)
{
	char err[400] = "";
	struct img m;

	if (!img_load(&m, "l2-reencrypt"))
		return;
	CHECK_INT(read_img(&m, err, sizeof(err)), -ENOTSUP);
	printf("  said: %s\n", err);
	CHECK(strstr(err, "online-reencrypt-v2") != NULL);
	CHECK(strstr(err, "damaged") == NULL);
	free(m.b);
}

TEST(t_argon2_over_limit)
{
	struct luks_unlock u = opts(PW1);
	uint8_t key[LUKS_KEY_MAX];
	size_t key_len = 0;
	char err[300];
	struct img m;

	if (!img_load(&m, "luks2-argon2id"))
		return;
	CHECK_INT(read_img(&m, err, sizeof(err)), 0);
	u.mem_max_kib = 4 * MIB;
	m.n_reads = 0;
	CHECK_INT(luks_unlock(&hdr, img_read, &m, &u, key, sizeof(key),
			      &key_len, NULL, err, sizeof(err)),
		  -ENOMEM);
	printf("  said: %s\n", err);
	CHECK(strstr(err, "needs 8 MiB") != NULL);
	CHECK_INT(m.n_reads, 0);
	luks_free(&hdr);
	free(m.b);
}

/* Priority 0 ("ignore"): never tried unless asked for by id. */
TEST(t_priority_ignore)
{
	struct luks_unlock u = opts(PW2);
	uint8_t key[LUKS_KEY_MAX];
	size_t key_len = 0;
	char err[300];
	struct img m;
	int slot = -1;

	if (!img_load(&m, "luks2-argon2id"))
		return;
	json_edit(m.b, 0, "\"priority\":2", "\"priority\":0");
	json_edit(m.b, L2_SIZE, "\"priority\":2", "\"priority\":0");
	CHECK_INT(read_img(&m, err, sizeof(err)), 0);
	CHECK_INT(hdr.slot[1].priority, 0);
	m.n_reads = 0;
	CHECK_INT(luks_unlock(&hdr, img_read, &m, &u, key, sizeof(key),
			      &key_len, &slot, err, sizeof(err)),
		  -EACCES);
	CHECK_INT(m.n_reads, 1); /* keyslot 0's area only */
	u.slot = 1;
	CHECK_INT(luks_unlock(&hdr, img_read, &m, &u, key, sizeof(key),
			      &key_len, &slot, err, sizeof(err)),
		  0);
	CHECK_INT(slot, 1);
	luks_free(&hdr);
	free(m.b);
}

/* No serpent image can be made here (see make.sh): "serpent" is written
 * into copies of aes ones. */
TEST(t_cipher_we_lack)
{
	struct luks_unlock u = opts(PW1);
	uint8_t key[LUKS_KEY_MAX];
	size_t key_len = 0;
	char err[300];
	struct img m;

	if (!img_load(&m, "luks2-pbkdf2"))
		return;
	json_edit(m.b, 0, "\"aes-xts-plain64\"", "\"serpent-xts-plain64\"");
	json_edit(m.b, L2_SIZE, "\"aes-xts-plain64\"",
		  "\"serpent-xts-plain64\"");
	CHECK_INT(read_img(&m, err, sizeof(err)), 0);
	CHECK_STR(hdr.cipher, "serpent");
	CHECK_INT(luks_unlock(&hdr, img_read, &m, &u, key, sizeof(key),
			      &key_len, NULL, err, sizeof(err)),
		  -ENOTSUP);
	printf("  said: %s\n", err);
	CHECK(strstr(err, "serpent-xts-plain64") != NULL);
	luks_free(&hdr);
	free(m.b);
	if (!img_load(&m, "luks1-sha1"))
		return;
	memcpy(m.b + 8, "serpent", 8);
	CHECK_INT(read_img(&m, err, sizeof(err)), 0);
	CHECK_INT(luks_unlock(&hdr, img_read, &m, &u, key, sizeof(key),
			      &key_len, NULL, err, sizeof(err)),
		  -ENOTSUP);
	CHECK(strstr(err, "serpent-cbc-essiv:sha256") != NULL);
	luks_free(&hdr);
	free(m.b);
}

/* A KDF or hash we do not have: the keyslot is refused by name, before
 * any work. */
TEST(t_kdf_hash_we_lack)
{
	struct luks_unlock u = opts(PW1);
	uint8_t key[LUKS_KEY_MAX];
	size_t key_len = 0;
	char err[300];
	struct img m;

	if (!img_load(&m, "luks2-argon2i"))
		return;
	json_edit(m.b, 0, "\"argon2i\"", "\"scrypt\"");
	json_edit(m.b, L2_SIZE, "\"argon2i\"", "\"scrypt\"");
	CHECK_INT(read_img(&m, err, sizeof(err)), 0);
	m.n_reads = 0;
	CHECK_INT(luks_unlock(&hdr, img_read, &m, &u, key, sizeof(key),
			      &key_len, NULL, err, sizeof(err)),
		  -ENOTSUP);
	printf("  said: %s\n", err);
	CHECK(strstr(err, "\"scrypt\"") != NULL);
	CHECK_INT(m.n_reads, 0);
	luks_free(&hdr);
	free(m.b);
	if (!img_load(&m, "luks1-sha1"))
		return;
	memcpy(m.b + 72, "ripemd160", 10);
	CHECK_INT(read_img(&m, err, sizeof(err)), 0);
	CHECK_INT(luks_unlock(&hdr, img_read, &m, &u, key, sizeof(key),
			      &key_len, NULL, err, sizeof(err)),
		  -ENOTSUP);
	printf("  said: %s\n", err);
	CHECK(strstr(err, "hash ripemd160") != NULL);
	luks_free(&hdr);
	free(m.b);
}

static int stop_at_2(void *ctx, unsigned done, unsigned total)
{
	(void)total;
	*(unsigned *)ctx = done;
	return done >= 2;
}

TEST(t_progress_cancel)
{
	struct luks_unlock u = opts(PW1);
	uint8_t key[LUKS_KEY_MAX];
	size_t key_len = 0;
	unsigned done = 0;
	char err[200];
	struct img m;

	if (!img_load(&m, "luks2-argon2i"))
		return;
	CHECK_INT(read_img(&m, err, sizeof(err)), 0);
	u.progress = stop_at_2;
	u.progress_ctx = &done;
	memset(key, 0x55, sizeof(key));
	CHECK_INT(luks_unlock(&hdr, img_read, &m, &u, key, sizeof(key),
			      &key_len, NULL, err, sizeof(err)),
		  -ECANCELED);
	CHECK_INT(done, 2);
	CHECK(all_zero(key, sizeof(key)));
	luks_free(&hdr);
	free(m.b);
}

static void put_be32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (24 - 8 * i));
}

TEST(t_luks1_hostile)
{
	struct luks_unlock u = opts(PW1);
	uint8_t key[LUKS_KEY_MAX];
	size_t key_len = 0;
	char err[300];
	struct img m;

	if (!img_load(&m, "luks1-sha1"))
		return;
	put_be32(m.b + 208 + 40, 0xffffffff); /* slot 0's area offset */
	CHECK_INT(read_img(&m, err, sizeof(err)), 0);
	CHECK_INT(luks_unlock(&hdr, img_read, &m, &u, key, sizeof(key),
			      &key_len, NULL, err, sizeof(err)),
		  -EINVAL);
	CHECK(strstr(err, "out of bounds") != NULL);
	luks_free(&hdr);
	put_be32(m.b + 104, 0xffffffff); /* payload past the end */
	CHECK_INT(read_img(&m, err, sizeof(err)), -EINVAL);
	put_be32(m.b + 104, 2056);
	put_be32(m.b + 108, 0); /* key bytes */
	CHECK_INT(read_img(&m, err, sizeof(err)), -EINVAL);
	put_be32(m.b + 108, 32);
	/* a UUID that is no UUID names nothing: dropped, the rest read */
	memcpy(m.b + 168, "../../x\033[2J", 12);
	CHECK_INT(read_img(&m, err, sizeof(err)), 0);
	CHECK_STR(hdr.uuid, "");
	luks_free(&hdr);
	memcpy(m.b + 168, "3f2a-Bc09", 10);
	CHECK_INT(read_img(&m, err, sizeof(err)), 0);
	CHECK_STR(hdr.uuid, "3f2a-Bc09");
	luks_free(&hdr);
	memset(m.b + 8, 'a', 32); /* cipher name not terminated */
	CHECK_INT(read_img(&m, err, sizeof(err)), -EINVAL);
	m.b[7] = 3;
	CHECK_INT(read_img(&m, err, sizeof(err)), -ENOTSUP);
	free(m.b);
}

/* ---- the dm-crypt table line ---- */

TEST(t_dm_table)
{
	uint8_t key[LUKS_KEY_MAX], want[LUKS_KEY_MAX];
	struct luks_unlock u = opts(PW1);
	char line[400], exp[400], hex[2 * LUKS_KEY_MAX + 1], uuid[64];
	char err[200];
	size_t key_len = 0, want_len = 0;
	struct img m;

	if (!img_load(&m, "luks2-argon2i") ||
	    !expected("luks2-argon2i", uuid, want, &want_len))
		return;
	CHECK_INT(read_img(&m, err, sizeof(err)), 0);
	CHECK_INT(luks_unlock(&hdr, img_read, &m, &u, key, sizeof(key),
			      &key_len, NULL, err, sizeof(err)),
		  0);
	CHECK_INT(luks_dm_table(&hdr, key, key_len, "/dev/vda3", line,
				sizeof(line), err, sizeof(err)),
		  0);
	hex_encode(want, want_len, hex);
	/* 360448 - 294912 bytes of data: 128 sectors, 16 of 4096 bytes */
	snprintf(exp, sizeof(exp),
		 "0 128 crypt aes-xts-plain64 %s 0 /dev/vda3 576 1 "
		 "sector_size:4096",
		 hex);
	CHECK_STR(line, exp);
	CHECK_INT(luks_dm_table(&hdr, key, key_len, "/dev/vda3", line, 100, err,
				sizeof(err)),
		  -ENOSPC);
	CHECK(all_zero((uint8_t *)line, 100));
	CHECK_INT(luks_dm_table(&hdr, key, 32, "/dev/vda3", line, sizeof(line),
				err, sizeof(err)),
		  -EINVAL);
	CHECK_INT(luks_dm_table(&hdr, key, key_len, "a b", line, sizeof(line),
				err, sizeof(err)),
		  -EINVAL);
	hdr.dev_size = hdr.offset + 4095; /* not one whole 4096 sector */
	CHECK_INT(luks_dm_table(&hdr, key, key_len, "8:3", line, sizeof(line),
				err, sizeof(err)),
		  -EINVAL);
	luks_free(&hdr);
	free(m.b);
	/* LUKS1: the old cipher spec, 512-byte sectors, no options */
	if (!img_load(&m, "luks1-sha1") ||
	    !expected("luks1-sha1", uuid, want, &want_len))
		return;
	CHECK_INT(read_img(&m, err, sizeof(err)), 0);
	hex_encode(want, want_len, hex);
	CHECK_INT(luks_dm_table(&hdr, want, want_len, "253:1", line,
				sizeof(line), err, sizeof(err)),
		  0);
	snprintf(exp, sizeof(exp),
		 "0 128 crypt aes-cbc-essiv:sha256 %s 0 253:1 2056", hex);
	CHECK_STR(line, exp);
	luks_free(&hdr);
	free(m.b);
}

TEST_MAIN("test_luks", t_json_values, t_json_errors, t_luks1_sha1_cbc_essiv,
	  t_luks1_sha256_xts_two_slots, t_luks2_pbkdf2_sha512,
	  t_luks2_argon2i_4k, t_luks2_argon2id_priority, t_luks2_tpm2_token,
	  t_wrong_passphrase, t_primary_damaged, t_seqid_wins,
	  t_both_copies_bad, t_reencrypt_requirement, t_priority_ignore,
	  t_argon2_over_limit, t_cipher_we_lack, t_kdf_hash_we_lack,
	  t_progress_cancel, t_luks1_hostile, t_dm_table)
