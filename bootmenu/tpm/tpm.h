/* tpm.h - the TPM 2.0, through the kernel's /dev/tpmrm0 (or /dev/tpm0).
 *
 * The only room that talks to /dev/tpm*. A struct tpm is one open
 * device: which PCR banks it has, and the last response code it gave.
 * Every command has a time limit (tpm->timeout_ms, TPM_TIMEOUT_MS by
 * default): a TPM that does not answer in time, or whose answer cannot
 * be read, is given up for the rest of the boot (tpm->broken: every later
 * command fails at once with that error), so a slow or hung TPM costs one
 * time limit per boot, not one per event. After a time-out the fd is
 * left open, never closed: closing it would wait for the TPM (tpm.c).
 *
 * Returns are 0 or -errno:
 *   -ENOENT, -ENODEV    no TPM (open);
 *   -ETIMEDOUT          no answer within the time limit, now or before;
 *   -EREMOTEIO          the TPM refused the command: its response code
 *                       is in tpm->rc ("TPM error 0x%x");
 *   -EBADMSG            the response was not a well-formed answer;
 *   -EPROTONOSUPPORT    a TPM 1.2, which we do not speak;
 *   -EOPNOTSUPP         (open) no PCR bank of an algorithm we know;
 *   others              from open(2), write(2), read(2).
 * Not thread-safe: one user at a time.
 */
#ifndef BM_TPM_TPM_H
#define BM_TPM_TPM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tpm/measure.h"

/* The kernel's resource-managed device first (several users may share
 * it), then the raw one. */
#define TPM_DEV_RM "/dev/tpmrm0"
#define TPM_DEV_RAW "/dev/tpm0"

/* The time limit of one command, with its retries. TCG PC Client
 * Platform TPM Profile (PTP) 6.5.1.4: TIMEOUT_B, the longest a TPM may
 * take for a short command such as PCR_Extend, is 2 s. */
#define TPM_TIMEOUT_MS 2000

struct tpm {
	int fd;		     /* -1 when closed or given up */
	unsigned banks;	     /* MEASURE_BANK_* with PCRs allocated */
	unsigned other;	     /* active banks of algorithms we do not know */
	unsigned timeout_ms; /* per command; tests make it short */
	uint32_t rc;	     /* the last response code other than success */
	int broken;	     /* 0, or the error that gave it up (above) */
	bool socket;	     /* tpm_open_fd() of a socket: send(2), not write */
	const char *path;    /* the device opened ("fd" for tpm_open_fd) */
};

/* Opens @path (NULL: TPM_DEV_RM, else TPM_DEV_RAW) and asks the TPM for
 * its banks (GetCapability), so t->banks is set on success. On failure
 * nothing stays open and @t is closed: tpm_close() is harmless. @path
 * must outlive @t. No TPM is -ENOENT at once, without any delay. */
int tpm_open(struct tpm *t, const char *path);

/* The same over an fd already open (a test's fake TPM, an swtpm's
 * socket); @t owns @fd from here on, on success and on failure. */
int tpm_open_fd(struct tpm *t, int fd);

/* Closes the device (not after a time-out: see above); @t may be closed
 * again. */
void tpm_close(struct tpm *t);

/* GetCapability(TPM_CAP_PCRS) again: the banks with PCRs allocated. */
int tpm_get_banks(struct tpm *t, unsigned *banks);

/* PCR_Extend(@pcr) with @d's digest of every bank the TPM has (t->banks);
 * -EINVAL when @d lacks one of them, or for a PCR past 23. */
int tpm_pcr_extend(struct tpm *t, unsigned pcr,
		   const struct measure_digests *d);

/* PCR_Read(@pcr) of each bank in @banks into @out (out->banks says which
 * were read); -ENODATA when the TPM has no such PCR in one of them. */
int tpm_pcr_read(struct tpm *t, unsigned pcr, unsigned banks,
		 struct measure_digests *out);

/* One command of @len bytes (a tpm_cmd_*() builder's) and its response
 * into rsp[0..cap), its length in *rlen, under the time limit and with
 * the retries every command gets. The response is not parsed: the
 * caller's tpm_rsp_*() does that (for commands other than the three
 * above, such as tpm/unseal.c's). Returns 0 or the errors above. */
int tpm_transact(struct tpm *t, const uint8_t *cmd, size_t len, uint8_t *rsp,
		 size_t cap, size_t *rlen);

/* Extends every event of @l still MEASURE_PENDING, in order, and records
 * what happened in each (ev->rc, ev->tpm_rc). Every event is tried: one
 * refused does not stop the next (after a time-out they fail at once).
 * @l must hash every bank the TPM has (measure_list_init(.., t->banks));
 * events that do not are -EINVAL. Returns 0 when all were extended, else
 * the first event's error. @t NULL (no TPM): nothing is done, and every
 * pending event is -ENODEV. */
int tpm_measure(struct tpm *t, struct measure_list *l);

/* For people: "TPM error 0x%x" (-EREMOTEIO, with @tpm_rc), "the TPM did
 * not answer in time" (-ETIMEDOUT), "no TPM" (-ENOENT, -ENODEV), else
 * strerror's. Written into buf[0..len); returns @buf. */
const char *tpm_error_text(int rc, uint32_t tpm_rc, char *buf, size_t len);

#endif
