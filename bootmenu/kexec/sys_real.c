/* sys_real.c - the kernel's own calls behind kexec/raw.h. */
#include <errno.h>
#include <linux/reboot.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kexec/raw.h"
#include "kexec/sys.h"

#ifndef SYS_kexec_file_load
#define SYS_kexec_file_load 320 /* x86_64 */
#endif

int kexec_raw_load(uint64_t entry, unsigned long nr,
		   const struct kexec_sys_segment *segs, unsigned long flags)
{
	return syscall(SYS_kexec_load, (unsigned long)entry, nr, segs, flags) <
		       0
		   ? -errno
		   : 0;
}

int kexec_raw_file_load(int kfd, int ifd, unsigned long cmdline_len,
			const char *cmdline, unsigned long flags)
{
	return syscall(SYS_kexec_file_load, kfd, ifd, cmdline_len, cmdline,
		       flags) < 0
		   ? -errno
		   : 0;
}

int kexec_raw_reboot(void)
{
	return syscall(SYS_reboot, LINUX_REBOOT_MAGIC1, LINUX_REBOOT_MAGIC2,
		       LINUX_REBOOT_CMD_KEXEC, NULL) < 0
		   ? -errno
		   : 0;
}

int kexec_raw_power(bool off)
{
	return syscall(SYS_reboot, LINUX_REBOOT_MAGIC1, LINUX_REBOOT_MAGIC2,
		       off ? LINUX_REBOOT_CMD_POWER_OFF
			   : LINUX_REBOOT_CMD_RESTART,
		       NULL) < 0
		   ? -errno
		   : 0;
}

const char *kexec_raw_lockdown_path(void)
{
	return KEXEC_LOCKDOWN_PATH;
}

const char *kexec_raw_loaded_path(void)
{
	return KEXEC_LOADED_PATH;
}
