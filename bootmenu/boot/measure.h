/* measure.h - the boot transaction's measuring step (README: "Measured
 * boot"): what a kexec load read goes into the TPM before the kernel is
 * given it, and the event log of it into the target's initramfs.
 *
 * Policy, in the order of the events (tpm/measure.h, tpm/uki_measure.h
 * give the exact bytes and where each form comes from):
 * - PCR 9: the kernel file as read (for a UKI the whole PE file), then
 *   after the command line each initrd in load order: GRUB's form;
 * - PCR 8: the command line passed, GRUB's "kernel_cmdline: " form;
 * - PCR 12: that command line as systemd-stub measures load options
 *   (UTF-16), for every kexec boot but a UKI that uses its own .cmdline;
 * - PCR 11: a UKI's sections as systemd-stub 252 measures them.
 * What bootmenu itself adds to the initrds (the event log) is not
 * measured. The log (TCG crypto-agile format, the events that were
 * extended) is the file BOOT_MEASURE_LOG_PATH of an extra cpio archive
 * after the initrds.
 *
 * No TPM: nothing is hashed, nothing is added, no delay. A TPM that
 * fails does not stop the boot (the "Starting" line says "not
 * measured"), unless bootmenu.conf says `tpm = required`.
 */
#ifndef BM_BOOT_MEASURE_H
#define BM_BOOT_MEASURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "format/cpio.h"
#include "util/arena.h"

struct boot_read;
struct boot_opts;
struct tpm;
struct kexec_blob;
struct entry;

/* Where the target finds the log: a path in its initramfs. */
#define BOOT_MEASURE_LOG_DIR ".extra/bootmenu"
#define BOOT_MEASURE_LOG_PATH BOOT_MEASURE_LOG_DIR "/tpm-eventlog.bin"

enum boot_measure_mode {
	BOOT_MEASURE_AUTO,     /* when there is a TPM */
	BOOT_MEASURE_REQUIRED, /* refuse a boot that was not measured */
	BOOT_MEASURE_OFF,      /* never touch the TPM */
};

/* One boot's measuring: set @mode (and @tpm_path for tests), hand it to
 * boot_measure_step() as boot_opts.measure_ctx, read the outcome, then
 * boot_measure_free(). */
struct boot_measure {
	enum boot_measure_mode mode;
	const char *tpm_path; /* NULL: /dev/tpmrm0, then /dev/tpm0 */
	struct tpm *dev;      /* a TPM open already (the caller's, not
				 closed here); NULL: open @tpm_path */
	/* The outcome: whether a TPM was there, how many events were
	 * extended of how many, and the sentence for the "Starting" line
	 * ("measured into PCRs 8, 9, 12" or "not measured: TPM error
	 * 0x921"), "" when there is no TPM or nothing was tried. */
	bool tpm;
	size_t extended, events;
	char note[160];
	struct arena a;
	struct cpio cpio;
	/* boot_measure_show()'s: where and how a dry run shows the events
	 * with the PCR values they lead to (NULL: the plan's lines) */
	FILE *show;
	bool show_json;
};

/* The boot_opts.measure hook (boot.h): @ctx is a struct boot_measure.
 * In a dry run the events are printed to r->out and nothing is
 * extended. Returns 0, or -errno with a sentence in err[0..len) when
 * `tpm = required` and the boot could not be measured. */
int boot_measure_step(void *ctx, const struct boot_read *r,
		      struct kexec_blob *extra, char *err, size_t len);

/* What booting @e would measure, without booting or extending: its files
 * are read as a dry run reads them (@o's fetch and progress, may be
 * NULL), and the events are printed with the values of the PCRs they
 * extend once extended from their values now: JSON (an object,
 * {"events":[{"pcr","what","sha256",...}],"pcrs":{"sha256":{"9":..}}})
 * or lines for people. Returns 0; -ENODEV (nothing printed) when there
 * is no TPM or @o says `tpm = off`; -EOPNOTSUPP for an entry the
 * firmware boots, or one with a file on a network root (it would be
 * fetched just to be shown); or -errno with a sentence in err[0..len). */
int boot_measure_show(const struct entry *e, const struct boot_opts *o,
		      FILE *out, bool json, char *err, size_t len);

/* Frees what the step kept (the archive handed on, the events). */
void boot_measure_free(struct boot_measure *m);

/* Whether this machine has a TPM 2.0 the step would use (a device node
 * that opens): for the menu's title line. Costs one open(2). */
bool boot_measure_available(const char *tpm_path);

#endif
