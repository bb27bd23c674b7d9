/* cmd.c - TPM 2.0 command bytes and response parsers (TPM 2.0 Library
 * Part 3: GetCapability 30.2, PCR_Extend 22.2, PCR_Read 22.4; the unseal
 * commands as cmd.h lists them). */
#include <errno.h>
#include <string.h>

#include "tpm/cmd.h"
#include "tpm/marshal.h"
#include "tpm/measure.h"

/* Part 2 10.6.1: a TPMS_PCR_SELECTION's sizeofSelect is at least
 * PCR_SELECT_MIN (3 for 24 PCRs); no TPM we know has more than 32 PCRs,
 * and no more than a handful of banks. */
#define SELECT_MAX 4
#define BANKS_MAX 16

int tpm_rsp_size(const void *rsp, size_t len, size_t *size)
{
	struct tpm_in in;
	uint16_t tag;
	uint32_t n;

	tpm_in_init(&in, rsp, len);
	if (tpm_get16(&in, &tag) || tpm_get32(&in, &n) || n < TPM_HEADER_LEN)
		return -EBADMSG;
	*size = n;
	return 0;
}

/* Reads the header into @in's start; the caller goes on past it. */
static int rsp_header(struct tpm_in *in, const void *rsp, size_t len,
		      uint32_t *rc)
{
	uint16_t tag;
	uint32_t size;

	*rc = 0;
	tpm_in_init(in, rsp, len);
	if (tpm_get16(in, &tag) || tpm_get32(in, &size) || tpm_get32(in, rc))
		return -EBADMSG;
	if (tag == TPM_TAG_RSP_COMMAND_12)
		return -EPROTONOSUPPORT;
	if ((tag != TPM_ST_NO_SESSIONS && tag != TPM_ST_SESSIONS) ||
	    size != len)
		return -EBADMSG;
	/* Part 1 18.5: an error response is the header alone; the caller
	 * reads what follows a success */
	return *rc != TPM_RC_SUCCESS ? -EREMOTEIO : 0;
}

int tpm_rsp_code(const void *rsp, size_t len, uint32_t *rc)
{
	struct tpm_in in;

	return rsp_header(&in, rsp, len, rc);
}

/* The command header; its size is patched by cmd_end(). */
static void cmd_begin(struct tpm_out *o, uint8_t *buf, size_t cap, uint16_t tag,
		      uint32_t cc)
{
	tpm_out_init(o, buf, cap);
	tpm_put16(o, tag);
	tpm_put32(o, 0);
	tpm_put32(o, cc);
}

static size_t cmd_end(struct tpm_out *o)
{
	tpm_patch32(o, 2, (uint32_t)o->len);
	return o->over ? 0 : o->len;
}

size_t tpm_cmd_get_pcrs(uint8_t *buf, size_t cap)
{
	struct tpm_out o;

	cmd_begin(&o, buf, cap, TPM_ST_NO_SESSIONS, TPM_CC_GET_CAPABILITY);
	tpm_put32(&o, TPM_CAP_PCRS);
	tpm_put32(&o, 0); /* property: ignored for TPM_CAP_PCRS */
	tpm_put32(&o, 1); /* propertyCount */
	return cmd_end(&o);
}

/* One TPMS_PCR_SELECTION: its algorithm and the selected PCRs as a mask
 * (bit n: PCR n; only the first 32 PCRs can be named here). */
static int get_selection(struct tpm_in *in, uint16_t *alg, uint32_t *pcrs)
{
	const uint8_t *sel;
	uint8_t n;

	if (tpm_get16(in, alg) || tpm_get8(in, &n) || n > SELECT_MAX ||
	    tpm_get_bytes(in, &sel, n))
		return -EBADMSG;
	*pcrs = 0;
	for (unsigned i = 0; i < n; i++)
		*pcrs |= (uint32_t)sel[i] << (8 * i);
	return 0;
}

int tpm_rsp_get_pcrs(const void *rsp, size_t len, uint32_t *rc, unsigned *banks,
		     unsigned *other)
{
	struct tpm_in in;
	uint32_t cap, count;
	uint8_t more;
	unsigned mine = 0, theirs = 0;
	int err = rsp_header(&in, rsp, len, rc);

	if (err)
		return err;
	if (tpm_get8(&in, &more) || tpm_get32(&in, &cap) ||
	    cap != TPM_CAP_PCRS || tpm_get32(&in, &count) || count > BANKS_MAX)
		return -EBADMSG;
	for (uint32_t i = 0; i < count; i++) {
		uint16_t alg;
		uint32_t pcrs;

		if (get_selection(&in, &alg, &pcrs))
			return -EBADMSG;
		if (pcrs && measure_alg_bank(alg))
			mine |= measure_alg_bank(alg);
		else if (pcrs)
			theirs++;
	}
	if (tpm_in_left(&in))
		return -EBADMSG;
	*banks = mine;
	if (other)
		*other = theirs;
	return 0;
}

/* Part 1 19.6.3 (password authorisation): the session handle, an empty
 * nonce, the attributes, the password (empty) in the hmac field. */
static void put_password_session(struct tpm_out *o)
{
	tpm_put32(o, 4 + 2 + 1 + 2); /* authorizationSize */
	tpm_put32(o, TPM_RS_PW);
	tpm_put16(o, 0); /* nonceCaller */
	tpm_put8(o, 0);	 /* sessionAttributes */
	tpm_put16(o, 0); /* hmac: the empty password */
}

size_t tpm_cmd_pcr_extend(uint8_t *buf, size_t cap, unsigned pcr,
			  const struct measure_digests *d, unsigned banks)
{
	struct tpm_out o;
	uint32_t count = 0;

	banks &= MEASURE_BANKS_ALL;
	if (pcr >= TPM_PCR_COUNT || (d->banks & banks) != banks)
		return 0;
	for (unsigned b = 1; b <= MEASURE_BANK_SHA512; b <<= 1)
		count += (banks & b) != 0;
	cmd_begin(&o, buf, cap, TPM_ST_SESSIONS, TPM_CC_PCR_EXTEND);
	tpm_put32(&o, pcr); /* pcrHandle: a PCR's handle is its index */
	put_password_session(&o);
	tpm_put32(&o, count); /* TPML_DIGEST_VALUES */
	for (unsigned b = 1; b <= MEASURE_BANK_SHA512; b <<= 1) {
		if (!(banks & b))
			continue;
		tpm_put16(&o, measure_bank_alg(b));
		tpm_put_bytes(&o, measure_digest(d, b), measure_bank_size(b));
	}
	return cmd_end(&o);
}

int tpm_rsp_pcr_extend(const void *rsp, size_t len, uint32_t *rc)
{
	struct tpm_in in;
	uint32_t params;
	uint16_t nonce, hmac;
	const uint8_t *skip;
	uint8_t attrs;
	int err = rsp_header(&in, rsp, len, rc);

	if (err)
		return err;
	/* Part 1 18.8: parameterSize, the (no) parameters, then one
	 * response session: nonceTPM, sessionAttributes, hmac */
	if (tpm_get32(&in, &params) || tpm_get_bytes(&in, &skip, params) ||
	    tpm_get16(&in, &nonce) || tpm_get_bytes(&in, &skip, nonce) ||
	    tpm_get8(&in, &attrs) || tpm_get16(&in, &hmac) ||
	    tpm_get_bytes(&in, &skip, hmac) || tpm_in_left(&in))
		return -EBADMSG;
	return 0;
}

size_t tpm_cmd_pcr_read(uint8_t *buf, size_t cap, unsigned pcr, unsigned bank)
{
	struct tpm_out o;
	uint8_t sel[3] = {0};

	if (pcr >= TPM_PCR_COUNT || !measure_bank_alg(bank))
		return 0;
	sel[pcr / 8] = (uint8_t)(1u << (pcr % 8));
	cmd_begin(&o, buf, cap, TPM_ST_NO_SESSIONS, TPM_CC_PCR_READ);
	tpm_put32(&o, 1); /* TPML_PCR_SELECTION: one bank */
	tpm_put16(&o, measure_bank_alg(bank));
	tpm_put8(&o, sizeof(sel));
	tpm_put_bytes(&o, sel, sizeof(sel));
	return cmd_end(&o);
}

int tpm_rsp_pcr_read(const void *rsp, size_t len, uint32_t *rc, unsigned pcr,
		     unsigned bank, uint8_t *out)
{
	struct tpm_in in;
	uint32_t counter, nsel, ndig, pcrs = 0;
	uint16_t alg = 0, size;
	const uint8_t *dig;
	int err = rsp_header(&in, rsp, len, rc);

	if (err)
		return err;
	if (tpm_get32(&in, &counter) || tpm_get32(&in, &nsel) || nsel > 1 ||
	    (nsel && get_selection(&in, &alg, &pcrs)) ||
	    tpm_get32(&in, &ndig) || ndig > 1)
		return -EBADMSG;
	/* Part 3 22.4.1: the TPM answers for the PCRs it has in that bank
	 * and leaves out the others: no digest, an empty selection */
	if (!ndig)
		return pcrs || tpm_in_left(&in) ? -EBADMSG : -ENODATA;
	if (!nsel || alg != measure_bank_alg(bank) || pcr >= 32 ||
	    pcrs != 1u << pcr || tpm_get16(&in, &size) ||
	    size != measure_bank_size(bank) || tpm_get_bytes(&in, &dig, size) ||
	    tpm_in_left(&in))
		return -EBADMSG;
	memcpy(out, dig, size);
	return 0;
}

uint32_t tpm_rc_base(uint32_t rc)
{
	/* Part 2 6.6.3: bit 7 marks format one; bits 6 and 8..11 say which
	 * handle, session or parameter the code is about */
	return rc & 0x80 ? rc & 0xBF : rc;
}

/* Part 1 18.6: one response session area, nonceTPM, sessionAttributes,
 * hmac (the TPM's; we do not check it: a forged answer could not make a
 * wrong secret open the LUKS keyslot, whose digest is checked). */
static int skip_session(struct tpm_in *in)
{
	const uint8_t *p;
	uint16_t nonce, hmac;
	uint8_t attrs;

	if (tpm_get16(in, &nonce) || tpm_get_bytes(in, &p, nonce) ||
	    tpm_get8(in, &attrs) || tpm_get16(in, &hmac) ||
	    tpm_get_bytes(in, &p, hmac))
		return -EBADMSG;
	return 0;
}

/* Part 1 18.8-18.10: the header, one handle when @handle is given, then
 * the parameters into @par: with sessions, parameterSize says how many
 * bytes, and one to three session areas fill the rest exactly. */
static int rsp_split(const void *rsp, size_t len, uint32_t *rc,
		     uint32_t *handle, struct tpm_in *par)
{
	struct tpm_in in;
	const uint8_t *p;
	uint32_t size;
	unsigned n = 0;
	int err = rsp_header(&in, rsp, len, rc);

	if (err)
		return err;
	if (handle && tpm_get32(&in, handle))
		return -EBADMSG;
	if (((const uint8_t *)rsp)[1] == (TPM_ST_NO_SESSIONS & 0xFF)) {
		size_t left = tpm_in_left(&in);

		if (tpm_get_bytes(&in, &p, left))
			return -EBADMSG;
		tpm_in_init(par, p, left);
		return 0;
	}
	if (tpm_get32(&in, &size) || tpm_get_bytes(&in, &p, size))
		return -EBADMSG;
	tpm_in_init(par, p, size);
	while (tpm_in_left(&in) && n++ < 3)
		if (skip_session(&in))
			return -EBADMSG;
	return n && !tpm_in_left(&in) ? 0 : -EBADMSG;
}

/* A TPM2B of at most @cap bytes into @out; @out may be NULL to skip. */
static int get_2b(struct tpm_in *in, uint8_t *out, size_t *out_len, size_t cap)
{
	const uint8_t *p;
	uint16_t n;

	if (tpm_get16(in, &n) || n > cap || tpm_get_bytes(in, &p, n))
		return -EBADMSG;
	if (out) {
		memcpy(out, p, n);
		*out_len = n;
	}
	return 0;
}

/* Part 2 12.2.4-12.2.5: the public area of systemd 252's primary key
 * (tpm2-util.c tpm2_make_primary): it must match to the bit, as the TPM
 * derives the same key from the seed only for the same template. */
static void put_primary_template(struct tpm_out *o, uint16_t alg)
{
	size_t at = o->len;

	tpm_put16(o, 0); /* TPM2B_PUBLIC size, patched below */
	tpm_put16(o, alg);
	tpm_put16(o, TPM_ALG_SHA256);
	/* fixedTPM, fixedParent, sensitiveDataOrigin, userWithAuth,
	 * restricted, decrypt (Part 2 8.3) */
	tpm_put32(o, 0x00030072u);
	tpm_put16(o, 0); /* authPolicy: empty */
	tpm_put16(o, TPM_ALG_AES);
	tpm_put16(o, 128);
	tpm_put16(o, TPM_ALG_CFB);
	tpm_put16(o, TPM_ALG_NULL); /* scheme */
	if (alg == TPM_ALG_ECC) {
		tpm_put16(o, 0x0003);	    /* TPM_ECC_NIST_P256 */
		tpm_put16(o, TPM_ALG_NULL); /* kdf */
		tpm_put32(o, 0);	    /* unique: empty x and y */
	} else {
		tpm_put16(o, 2048);
		tpm_put32(o, 0); /* exponent: the default */
		tpm_put16(o, 0); /* unique: empty */
	}
	if (!o->over) {
		o->p[at] = (uint8_t)((o->len - at - 2) >> 8);
		o->p[at + 1] = (uint8_t)(o->len - at - 2);
	}
}

size_t tpm_cmd_create_primary(uint8_t *buf, size_t cap, uint16_t alg)
{
	struct tpm_out o;

	if (alg != TPM_ALG_ECC && alg != TPM_ALG_RSA)
		return 0;
	cmd_begin(&o, buf, cap, TPM_ST_SESSIONS, TPM_CC_CREATE_PRIMARY);
	tpm_put32(&o, TPM_RH_OWNER);
	put_password_session(&o);
	tpm_put16(&o, 4); /* inSensitive: empty userAuth and data */
	tpm_put32(&o, 0);
	put_primary_template(&o, alg);
	tpm_put16(&o, 0); /* outsideInfo */
	tpm_put32(&o, 0); /* creationPCR: none */
	return cmd_end(&o);
}

int tpm_rsp_create_primary(const void *rsp, size_t len, uint32_t *rc,
			   uint32_t *handle)
{
	struct tpm_in par;

	/* the parameters (public area, creation data) are not needed */
	return rsp_split(rsp, len, rc, handle, &par);
}

size_t tpm_cmd_load(uint8_t *buf, size_t cap, uint32_t parent,
		    const uint8_t *priv, size_t priv_len, const uint8_t *pub,
		    size_t pub_len)
{
	struct tpm_out o;

	cmd_begin(&o, buf, cap, TPM_ST_SESSIONS, TPM_CC_LOAD);
	tpm_put32(&o, parent);
	put_password_session(&o);
	tpm_put_bytes(&o, priv, priv_len);
	tpm_put_bytes(&o, pub, pub_len);
	return cmd_end(&o);
}

int tpm_rsp_load(const void *rsp, size_t len, uint32_t *rc, uint32_t *handle,
		 uint8_t *name, size_t *name_len)
{
	struct tpm_in par;
	int err = rsp_split(rsp, len, rc, handle, &par);

	if (err)
		return err;
	if (get_2b(&par, name, name_len, 2 + TPM2B_MAX) || tpm_in_left(&par))
		return -EBADMSG;
	return 0;
}

size_t tpm_cmd_start_policy_session(uint8_t *buf, size_t cap,
				    const uint8_t *nonce, size_t nonce_len)
{
	struct tpm_out o;

	/* Part 3 11.1: the caller's nonce is 16 bytes up to the digest's */
	if (nonce_len < 16 || nonce_len > 32)
		return 0;
	cmd_begin(&o, buf, cap, TPM_ST_NO_SESSIONS, TPM_CC_START_AUTH_SESSION);
	tpm_put32(&o, TPM_RH_NULL); /* tpmKey: no salt */
	tpm_put32(&o, TPM_RH_NULL); /* bind: none */
	tpm_put16(&o, (uint16_t)nonce_len);
	tpm_put_bytes(&o, nonce, nonce_len);
	tpm_put16(&o, 0); /* encryptedSalt */
	tpm_put8(&o, TPM_SE_POLICY);
	tpm_put16(&o, TPM_ALG_NULL); /* symmetric: no parameter encryption */
	tpm_put16(&o, TPM_ALG_SHA256);
	return cmd_end(&o);
}

int tpm_rsp_start_auth_session(const void *rsp, size_t len, uint32_t *rc,
			       uint32_t *handle, uint8_t *nonce_tpm,
			       size_t *nonce_len)
{
	struct tpm_in par;
	int err = rsp_split(rsp, len, rc, handle, &par);

	if (err)
		return err;
	if (get_2b(&par, nonce_tpm, nonce_len, TPM2B_MAX) || tpm_in_left(&par))
		return -EBADMSG;
	return 0;
}

size_t tpm_cmd_policy_pcr(uint8_t *buf, size_t cap, uint32_t session,
			  uint16_t alg, uint32_t mask)
{
	struct tpm_out o;

	if (mask >> TPM_PCR_COUNT)
		return 0;
	cmd_begin(&o, buf, cap, TPM_ST_NO_SESSIONS, TPM_CC_POLICY_PCR);
	tpm_put32(&o, session);
	tpm_put16(&o, 0); /* pcrDigest: empty, the PCRs as they are */
	tpm_put32(&o, 1);
	tpm_put16(&o, alg);
	tpm_put8(&o, 3);
	for (unsigned i = 0; i < 3; i++)
		tpm_put8(&o, (uint8_t)(mask >> (8 * i)));
	return cmd_end(&o);
}

size_t tpm_cmd_policy_auth_value(uint8_t *buf, size_t cap, uint32_t session)
{
	struct tpm_out o;

	cmd_begin(&o, buf, cap, TPM_ST_NO_SESSIONS, TPM_CC_POLICY_AUTH_VALUE);
	tpm_put32(&o, session);
	return cmd_end(&o);
}

int tpm_rsp_policy(const void *rsp, size_t len, uint32_t *rc)
{
	struct tpm_in par;
	int err = rsp_split(rsp, len, rc, NULL, &par);

	return err ? err : tpm_in_left(&par) ? -EBADMSG : 0;
}

size_t tpm_cmd_policy_get_digest(uint8_t *buf, size_t cap, uint32_t session)
{
	struct tpm_out o;

	cmd_begin(&o, buf, cap, TPM_ST_NO_SESSIONS, TPM_CC_POLICY_GET_DIGEST);
	tpm_put32(&o, session);
	return cmd_end(&o);
}

int tpm_rsp_policy_get_digest(const void *rsp, size_t len, uint32_t *rc,
			      uint8_t *digest, size_t *digest_len)
{
	struct tpm_in par;
	int err = rsp_split(rsp, len, rc, NULL, &par);

	if (err)
		return err;
	if (get_2b(&par, digest, digest_len, TPM2B_MAX) || tpm_in_left(&par))
		return -EBADMSG;
	return 0;
}

size_t tpm_cmd_unseal(uint8_t *buf, size_t cap, uint32_t item, uint32_t session,
		      const uint8_t *nonce, size_t nonce_len, uint8_t attrs,
		      const uint8_t *hmac, size_t hmac_len)
{
	struct tpm_out o;

	if (nonce_len > TPM2B_MAX || hmac_len > TPM2B_MAX)
		return 0;
	cmd_begin(&o, buf, cap, TPM_ST_SESSIONS, TPM_CC_UNSEAL);
	tpm_put32(&o, item);
	tpm_put32(&o, (uint32_t)(4 + 2 + nonce_len + 1 + 2 + hmac_len));
	tpm_put32(&o, session);
	tpm_put16(&o, (uint16_t)nonce_len);
	tpm_put_bytes(&o, nonce, nonce_len);
	tpm_put8(&o, attrs);
	tpm_put16(&o, (uint16_t)hmac_len);
	tpm_put_bytes(&o, hmac, hmac_len);
	return cmd_end(&o);
}

int tpm_rsp_unseal(const void *rsp, size_t len, uint32_t *rc, uint8_t *out,
		   size_t *out_len)
{
	struct tpm_in par;
	int err = rsp_split(rsp, len, rc, NULL, &par);

	if (err)
		return err;
	if (get_2b(&par, out, out_len, TPM_SENSITIVE_MAX) ||
	    tpm_in_left(&par)) {
		*out_len = 0;
		explicit_bzero(out, TPM_SENSITIVE_MAX);
		return -EBADMSG;
	}
	return 0;
}

size_t tpm_cmd_flush_context(uint8_t *buf, size_t cap, uint32_t handle)
{
	struct tpm_out o;

	cmd_begin(&o, buf, cap, TPM_ST_NO_SESSIONS, TPM_CC_FLUSH_CONTEXT);
	tpm_put32(&o, handle); /* a parameter, not a handle area (28.4.2) */
	return cmd_end(&o);
}

int tpm_rsp_flush_context(const void *rsp, size_t len, uint32_t *rc)
{
	return tpm_rsp_policy(rsp, len, rc);
}
