/* cmd.c - TPM 2.0 command bytes and response parsers (TPM 2.0 Library
 * Part 3: GetCapability 30.2, PCR_Extend 22.2, PCR_Read 22.4). */
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
