/* unseal.c - a systemd-tpm2 token's secret out of the TPM (unseal.h says
 * what systemd 252 does and what we do differently). */
#include <errno.h>
#include <stdio.h>
#include <stddef.h>
#include <string.h>
#include <sys/random.h>

#include "tpm/cmd.h"
#include "tpm/marshal.h"
#include "tpm/measure.h"
#include "tpm/tpm.h"
#include "tpm/unseal.h"
#include "util/hash.h"
#include "util/say.h"
#include "util/sha256.h"

/* CreatePrimary makes a key from the seed: an RSA key takes seconds on
 * a slow TPM (systemd's notes say ~10 s), far past TIMEOUT_B */
#define PRIMARY_TIMEOUT_MS 60000
/* systemd 252 tries again when a PCR changes between PolicyPCR and
 * Unseal (TPM_RC_PCR_CHANGED); we try three times */
#define UNSEAL_TRIES 3
#define NONCE_LEN 32

static const struct {
	const char *name;
	size_t off;
} members[] = {
    {"tpm2-blob", offsetof(struct tpm_sealed_text, blob)},
    {"tpm2-pcrs", offsetof(struct tpm_sealed_text, pcrs)},
    {"tpm2-pcr-bank", offsetof(struct tpm_sealed_text, bank)},
    {"tpm2-primary-alg", offsetof(struct tpm_sealed_text, primary_alg)},
    {"tpm2-policy-hash", offsetof(struct tpm_sealed_text, policy_hash)},
    {"tpm2-pin", offsetof(struct tpm_sealed_text, pin)},
    {"tpm2_pubkey", offsetof(struct tpm_sealed_text, pubkey)},
    {"tpm2_pubkey_pcrs", offsetof(struct tpm_sealed_text, pubkey_pcrs)},
};

int tpm_sealed_set(struct tpm_sealed_text *s, const char *name,
		   const char *value)
{
	for (size_t i = 0; i < sizeof(members) / sizeof(members[0]); i++)
		if (strcmp(name, members[i].name) == 0) {
			memcpy((char *)s + members[i].off, &value,
			       sizeof(value));
			return 0;
		}
	return -ENOENT;
}

static int b64_value(char c)
{
	static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				  "abcdefghijklmnopqrstuvwxyz0123456789+/";
	const char *p = c ? strchr(abc, c) : NULL;

	return p ? (int)(p - abc) : -1;
}

/* RFC 4648 4: groups of four characters, '=' only to pad the last. */
static int b64_decode(const char *s, uint8_t *out, size_t cap, size_t *len)
{
	size_t n = strlen(s), o = 0;

	if (n % 4)
		return -EINVAL;
	for (size_t i = 0; i < n; i += 4) {
		int v[4], pad = 0;

		for (int k = 0; k < 4; k++) {
			v[k] = b64_value(s[i + k]);
			if (s[i + k] == '=' && i + 4 == n && k >= 2)
				pad++, v[k] = 0;
			else if (v[k] < 0 || pad)
				return -EINVAL;
		}
		uint32_t w =
		    (uint32_t)v[0] << 18 | v[1] << 12 | v[2] << 6 | v[3];
		if ((size_t)(3 - pad) > cap - o)
			return -ENOSPC;
		for (int k = 0; k < 3 - pad; k++)
			out[o++] = (uint8_t)(w >> (16 - 8 * k));
	}
	*len = o;
	return 0;
}

int tpm_unseal_passphrase(const uint8_t *secret, size_t len, char *out,
			  size_t cap)
{
	static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				  "abcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t need = (len + 2) / 3 * 4, o = 0;

	if (need >= cap)
		return -ENOSPC;
	for (size_t i = 0; i < len; i += 3) {
		size_t k = len - i < 3 ? len - i : 3;
		uint32_t w = (uint32_t)secret[i] << 16;

		if (k > 1)
			w |= (uint32_t)secret[i + 1] << 8;
		if (k > 2)
			w |= secret[i + 2];
		for (size_t j = 0; j < 4; j++)
			out[o++] = j <= k ? abc[(w >> (18 - 6 * j)) & 63] : '=';
	}
	out[o] = '\0';
	return (int)o;
}

static int hex_decode(const char *s, uint8_t *out, size_t cap, size_t *len)
{
	size_t n = strlen(s);

	if (n % 2 || n / 2 > cap)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		int v = c >= '0' && c <= '9'   ? c - '0'
			: c >= 'a' && c <= 'f' ? c - 'a' + 10
			: c >= 'A' && c <= 'F' ? c - 'A' + 10
					       : -1;
		if (v < 0)
			return -EINVAL;
		out[i / 2] = (uint8_t)(i % 2 ? out[i / 2] << 4 | v : v);
	}
	*len = n / 2;
	return 0;
}

/* "7,11" (vol/luks.h's form of a JSON array of numbers) as a mask. */
static int pcr_list(const char *s, uint32_t *mask)
{
	unsigned v = 0, digits = 0;

	*mask = 0;
	for (;; s++) {
		if (*s >= '0' && *s <= '9') {
			v = v * 10 + (unsigned)(*s - '0');
			if (++digits > 2 || v >= TPM_PCR_COUNT)
				return -EINVAL;
		} else if (*s == ',' || *s == '\0') {
			if (!digits && (*s || *mask))
				return -EINVAL;
			if (digits)
				*mask |= 1u << v;
			if (!*s)
				return 0;
			v = digits = 0;
		} else if (*s != ' ') {
			return -EINVAL;
		}
	}
}

static uint16_t bank_alg(const char *s)
{
	static const struct {
		const char *name;
		uint16_t alg;
	} banks[] = {{"sha1", TPM_ALG_SHA1},
		     {"sha256", TPM_ALG_SHA256},
		     {"sha384", TPM_ALG_SHA384},
		     {"sha512", TPM_ALG_SHA512}};

	for (size_t i = 0; i < sizeof(banks) / sizeof(banks[0]); i++)
		if (strcmp(s, banks[i].name) == 0)
			return banks[i].alg;
	return 0;
}

/* The blob: TPM2B_PRIVATE then TPM2B_PUBLIC (Part 2 12.3.7, 12.2.5),
 * nothing after them. */
static int split_blob(struct tpm_sealed *o, size_t n)
{
	struct tpm_in in;
	uint16_t a, b;
	const uint8_t *p;

	tpm_in_init(&in, o->blob, n);
	if (tpm_get16(&in, &a) || tpm_get_bytes(&in, &p, a) ||
	    tpm_get16(&in, &b) || b < 10 || tpm_get_bytes(&in, &p, b) ||
	    tpm_in_left(&in))
		return -EINVAL;
	o->priv_len = 2 + (size_t)a;
	o->pub_len = 2 + (size_t)b;
	return 0;
}

static int decode_alg(const struct tpm_sealed_text *s, struct tpm_sealed *o,
		      char *err, size_t errlen)
{
	o->bank = s->bank ? bank_alg(s->bank) : TPM_ALG_SHA256;
	if (!o->bank)
		return say(
		    err, errlen, -ENOTSUP,
		    "the TPM2 token's PCR bank \"%.16s\" (tpm2-pcr-bank) "
		    "is not one we know",
		    s->bank);
	o->primary = 0;
	if (s->primary_alg && strcmp(s->primary_alg, "ecc") == 0)
		o->primary = TPM_ALG_ECC;
	else if (s->primary_alg && strcmp(s->primary_alg, "rsa") == 0)
		o->primary = TPM_ALG_RSA;
	else if (s->primary_alg)
		return say(err, errlen, -ENOTSUP,
			   "the TPM2 token's primary key algorithm \"%.16s\" "
			   "(tpm2-primary-alg) is not one we know",
			   s->primary_alg);
	return 0;
}

int tpm_sealed_decode(const struct tpm_sealed_text *s, struct tpm_sealed *o,
		      char *err, size_t errlen)
{
	size_t n;
	int rc;

	memset(o, 0, sizeof(*o));
	if ((s->pubkey && *s->pubkey) || (s->pubkey_pcrs && *s->pubkey_pcrs))
		return say(err, errlen, -ENOTSUP,
			   "the TPM2 token has a signed PCR policy "
			   "(tpm2_pubkey), which we do not do");
	if (!s->blob || b64_decode(s->blob, o->blob, sizeof(o->blob), &n) ||
	    split_blob(o, n))
		return say(
		    err, errlen, -EINVAL,
		    "the TPM2 token's sealed key (tpm2-blob) is damaged");
	if (!s->pcrs || pcr_list(s->pcrs, &o->pcrs))
		return say(err, errlen, -EINVAL,
			   "the TPM2 token's PCR list (tpm2-pcrs) is damaged");
	if (s->policy_hash && hex_decode(s->policy_hash, o->policy,
					 sizeof(o->policy), &o->policy_len))
		return say(err, errlen, -EINVAL,
			   "the TPM2 token's policy hash (tpm2-policy-hash) "
			   "is damaged");
	if (s->pin && strcmp(s->pin, "true") && strcmp(s->pin, "false"))
		return say(err, errlen, -EINVAL,
			   "the TPM2 token's PIN flag (tpm2-pin) is damaged");
	o->pin = s->pin && strcmp(s->pin, "true") == 0;
	rc = decode_alg(s, o, err, errlen);
	if (rc)
		explicit_bzero(o, sizeof(*o));
	return rc;
}

/* --- talking to the TPM */

struct unseal {
	struct tpm *t;
	const struct tpm_sealed *s;
	uint32_t primary, object, session; /* 0: none */
	uint8_t name[2 + TPM2B_MAX], nonce_tpm[TPM2B_MAX];
	size_t name_len, nonce_len;
	uint8_t auth[SHA256_LEN]; /* the PIN's hash: the object's authValue */
	size_t auth_len;
	uint8_t cmd[TPM_BUF_MAX], rsp[TPM_BUF_MAX];
	size_t rlen;
};

/* The response code of a refusal goes where tpm.h says it is kept;
 * @code by address, read after the parser that wrote it has run. */
static int note(struct unseal *u, int rc, const uint32_t *code)
{
	if (rc == -EREMOTEIO)
		u->t->rc = *code;
	return rc;
}

static int lockout(char *err, size_t errlen)
{
	return say(err, errlen, -ENOLCK,
		   "the TPM refuses its keys for a while after too many wrong "
		   "PINs");
}

/* Part 1 19.8: in lockout the TPM refuses every authorisation of a
 * DA-protected object, the storage key's empty password for Load too */
static int tpm_fail(struct unseal *u, int rc, const char *what, char *err,
		    size_t errlen)
{
	char why[80];

	if (rc == -EREMOTEIO && tpm_rc_base(u->t->rc) == TPM_RC_LOCKOUT)
		return lockout(err, errlen);
	return say(err, errlen, rc, "the TPM could not %s: %s", what,
		   tpm_error_text(rc, u->t->rc, why, sizeof(why)));
}

static int run(struct unseal *u, size_t len)
{
	if (!len)
		return -EINVAL;
	return tpm_transact(u->t, u->cmd, len, u->rsp, sizeof(u->rsp),
			    &u->rlen);
}

/* Part 3 28.4: a handle we made, gone from the TPM's few slots; a
 * failure here changes nothing for the caller. */
static void flush(struct unseal *u, uint32_t *handle)
{
	uint32_t code;

	if (*handle &&
	    run(u, tpm_cmd_flush_context(u->cmd, sizeof(u->cmd), *handle)) == 0)
		tpm_rsp_flush_context(u->rsp, u->rlen, &code);
	*handle = 0;
}

static int make_primary(struct unseal *u, uint16_t alg)
{
	unsigned saved = u->t->timeout_ms;
	uint32_t code = 0, h = 0;
	int rc;

	if (saved < PRIMARY_TIMEOUT_MS)
		u->t->timeout_ms = PRIMARY_TIMEOUT_MS;
	rc = run(u, tpm_cmd_create_primary(u->cmd, sizeof(u->cmd), alg));
	u->t->timeout_ms = saved;
	if (rc == 0)
		rc = note(u, tpm_rsp_create_primary(u->rsp, u->rlen, &code, &h),
			  &code);
	if (rc == 0)
		u->primary = h;
	return rc;
}

static int load_sealed(struct unseal *u, char *err, size_t errlen)
{
	const struct tpm_sealed *s = u->s;
	uint32_t code = 0, h = 0;
	int rc = make_primary(u, s->primary ? s->primary : TPM_ALG_ECC);

	/* systemd 252 falls back to RSA when a TPM cannot make ECC keys */
	if (rc == -EREMOTEIO && !s->primary)
		rc = make_primary(u, TPM_ALG_RSA);
	if (rc)
		return tpm_fail(u, rc, "make its storage key", err, errlen);
	rc = run(u,
		 tpm_cmd_load(u->cmd, sizeof(u->cmd), u->primary, s->blob,
			      s->priv_len, s->blob + s->priv_len, s->pub_len));
	if (rc == 0)
		rc = note(u,
			  tpm_rsp_load(u->rsp, u->rlen, &code, &h, u->name,
				       &u->name_len),
			  &code);
	if (rc == -EREMOTEIO && tpm_rc_base(code) != TPM_RC_LOCKOUT)
		return say(
		    err, errlen, rc,
		    "the TPM refused the volume's sealed key (TPM error "
		    "0x%x): it was sealed by another TPM, or this one was "
		    "cleared since",
		    code);
	if (rc)
		return tpm_fail(u, rc, "load the volume's sealed key", err,
				errlen);
	u->object = h;
	return 0;
}

static int nonce(uint8_t *n)
{
	if (getrandom(n, NONCE_LEN, 0) != NONCE_LEN)
		return -EIO;
	return 0;
}

/* The policy session, its policy as at enrolment (tpm2-util.c
 * tpm2_make_policy_session: PolicyPCR, then PolicyAuthValue), and the
 * digest it reached. */
static int policy(struct unseal *u, uint8_t *digest, size_t *dlen)
{
	uint8_t n[NONCE_LEN];
	uint32_t code = 0, h = 0;
	int rc = nonce(n);

	if (rc == 0)
		rc = run(u, tpm_cmd_start_policy_session(u->cmd, sizeof(u->cmd),
							 n, sizeof(n)));
	if (rc == 0)
		rc = note(u,
			  tpm_rsp_start_auth_session(u->rsp, u->rlen, &code, &h,
						     u->nonce_tpm,
						     &u->nonce_len),
			  &code);
	if (rc)
		return rc;
	u->session = h;
	if (u->s->pcrs)
		rc = run(u, tpm_cmd_policy_pcr(u->cmd, sizeof(u->cmd), h,
					       u->s->bank, u->s->pcrs));
	if (rc == 0 && u->s->pcrs)
		rc = note(u, tpm_rsp_policy(u->rsp, u->rlen, &code), &code);
	if (rc == 0 && u->s->pin)
		rc = run(u,
			 tpm_cmd_policy_auth_value(u->cmd, sizeof(u->cmd), h));
	if (rc == 0 && u->s->pin)
		rc = note(u, tpm_rsp_policy(u->rsp, u->rlen, &code), &code);
	if (rc == 0)
		rc = run(u,
			 tpm_cmd_policy_get_digest(u->cmd, sizeof(u->cmd), h));
	if (rc == 0)
		rc = note(u,
			  tpm_rsp_policy_get_digest(u->rsp, u->rlen, &code,
						    digest, dlen),
			  &code);
	return rc;
}

/* Part 1 19.6.5 and 19.6.8: an unsalted, unbound session has an empty
 * sessionKey, so after PolicyAuthValue the HMAC key is the object's
 * authValue alone; cpHash (Part 1 18.7) covers Unseal's code and the
 * object's name (no parameters); then the caller's new nonce, the TPM's
 * last one, and the attributes. */
static void auth_hmac(const struct unseal *u, const uint8_t *n, uint8_t attrs,
		      uint8_t *mac)
{
	const struct hash_alg *h = hash_find("sha256");
	uint8_t cp[4 + sizeof(u->name)];
	uint8_t msg[SHA256_LEN + NONCE_LEN + TPM2B_MAX + 1];
	size_t len = SHA256_LEN;

	for (int i = 0; i < 4; i++)
		cp[i] = (uint8_t)(TPM_CC_UNSEAL >> (24 - 8 * i));
	memcpy(cp + 4, u->name, u->name_len);
	hash_once(h, cp, 4 + u->name_len, msg);
	memcpy(msg + len, n, NONCE_LEN);
	len += NONCE_LEN;
	memcpy(msg + len, u->nonce_tpm, u->nonce_len);
	len += u->nonce_len;
	msg[len++] = attrs;
	hmac(h, u->auth, u->auth_len, msg, len, mac);
}

static int unseal_cmd(struct unseal *u, uint8_t *secret, size_t *len)
{
	uint8_t n[NONCE_LEN], mac[SHA256_LEN];
	/* continueSession: the session stays for flush() on every way out */
	uint8_t attrs = TPMA_SESSION_CONTINUE;
	uint32_t code = 0;
	int rc = nonce(n);

	if (rc)
		return rc;
	if (u->s->pin)
		auth_hmac(u, n, attrs, mac);
	rc = run(u, tpm_cmd_unseal(u->cmd, sizeof(u->cmd), u->object,
				   u->session, n, sizeof(n), attrs, mac,
				   u->s->pin ? sizeof(mac) : 0));
	if (rc == 0)
		rc =
		    note(u, tpm_rsp_unseal(u->rsp, u->rlen, &code, secret, len),
			 &code);
	return rc;
}

static int pcrs_changed(const struct unseal *u, char *err, size_t errlen)
{
	uint32_t m = u->s->pcrs;
	char list[TPM_PCR_COUNT * 4] = "";
	size_t n = 0;

	if (m && !(m & (m - 1)))
		return say(err, errlen, -EACCES,
			   "PCR %d changed since the key was enrolled",
			   __builtin_ctz(m));
	for (unsigned i = 0; i < TPM_PCR_COUNT; i++)
		if (m & 1u << i)
			n += (size_t)snprintf(list + n, sizeof(list) - n,
					      "%s%u", n ? ", " : "", i);
	if (!m)
		return say(err, errlen, -EACCES,
			   "the TPM2 key's policy no longer matches");
	return say(err, errlen, -EACCES,
		   "the PCRs %s no longer match the TPM2 key's policy", list);
}

/* One policy session and one Unseal; -EAGAIN when a PCR changed in
 * between (TPM_RC_PCR_CHANGED: try again). */
static int try_unseal(struct unseal *u, uint8_t *secret, size_t *len, char *err,
		      size_t errlen)
{
	uint8_t digest[TPM2B_MAX];
	size_t dlen = 0;
	int rc = policy(u, digest, &dlen);

	if (rc)
		return tpm_fail(u, rc, "start the key's policy", err, errlen);
	/* systemd 252 compares too, to say so before the TPM refuses */
	if (u->s->policy_len &&
	    (dlen != u->s->policy_len || memcmp(digest, u->s->policy, dlen)))
		return pcrs_changed(u, err, errlen);
	rc = unseal_cmd(u, secret, len);
	flush(u, &u->session);
	if (rc != -EREMOTEIO)
		return rc ? tpm_fail(u, rc, "unseal the volume's key", err,
				     errlen)
			  : 0;
	switch (tpm_rc_base(u->t->rc)) {
	case TPM_RC_PCR_CHANGED:
		return -EAGAIN;
	case TPM_RC_POLICY_FAIL:
		return pcrs_changed(u, err, errlen);
	case TPM_RC_AUTH_FAIL:
	case TPM_RC_BAD_AUTH:
		return say(err, errlen, -EACCES,
			   "wrong PIN for this volume's TPM2 key");
	}
	return tpm_fail(u, rc, "unseal the volume's key", err, errlen);
}

/* tpm2-util.c hash_pin: the object's authValue is SHA-256 of the PIN's
 * bytes; Part 1 19.6.4: the TPM keeps it without trailing zero bytes,
 * and so must the HMAC key be. */
static void pin_auth(struct unseal *u, const char *pin)
{
	hash_once(hash_find("sha256"), pin, strlen(pin), u->auth);
	u->auth_len = SHA256_LEN;
	while (u->auth_len && !u->auth[u->auth_len - 1])
		u->auth_len--;
}

int tpm_unseal_token(struct tpm *t, const struct tpm_sealed_text *tok,
		     const char *pin, uint8_t *secret, size_t *len, char *err,
		     size_t errlen)
{
	struct tpm_sealed s;
	struct unseal u = {.t = t, .s = &s};
	int rc = tpm_sealed_decode(tok, &s, err, errlen);

	*len = 0;
	if (rc)
		return rc;
	if (s.pin && !pin)
		return say(err, errlen, -ENOKEY,
			   "this volume's TPM2 key wants its PIN");
	if (s.pin)
		pin_auth(&u, pin);
	rc = load_sealed(&u, err, errlen);
	flush(&u, &u.primary); /* the loaded object needs it no more */
	for (int i = 0; rc == 0 && i < UNSEAL_TRIES; i++) {
		rc = try_unseal(&u, secret, len, err, errlen);
		if (rc != -EAGAIN)
			break;
	}
	if (rc == -EAGAIN)
		rc = say(err, errlen, -EACCES,
			 "the PCRs kept changing while the key was unsealed");
	flush(&u, &u.session);
	flush(&u, &u.object);
	explicit_bzero(&u, sizeof(u));
	if (rc) {
		explicit_bzero(secret, TPM_SENSITIVE_MAX);
		*len = 0;
	}
	return rc;
}
