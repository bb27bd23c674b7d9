/* lvm.c - see lvm.h. Layouts: lvm2 lib/label/label.h (label_header),
 * lib/format_text/layout.h (pv_header, mda_header, raw_locn). */
#include "vol/lvm.h"
#include "util/file.h"
#include "format/inflate.h"
#include "util/le.h"
#include "util/say.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* layout.h: FMTT_MAGIC, FMTT_VERSION, MDA_HEADER_SIZE */
static const char mda_magic[16] = " LVM2 x[5A%r0N*>";
#define MDA_HEADER 512

/* inflate_crc32 is the same CRC with the value inverted on the way in
 * and out (gzip's convention); lvm2 inverts neither */
uint32_t lvm_crc(uint32_t crc, const uint8_t *buf, size_t len)
{
	return ~inflate_crc32(~crc, buf, len);
}

/* "abcdef-ghij-..." (text) or 32 characters (label) into 32 characters;
 * 0, or -EINVAL when it is not 32 of lvm2's characters. */
static int uuid_norm(const char *in, size_t len, char *out)
{
	size_t k = 0;

	for (size_t i = 0; i < len && in[i]; i++) {
		char c = in[i];

		if (c == '-')
			continue;
		/* lib/id/id.c: letters, digits, '!' and '#' */
		if (k == LVM_UUID_LEN ||
		    !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
		      (c >= 'A' && c <= 'Z') || c == '!' || c == '#'))
			return -EINVAL;
		out[k++] = c;
	}
	out[k] = '\0';
	return k == LVM_UUID_LEN ? 0 : -EINVAL;
}

/* The disk_locn lists after the pv_header (text_label.c): data areas up to
 * an offset of 0, then metadata areas up to an offset of 0, all inside
 * the label's sector s[0..512). */
static int pv_areas(const uint8_t *s, size_t off, struct lvm_pv *pv)
{
	uint64_t o = 1, n;

	for (; o && off + 16 <= LVM_SECTOR; off += 16)
		get_le64(s, LVM_SECTOR, off, &o);
	if (o)
		return -EINVAL;
	for (o = 1; off + 16 <= LVM_SECTOR; off += 16) {
		get_le64(s, LVM_SECTOR, off, &o);
		get_le64(s, LVM_SECTOR, off + 8, &n);
		if (!o)
			return 0;
		if (pv->n_mda < LVM_MDA_MAX) {
			pv->mda[pv->n_mda].offset = o;
			pv->mda[pv->n_mda++].size = n;
		}
	}
	return -EINVAL;
}

/* label.h: label_header { id[8], sector, crc (of offset..sector end),
 * offset (to the pv_header), type[8] }; pv_header { uuid[32], size }. */
static int label_check(const uint8_t *s, uint64_t sector, struct lvm_pv *pv,
		       char *err, size_t errlen)
{
	uint32_t crc = 0, off = 0;

	get_le32(s, LVM_SECTOR, 16, &crc);
	get_le32(s, LVM_SECTOR, 20, &off);
	if (lvm_crc(LVM_INITIAL_CRC, s + 20, LVM_SECTOR - 20) != crc)
		return say(err, errlen, -EINVAL,
			   "the LVM2 label in sector %llu fails its checksum",
			   (unsigned long long)sector);
	if (memcmp(s + 24, "LVM2 001", 8) != 0)
		return say(err, errlen, -EINVAL,
			   "the LVM2 label has type \"%.8s\", not \"LVM2 001\"",
			   (const char *)s + 24);
	if (off < 32 || off > LVM_SECTOR - 40 ||
	    uuid_norm((const char *)s + off, LVM_UUID_LEN, pv->uuid) < 0)
		return say(
		    err, errlen, -EINVAL,
		    "the LVM2 label's physical volume header is damaged");
	get_le64(s, LVM_SECTOR, off + 32, &pv->dev_size);
	pv->label_sector = sector;
	if (pv_areas(s, off + 40, pv) < 0)
		return say(
		    err, errlen, -EINVAL,
		    "the LVM2 label's list of areas overruns its sector");
	return 0;
}

int lvm_label_parse(const uint8_t *buf, size_t len, struct lvm_pv *pv,
		    char *err, size_t errlen)
{
	memset(pv, 0, sizeof(*pv));
	for (uint64_t i = 0; i < LVM_LABEL_SCAN / LVM_SECTOR; i++) {
		const uint8_t *s = buf + i * LVM_SECTOR;
		uint64_t at = ~0ull;

		if (!le_in(len, i * LVM_SECTOR, LVM_SECTOR))
			break;
		get_le64(s, LVM_SECTOR, 8, &at);
		/* label.c: a label that names another sector is not one */
		if (memcmp(s, "LABELONE", 8) == 0 && at == i)
			return label_check(s, i, pv, err, errlen);
	}
	return -ENOENT;
}

/* --- the metadata text ------------------------------------------------ */

enum role { R_NONE, R_VG, R_PVS, R_PV, R_LVS, R_LV, R_SEG };

/* A parse of the text: where the VG's head goes (into a struct lvm_vg, or
 * a struct lvm_pv's summary when vg is NULL), and the section stack. */
struct tp {
	const char *p, *end;
	unsigned line;
	int depth;
	enum role role[LVM_DEPTH_MAX + 1];
	int seen_vg;
	char *name, *id;
	uint64_t *seqno, *extent_size, scratch;
	struct lvm_vg *vg;
	struct lvm_lv *lv;
	struct lvm_seg *seg;
	int pv;
	char *err;
	size_t errlen;
};

enum tok { T_EOF, T_WORD, T_STR, T_PUNCT, T_BAD };

struct token {
	enum tok kind;
	char c;
	size_t len;
	char s[LVM_NAME_MAX * 2];
};

static int is_word(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z') || strchr("_.+-", c);
}

static void skip_space(struct tp *t)
{
	while (t->p < t->end) {
		if (*t->p == '#')
			while (t->p < t->end && *t->p != '\n')
				t->p++;
		else if (*t->p == ' ' || *t->p == '\t' || *t->p == '\r' ||
			 *t->p == '\n')
			t->line += *t->p++ == '\n';
		else
			return;
	}
}

/* config.c: "..." with \ escaping the next character. Kept truncated to
 * the token's buffer; its length tells when it was. */
static enum tok read_string(struct tp *t, struct token *k)
{
	for (t->p++; t->p < t->end; t->p++) {
		char c = *t->p;

		if (c == '"') {
			t->p++;
			return T_STR;
		}
		if (c == '\\' && t->p + 1 < t->end)
			c = *++t->p;
		t->line += c == '\n';
		if (k->len + 1 < sizeof(k->s))
			k->s[k->len] = c;
		k->len++;
		k->s[k->len < sizeof(k->s) ? k->len : sizeof(k->s) - 1] = 0;
	}
	return T_BAD;
}

static enum tok next(struct tp *t, struct token *k)
{
	k->len = 0;
	k->s[0] = 0;
	skip_space(t);
	if (t->p >= t->end)
		return k->kind = T_EOF;
	k->c = *t->p;
	if (k->c == '"')
		return k->kind = read_string(t, k);
	if (strchr("{}[]=,", k->c) && k->c) {
		t->p++;
		return k->kind = T_PUNCT;
	}
	for (; t->p < t->end && is_word(*t->p); t->p++)
		if (k->len + 1 < sizeof(k->s))
			k->s[k->len++] = *t->p, k->s[k->len] = 0;
		else
			return k->kind = T_BAD;
	return k->kind = k->len ? T_WORD : T_BAD;
}

static int bad(struct tp *t, const char *what)
{
	return say(t->err, t->errlen, -EINVAL,
		   "the LVM2 metadata text is damaged at line %u: %s", t->line,
		   what);
}

/* An integer word; 0, or -EINVAL for anything else (floats, negatives:
 * none of the keys read here has one). */
static int word_u64(const struct token *k, uint64_t *v)
{
	*v = 0;
	if (k->kind != T_WORD)
		return -EINVAL;
	for (size_t i = 0; i < k->len; i++) {
		if (k->s[i] < '0' || k->s[i] > '9' || *v > UINT64_MAX / 10 ||
		    *v * 10 > UINT64_MAX - (uint64_t)(k->s[i] - '0'))
			return -EINVAL;
		*v = *v * 10 + (uint64_t)(k->s[i] - '0');
	}
	return 0;
}

static void copy_name(char *dst, const struct token *k)
{
	snprintf(dst, LVM_NAME_MAX, "%.*s", LVM_NAME_MAX - 1, k->s);
}

static int find_pv(const struct lvm_vg *vg, const char *name)
{
	for (size_t i = 0; i < vg->n_pv; i++)
		if (strcmp(vg->pv[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* The VG head: id, seqno, extent_size (import_vsn1.c: _read_vg). */
static void value_vg(struct tp *t, const char *key, const struct token *v)
{
	if (!strcmp(key, "id") && v->kind == T_STR &&
	    uuid_norm(v->s, v->len, t->id) < 0)
		t->id[0] = 0;
	else if (!strcmp(key, "seqno"))
		word_u64(v, t->seqno);
	else if (!strcmp(key, "extent_size"))
		word_u64(v, t->extent_size);
}

/* Item @idx of a segment's `stripes = [ "pv0", 0, "pv1", 0 ]`: the PV
 * of stripe idx/2 at even places, its first extent at odd ones. */
static void value_stripe(struct tp *t, struct lvm_seg *s, const struct token *v,
			 int idx)
{
	int i = idx / 2;

	if (idx % 2 == 0)
		s->pvs[i] = v->kind == T_STR ? find_pv(t->vg, v->s) : -1;
	else
		word_u64(v, &s->pes[i]);
}

static void value_seg(struct tp *t, const char *key, const struct token *v,
		      int idx)
{
	struct lvm_seg *s = t->seg;

	if (!strcmp(key, "start_extent"))
		word_u64(v, &s->start_extent);
	else if (!strcmp(key, "extent_count"))
		word_u64(v, &s->extent_count);
	else if (!strcmp(key, "type") && v->kind == T_STR)
		snprintf(s->type, sizeof(s->type), "%.31s", v->s);
	else if (!strcmp(key, "stripe_count"))
		word_u64(v, &s->stripe_count);
	else if (!strcmp(key, "stripe_size"))
		word_u64(v, &s->stripe_size);
	else if (!strcmp(key, "stripes") && idx >= 0 &&
		 idx / 2 < VOL_WINDOWS_MAX)
		value_stripe(t, s, v, idx);
	else if (!strcmp(key, "cow_store") && v->kind == T_STR)
		copy_name(t->lv->cow, v);
}

/* One value (idx -1) or array item (idx 0, 1, ...) of @key. */
static void value(struct tp *t, const char *key, const struct token *v, int idx)
{
	enum role r = t->role[t->depth];

	if (r == R_VG)
		value_vg(t, key, v);
	else if (r == R_PV && t->pv >= 0 && !strcmp(key, "id") &&
		 uuid_norm(v->s, v->len, t->vg->pv[t->pv].id) < 0)
		t->vg->pv[t->pv].id[0] = 0;
	else if (r == R_PV && t->pv >= 0 && !strcmp(key, "pe_start"))
		word_u64(v, &t->vg->pv[t->pv].pe_start);
	else if (r == R_LV && t->lv && !strcmp(key, "status") &&
		 !strcmp(v->s, "VISIBLE") && v->kind == T_STR)
		t->lv->visible = 1;
	else if (r == R_SEG && t->seg)
		value_seg(t, key, v, idx);
}

static enum role open_role(struct tp *t, const struct token *k)
{
	enum role up = t->role[t->depth];
	struct lvm_vg *vg = t->vg;

	if (up == R_NONE && t->depth == 0 && !t->seen_vg++) {
		copy_name(t->name, k);
		return R_VG;
	}
	if (up == R_VG && !strcmp(k->s, "physical_volumes"))
		return R_PVS;
	if (up == R_VG && !strcmp(k->s, "logical_volumes"))
		return R_LVS;
	if (up == R_PVS && vg) {
		t->pv = vg->n_pv < LVM_PVS_MAX ? (int)vg->n_pv++ : -1;
		if (t->pv >= 0)
			copy_name(vg->pv[t->pv].name, k);
		return R_PV;
	}
	if (up == R_LVS && vg) {
		t->lv = vg->n_lv < LVM_LVS_MAX ? &vg->lv[vg->n_lv++] : NULL;
		if (t->lv)
			copy_name(t->lv->name, k);
		return R_LV;
	}
	if (up == R_LV && t->lv) {
		t->seg = t->lv->seg_count < VOL_WINDOWS_MAX
			     ? &t->lv->seg[t->lv->seg_count]
			     : NULL;
		t->lv->seg_count++;
		if (t->seg) {
			for (size_t i = 0; i < VOL_WINDOWS_MAX; i++)
				t->seg->pvs[i] = -1;
		}
		return R_SEG;
	}
	return R_NONE;
}

/* key = value, or key = [ v, v, ... ] */
static int assign(struct tp *t, const char *key)
{
	struct token v;
	int idx = 0;

	next(t, &v);
	if (v.kind == T_WORD || v.kind == T_STR) {
		value(t, key, &v, -1);
		return 0;
	}
	if (v.kind != T_PUNCT || v.c != '[')
		return bad(t, "a value is missing");
	while (next(t, &v) != T_PUNCT || v.c != ']') {
		if (v.kind != T_WORD && v.kind != T_STR)
			return bad(t, "an array is not closed");
		value(t, key, &v, idx++);
		if (next(t, &v) == T_PUNCT && v.c == ']')
			break;
		if (v.kind != T_PUNCT || v.c != ',')
			return bad(t, "an array lacks a comma");
	}
	return 0;
}

static int parse(struct tp *t)
{
	struct token k, op;
	char key[sizeof(k.s)];

	while (next(t, &k) != T_EOF) {
		if (k.kind == T_PUNCT && k.c == '}' && t->depth > 0) {
			t->depth--;
			continue;
		}
		if (k.kind != T_WORD)
			return bad(t, "a name is expected");
		memcpy(key, k.s, sizeof(key));
		if (next(t, &op) == T_PUNCT && op.c == '{') {
			if (t->depth == LVM_DEPTH_MAX)
				return bad(t, "sections nest too deep");
			t->role[t->depth + 1] = open_role(t, &k);
			t->depth++;
		} else if (op.kind == T_PUNCT && op.c == '=') {
			if (assign(t, key) < 0)
				return -EINVAL;
		} else {
			return bad(t, "'=' or '{' is expected");
		}
	}
	if (t->depth)
		return bad(t, "a section is not closed");
	if (!t->seen_vg || !t->id[0])
		return bad(t, "there is no volume group with an id");
	return 0;
}

static void tp_init(struct tp *t, const char *text, size_t len, char *err,
		    size_t errlen)
{
	const char *nul = memchr(text, 0, len);

	memset(t, 0, sizeof(*t));
	t->p = text;
	t->end = nul ? nul : text + len;
	t->line = 1;
	t->pv = -1;
	t->err = err;
	t->errlen = errlen;
}

int lvm_vg_parse(const char *text, size_t len, struct lvm_vg *vg, char *err,
		 size_t errlen)
{
	struct tp t;

	memset(vg, 0, sizeof(*vg));
	tp_init(&t, text, len, err, errlen);
	t.vg = vg;
	t.name = vg->name;
	t.id = vg->id;
	t.seqno = &vg->seqno;
	t.extent_size = &vg->extent_size;
	return parse(&t);
}

/* --- metadata areas ---------------------------------------------------- */

static int text_summary(struct lvm_pv *pv, char *err, size_t errlen)
{
	struct tp t;

	tp_init(&t, pv->text, pv->text_len, err, errlen);
	t.name = pv->vg_name;
	t.id = pv->vg_id;
	t.seqno = &pv->seqno;
	t.extent_size = &t.scratch;
	return parse(&t);
}

/* format-text.c: the text runs from @off for @size bytes, and what passes
 * the area's end goes on at MDA_HEADER. */
static int mda_text(const uint8_t *area, size_t len, uint64_t msize,
		    uint64_t off, uint64_t size, struct lvm_pv *pv)
{
	uint64_t wrap = off + size > msize ? off + size - msize : 0;
	uint64_t first = size - wrap;

	if (!le_in(len, off, first) || !le_in(len, MDA_HEADER, wrap))
		return -ERANGE;
	pv->text = malloc(size + 1);
	if (!pv->text)
		return -ENOMEM;
	memcpy(pv->text, area + off, first);
	memcpy(pv->text + first, area + MDA_HEADER, wrap);
	pv->text[size] = 0;
	pv->text_len = strlen(pv->text);
	return 0;
}

static int mda_say(char *err, size_t errlen, int rc, uint64_t start,
		   const char *what)
{
	return say(err, errlen, rc, "the LVM2 metadata area at byte %llu %s",
		   (unsigned long long)start, what);
}

/* layout.h: mda_header { checksum (of the rest of its 512 bytes),
 * magic[16], version, start, size, raw_locn[] }; raw_locn { offset,
 * size, checksum, flags }. Gives raw_locn 0 in loc[0..3). */
static int mda_header(const uint8_t *area, size_t len, uint64_t start,
		      uint64_t loc[3], char *err, size_t errlen)
{
	uint64_t at = 0, msize = 0;
	uint32_t crc = 0, ver = 0, flags = 0;

	if (len < MDA_HEADER)
		return mda_say(err, errlen, -ERANGE, start, "is cut short");
	get_le32(area, len, 0, &crc);
	get_le32(area, len, 20, &ver);
	get_le64(area, len, 24, &at);
	get_le64(area, len, 32, &msize);
	if (lvm_crc(LVM_INITIAL_CRC, area + 4, MDA_HEADER - 4) != crc)
		return mda_say(err, errlen, -EINVAL, start,
			       "fails its checksum");
	if (memcmp(area + 4, mda_magic, 16) || ver != 1 || at != start ||
	    msize < MDA_HEADER)
		return mda_say(err, errlen, -EINVAL, start,
			       "has a header of another kind");
	get_le64(area, len, 40, &loc[0]);
	get_le64(area, len, 48, &loc[1]);
	get_le32(area, len, 60, &flags);
	loc[2] = msize;
	/* RAW_LOCN_IGNORED: pvchange --metadataignore */
	if ((!loc[0] && !loc[1]) || (flags & 1))
		return mda_say(err, errlen, -ENODATA, start,
			       "holds no metadata");
	if (loc[0] < MDA_HEADER || loc[0] >= msize || !loc[1] ||
	    loc[1] > msize - MDA_HEADER)
		return mda_say(err, errlen, -EINVAL, start,
			       "points outside itself");
	return 0;
}

int lvm_mda_parse(const uint8_t *area, size_t len, uint64_t start,
		  struct lvm_pv *pv, char *err, size_t errlen)
{
	unsigned long long s = start;
	uint64_t loc[3] = {0}; /* offset, size, the area's size */
	uint32_t crc = 0;
	int rc;

	lvm_pv_free(pv);
	rc = mda_header(area, len, start, loc, err, errlen);
	if (rc < 0)
		return rc;
	get_le32(area, len, 56, &crc);
	rc = mda_text(area, len, loc[2], loc[0], loc[1], pv);
	if (rc == -ERANGE)
		return say(err, errlen, rc,
			   "the LVM2 metadata at byte %llu lies past the %zu "
			   "bytes read",
			   s + loc[0], len);
	if (rc < 0)
		return say(err, errlen, rc, "out of memory");
	/* format-text.c: the checksum covers the text as it wraps */
	if (lvm_crc(LVM_INITIAL_CRC, (const uint8_t *)pv->text, loc[1]) != crc)
		rc = say(err, errlen, -EINVAL,
			 "the LVM2 metadata at byte %llu fails its checksum",
			 s + loc[0]);
	else
		rc = text_summary(pv, err, errlen);
	if (rc < 0)
		lvm_pv_free(pv);
	return rc;
}

void lvm_pv_free(struct lvm_pv *pv)
{
	free(pv->text);
	pv->text = NULL;
	pv->text_len = 0;
}

int lvm_pv_parse(const uint8_t *buf, size_t len, struct lvm_pv *pv, char *err,
		 size_t errlen)
{
	int rc = lvm_label_parse(buf, len, pv, err, errlen);

	for (size_t i = 0; rc == 0 && i < pv->n_mda; i++) {
		uint64_t off = pv->mda[i].offset, n = pv->mda[i].size;

		if (off >= len) {
			rc =
			    say(err, errlen, -ERANGE,
				"the LVM2 metadata area at byte %llu lies past "
				"the %zu bytes read",
				(unsigned long long)off, len);
			continue;
		}
		rc = lvm_mda_parse(buf + off, n < len - off ? n : len - off,
				   off, pv, err, errlen);
		if (rc == 0 || i + 1 == pv->n_mda)
			return rc;
		rc = 0; /* try the next area */
	}
	return rc;
}

static int read_mda(int fd, struct lvm_pv *pv, size_t i, char *err,
		    size_t errlen)
{
	uint64_t size = pv->mda[i].size;
	size_t n = size < LVM_MDA_READ_MAX ? (size_t)size : LVM_MDA_READ_MAX;
	uint8_t *buf = malloc(n ? n : 1);
	ssize_t got;
	int rc;

	if (!buf)
		return say(err, errlen, -ENOMEM, "out of memory");
	got = util_pread_full(fd, buf, n, pv->mda[i].offset);
	if (got < 0)
		rc = mda_say(err, errlen, (int)got, pv->mda[i].offset,
			     "cannot be read");
	else
		rc = lvm_mda_parse(buf, (size_t)got, pv->mda[i].offset, pv, err,
				   errlen);
	if (rc == -ERANGE && size > LVM_MDA_READ_MAX)
		rc = say(err, errlen, rc,
			 "the LVM2 metadata area is %llu bytes, more than "
			 "bootmenu reads (%d MiB)",
			 (unsigned long long)size, LVM_MDA_READ_MAX >> 20);
	free(buf);
	return rc;
}

int lvm_pv_read(int fd, struct lvm_pv *pv, char *err, size_t errlen)
{
	uint8_t lab[LVM_LABEL_SCAN];
	ssize_t got = util_pread_full(fd, lab, sizeof(lab), 0);
	int rc;

	if (got < 0) {
		memset(pv, 0, sizeof(*pv));
		return say(err, errlen, (int)got,
			   "the device cannot be read: %s",
			   strerror((int)-got));
	}
	rc = lvm_label_parse(lab, (size_t)got, pv, err, errlen);
	for (size_t i = 0; rc == 0 && i < pv->n_mda; i++) {
		rc = read_mda(fd, pv, i, err, errlen);
		if (rc == 0 || i + 1 == pv->n_mda)
			return rc;
		rc = 0;
	}
	return rc;
}

int lvm_newest(const struct lvm_pv *pvs, size_t n, const char *vg_id)
{
	int best = -ENOENT;

	for (size_t i = 0; i < n; i++)
		if (pvs[i].text && !strcmp(pvs[i].vg_id, vg_id) &&
		    (best < 0 || pvs[i].seqno > pvs[best].seqno))
			best = (int)i;
	return best;
}

/* --- volumes ------------------------------------------------------------ */

/* Why a segment of this type is not read (lib/metadata/segtype.h names) */
static const struct {
	const char *type, *why;
} seg_why[] = {
    {"thin-pool", "is a thin pool: it holds thin volumes, not a filesystem"},
    {"thin", "is a thin volume, not read yet"},
    {"cache", "is a cached volume, not read yet"},
    {"cache-pool", "is a cache pool, not a filesystem"},
    {"writecache", "is a cached volume (writecache), not read yet"},
    {"mirror", "is a mirror, not read yet"},
    {"snapshot", "is a snapshot, not read yet"},
    {"raid", "is a RAID volume, not read yet"},
    {"vdo", "is a VDO volume, not read yet"},
    {"vdo-pool", "is a VDO pool, not a filesystem"},
    {"integrity", "has integrity checksums, not read yet"},
};

static void seg_skip(const struct lvm_seg *s, char *skip, size_t n)
{
	const char *t = s->type;

	if (!strcmp(t, "striped")) { /* a striped segment among others */
		snprintf(skip, n,
			 "is striped over %llu volumes in one of several "
			 "segments, not read yet",
			 (unsigned long long)s->stripe_count);
		return;
	}
	for (size_t i = 0; i < sizeof(seg_why) / sizeof(seg_why[0]); i++)
		if (!strcmp(t, seg_why[i].type) ||
		    (!strcmp(seg_why[i].type, "raid") &&
		     !strncmp(t, "raid", 4))) {
			snprintf(skip, n, "%s", seg_why[i].why);
			return;
		}
	snprintf(skip, n, "has a segment of type \"%s\", not read", t);
}

static int find_source(const char *id, const char *const *uuids, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (uuids[i] && !strcmp(uuids[i], id))
			return (int)i;
	return -1;
}

/* Which of the caller's PVs vg->pv[@pv] is; -ENODEV with the reason in
 * v->skip when it is not there. */
static int pv_source(const struct lvm_vg *vg, int pv, const char *const *uuids,
		     size_t n_pvs, struct vol *v)
{
	const char *id = vg->pv[pv].id;
	int src = find_source(id, uuids, n_pvs);

	if (src < 0 && !id[0]) {
		snprintf(v->skip, sizeof(v->skip),
			 "its volume group %.48s names physical volume %.48s "
			 "without a valid id",
			 vg->name, vg->pv[pv].name);
		return -ENODEV;
	}
	if (src < 0) {
		snprintf(
		    v->skip, sizeof(v->skip),
		    "its volume group %.60s is incomplete: physical volume "
		    "%.6s-%.4s-%.4s-%.4s-%.4s-%.4s-%.6s is missing",
		    vg->name, id, id + 6, id + 10, id + 14, id + 18, id + 22,
		    id + 26);
		return -ENODEV;
	}
	return src;
}

/* Extents pe..pe+count of vg->pv[@pv] as bytes of the device: *off and
 * *size, added to v->size. -EOVERFLOW past 64 bits. */
static int pv_bytes(const struct lvm_vg *vg, int pv, uint64_t pe,
		    uint64_t count, struct vol *v, uint64_t *off,
		    uint64_t *size)
{
	uint64_t ext = vg->extent_size * LVM_SECTOR;

	if (__builtin_mul_overflow(pe, ext, off) ||
	    vg->pv[pv].pe_start > UINT64_MAX / LVM_SECTOR ||
	    __builtin_add_overflow(*off, vg->pv[pv].pe_start * LVM_SECTOR,
				   off) ||
	    __builtin_mul_overflow(count, ext, size) ||
	    __builtin_add_overflow(v->size, *size, &v->size))
		return -EOVERFLOW;
	return 0;
}

/* The window of one linear segment, appended to (or merged into) v. */
static int seg_window(const struct lvm_vg *vg, const struct lvm_seg *s,
		      const char *const *uuids, size_t n_pvs, struct vol *v)
{
	struct vol_window *w = v->n ? &v->w[v->n - 1] : NULL;
	int src = pv_source(vg, s->pvs[0], uuids, n_pvs, v);
	uint64_t off, size;

	if (src < 0)
		return src;
	if (pv_bytes(vg, s->pvs[0], s->pes[0], s->extent_count, v, &off,
		     &size) < 0)
		return -EOVERFLOW;
	if (w && w->source == src && w->offset + w->size == off) {
		w->size += size;
		return 0;
	}
	v->w[v->n++] = (struct vol_window){src, off, size};
	return 0;
}

/* The one segment of a striped LV: a window per stripe, each of
 * extent_count / stripe_count extents (lvm2's area_len), and the chunk.
 * Returns 0, -ENODEV or -EINVAL (v->skip says why), -EOVERFLOW. */
static int stripe_windows(const struct lvm_vg *vg, const struct lvm_seg *s,
			  const char *const *uuids, size_t n_pvs, struct vol *v)
{
	uint64_t area = s->extent_count / s->stripe_count;

	if (s->stripe_count > VOL_WINDOWS_MAX) {
		snprintf(v->skip, sizeof(v->skip),
			 "is striped over %llu volumes, more than bootmenu "
			 "maps (%d)",
			 (unsigned long long)s->stripe_count, VOL_WINDOWS_MAX);
		return -EINVAL;
	}
	if (!s->stripe_size || s->stripe_size > UINT64_MAX / LVM_SECTOR ||
	    s->extent_count % s->stripe_count) {
		snprintf(v->skip, sizeof(v->skip),
			 "is striped with a stripe size or length bootmenu "
			 "cannot map");
		return -EINVAL;
	}
	for (size_t i = 0; i < s->stripe_count; i++) {
		uint64_t off, size;
		int src;

		if (s->pvs[i] < 0) {
			snprintf(v->skip, sizeof(v->skip),
				 "names a physical volume its volume group "
				 "lacks");
			return -EINVAL;
		}
		src = pv_source(vg, s->pvs[i], uuids, n_pvs, v);
		if (src < 0)
			return src;
		if (pv_bytes(vg, s->pvs[i], s->pes[i], area, v, &off, &size) <
		    0)
			return -EOVERFLOW;
		v->w[v->n++] = (struct vol_window){src, off, size};
	}
	v->stripes = (unsigned)s->stripe_count;
	v->chunk = s->stripe_size * LVM_SECTOR;
	return 0;
}

static const char *lv_damage(const struct lvm_vg *vg, const struct lvm_lv *lv)
{
	uint64_t next = 0;

	if (!vg->extent_size || vg->extent_size > UINT64_MAX / LVM_SECTOR)
		return "its volume group has no valid extent size";
	if (!lv->seg_count)
		return "has no segments";
	for (size_t i = 0; i < lv->seg_count && i < VOL_WINDOWS_MAX; i++) {
		if (lv->seg[i].start_extent != next || !lv->seg[i].extent_count)
			return "has segments that do not follow each other";
		next += lv->seg[i].extent_count;
	}
	return NULL;
}

/* Is @lv the copy-on-write store of a snapshot (import_vsn1.c: a
 * "snapshot" segment's cow_store)? */
static int is_cow(const struct lvm_vg *vg, const struct lvm_lv *lv)
{
	for (size_t i = 0; i < vg->n_lv; i++)
		if (!strcmp(vg->lv[i].cow, lv->name))
			return 1;
	return 0;
}

static void lv_vol(const struct lvm_vg *vg, const struct lvm_lv *lv,
		   const char *const *uuids, size_t n_pvs, struct vol *v)
{
	const char *why = lv_damage(vg, lv);

	memset(v, 0, sizeof(*v));
	if ((size_t)snprintf(v->name, sizeof(v->name), "%s/%s", vg->name,
			     lv->name) >= sizeof(v->name))
		why = "has a name longer than bootmenu shows";
	if (!why && is_cow(vg, lv))
		why = "is a snapshot, not read yet";
	if (!why && lv->seg_count > VOL_WINDOWS_MAX)
		snprintf(v->skip, sizeof(v->skip),
			 "has %zu segments, more than bootmenu maps (%d)",
			 lv->seg_count, VOL_WINDOWS_MAX);
	for (size_t i = 0; !why && !v->skip[0] && i < lv->seg_count; i++) {
		const struct lvm_seg *s = &lv->seg[i];
		bool striped = !strcmp(s->type, "striped");

		if (striped && s->stripe_count > 1 && lv->seg_count == 1) {
			if (stripe_windows(vg, s, uuids, n_pvs, v) ==
			    -EOVERFLOW)
				why = "lies beyond what 64 bits address";
		} else if (!striped || s->stripe_count != 1)
			seg_skip(s, v->skip, sizeof(v->skip));
		else if (s->pvs[0] < 0)
			why = "names a physical volume its volume group lacks";
		else if (seg_window(vg, s, uuids, n_pvs, v) == -EOVERFLOW)
			why = "lies beyond what 64 bits address";
	}
	if (why)
		snprintf(v->skip, sizeof(v->skip), "%s", why);
	if (v->skip[0])
		v->n = 0, v->size = 0, v->stripes = 0, v->chunk = 0;
}

int lvm_vols(const struct lvm_vg *vg, const char *const *pv_uuids, size_t n_pvs,
	     struct vol *out, size_t max, size_t *n)
{
	int rc = 0;

	*n = 0;
	for (size_t i = 0; i < vg->n_lv && i < LVM_LVS_MAX; i++) {
		/* lvm2 writes a snapshot's COW LV without VISIBLE, yet lvs
		 * lists it under the snapshot's name (lv_is_visible()) */
		if (!vg->lv[i].visible && !is_cow(vg, &vg->lv[i]))
			continue;
		if (*n == max) {
			rc = -E2BIG;
			break;
		}
		lv_vol(vg, &vg->lv[i], pv_uuids, n_pvs, &out[(*n)++]);
	}
	return rc;
}
