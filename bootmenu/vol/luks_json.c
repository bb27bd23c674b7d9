/* luks_json.c - the LUKS2 JSON metadata (LUKS2 section 3) into a struct
 * luks_hdr: keyslots, segment 0, digests, tokens, config. The text is
 * read by util/json_read.h; this file knows what the members mean and
 * bounds every value. See luks.h. */
#include "vol/luks.h"

#include "util/json_read.h"
#include "util/say.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What one parse needs at hand. */
struct lj {
	const struct jr_doc *d;
	struct luks_hdr *h;
	uint64_t hdr_size, dev_size, keyslots_size;
	char *err;
	size_t errlen;
};

static int lj_b64_val(char c)
{
	static const char al[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				 "abcdefghijklmnopqrstuvwxyz0123456789+/";
	const char *at = c ? strchr(al, c) : NULL;

	return at ? (int)(at - al) : -1;
}

/* RFC 4648 section 4 base64 with padding (cryptsetup writes salts and
 * digests so). Returns the byte count, or -EINVAL: bad text, or more than
 * @cap bytes. */
static int lj_b64(const char *s, uint8_t *out, size_t cap)
{
	size_t len = s ? strlen(s) : 0, n = 0;

	if (!s || len % 4)
		return -EINVAL;
	for (size_t i = 0; i < len; i += 4) {
		uint32_t acc = 0;
		size_t pad = 0;

		for (size_t j = 0; j < 4; j++) {
			int v = lj_b64_val(s[i + j]);

			if (s[i + j] == '=' && i + 4 == len && j >= 2)
				pad++, v = 0;
			else if (v < 0 || pad)
				return -EINVAL;
			acc = acc << 6 | (uint32_t)v;
		}
		if (cap - n < 3 - pad)
			return -EINVAL;
		for (size_t j = 0; j < 3 - pad; j++)
			out[n++] = (uint8_t)(acc >> (16 - 8 * j));
	}
	return (int)n;
}

static int lj_fail(struct lj *j, int rc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int lj_fail(struct lj *j, int rc, const char *fmt, ...)
{
	char msg[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return say(j->err, j->errlen, rc, "LUKS2 metadata: %s", msg);
}

static int lj_skip(struct luks_keyslot *s, int rc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A keyslot we keep but cannot use says why in s->skip. */
static int lj_skip(struct luks_keyslot *s, int rc, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(s->skip, sizeof(s->skip), "keyslot %d: ", s->id);
	va_start(ap, fmt);
	if (n > 0 && (size_t)n < sizeof(s->skip))
		vsnprintf(s->skip + n, sizeof(s->skip) - (size_t)n, fmt, ap);
	va_end(ap);
	s->skip_rc = rc;
	return rc;
}

/* LUKS2 3.1: object member names are ids, decimal without leading
 * zeros; we keep ids below @max. */
static int lj_id(const char *key, unsigned max, int *id)
{
	unsigned v = 0;

	if (!key || !*key || (key[0] == '0' && key[1]) || strlen(key) > 4)
		return -EINVAL;
	for (const char *c = key; *c; c++) {
		if (*c < '0' || *c > '9')
			return -EINVAL;
		v = v * 10 + (unsigned)(*c - '0');
	}
	if (v >= max)
		return -ERANGE;
	*id = (int)v;
	return 0;
}

/* An array of id strings into a bit mask (ids below 32). */
static int lj_mask(const struct jr_doc *d, const struct jr_node *arr,
		   uint32_t *mask)
{
	int id;

	*mask = 0;
	if (!arr || arr->type != JR_ARR)
		return -EINVAL;
	for (const struct jr_node *c = jr_first(d, arr); c; c = jr_next(d, c)) {
		if (lj_id(jr_str(c), 32, &id) < 0)
			return -EINVAL;
		*mask |= 1u << id;
	}
	return 0;
}

/* Member @key of @obj as an integer in [lo, hi]. */
static int lj_num(const struct jr_doc *d, const struct jr_node *obj,
		  const char *key, uint64_t lo, uint64_t hi, uint64_t *v)
{
	int rc = jr_u64(jr_get(d, obj, key), v);

	if (rc == 0 && (*v < lo || *v > hi))
		rc = -ERANGE;
	return rc;
}

/* Member @key of @obj, a string that fits dst[0..cap). */
static int lj_strcpy(const struct jr_doc *d, const struct jr_node *obj,
		     const char *key, char *dst, size_t cap)
{
	const struct jr_node *n = jr_get(d, obj, key);

	if (!n || n->type != JR_STR || n->len >= cap)
		return -EINVAL;
	memcpy(dst, n->str, n->len + 1);
	return 0;
}

/* "aes-xts-plain64" -> "aes", "xts-plain64" (dm-crypt.rst: cipher, then
 * chainmode-ivmode); a spec with no '-' is all cipher. */
static int lj_spec(const char *spec, char *cipher, char *mode, size_t cap)
{
	const char *dash = strchr(spec, '-');
	size_t n = dash ? (size_t)(dash - spec) : strlen(spec);

	if (!n || n >= cap || strlen(spec) - n >= cap)
		return -EINVAL;
	memcpy(cipher, spec, n);
	cipher[n] = '\0';
	strcpy(mode, dash ? dash + 1 : "");
	return 0;
}

/* LUKS2 3.2.1 "kdf": pbkdf2 with hash, iterations and salt; argon2i and
 * argon2id with time (passes), memory (KiB), cpus (lanes) and salt. */
static int lj_kdf(const struct jr_doc *d, const struct jr_node *kdf,
		  struct luks_keyslot *s)
{
	uint64_t t = 0, m = 0, p = 0;
	int n;

	if (lj_strcpy(d, kdf, "type", s->kdf, sizeof(s->kdf)) < 0)
		return lj_skip(s, -EINVAL, "no key derivation type");
	n = lj_b64(jr_str(jr_get(d, kdf, "salt")), s->salt, sizeof(s->salt));
	if (n <= 0)
		return lj_skip(s, -EINVAL, "bad %s salt", s->kdf);
	s->salt_len = (size_t)n;
	if (strcmp(s->kdf, "pbkdf2") == 0) {
		if (lj_strcpy(d, kdf, "hash", s->kdf_hash,
			      sizeof(s->kdf_hash)) < 0 ||
		    lj_num(d, kdf, "iterations", 1, LUKS_PBKDF2_ITER_MAX, &t))
			return lj_skip(s, -EINVAL, "bad pbkdf2 parameters");
		s->iter = (uint32_t)t;
		return 0;
	}
	if (strcmp(s->kdf, "argon2i") != 0 && strcmp(s->kdf, "argon2id") != 0)
		return lj_skip(s, -ENOTSUP,
			       "key derivation \"%s\" is not one "
			       "we have",
			       s->kdf);
	/* RFC 9106 3.1: at least 8 KiB per lane and an 8-byte salt */
	if (lj_num(d, kdf, "time", 1, LUKS_ARGON2_T_MAX, &t) < 0 ||
	    lj_num(d, kdf, "cpus", 1, LUKS_ARGON2_LANES_MAX, &p) < 0 ||
	    lj_num(d, kdf, "memory", 8 * p, UINT32_MAX, &m) < 0 ||
	    s->salt_len < 8)
		return lj_skip(s, -EINVAL, "bad %s parameters", s->kdf);
	s->iter = (uint32_t)t;
	s->mem_kib = (uint32_t)m;
	s->lanes = (uint32_t)p;
	return 0;
}

/* LUKS2 3.2.1 "area" of type raw: its bytes lie in the keyslots area,
 * which begins after both header copies (LUKS2 2.2, figure 1). */
static int lj_area(const struct lj *j, const struct jr_node *area,
		   struct luks_keyslot *s)
{
	const struct jr_doc *d = j->d;
	uint64_t lo = 2 * j->hdr_size, hi = lo + j->keyslots_size, ks = 0;
	char type[16], enc[LUKS_NAME_MAX];

	if (lj_strcpy(d, area, "type", type, sizeof(type)) < 0 ||
	    strcmp(type, "raw") != 0)
		return lj_skip(s, -ENOTSUP, "its area is not of type \"raw\"");
	if (lj_strcpy(d, area, "encryption", enc, sizeof(enc)) < 0 ||
	    lj_spec(enc, s->cipher, s->mode, sizeof(s->cipher)) < 0 ||
	    lj_num(d, area, "key_size", 1, LUKS_KEY_MAX, &ks) < 0)
		return lj_skip(s, -EINVAL, "bad area encryption");
	s->area_key_size = (size_t)ks;
	if (lj_num(d, area, "offset", lo, hi, &s->area_offset) < 0 ||
	    lj_num(d, area, "size", 1, hi - s->area_offset, &s->area_size) < 0)
		return lj_skip(s, -EINVAL,
			       "its area lies outside the keyslots "
			       "area");
	if (j->dev_size < s->area_offset ||
	    s->area_size > j->dev_size - s->area_offset)
		return lj_skip(s, -EINVAL,
			       "its area lies past the device's "
			       "end");
	return 0;
}

/* LUKS2 3.2.1 "af" of type luks1: the stripes and the diffuse hash. */
static int lj_af(const struct jr_doc *d, const struct jr_node *af,
		 struct luks_keyslot *s)
{
	uint64_t st = 0;
	char type[16];

	if (lj_strcpy(d, af, "type", type, sizeof(type)) < 0 ||
	    strcmp(type, "luks1") != 0)
		return lj_skip(s, -ENOTSUP, "anti-forensic type is not luks1");
	if (lj_num(d, af, "stripes", 1, LUKS_STRIPES_MAX, &st) < 0 ||
	    lj_strcpy(d, af, "hash", s->af_hash, sizeof(s->af_hash)) < 0)
		return lj_skip(s, -EINVAL, "bad anti-forensic parameters");
	s->stripes = (uint32_t)st;
	/* LUKS1 2.4: the split key fills key_size * stripes bytes */
	if ((s->key_size * st + LUKS_SECTOR - 1) / LUKS_SECTOR * LUKS_SECTOR >
	    s->area_size)
		return lj_skip(s, -EINVAL,
			       "its area is smaller than its split "
			       "key");
	return 0;
}

/* LUKS2 3.2: one keyslot; what we cannot use is kept with a reason. */
static void lj_keyslot(const struct lj *j, const struct jr_node *ks,
		       struct luks_keyslot *s)
{
	const struct jr_doc *d = j->d;
	const struct jr_node *prio = jr_get(d, ks, "priority");
	uint64_t v = 1;
	char type[16];

	s->priority = 1;
	s->digest = -1;
	if (lj_strcpy(d, ks, "type", type, sizeof(type)) < 0) {
		lj_skip(s, -EINVAL, "no type");
		return;
	}
	if (strcmp(type, "luks2") != 0) {
		lj_skip(s, -ENOTSUP, "type \"%s\" is not a passphrase's", type);
		return;
	}
	if (prio && (jr_u64(prio, &v) < 0 || v > 2)) {
		lj_skip(s, -EINVAL, "bad priority");
		return;
	}
	s->priority = (int)v;
	if (lj_num(d, ks, "key_size", 1, LUKS_KEY_MAX, &v) < 0) {
		lj_skip(s, -EINVAL, "bad key_size");
		return;
	}
	s->key_size = (size_t)v;
	if (lj_kdf(d, jr_get(d, ks, "kdf"), s) == 0 &&
	    lj_area(j, jr_get(d, ks, "area"), s) == 0)
		lj_af(d, jr_get(d, ks, "af"), s);
}

/* Keyslots kept in id order (the order they are tried within one
 * priority). */
static int lj_keyslots(struct lj *j, const struct jr_node *obj)
{
	struct luks_hdr *h = j->h;
	int id;

	if (!obj || obj->type != JR_OBJ)
		return lj_fail(j, -EINVAL, "no \"keyslots\" object");
	for (const struct jr_node *c = jr_first(j->d, obj); c;
	     c = jr_next(j->d, c)) {
		size_t at = 0;

		if (lj_id(c->key, LUKS_SLOTS_MAX, &id) < 0 || c->type != JR_OBJ)
			return lj_fail(j, -EINVAL, "bad keyslot \"%s\"",
				       c->key);
		while (at < h->n_slot && h->slot[at].id < id)
			at++;
		if (at < h->n_slot && h->slot[at].id == id)
			return lj_fail(j, -EINVAL, "keyslot %d twice", id);
		memmove(&h->slot[at + 1], &h->slot[at],
			(h->n_slot - at) * sizeof(h->slot[0]));
		memset(&h->slot[at], 0, sizeof(h->slot[0]));
		h->slot[at].id = id;
		lj_keyslot(j, c, &h->slot[at]);
		h->n_slot++;
	}
	return 0;
}

/* LUKS2 3.3 segment 0 of type crypt: the data. More than one segment
 * means a reencryption is under way, which we do not follow. */
static int lj_segment(struct lj *j, const struct jr_node *obj)
{
	const struct jr_doc *d = j->d;
	const struct jr_node *s = jr_get(d, obj, "0"), *size;
	struct luks_hdr *h = j->h;
	char type[16], enc[LUKS_NAME_MAX];
	uint64_t ss = 0;

	if (!s || s->type != JR_OBJ || obj->n != 1)
		return lj_fail(j, obj && obj->n > 1 ? -ENOTSUP : -EINVAL,
			       "not one data segment (a reencryption under "
			       "way?)");
	if (lj_strcpy(d, s, "type", type, sizeof(type)) < 0 ||
	    strcmp(type, "crypt") != 0 || jr_get(d, s, "integrity"))
		return lj_fail(j, -ENOTSUP,
			       "the data segment is not plain "
			       "\"crypt\" (authenticated encryption?)");
	if (lj_strcpy(d, s, "encryption", enc, sizeof(enc)) < 0 ||
	    lj_spec(enc, h->cipher, h->mode, sizeof(h->cipher)) < 0 ||
	    lj_num(d, s, "sector_size", 512, 4096, &ss) < 0 ||
	    (ss & (ss - 1)) != 0 ||
	    lj_num(d, s, "iv_tweak", 0, UINT64_MAX, &h->iv_tweak) < 0 ||
	    lj_num(d, s, "offset", 0, j->dev_size, &h->offset) < 0 ||
	    h->offset % LUKS_SECTOR != 0)
		return lj_fail(j, -EINVAL, "bad data segment");
	h->sector_size = (uint32_t)ss;
	size = jr_get(d, s, "size");
	if (jr_str(size) && strcmp(jr_str(size), "dynamic") == 0)
		return 0;
	if (lj_num(d, s, "size", ss, j->dev_size - h->offset, &h->size) < 0 ||
	    h->size % ss != 0)
		return lj_fail(j, -EINVAL,
			       "the data segment's size does not "
			       "fit the device");
	return 0;
}

/* LUKS2 3.4: a digest of type pbkdf2 over the volume key. */
static int lj_digest(struct lj *j, const struct jr_node *dg,
		     struct luks_digest *g)
{
	const struct jr_doc *d = j->d;
	uint32_t segs = 0;
	uint64_t it = 0;
	char type[16];
	int n;

	if (lj_strcpy(d, dg, "type", type, sizeof(type)) < 0 ||
	    strcmp(type, "pbkdf2") != 0)
		return lj_fail(j, -ENOTSUP, "a digest not of type pbkdf2");
	if (lj_mask(d, jr_get(d, dg, "keyslots"), &g->keyslots) < 0 ||
	    lj_mask(d, jr_get(d, dg, "segments"), &segs) < 0 ||
	    lj_strcpy(d, dg, "hash", g->hash, sizeof(g->hash)) < 0 ||
	    lj_num(d, dg, "iterations", 1, LUKS_PBKDF2_ITER_MAX, &it) < 0)
		return lj_fail(j, -EINVAL, "bad digest");
	g->segment = segs & 1;
	g->iter = (uint32_t)it;
	n = lj_b64(jr_str(jr_get(d, dg, "salt")), g->salt, sizeof(g->salt));
	if (n <= 0)
		return lj_fail(j, -EINVAL, "bad digest salt");
	g->salt_len = (size_t)n;
	n = lj_b64(jr_str(jr_get(d, dg, "digest")), g->value, sizeof(g->value));
	if (n <= 0)
		return lj_fail(j, -EINVAL, "bad digest value");
	g->len = (size_t)n;
	return 0;
}

static int lj_digests(struct lj *j, const struct jr_node *obj)
{
	int id, rc;

	if (!obj || obj->type != JR_OBJ)
		return lj_fail(j, -EINVAL, "no \"digests\" object");
	for (const struct jr_node *c = jr_first(j->d, obj); c;
	     c = jr_next(j->d, c)) {
		if (lj_id(c->key, 1000, &id) < 0)
			return lj_fail(j, -EINVAL, "bad digest \"%s\"", c->key);
		if (j->h->n_digest == LUKS_DIGESTS_MAX)
			return lj_fail(j, -E2BIG, "more than %d digests",
				       LUKS_DIGESTS_MAX);
		rc = lj_digest(j, c, &j->h->digest[j->h->n_digest]);
		if (rc < 0)
			return rc;
		j->h->n_digest++;
	}
	return 0;
}

static const char *lj_scalar(const struct jr_node *n)
{
	switch (n->type) {
	case JR_STR:
	case JR_NUM:
		return n->str;
	case JR_BOOL:
		return n->b ? "true" : "false";
	case JR_NULL:
		return "null";
	default:
		return NULL;
	}
}

/* A token member's value as text: a scalar as it is, an array of
 * scalars joined with ',' ("tpm2-pcrs": [7, 11] -> "7,11"); NULL for
 * anything deeper. */
static const char *lj_text(struct lj *j, const struct jr_node *n)
{
	size_t len = 0, at = 0;
	char *out;

	if (n->type != JR_ARR)
		return lj_scalar(n) ? arena_strdup(&j->h->a, lj_scalar(n))
				    : NULL;
	for (const struct jr_node *c = jr_first(j->d, n); c;
	     c = jr_next(j->d, c)) {
		if (!lj_scalar(c))
			return NULL;
		len += strlen(lj_scalar(c)) + 1;
	}
	out = arena_alloc(&j->h->a, len + 1);
	for (const struct jr_node *c = jr_first(j->d, n); c;
	     c = jr_next(j->d, c))
		at += (size_t)sprintf(out + at, "%s%s", at ? "," : "",
				      lj_scalar(c));
	return out;
}

/* LUKS2 3.5: a token keeps its type, its keyslots and (for the TPM2
 * unlock later) its other members as text. A token we cannot read is
 * left out: tokens are never needed to unlock with a passphrase. */
static int lj_token(struct lj *j, const struct jr_node *tn,
		    struct luks_token *t)
{
	const struct jr_doc *d = j->d;
	const char *type = jr_str(jr_get(d, tn, "type"));

	if (!type || lj_mask(d, jr_get(d, tn, "keyslots"), &t->keyslots) < 0)
		return -EINVAL;
	t->type = arena_strdup(&j->h->a, type);
	for (const struct jr_node *c = jr_first(d, tn); c; c = jr_next(d, c)) {
		const char *v;

		if (!strcmp(c->key, "type") || !strcmp(c->key, "keyslots"))
			continue;
		v = lj_text(j, c);
		if (!v || t->n_field == LUKS_TOKEN_FIELDS_MAX)
			continue;
		t->field[t->n_field].name = arena_strdup(&j->h->a, c->key);
		t->field[t->n_field++].value = v;
	}
	return 0;
}

static int lj_tokens(struct lj *j, const struct jr_node *obj)
{
	struct luks_hdr *h = j->h;

	if (obj && obj->type != JR_OBJ)
		return lj_fail(j, -EINVAL, "\"tokens\" is not an object");
	for (const struct jr_node *c = jr_first(j->d, obj); c;
	     c = jr_next(j->d, c)) {
		struct luks_token *t = &h->token[h->n_token];

		if (h->n_token == LUKS_TOKENS_MAX)
			break;
		memset(t, 0, sizeof(*t));
		if (lj_id(c->key, LUKS_TOKENS_MAX, &t->id) < 0 ||
		    c->type != JR_OBJ || lj_token(j, c, t) < 0)
			continue;
		h->n_token++;
	}
	return 0;
}

/* LUKS2 3.6 config: json_size matches the header's JSON area, the
 * keyslots area has a size; a mandatory requirement we do not know (an
 * interrupted reencryption, say) forbids using the device at all. */
static int lj_config(struct lj *j, const struct jr_node *cfg)
{
	const struct jr_doc *d = j->d;
	const struct jr_node *req;
	uint64_t js = 0;

	if (!cfg || cfg->type != JR_OBJ)
		return lj_fail(j, -EINVAL, "no \"config\" object");
	if (lj_num(d, cfg, "json_size", 0, UINT64_MAX, &js) < 0 ||
	    js != j->hdr_size - LUKS2_BIN_SIZE)
		return lj_fail(j, -EINVAL, "json_size is not the header's");
	if (lj_num(d, cfg, "keyslots_size", 0, 128u << 20, &j->keyslots_size) <
		0 ||
	    j->keyslots_size % 4096 != 0)
		return lj_fail(j, -EINVAL, "bad keyslots_size");
	req = jr_get(d, jr_get(d, cfg, "requirements"), "mandatory");
	if (req && (req->type != JR_ARR || req->n))
		return lj_fail(
		    j, -ENOTSUP,
		    "a mandatory requirement we do "
		    "not know: \"%s\"",
		    jr_str(jr_first(d, req)) ? jr_str(jr_first(d, req)) : "?");
	return 0;
}

/* Each keyslot checks against the digest that names it; only keys of
 * the data segment are of use here. */
static void lj_bind(struct luks_hdr *h)
{
	for (size_t i = 0; i < h->n_slot; i++) {
		struct luks_keyslot *s = &h->slot[i];

		for (size_t k = 0; k < h->n_digest && s->digest < 0; k++)
			if (h->digest[k].keyslots & 1u << s->id)
				s->digest = (int)k;
		if (s->skip[0])
			continue;
		if (s->digest < 0)
			lj_skip(s, -EINVAL, "bound to no digest");
		else if (!h->digest[s->digest].segment)
			lj_skip(s, -EINVAL, "not a key of the data segment");
		else if (!h->key_size)
			h->key_size = s->key_size;
	}
}

int luks2_json_parse(const char *json, size_t len, uint64_t hdr_size,
		     uint64_t dev_size, struct luks_hdr *h, char *err,
		     size_t errlen)
{
	struct jr_doc doc;
	struct lj j = {&doc, h, hdr_size, dev_size, 0, err, errlen};
	const struct jr_node *top;
	int rc;

	if (hdr_size < LUKS2_HDR_MIN || hdr_size > LUKS2_HDR_MAX)
		return lj_fail(&j, -EINVAL, "bad header size");
	rc = jr_parse(json, len, &doc, err, errlen);
	if (rc < 0)
		return rc;
	top = jr_root(&doc);
	if (top->type != JR_OBJ)
		rc = lj_fail(&j, -EINVAL, "not a JSON object");
	rc = rc ? rc : lj_config(&j, jr_get(&doc, top, "config"));
	rc = rc ? rc : lj_segment(&j, jr_get(&doc, top, "segments"));
	rc = rc ? rc : lj_digests(&j, jr_get(&doc, top, "digests"));
	rc = rc ? rc : lj_keyslots(&j, jr_get(&doc, top, "keyslots"));
	rc = rc ? rc : lj_tokens(&j, jr_get(&doc, top, "tokens"));
	if (!rc)
		lj_bind(h);
	jr_free(&doc);
	return rc;
}
