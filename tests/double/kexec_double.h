/* kexec_double.h - the test double of kexec/raw.h.
 *
 * Linked into the unit tests and into the fault builds the end-to-end
 * tests boot (build/host/kexload-fault, build/initramfs-fault.cpio.gz), never
 * into what ships. Three ways, first match wins:
 * - kexec_sys_set_ops(): recording functions of the test's own;
 * - BOOTMENU_KEXEC_FAULT in the environment: a comma-separated list of
 *   [WHICH:]ERRNO[/N] items (WHICH is "load", "file", "unload" (either
 *   syscall's unload) or "reboot"; without it every call matches; ERRNO a
 *   name from the table in kexec_double.c; /N fails only the first N
 *   calls the item matches). The call fails with that errno without
 *   entering the kernel. "load:EBUSY/1,load:EINVAL/1" fails the first
 *   kexec_load with EBUSY, the second with EINVAL, and lets the third
 *   through; counts start again when the variable changes;
 * - otherwise the kernel's own call.
 * BOOTMENU_KEXEC_LOCKDOWN names a file read instead of
 * /sys/kernel/security/lockdown.
 */
#ifndef BM_KEXEC_DOUBLE_H
#define BM_KEXEC_DOUBLE_H

#include <stdbool.h>
#include <stdint.h>

#include "kexec/raw.h"
#include "kexec/sys.h"

#define KEXEC_FAULT_ENV "BOOTMENU_KEXEC_FAULT"
#define KEXEC_LOCKDOWN_ENV "BOOTMENU_KEXEC_LOCKDOWN"

/* The calls a test records; each returns 0 or -errno. */
struct kexec_sys_ops {
	int (*load)(uint64_t entry, unsigned long nr,
		    const struct kexec_sys_segment *segs, unsigned long flags);
	int (*file_load)(int kernel_fd, int initrd_fd,
			 unsigned long cmdline_len, const char *cmdline,
			 unsigned long flags);
	int (*reboot_kexec)(void);
	/* Power off (@off) or restart; NULL: refused with -EPERM (a test
	 * with ops never powers the machine off) */
	int (*power)(bool off);
	const char *lockdown_path; /* NULL: KEXEC_LOCKDOWN_PATH */
};

/* Use @ops for every call (NULL: the environment's faults, then the
 * kernel). The table must outlive its use. */
void kexec_sys_set_ops(const struct kexec_sys_ops *ops);

#endif
