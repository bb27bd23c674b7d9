/* tpm_double.h - a fake TPM 2.0 for the unit tests.
 *
 * It serves one end of a socketpair on a thread of its own and speaks the
 * bytes of the three commands bootmenu sends (GetCapability(TPM_CAP_PCRS),
 * PCR_Extend under the empty password session, PCR_Read) over PCRs 0..23
 * of the banks it is given, all zero at the start. tpm/tpm.c talks to it
 * through tpm_open_fd() exactly as to /dev/tpmrm0. It parses commands with
 * its own code, not tpm/cmd.c's, so a marshalling mistake in one shows
 * as a disagreement. Linked into the unit tests only, never into what
 * ships. A test can make it refuse commands, stall, split its answers
 * or send bytes of the test's own.
 */
#ifndef BM_TPM_DOUBLE_H
#define BM_TPM_DOUBLE_H

#include <stddef.h>
#include <stdint.h>

/* With the MEASURE_BANK_* bits: the double also reports an active
 * SM3_256 bank (an algorithm bootmenu does not hash) and ignores
 * digests for it. */
#define TPM_DOUBLE_SM3 0x100u

struct tpm_double;

/* Starts a fake TPM with PCRs allocated in @banks (MEASURE_BANK_*,
 * TPM_DOUBLE_SM3); *fd is the other end, for tpm_open_fd(), which then
 * owns it. Returns the double (tpm_double_stop() frees it), NULL when
 * the socketpair or the thread cannot be made. */
struct tpm_double *tpm_double_start(unsigned banks, int *fd);

/* The next @times commands with command code @cc (0: any) are answered
 * with response code @rc alone, and change nothing. */
void tpm_double_fail(struct tpm_double *d, uint32_t cc, uint32_t rc,
		     unsigned times);

/* The next @times commands are read and never answered. */
void tpm_double_stall(struct tpm_double *d, unsigned times);

/* Every answer from now on is written in two parts, @first bytes and
 * the rest, 20 ms apart (0: whole, as the kernel's device gives it). */
void tpm_double_split(struct tpm_double *d, size_t first);

/* The next command is answered with buf[0..len) instead (at most 4096
 * bytes), and changes nothing. */
void tpm_double_reply(struct tpm_double *d, const void *buf, size_t len);

/* The double's own value of PCR @pcr in @bank (a MEASURE_BANK_* bit)
 * into @out; 0, or -1 for a PCR or bank it does not have. */
int tpm_double_pcr(struct tpm_double *d, unsigned pcr, unsigned bank,
		   uint8_t *out);

/* Counts: commands read, PCR_Extends done, and PCR_Extends that left an
 * allocated bank out (a real TPM would leave that bank unextended). */
struct tpm_double_counts {
	unsigned commands, extends, partial;
};
struct tpm_double_counts tpm_double_counts(struct tpm_double *d);

/* Stops the thread and frees @d; the test's end stays the test's. */
void tpm_double_stop(struct tpm_double *d);

#endif
