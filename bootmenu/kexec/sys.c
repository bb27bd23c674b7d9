/* sys.c - kexec_load, kexec_file_load, reboot: the commit and the jump. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/reboot.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kexec/sys.h"
#include "util/say.h"

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

/* BOOTMENU_KEXEC_FAULT, for tests: a comma-separated list of items
 * [WHICH:]ERRNO[/N]. WHICH is "load", "file", "unload" (either syscall's
 * unload) or "reboot"; without it the item matches every call. ERRNO is a
 * name from fault_names. Without /N an item fails every call it matches;
 * with /N only its first N, after which it is skipped. The first item
 * that matches and is not used up decides, so "load:EBUSY/1,load:EINVAL/1"
 * fails the first kexec_load with EBUSY, the second with EINVAL, and lets
 * the third through. Counts start again when the variable changes; items
 * past the FAULT_ITEMS-th are never used up. */
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

static int real_load(uint64_t entry, unsigned long nr,
		     const struct kexec_sys_segment *segs, unsigned long flags)
{
	int f = fault(nr ? "load" : "unload");

	if (f)
		return f;
	return syscall(SYS_kexec_load, (unsigned long)entry, nr, segs, flags) <
		       0
		   ? -errno
		   : 0;
}

static int real_file_load(int kfd, int ifd, unsigned long cmdline_len,
			  const char *cmdline, unsigned long flags)
{
	int f = fault(flags & KEXEC_FILE_UNLOAD ? "unload" : "file");

	if (f)
		return f;
	return syscall(SYS_kexec_file_load, kfd, ifd, cmdline_len, cmdline,
		       flags) < 0
		   ? -errno
		   : 0;
}

static int real_reboot(void)
{
	int f = fault("reboot");

	if (f)
		return f;
	return syscall(SYS_reboot, LINUX_REBOOT_MAGIC1, LINUX_REBOOT_MAGIC2,
		       LINUX_REBOOT_CMD_KEXEC, NULL) < 0
		   ? -errno
		   : 0;
}

static const struct kexec_sys_ops real_ops = {
    real_load,
    real_file_load,
    real_reboot,
    NULL,
};
static const struct kexec_sys_ops *ops = &real_ops;

void kexec_sys_set_ops(const struct kexec_sys_ops *o)
{
	ops = o ? o : &real_ops;
}

const char *kexec_syscall_name(enum kexec_syscall s)
{
	return s == KEXEC_SYSCALL_LOAD	 ? "kexec_load"
	       : s == KEXEC_SYSCALL_FILE ? "kexec_file_load"
					 : "automatic";
}

static bool read_word(const char *path, char *buf, size_t cap)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return false;
	n = read(fd, buf, cap - 1);
	close(fd);
	if (n < 0)
		return false;
	buf[n] = '\0';
	return true;
}

void kexec_lockdown_mode(char *out, size_t cap)
{
	char buf[128];
	const char *path = ops->lockdown_path, *a, *z;

	if (cap)
		out[0] = '\0';
	if (!path && ops == &real_ops)
		path = getenv(KEXEC_LOCKDOWN_ENV);
	if (!read_word(path ? path : KEXEC_LOCKDOWN_PATH, buf, sizeof(buf)))
		return;
	/* "none [integrity] confidentiality": brackets mark the mode */
	a = strchr(buf, '[');
	z = a ? strchr(a, ']') : NULL;
	if (z && cap)
		snprintf(out, cap, "%.*s", (int)(z - a - 1), a + 1);
}

bool kexec_locked_down(void)
{
	char mode[32];

	kexec_lockdown_mode(mode, sizeof(mode));
	return mode[0] && strcmp(mode, "none") != 0;
}

enum kexec_syscall kexec_syscall_first(enum kexec_syscall want)
{
	if (want != KEXEC_SYSCALL_AUTO)
		return want;
	return kexec_locked_down() ? KEXEC_SYSCALL_FILE : KEXEC_SYSCALL_LOAD;
}

static int explain_eperm(enum kexec_syscall s, char *err, size_t errlen)
{
	char buf[16];

	if (geteuid() != 0)
		return say(err, errlen, -EPERM,
			   "%s refused: loading a kernel "
			   "needs root (CAP_SYS_BOOT)",
			   kexec_syscall_name(s));
	if (kexec_locked_down())
		return say(
		    err, errlen, -EPERM,
		    s == KEXEC_SYSCALL_LOAD
			? "kernel is locked down: use the file syscall (-s)"
			: "kernel is locked down: kexec_file_load takes only "
			  "a kernel signed with a trusted key");
	if (read_word("/proc/sys/kernel/kexec_load_disabled", buf,
		      sizeof(buf)) &&
	    buf[0] == '1')
		return say(err, errlen, -EPERM,
			   "kexec is disabled on this "
			   "kernel (kernel.kexec_load_disabled = 1)");
	return say(err, errlen, -EPERM, "%s refused: operation not permitted",
		   kexec_syscall_name(s));
}

/* One sentence for a failed syscall. */
static int explain(int rc, enum kexec_syscall s, bool crash, char *err,
		   size_t errlen)
{
	const char *n = kexec_syscall_name(s);

	switch (-rc) {
	case EPERM:
		return explain_eperm(s, err, errlen);
	case EBUSY:
		return say(err, errlen, rc,
			   "%s refused: a kexec load is "
			   "already in progress or the loaded kernel is in use "
			   "(EBUSY); try again",
			   n);
	case ENOMEM:
		return say(
		    err, errlen, rc,
		    crash ? "%s failed: the crashkernel= reservation is too "
			    "small for this panic kernel (ENOMEM)"
			  : "%s failed: the running kernel is out of memory "
			    "for the segments (ENOMEM)",
		    n);
	case EINVAL:
		return say(err, errlen, rc,
			   "%s refused the image or its "
			   "segments as invalid (EINVAL)",
			   n);
	case ENOSYS:
		return say(err, errlen, rc,
			   "the running kernel has no %s "
			   "(built without CONFIG_KEXEC%s)",
			   n, s == KEXEC_SYSCALL_FILE ? "_FILE" : "");
	case ENOEXEC:
		return say(err, errlen, rc,
			   "%s: the running kernel cannot load "
			   "this image format (ENOEXEC)",
			   n);
	case EKEYREJECTED:
	case ENOKEY:
	case EBADMSG:
		return say(err, errlen, rc,
			   "%s refused the image: its signature "
			   "is missing or not trusted",
			   n);
	}
	return say(err, errlen, rc, "%s failed: %s", n, strerror(-rc));
}

static int do_load(const struct kexec_plan *p)
{
	struct kexec_sys_segment segs[KEXEC_SEGMENT_MAX];
	unsigned long flags =
	    KEXEC_ARCH_X86_64 | (p->crash ? KEXEC_ON_CRASH : 0);

	if (p->n_seg == 0 || p->n_seg > KEXEC_SEGMENT_MAX)
		return -ENOEXEC;
	for (size_t i = 0; i < p->n_seg; i++)
		segs[i] =
		    (struct kexec_sys_segment){p->seg[i].buf, p->seg[i].bufsz,
					       p->seg[i].mem, p->seg[i].memsz};
	return ops->load(p->entry, p->n_seg, segs, flags);
}

/* A memfd holding buf[0..len), or -errno: kexec_file_load takes fds. */
static int memfd_of(const char *name, const void *buf, size_t len)
{
	int fd = memfd_create(name, MFD_CLOEXEC);
	const char *p = buf;

	if (fd < 0)
		return -errno;
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int rc = n < 0 ? -errno : -EIO;

			close(fd);
			return rc;
		}
		p += n;
		len -= (size_t)n;
	}
	return fd;
}

static int do_file_load(const struct kexec_plan *p)
{
	unsigned long flags = p->crash ? KEXEC_FILE_ON_CRASH : 0;
	int kfd, ifd = -1, rc;

	kfd = memfd_of("kexec-kernel", p->kernel, p->kernel_len);
	if (kfd < 0)
		return kfd;
	if (p->initrd_len) {
		/* several initrds are one buffer: the kernel takes one fd */
		ifd = memfd_of("kexec-initrd", p->initrd, p->initrd_len);
		if (ifd < 0) {
			rc = ifd;
			goto err_initrd;
		}
	} else {
		flags |= KEXEC_FILE_NO_INITRAMFS;
	}
	/* the length counts the NUL */
	rc =
	    ops->file_load(kfd, ifd, strlen(p->cmdline) + 1, p->cmdline, flags);
	if (ifd >= 0)
		close(ifd);
err_initrd:
	close(kfd);
	return rc;
}

static int try_one(const struct kexec_plan *p, enum kexec_syscall s)
{
	return s == KEXEC_SYSCALL_FILE ? do_file_load(p) : do_load(p);
}

static bool falls_back(enum kexec_syscall s, int rc)
{
	return rc == -ENOSYS || rc == -ENOEXEC ||
	       (s == KEXEC_SYSCALL_LOAD && rc == -EPERM);
}

int kexec_commit(const struct kexec_plan *p, enum kexec_syscall want,
		 enum kexec_syscall *used, char *err, size_t errlen)
{
	enum kexec_syscall s = kexec_syscall_first(want);
	int rc;

	if (p->n_seg == 0 && s == KEXEC_SYSCALL_LOAD &&
	    want == KEXEC_SYSCALL_AUTO)
		s = KEXEC_SYSCALL_FILE;
	rc = try_one(p, s);
	if (rc && want == KEXEC_SYSCALL_AUTO && falls_back(s, rc) &&
	    (s == KEXEC_SYSCALL_LOAD || p->n_seg)) {
		s = s == KEXEC_SYSCALL_LOAD ? KEXEC_SYSCALL_FILE
					    : KEXEC_SYSCALL_LOAD;
		rc = try_one(p, s);
	}
	if (used)
		*used = s;
	if (!rc)
		return 0;
	/* nothing may stay loaded after a failure, not an older image */
	kexec_unload(p->crash, NULL, 0);
	if (rc == -ENOEXEC && s == KEXEC_SYSCALL_LOAD && p->n_seg == 0)
		return say(err, errlen, rc,
			   "kexec_load needs a plan of "
			   "segments, and this image has none");
	return explain(rc, s, p->crash, err, errlen);
}

int kexec_unload(bool crash, char *err, size_t errlen)
{
	int rc = ops->load(0, 0, NULL,
			   KEXEC_ARCH_X86_64 | (crash ? KEXEC_ON_CRASH : 0));

	/* under lockdown only the file syscall may unload */
	if (rc == -EPERM || rc == -ENOSYS)
		rc = ops->file_load(-1, -1, 0, NULL,
				    KEXEC_FILE_UNLOAD |
					(crash ? KEXEC_FILE_ON_CRASH : 0));
	return rc ? explain(rc, KEXEC_SYSCALL_LOAD, crash, err, errlen) : 0;
}

int kexec_jump(void (*unmount_all)(void *), void *ctx, char *err, size_t errlen)
{
	char buf[16];
	int rc;

	if (ops == &real_ops &&
	    read_word(KEXEC_LOADED_PATH, buf, sizeof(buf)) && buf[0] == '0')
		return say(err, errlen, -EINVAL,
			   "no kernel is loaded: load "
			   "one first (kexload -l KERNEL)");
	sync();
	if (unmount_all)
		unmount_all(ctx);
	/* The point of no return: on success reboot() does not come back;
	 * relocate_kernel copies the segments, the purgatory runs, and the
	 * new kernel owns the machine. */
	rc = ops->reboot_kexec();
	if (rc == -EPERM)
		return say(
		    err, errlen, rc,
		    "reboot(LINUX_REBOOT_CMD_KEXEC) "
		    "refused: booting a kernel needs root (CAP_SYS_BOOT)");
	return say(err, errlen, rc,
		   "reboot(LINUX_REBOOT_CMD_KEXEC) failed: "
		   "%s (is a kernel loaded?)",
		   strerror(-rc));
}

int kexec_power(bool off, void (*unmount_all)(void *), void *ctx)
{
	sync();
	if (unmount_all)
		unmount_all(ctx);
	sync();
	/* Through the firmware: power off, or a cold restart. */
	if (syscall(SYS_reboot, LINUX_REBOOT_MAGIC1, LINUX_REBOOT_MAGIC2,
		    off ? LINUX_REBOOT_CMD_POWER_OFF : LINUX_REBOOT_CMD_RESTART,
		    NULL) < 0)
		return -errno;
	return 0;
}
