/* sys.h - the commit: the only code that calls kexec_load,
 * kexec_file_load and reboot(2) (the kexec jump, power-off, restart).
 *
 * kexec_commit() hands a built plan to the kernel. The syscall: kexec_load
 * unless asked otherwise; kexec_file_load when the kernel is locked down,
 * when kexec_load is refused with EPERM, or when asked; in the automatic
 * mode kexec_load falls back to it on ENOSYS/ENOEXEC too. A locked-down
 * kernel is never given kexec_load (nor its unload): asking for it is
 * refused before any syscall, and nothing falls back to it. Refusals
 * become sentences; after a failure nothing is left loaded.
 *
 * The calls themselves are kexec/raw.h's: the product links the kernel's
 * (sys_real.c), tests a double (tests/double/), at link time.
 */
#ifndef BM_KEXEC_SYS_H
#define BM_KEXEC_SYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kexec/plan.h"

enum kexec_syscall {
	KEXEC_SYSCALL_AUTO,
	KEXEC_SYSCALL_LOAD,
	KEXEC_SYSCALL_FILE
};

#define KEXEC_LOCKDOWN_PATH "/sys/kernel/security/lockdown"
#define KEXEC_LOADED_PATH "/sys/kernel/kexec_loaded"

/* include/uapi/linux/kexec.h */
#define KEXEC_ON_CRASH 0x00000001
#define KEXEC_ARCH_X86_64 (62 << 16)
#define KEXEC_FILE_UNLOAD 0x00000001
#define KEXEC_FILE_ON_CRASH 0x00000002
#define KEXEC_FILE_NO_INITRAMFS 0x00000004

/* struct kexec_segment as the kernel reads it (x86_64) */
struct kexec_sys_segment {
	const void *buf;
	size_t bufsz;
	uint64_t mem;
	uint64_t memsz;
};

/* "kexec_load", "kexec_file_load" or "automatic". */
const char *kexec_syscall_name(enum kexec_syscall s);

/* The lockdown file's selected mode ("none [integrity] confidentiality"
 * selects "integrity") into buf[0..cap); "" when the file is missing
 * (a kernel without the lockdown LSM) or holds no selection. */
void kexec_lockdown_mode(char *buf, size_t cap);

/* True when kexec_lockdown_mode() is set and not "none". */
bool kexec_locked_down(void);

/* The syscall kexec_commit() tries first for @want. */
enum kexec_syscall kexec_syscall_first(enum kexec_syscall want);

/* Under lockdown, asking for kexec_load (@want KEXEC_SYSCALL_LOAD) is
 * refused before any syscall: returns -EPERM with a sentence naming the
 * lockdown mode. 0 otherwise (not locked down, or another @want). */
int kexec_lockdown_refusal(enum kexec_syscall want, char *err, size_t errlen);

/* Load @p (a panic kernel when p->crash) with the syscall chosen for
 * @want; *used (may be NULL) names the one that succeeded or failed last.
 * A plan without segments (p->n_seg 0) can only go through
 * kexec_file_load. Returns 0, or -errno with a sentence in @err. */
int kexec_commit(const struct kexec_plan *p, enum kexec_syscall want,
		 enum kexec_syscall *used, char *err, size_t errlen);

/* Unload the kernel (or the panic kernel) either syscall loaded.
 * Returns 0, or -errno with a sentence (@err may be NULL). */
int kexec_unload(bool crash, char *err, size_t errlen);

/* Boot the loaded kernel: sync, @unmount_all (may be NULL), then
 * reboot(LINUX_REBOOT_CMD_KEXEC). Returns only on failure: -errno with a
 * sentence (nothing loaded, not root). */
int kexec_jump(void (*unmount_all)(void *), void *ctx, char *err,
	       size_t errlen);

/* Sync, call @unmount_all (may be NULL), then power off (@off) or restart
 * through the firmware. Returns only on failure, with -errno. */
int kexec_power(bool off, void (*unmount_all)(void *), void *ctx);

#endif
