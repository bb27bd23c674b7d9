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

#define TPM_CAP_PCRS 0x00000005u
#define TPM_RS_PW 0x40000009u /* the password session, Part 2 7.4 */

#define TPM_RC_SUCCESS 0x000u
#define TPM_RC_INITIALIZE 0x100u /* TPM2_Startup has not run */
#define TPM_RC_YIELDED 0x908u	 /* warnings: try the command again */
#define TPM_RC_TESTING 0x90Au
#define TPM_RC_RETRY 0x922u

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

#endif
