/* kexec_double.c - the test double of kexec/raw.h (kexec_double.h). */
#include <errno.h>
#include <limits.h>
#include <linux/reboot.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kexec_double.h"

#ifndef SYS_kexec_file_load
#define SYS_kexec_file_load 320 /* x86_64 */
#endif

static const struct {
	const char *name;
	int err;
} fault_names[] = {
    {"EPERM", EPERM},	{"EBUSY", EBUSY},
    {"ENOMEM", ENOMEM}, {"EINVAL", EINVAL},
    {"ENOSYS", ENOSYS}, {"ENOEXEC", ENOEXEC},
    {"EACCES", EACCES}, {"EKEYREJECTED", EKEYREJECTED},
};

static int fault_errno(const char *e, size_t n)
{
	for (size_t i = 0; i < sizeof(fault_names) / sizeof(fault_names[0]);
	     i++)
		if (strlen(fault_names[i].name) == n &&
		    memcmp(fault_names[i].name, e, n) == 0)
			return -fault_names[i].err;
	return 0;
}

/* Items past the FAULT_ITEMS-th are never used up. */
#define FAULT_ITEMS 32

static unsigned fault_used[FAULT_ITEMS];
static char fault_seen[512];

/* @n bytes at @p: "ERRNO" or "ERRNO/N"; the errno, and in *limit N, or
 * ULONG_MAX without /N. */
static int fault_item(const char *p, size_t n, unsigned long *limit)
{
	const char *slash = memchr(p, '/', n);

	*limit = ULONG_MAX;
	if (slash) {
		*limit = strtoul(slash + 1, NULL, 10);
		n = (size_t)(slash - p);
	}
	return fault_errno(p, n);
}

/* The errno BOOTMENU_KEXEC_FAULT injects into @which, or 0. */
static int fault(const char *which)
{
	const char *p = getenv(KEXEC_FAULT_ENV);
	size_t wl = strlen(which);

	if (!p || !*p)
		return 0;
	if (strncmp(fault_seen, p, sizeof(fault_seen))) {
		snprintf(fault_seen, sizeof(fault_seen), "%s", p);
		memset(fault_used, 0, sizeof(fault_used));
	}
	for (size_t i = 0; *p; i++) {
		size_t n = strcspn(p, ",");
		const char *colon = memchr(p, ':', n);
		const char *e = colon ? colon + 1 : p;
		unsigned long limit;
		int rc = fault_item(e, n - (size_t)(e - p), &limit);

		bool counted = limit != ULONG_MAX && i < FAULT_ITEMS;

		if ((!colon || ((size_t)(colon - p) == wl &&
				memcmp(p, which, wl) == 0)) &&
		    (!counted || fault_used[i] < limit)) {
			if (counted)
				fault_used[i]++;
			return rc;
		}
		p += n + (p[n] == ',');
	}
	return 0;
}

static const struct kexec_sys_ops *ops;

void kexec_sys_set_ops(const struct kexec_sys_ops *o)
{
	ops = o;
}

/* The kernel's own calls, as kexec/sys_real.c makes them (that file is
 * not linked beside this one: the names are the same). */
static int real(long rc)
{
	return rc < 0 ? -errno : 0;
}

int kexec_raw_load(uint64_t entry, unsigned long nr,
		   const struct kexec_sys_segment *segs, unsigned long flags)
{
	int f;

	if (ops)
		return ops->load(entry, nr, segs, flags);
	f = fault(nr ? "load" : "unload");
	return f ? f
		 : real(syscall(SYS_kexec_load, (unsigned long)entry, nr, segs,
				flags));
}

int kexec_raw_file_load(int kfd, int ifd, unsigned long cmdline_len,
			const char *cmdline, unsigned long flags)
{
	int f;

	if (ops)
		return ops->file_load(kfd, ifd, cmdline_len, cmdline, flags);
	f = fault(flags & KEXEC_FILE_UNLOAD ? "unload" : "file");
	return f ? f
		 : real(syscall(SYS_kexec_file_load, kfd, ifd, cmdline_len,
				cmdline, flags));
}

int kexec_raw_reboot(void)
{
	int f;

	if (ops)
		return ops->reboot_kexec();
	f = fault("reboot");
	return f ? f
		 : real(syscall(SYS_reboot, LINUX_REBOOT_MAGIC1,
				LINUX_REBOOT_MAGIC2, LINUX_REBOOT_CMD_KEXEC,
				NULL));
}

int kexec_raw_power(bool off)
{
	if (ops)
		return ops->power ? ops->power(off) : -EPERM;
	return real(syscall(
	    SYS_reboot, LINUX_REBOOT_MAGIC1, LINUX_REBOOT_MAGIC2,
	    off ? LINUX_REBOOT_CMD_POWER_OFF : LINUX_REBOOT_CMD_RESTART, NULL));
}

const char *kexec_raw_lockdown_path(void)
{
	const char *env = getenv(KEXEC_LOCKDOWN_ENV);

	if (ops)
		return ops->lockdown_path ? ops->lockdown_path
					  : KEXEC_LOCKDOWN_PATH;
	return env && *env ? env : KEXEC_LOCKDOWN_PATH;
}

const char *kexec_raw_loaded_path(void)
{
	return ops ? NULL : KEXEC_LOADED_PATH;
}
