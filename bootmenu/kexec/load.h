/* load.h - one call from "kernel, initrd, command line" to a loaded
 * kernel: read the machine, plan, print (--dry-run) or commit.
 *
 * Used by kexload and by boot.c. The caller owns the kernel and initrd
 * buffers; nothing is kept after the call returns.
 */
#ifndef BM_KEXEC_LOAD_H
#define BM_KEXEC_LOAD_H

#include <stdbool.h>
#include <stdio.h>

#include "kexec/machine.h"
#include "kexec/multiboot.h"
#include "kexec/plan.h"
#include "kexec/sys.h"

struct kexec_request {
	struct kexec_blob kernel;
	struct kexec_blob initrd; /* initrds already concatenated */
	/* bytes at the end of @initrd that are a secret (a LUKS key's
	 * archive): kexec_file_load's copy of them is overwritten before it
	 * is let go (the caller wipes @initrd itself) */
	size_t initrd_secret;
	const char *cmdline;	    /* NULL: "" */
	enum kexec_syscall syscall; /* AUTO, LOAD (-c) or FILE (-s) */
	bool crash;		    /* panic kernel (-p) */
	bool sha256;		    /* purgatory checks the segments */
	bool dry_run;		    /* print the plan to @plan_out only */
	FILE *plan_out;		    /* NULL: stdout */
	const struct kexec_machine_paths *paths; /* NULL: this machine */
	/* a multiboot kernel (Xen): @kernel is it, @cmdline its path and
	 * arguments, @initrd unused; modules in order, each a gzip file
	 * unpacked unless @nounzip[i] (GRUB's --nounzip) */
	int multiboot; /* 0, or 1/2: the header the config asked for */
	const struct kexec_mb_module *mods;
	const bool *nounzip; /* may be NULL: unpack every gzip module */
	size_t n_mods;
	const uint8_t *rsdp; /* the RSDP's bytes for the info, or NULL */
	size_t rsdp_len;
};

/* Plan and load (or print) @rq. A kernel compressed as a whole is
 * decompressed first when it is gzip, refused for other formats
 * (kexec/unpack.h). *used (may be NULL) names the syscall that loaded,
 * or would load. Returns 0, or -errno with a sentence in @err. No
 * syscall is made when the plan fails. */
/* For a multiboot request: its modules need more than kexec_file_load
 * knows, so it is planned for kexec_load alone; under lockdown it is
 * refused before any syscall (-EPERM, with that sentence). */
int kexec_load_request(const struct kexec_request *rq, enum kexec_syscall *used,
		       char *err, size_t errlen);

#endif
