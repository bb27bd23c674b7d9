/* test_session_xen.c - Xen's entries under the kernel's lockdown (issue
 * #35): kexec_file_load has no multiboot loader and lockdown refuses
 * kexec_load, so the session lists them disabled with the reason, and
 * without lockdown the same config's entries stay bootable. The lockdown
 * file is the kexec double's seam; the filesystem a --root directory. */
#include "kexec_double.h"
#include "session/session.h"
#include "test.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#define FIX "tests/fixtures/memmap/"

static const char grub_cfg[] =
    "menuentry 'Debian GNU/Linux, with Xen hypervisor' {\n"
    "\tmultiboot2 /boot/xen.gz placeholder dom0_mem=1024M\n"
    "\tmodule2 /boot/vmlinuz root=/dev/vda1 ro\n"
    "\tmodule2 --nounzip /boot/initrd.img\n"
    "}\n"
    "menuentry 'Debian GNU/Linux' {\n"
    "\tlinux /boot/vmlinuz root=/dev/vda1 ro\n"
    "\tinitrd /boot/initrd.img\n"
    "}\n";

static void put(const char *dir, const char *name, const char *text)
{
	char p[PATH_MAX];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* The disabled reasons ("" when bootable) of the two entries of a
 * session over @dir under the lockdown file @lockdown. */
static void list_under(const char *dir, const char *lockdown, char *xen,
		       char *lin, size_t len, size_t *count)
{
	struct kexec_sys_ops ops = {.lockdown_path = lockdown};
	struct session s;
	const char *roots[] = {dir};

	kexec_sys_set_ops(&ops);
	CHECK_INT(session_open_roots(&s, roots, 1), 0);
	*count = s.list.count;
	snprintf(xen, len, "(absent)");
	snprintf(lin, len, "(absent)");
	for (const struct entry *e = s.list.head; e; e = e->next)
		snprintf(e->multiboot ? xen : lin, len, "%s",
			 e->disabled ? e->disabled : "");
	session_close_roots(&s);
	kexec_sys_set_ops(NULL);
}

TEST(xen_disabled_under_lockdown)
{
	char dir[64], p[PATH_MAX], xen[256], lin[256];
	size_t n;

	test_tmpdir(dir, sizeof(dir), "bm-xen");
	snprintf(p, sizeof(p), "%s/boot", dir);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/boot/grub", dir);
	mkdir(p, 0755);
	put(dir, "boot/grub/grub.cfg", grub_cfg);
	put(dir, "boot/xen.gz", "xen");
	put(dir, "boot/vmlinuz", "kernel");
	put(dir, "boot/initrd.img", "initrd");

	list_under(dir, FIX "lockdown-integrity", xen, lin, sizeof(xen), &n);
	CHECK_INT((long)n, 2);
	CHECK_STR(lin, "");
	CHECK_STR(xen, "Xen and other multiboot kernels cannot boot under "
		       "Secure Boot: the kernel's lockdown allows only "
		       "kexec_file_load, which has no multiboot loader");

	list_under(dir, FIX "lockdown-none", xen, lin, sizeof(xen), &n);
	CHECK_INT((long)n, 2);
	CHECK_STR(lin, "");
	CHECK_STR(xen, "");
	test_rmtree(dir);
}

TEST_MAIN("test_session_xen", xen_disabled_under_lockdown)
