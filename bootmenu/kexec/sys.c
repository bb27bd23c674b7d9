/* sys.c - kexec_load, kexec_file_load, reboot: the commit and the jump. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kexec/raw.h"
#include "kexec/sys.h"
#include "util/log.h"
#include "util/say.h"

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
	const char *a, *z;

	if (cap)
		out[0] = '\0';
	if (!read_word(kexec_raw_lockdown_path(), buf, sizeof(buf)))
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

int kexec_lockdown_refusal(enum kexec_syscall want, char *err, size_t errlen)
{
	char mode[32];

	kexec_lockdown_mode(mode, sizeof(mode));
	if (!mode[0] || !strcmp(mode, "none") || want != KEXEC_SYSCALL_LOAD)
		return 0;
	/* kernel/kexec.c: kexec_load is refused under lockdown whatever it
	 * carries; asking for it is a mistake to name, not to try */
	return say(err, errlen, -EPERM,
		   "the kernel is locked down (%s, Secure Boot): kexec_load "
		   "is not allowed; only kexec_file_load with a signed kernel "
		   "(-s, or no choice)",
		   mode);
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
	return kexec_raw_load(p->entry, p->n_seg, segs, flags);
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

/* Overwrite @fd's bytes [off, off + len) with zeros: a memfd's pages go
 * back to the kernel unwiped when it is closed, and a key must not stay
 * in free memory. Returns 0 or -errno. */
static int memfd_wipe(int fd, size_t off, size_t len)
{
	static const char zero[4096];

	while (len) {
		ssize_t n =
		    pwrite(fd, zero, len < sizeof(zero) ? len : sizeof(zero),
			   (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		off += (size_t)n;
		len -= (size_t)n;
	}
	return 0;
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
	rc = kexec_raw_file_load(kfd, ifd, strlen(p->cmdline) + 1, p->cmdline,
				 flags);
	if (ifd >= 0 && p->initrd_secret &&
	    memfd_wipe(ifd, p->initrd_len - p->initrd_secret, p->initrd_secret))
		log_warn("kexec: the key's copy handed to kexec_file_load "
			 "could not be overwritten");
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

/* Whether kexec_file_load is worth a try after kexec_load's @rc. Only
 * that way round: kexec_load is tried first only when the kernel is not
 * locked down, and under lockdown nothing falls back to kexec_load (it is
 * refused whatever it carries; trying it would only put its refusal where
 * the real reason belongs). */
static bool falls_back(int rc)
{
	return rc == -ENOSYS || rc == -ENOEXEC || rc == -EPERM;
}

/* kexec_file_load's ENOEXEC under lockdown: what it can take. */
static int explain_locked_noexec(char *err, size_t errlen)
{
	return say(err, errlen, -ENOEXEC, "%s",
		   "kexec_file_load cannot take this image (ENOEXEC): under "
		   "lockdown only a bzImage with a PE signature boots, and "
		   "kexec_load is not allowed");
}

int kexec_commit(const struct kexec_plan *p, enum kexec_syscall want,
		 enum kexec_syscall *used, char *err, size_t errlen)
{
	enum kexec_syscall s = kexec_syscall_first(want);
	bool locked = kexec_locked_down();
	int rc;

	rc = kexec_lockdown_refusal(want, err, errlen);
	if (rc) {
		if (used)
			*used = want;
		return rc;
	}
	if (p->n_seg == 0 && s == KEXEC_SYSCALL_LOAD &&
	    want == KEXEC_SYSCALL_AUTO)
		s = KEXEC_SYSCALL_FILE;
	rc = try_one(p, s);
	if (rc && want == KEXEC_SYSCALL_AUTO && s == KEXEC_SYSCALL_LOAD &&
	    !locked && falls_back(rc)) {
		s = KEXEC_SYSCALL_FILE;
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
	if (rc == -ENOEXEC && locked)
		return explain_locked_noexec(err, errlen);
	return explain(rc, s, p->crash, err, errlen);
}

int kexec_unload(bool crash, char *err, size_t errlen)
{
	unsigned long fflags =
	    KEXEC_FILE_UNLOAD | (crash ? KEXEC_FILE_ON_CRASH : 0);
	int rc;

	/* under lockdown only the file syscall may unload */
	if (kexec_locked_down()) {
		rc = kexec_raw_file_load(-1, -1, 0, NULL, fflags);
		return rc ? explain(rc, KEXEC_SYSCALL_FILE, crash, err, errlen)
			  : 0;
	}
	rc = kexec_raw_load(0, 0, NULL,
			    KEXEC_ARCH_X86_64 | (crash ? KEXEC_ON_CRASH : 0));
	if (rc == -EPERM || rc == -ENOSYS)
		rc = kexec_raw_file_load(-1, -1, 0, NULL, fflags);
	return rc ? explain(rc, KEXEC_SYSCALL_LOAD, crash, err, errlen) : 0;
}

int kexec_jump(void (*unmount_all)(void *), void *ctx, char *err, size_t errlen)
{
	const char *loaded = kexec_raw_loaded_path();
	char buf[16];
	int rc;

	if (loaded && read_word(loaded, buf, sizeof(buf)) && buf[0] == '0')
		return say(err, errlen, -EINVAL,
			   "no kernel is loaded: load "
			   "one first (kexload -l KERNEL)");
	sync();
	if (unmount_all)
		unmount_all(ctx);
	/* The point of no return: on success reboot() does not come back;
	 * relocate_kernel copies the segments, the purgatory runs, and the
	 * new kernel owns the machine. */
	rc = kexec_raw_reboot();
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
	return kexec_raw_power(off);
}
