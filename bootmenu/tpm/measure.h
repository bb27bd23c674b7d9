/* measure.h - what a boot measures into the TPM, as a list of events.
 *
 * An event is one PCR extend: the PCR, the TCG event type, the digest of
 * each active bank over the measured bytes, and the event data that the
 * event log records beside it. The planners (measure.c for PCRs 8, 9 and
 * 12, uki_measure.c for a UKI's PCR 11) are pure: bytes in, events out,
 * so `bootmenu --list --json` and --dry-run show the same events a boot
 * extends. Digests are made only for the banks asked for (@banks, a mask
 * of MEASURE_BANK_*): with no TPM nothing is hashed at all.
 *
 * Every event and its bytes live in the list's arena.
 */
#ifndef BM_TPM_MEASURE_H
#define BM_TPM_MEASURE_H

#include <stddef.h>
#include <stdint.h>

#include "util/sha256.h"
#include "util/sha512.h"

struct arena;

/* TPM 2.0 algorithm IDs (TCG Algorithm Registry) of the banks we know. */
#define TPM_ALG_SHA1 0x0004
#define TPM_ALG_SHA256 0x000B
#define TPM_ALG_SHA384 0x000C
#define TPM_ALG_SHA512 0x000D

/* Bank mask bits, one per algorithm above. */
#define MEASURE_BANK_SHA1 0x1u
#define MEASURE_BANK_SHA256 0x2u
#define MEASURE_BANK_SHA384 0x4u
#define MEASURE_BANK_SHA512 0x8u
#define MEASURE_BANKS 4
#define MEASURE_BANKS_ALL 0xfu
#define MEASURE_DIGEST_MAX 64 /* the largest digest, SHA-512's */

/* TCG PC Client Platform Firmware Profile event types we log. */
#define TCG_EV_IPL 0x0000000Du
#define TCG_EV_EVENT_TAG 0x00000006u
#define TCG_EV_NO_ACTION 0x00000003u

/* The PCRs the kexec planner measures into (UAPI Linux TPM PCR
 * Registry; GRUB's GRUB_STRING_PCR and GRUB_BINARY_PCR). */
#define MEASURE_PCR_CMDLINE 8
#define MEASURE_PCR_FILES 9

struct measure_digests {
	unsigned banks; /* which of the four below are set */
	uint8_t sha1[20];
	uint8_t sha256[32];
	uint8_t sha384[48];
	uint8_t sha512[64];
};

/* An incremental hash over every bank in @banks at once. On the stack
 * of whoever streams a file: nothing is allocated. */
struct measure_hash {
	unsigned banks;
	struct sha1 sha1;
	struct sha256 sha256;
	struct sha512 sha384;
	struct sha512 sha512;
};

/* tpm_measure() has not tried this event yet (measure_event.rc). */
#define MEASURE_PENDING 1

struct measure_event {
	unsigned pcr;
	uint32_t type;		  /* TCG_EV_* */
	struct measure_digests d; /* over the measured bytes */
	const void *log;	  /* the event data the log records */
	size_t log_len;
	/* for people: "kernel /boot/vmlinuz-6.1", "cmdline" */
	const char *what;
	/* what tpm_measure() (tpm/tpm.h) did with it: MEASURE_PENDING
	 * before, 0 extended, -errno not; -EREMOTEIO: the TPM refused it
	 * with @tpm_rc, "not measured: TPM error 0x%x" */
	int rc;
	uint32_t tpm_rc;
};

struct measure_list {
	struct arena *a; /* owns every event and its bytes */
	unsigned banks;	 /* MEASURE_BANK_* to hash */
	struct measure_event *ev;
	size_t n, cap;
};

/* --- banks */

/* The TPM_ALG_* of one MEASURE_BANK_* bit, 0 for anything else. */
uint16_t measure_bank_alg(unsigned bank);
/* The MEASURE_BANK_* bit of a TPM_ALG_*, 0 for one we do not know. */
unsigned measure_alg_bank(uint16_t alg);
/* A bank's digest size in bytes (20, 32, 48, 64), 0 for no bank. */
size_t measure_bank_size(unsigned bank);
/* Where @d keeps @bank's digest (NULL for no bank; whether it is set
 * is d->banks' business). */
const uint8_t *measure_digest(const struct measure_digests *d, unsigned bank);
uint8_t *measure_digest_mut(struct measure_digests *d, unsigned bank);
/* The banks' names for people, "sha1", "sha256"...; "?" for no bank. */
const char *measure_bank_name(unsigned bank);

/* --- hashing */

/* Begin hashing for @banks (bits we do not know are dropped). */
void measure_hash_init(struct measure_hash *h, unsigned banks);
void measure_hash_update(struct measure_hash *h, const void *data, size_t len);
/* Writes every bank's digest into @d (d->banks = h->banks); @h must be
 * begun again before another use. */
void measure_hash_final(struct measure_hash *h, struct measure_digests *d);
/* The digests of data[0..len) for @banks, at once. */
void measure_digests_of(unsigned banks, const void *data, size_t len,
			struct measure_digests *d);

/* A PCR extend: in every bank of pcr->banks that @d has too,
 * PCR = H(PCR || digest) (TPM 2.0 Part 1, 17.2). */
void measure_extend(struct measure_digests *pcr,
		    const struct measure_digests *d);

/* --- lists */

/* An empty list hashing @banks, its memory from @a. */
void measure_list_init(struct measure_list *l, struct arena *a, unsigned banks);

/* Appends an event whose digests are computed over @data[0..len) for
 * l->banks; @log[0..log_len) is copied into the arena. Returns the
 * event, or NULL (out of memory is fatal in the arena, so never in
 * practice). */
struct measure_event *measure_add(struct measure_list *l, unsigned pcr,
				  uint32_t type, const void *data, size_t len,
				  const void *log, size_t log_len,
				  const char *what);

/* The same for digests made elsewhere, e.g. while a file was streamed
 * through a measure_hash: @d is copied. Returns NULL (errno EINVAL)
 * when @d lacks one of l->banks. @what is copied too (NULL: none). */
struct measure_event *measure_add_digests(struct measure_list *l, unsigned pcr,
					  uint32_t type,
					  const struct measure_digests *d,
					  const void *log, size_t log_len,
					  const char *what);

/* The value PCR @pcr will hold once @l's events are extended (those
 * pending and those extended; not those that failed), from @start (the
 * value read before, tpm_pcr_read(); NULL: all zeros, l->banks). What
 * `--list --json` can predict and the booted system then reads. */
void measure_predict(const struct measure_list *l, unsigned pcr,
		     const struct measure_digests *start,
		     struct measure_digests *out);

/* --- the kexec planner: GRUB 2.06's forms (measure.c says where from) */

/* A file loaded for the target. */
struct measure_file {
	const char *path; /* as the entry names it: "/vmlinuz-6.1.0-13-amd64",
			     "(hd0,gpt2)/boot/initrd.img"; the event data */
	const char *what; /* for people: "kernel", "initrd" */
	const void *data; /* its bytes as read... */
	size_t len;
	/* ...or, when not NULL, the digests made while it was read (then
	 * @data is not used); they must cover the list's banks */
	const struct measure_digests *d;
};

/* PCR 9, EV_IPL: the digests of the file's bytes; event data the path
 * with its terminating NUL. Returns the event, NULL (errno EINVAL) for
 * a NULL path or digests that lack a bank. */
struct measure_event *measure_file(struct measure_list *l,
				   const struct measure_file *f);

/* PCR 8, EV_IPL: the digests of the command line's bytes without its
 * NUL; event data "kernel_cmdline: " + the line + NUL. NULL measures
 * the empty line (a kexec'd kernel always gets one). Returns the event. */
struct measure_event *measure_cmdline(struct measure_list *l,
				      const char *cmdline);

/* Everything a kexec boot measures in GRUB's forms, in GRUB's order: the
 * kernel (PCR 9), the command line actually passed (PCR 8), then each
 * initrd in load order (PCR 9). (PCR 12, systemd-stub's form of the
 * line, is uki_measure_pcr12(): tpm/uki_measure.h.) What
 * bootmenu adds to the initrds itself (the event log, a key) is not
 * passed here: it is not measured. Returns 0, or -EINVAL (no kernel, a
 * file without a path, digests without a bank; the events before it
 * stay in the list). */
int measure_plan_kexec(struct measure_list *l,
		       const struct measure_file *kernel,
		       const struct measure_file *initrds, size_t n_initrds,
		       const char *cmdline);

/* What a multiboot boot (Xen) measures, in GRUB 2.06's forms and order:
 * the kernel (PCR 9), its command line as passed (PCR 8,
 * "kernel_cmdline: "), then each module (PCR 9) followed by its string
 * (PCR 8, "module_cmdline: "; @strings[i] may be NULL: ""). Same
 * returns as measure_plan_kexec(). */
int measure_plan_multiboot(struct measure_list *l,
			   const struct measure_file *kernel,
			   const char *cmdline,
			   const struct measure_file *modules,
			   const char *const *strings, size_t n_modules);

#endif
