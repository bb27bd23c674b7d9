/* cmd.h - the TPM 2.0 commands bootmenu sends, as bytes, and the parsers
 * of their responses.
 *
 * Pure: a builder writes a command into the caller's buffer and returns
 * its length (0 when it does not fit); a parser reads a response, which
 * is outside input (tests/fuzz/fuzz_tpm.c runs them on any bytes), and
 * returns 0 or -errno:
 *   -EBADMSG         the bytes are not a well-formed response;
 *   -EPROTONOSUPPORT a TPM 1.2 answered (its response tag, 0x00C4);
 *   -EREMOTEIO       the TPM answered with a response code other than
 *                    TPM_RC_SUCCESS, stored in *rc;
 *   -ENODATA         PCR_Read: the TPM has no such PCR in that bank.
 * References: TPM 2.0 Library, Part 2 (structures) and Part 3 (commands).
 */
#ifndef BM_TPM_CMD_H
#define BM_TPM_CMD_H

#include <stddef.h>
#include <stdint.h>

struct measure_digests;

#define TPM_ST_NO_SESSIONS 0x8001
#define TPM_ST_SESSIONS 0x8002
#define TPM_TAG_RSP_COMMAND_12 0x00C4 /* a TPM 1.2's response */

#define TPM_CC_GET_CAPABILITY 0x0000017Au
#define TPM_CC_PCR_READ 0x0000017Eu
#define TPM_CC_PCR_EXTEND 0x00000182u
#define TPM_CC_CREATE_PRIMARY 0x00000131u
#define TPM_CC_LOAD 0x00000157u
#define TPM_CC_UNSEAL 0x0000015Eu
#define TPM_CC_FLUSH_CONTEXT 0x00000165u
#define TPM_CC_POLICY_AUTH_VALUE 0x0000016Bu
#define TPM_CC_START_AUTH_SESSION 0x00000176u
#define TPM_CC_POLICY_PCR 0x0000017Fu
#define TPM_CC_POLICY_GET_DIGEST 0x00000189u

#define TPM_CAP_PCRS 0x00000005u
#define TPM_RS_PW 0x40000009u /* the password session, Part 2 7.4 */
#define TPM_RH_OWNER 0x40000001u
#define TPM_RH_NULL 0x40000007u

/* Part 2 6.3: the algorithms the unseal path names */
#define TPM_ALG_RSA 0x0001u /* the hashes' IDs are in tpm/measure.h */
#define TPM_ALG_AES 0x0006u
#define TPM_ALG_NULL 0x0010u
#define TPM_ALG_ECC 0x0023u
#define TPM_ALG_CFB 0x0043u
#define TPM_SE_POLICY 0x01u
#define TPMA_SESSION_CONTINUE 0x01u

#define TPM2B_MAX 64	      /* nonces, digests, names: up to SHA-512 */
#define TPM_SENSITIVE_MAX 128 /* MAX_SYM_DATA: an Unseal's data */

#define TPM_RC_SUCCESS 0x000u
#define TPM_RC_INITIALIZE 0x100u /* TPM2_Startup has not run */
#define TPM_RC_YIELDED 0x908u	 /* warnings: try the command again */
#define TPM_RC_TESTING 0x90Au
#define TPM_RC_RETRY 0x922u
#define TPM_RC_LOCKOUT 0x921u
#define TPM_RC_PCR_CHANGED 0x128u
/* format-one codes (Part 2 6.6.3), compared after tpm_rc_base() */
#define TPM_RC_AUTH_FAIL 0x08Eu
#define TPM_RC_POLICY_FAIL 0x09Du
#define TPM_RC_BAD_AUTH 0x0A2u

#define TPM_HEADER_LEN 10 /* tag, size, command or response code */
#define TPM_PCR_COUNT 24  /* PC Client: PCRs 0..23 */
#define TPM_BUF_MAX 4096  /* TPM_PT_MAX_COMMAND_SIZE of PC Client TPMs */

/* The response code of a well-formed header (tag, size == @len, code);
 * -EBADMSG when the header is not one, -EPROTONOSUPPORT for TPM 1.2. */
int tpm_rsp_code(const void *rsp, size_t len, uint32_t *rc);

/* The response's total size from its first 6 bytes (tag and size), for
 * a reader that must know when it has all of it; -EBADMSG for fewer
 * bytes or a size below the header's own. */
int tpm_rsp_size(const void *rsp, size_t len, size_t *size);

/* GetCapability(TPM_CAP_PCRS): which banks have PCRs allocated. */
size_t tpm_cmd_get_pcrs(uint8_t *buf, size_t cap);
/* *banks: the MEASURE_BANK_* with at least one PCR allocated; *other:
 * how many banks of algorithms we do not know have some (may be NULL). */
int tpm_rsp_get_pcrs(const void *rsp, size_t len, uint32_t *rc, unsigned *banks,
		     unsigned *other);

/* PCR_Extend(@pcr) with the digest of each bank in @banks (all must be
 * in d->banks), under the password session with the empty password (the
 * PC Client platform's PCRs 0..15 need no other authorisation). */
size_t tpm_cmd_pcr_extend(uint8_t *buf, size_t cap, unsigned pcr,
			  const struct measure_digests *d, unsigned banks);
int tpm_rsp_pcr_extend(const void *rsp, size_t len, uint32_t *rc);

/* PCR_Read(@pcr) of one bank (a MEASURE_BANK_* bit). */
size_t tpm_cmd_pcr_read(uint8_t *buf, size_t cap, unsigned pcr, unsigned bank);
/* Writes the value, measure_bank_size(@bank) bytes, to @out; checks the
 * TPM answered for that PCR and bank. */
int tpm_rsp_pcr_read(const void *rsp, size_t len, uint32_t *rc, unsigned pcr,
		     unsigned bank, uint8_t *out);

/* A response code without the handle, session or parameter number a
 * format-one code carries (Part 2 6.6.3), so it compares with the
 * TPM_RC_* above. */
uint32_t tpm_rc_base(uint32_t rc);

/* --- unsealing (Part 3: CreatePrimary 24.1, Load 12.2, Unseal 12.7,
 * StartAuthSession 11.1, PolicyPCR 23.7, PolicyAuthValue 23.17,
 * PolicyGetDigest 23.19, FlushContext 28.4). Handles out of a response
 * are the TPM's; the caller flushes them. */

/* CreatePrimary under the owner hierarchy (empty password) with
 * systemd 252's storage key template for @alg (TPM_ALG_ECC: NIST P-256,
 * or TPM_ALG_RSA: 2048 bits; both AES-128-CFB, restricted decrypt). Any
 * other @alg: 0. */
size_t tpm_cmd_create_primary(uint8_t *buf, size_t cap, uint16_t alg);
int tpm_rsp_create_primary(const void *rsp, size_t len, uint32_t *rc,
			   uint32_t *handle);

/* Load(@parent) of a sealed object: @priv and @pub are a marshalled
 * TPM2B_PRIVATE and TPM2B_PUBLIC, size fields included, copied as they
 * are. The response gives the object's handle and its name (at most
 * 2 + TPM2B_MAX bytes into @name). */
size_t tpm_cmd_load(uint8_t *buf, size_t cap, uint32_t parent,
		    const uint8_t *priv, size_t priv_len, const uint8_t *pub,
		    size_t pub_len);
int tpm_rsp_load(const void *rsp, size_t len, uint32_t *rc, uint32_t *handle,
		 uint8_t *name, size_t *name_len);

/* StartAuthSession of an unsalted, unbound policy session with SHA-256
 * and no parameter encryption; @nonce (16..32 bytes) is the caller's.
 * The response gives the session's handle and the TPM's nonce (at most
 * TPM2B_MAX bytes into @nonce_tpm). */
size_t tpm_cmd_start_policy_session(uint8_t *buf, size_t cap,
				    const uint8_t *nonce, size_t nonce_len);
int tpm_rsp_start_auth_session(const void *rsp, size_t len, uint32_t *rc,
			       uint32_t *handle, uint8_t *nonce_tpm,
			       size_t *nonce_len);

/* PolicyPCR(@session) over the PCRs in @mask (bit n: PCR n, 0..23) of
 * the bank of hash algorithm @alg, with an empty pcrDigest: the TPM
 * takes the PCRs' values now. */
size_t tpm_cmd_policy_pcr(uint8_t *buf, size_t cap, uint32_t session,
			  uint16_t alg, uint32_t mask);
/* PolicyAuthValue(@session). */
size_t tpm_cmd_policy_auth_value(uint8_t *buf, size_t cap, uint32_t session);
/* Both answer with no parameters. */
int tpm_rsp_policy(const void *rsp, size_t len, uint32_t *rc);

/* PolicyGetDigest(@session): at most TPM2B_MAX bytes into @digest. */
size_t tpm_cmd_policy_get_digest(uint8_t *buf, size_t cap, uint32_t session);
int tpm_rsp_policy_get_digest(const void *rsp, size_t len, uint32_t *rc,
			      uint8_t *digest, size_t *digest_len);

/* Unseal(@item) under the policy session @session: its nonce @nonce,
 * attributes @attrs and @hmac (empty when the policy has no
 * PolicyAuthValue). The data, at most TPM_SENSITIVE_MAX bytes, goes to
 * @out, which holds TPM_SENSITIVE_MAX bytes (wiped when the response is
 * malformed); the caller wipes it after use. */
size_t tpm_cmd_unseal(uint8_t *buf, size_t cap, uint32_t item, uint32_t session,
		      const uint8_t *nonce, size_t nonce_len, uint8_t attrs,
		      const uint8_t *hmac, size_t hmac_len);
int tpm_rsp_unseal(const void *rsp, size_t len, uint32_t *rc, uint8_t *out,
		   size_t *out_len);

/* FlushContext(@handle): an object or a session. */
size_t tpm_cmd_flush_context(uint8_t *buf, size_t cap, uint32_t handle);
int tpm_rsp_flush_context(const void *rsp, size_t len, uint32_t *rc);

#endif
