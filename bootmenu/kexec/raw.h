/* raw.h - the calls that reach the running kernel, and nothing else.
 *
 * kexec/sys.c decides which syscall to make and what a refusal means;
 * these only make the call. The product links kexec/sys_real.c; tests
 * link a double in their place (tests/double/kexec_double.c: recording
 * functions, and faults named in the environment), so no test seam is in
 * what ships and no file under bootmenu/kexec reads the environment.
 * Each returns 0 or -errno.
 */
#ifndef BM_KEXEC_RAW_H
#define BM_KEXEC_RAW_H

#include <stdbool.h>
#include <stdint.h>

struct kexec_sys_segment;

/* kexec_load(2); @nr 0 unloads. */
int kexec_raw_load(uint64_t entry, unsigned long nr,
		   const struct kexec_sys_segment *segs, unsigned long flags);
/* kexec_file_load(2); KEXEC_FILE_UNLOAD in @flags unloads. */
int kexec_raw_file_load(int kernel_fd, int initrd_fd, unsigned long cmdline_len,
			const char *cmdline, unsigned long flags);
/* reboot(LINUX_REBOOT_CMD_KEXEC): returns only on failure. */
int kexec_raw_reboot(void);
/* Power off (@off) or restart through the firmware: only on failure. */
int kexec_raw_power(bool off);
/* The file that says the lockdown mode (KEXEC_LOCKDOWN_PATH). */
const char *kexec_raw_lockdown_path(void);
/* The file that says whether a kernel is loaded (KEXEC_LOADED_PATH), or
 * NULL when the calls are not the kernel's (a double records them). */
const char *kexec_raw_loaded_path(void);

#endif
