/* test_bare.c - kernels in /boot with no config (and none that a config
 * boots or loads as a module). */
#include "test.h"
#include "cfg/cfg.h"
#include "entry/entry.h"
#include "scan/fs.h"
#include "util/arena.h"

#include <ftw.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tfs.h"

TEST(newest_first_with_initrds)
{
	struct tfs t;

	tfs_init(&t);
	t.fs.uuid = "1111-2222";
	tfs_write(&t, "/boot/vmlinuz-6.1.0-9-amd64", "k");
	tfs_write(&t, "/boot/vmlinuz-6.1.0-13-amd64", "k");
	tfs_write(&t, "/boot/vmlinuz-6.1.0-13-amd64.sig", "s");
	tfs_write(&t, "/boot/initrd.img-6.1.0-13-amd64", "i");
	tfs_write(&t, "/boot/config-6.1.0-13-amd64", "c");
	bare_parse_fs(&t.ctx);
	CHECK_INT(t.out.count, 2);
	CHECK_STR(nth(&t, 0)->title, "Linux 6.1.0-13-amd64");
	CHECK_STR(nth(&t, 0)->version, "6.1.0-13-amd64");
	CHECK_STR(nth(&t, 0)->kernel.path, "/boot/vmlinuz-6.1.0-13-amd64");
	CHECK_INT(nth(&t, 0)->n_initrds, 1);
	CHECK_STR(nth(&t, 0)->initrds[0].path,
		  "/boot/initrd.img-6.1.0-13-amd64");
	CHECK_STR(nth(&t, 0)->cmdline, "root=UUID=1111-2222 ro");
	CHECK_INT(nth(&t, 0)->format, FMT_BARE);
	CHECK_STR(nth(&t, 1)->title, "Linux 6.1.0-9-amd64");
	CHECK_INT(nth(&t, 1)->n_initrds, 0);
	CHECK(!nth(&t, 0)->is_default);
	CHECK_INT(n_warn(&t), 0);
	tfs_done(&t);
}

TEST(initrd_names_of_other_generators)
{
	struct tfs t;

	tfs_init(&t);
	t.fs.uuid = "u";
	tfs_write(&t, "/boot/vmlinuz-6.5.6-300.fc39.x86_64", "k");
	tfs_write(&t, "/boot/initramfs-6.5.6-300.fc39.x86_64.img", "i");
	tfs_write(&t, "/boot/vmlinuz-5.15.0-gentoo", "k");
	tfs_write(&t, "/boot/initrd-5.15.0-gentoo", "i");
	bare_parse_fs(&t.ctx);
	CHECK_INT(t.out.count, 2);
	CHECK_STR(nth(&t, 0)->version, "6.5.6-300.fc39.x86_64");
	CHECK_INT(nth(&t, 0)->n_initrds, 1);
	CHECK_STR(nth(&t, 0)->initrds[0].path,
		  "/boot/initramfs-6.5.6-300.fc39.x86_64.img");
	CHECK_STR(nth(&t, 1)->version, "5.15.0-gentoo");
	CHECK_STR(nth(&t, 1)->initrds[0].path, "/boot/initrd-5.15.0-gentoo");
	tfs_done(&t);
}

TEST(arch_microcode_goes_first)
{
	struct tfs t;

	tfs_init(&t);
	t.fs.uuid = "u";
	tfs_write(&t, "/boot/vmlinuz-linux", "k");
	tfs_write(&t, "/boot/vmlinuz-linux-lts", "k");
	tfs_write(&t, "/boot/initramfs-linux.img", "i");
	tfs_write(&t, "/boot/initramfs-linux-fallback.img", "i");
	tfs_write(&t, "/boot/initramfs-linux-lts.img", "i");
	tfs_write(&t, "/boot/intel-ucode.img", "u");
	bare_parse_fs(&t.ctx);
	CHECK_INT(t.out.count, 2);
	CHECK_STR(nth(&t, 0)->version, "linux-lts"); /* the longer is newer */
	CHECK_STR(nth(&t, 1)->version, "linux");
	CHECK_INT(nth(&t, 1)->n_initrds, 2);
	CHECK_STR(nth(&t, 1)->initrds[0].path, "/boot/intel-ucode.img");
	CHECK_STR(nth(&t, 1)->initrds[1].path, "/boot/initramfs-linux.img");
	tfs_done(&t);
}

TEST(symlinks_resolve_to_one_entry)
{
	struct tfs t;

	tfs_init(&t);
	t.fs.uuid = "u";
	tfs_write(&t, "/boot/vmlinuz-6.1", "k");
	tfs_link(&t, "/vmlinuz", "boot/vmlinuz-6.1");
	tfs_link(&t, "/boot/vmlinuz", "vmlinuz-6.1");
	tfs_link(&t, "/vmlinuz.old", "/boot/missing");
	bare_parse_fs(&t.ctx);
	CHECK_INT(t.out.count, 1);
	CHECK_STR(nth(&t, 0)->kernel.path, "/boot/vmlinuz-6.1");
	tfs_done(&t);
}

TEST(plain_vmlinuz_file)
{
	struct tfs t;

	tfs_init(&t);
	t.fs.uuid = "u";
	tfs_write(&t, "/boot/vmlinuz", "k");
	bare_parse_fs(&t.ctx);
	CHECK_INT(t.out.count, 1);
	CHECK_STR(nth(&t, 0)->title, "Linux (vmlinuz)");
	CHECK_STR(nth(&t, 0)->version, NULL);
	tfs_done(&t);
}

TEST(kernels_named_by_a_config_are_skipped)
{
	struct tfs t;
	struct entry *e;

	tfs_init(&t);
	t.fs.uuid = "u";
	tfs_write(&t, "/boot/vmlinuz-6.1", "k");
	tfs_write(&t, "/boot/vmlinuz-6.2", "k");
	tfs_link(&t, "/vmlinuz", "boot/vmlinuz-6.2");
	e = entry_new(&t.out, FMT_LILO, &t.fs);
	e->title = "lilo";
	e->kernel.path = "/vmlinuz"; /* the symlink, as lilo.conf names it */
	entry_add(&t.out, e);
	bare_parse_fs(&t.ctx);
	CHECK_INT(t.out.count, 2);
	CHECK_STR(nth(&t, 1)->kernel.path, "/boot/vmlinuz-6.1");
	tfs_done(&t);
}

/* A Xen-only grub.cfg (Qubes, or Debian with 10_linux turned off) loads
 * the dom0 kernel as a module: that kernel is named, not a bare one. */
TEST(kernels_a_config_loads_as_modules_are_skipped)
{
	struct tfs t;

	tfs_init(&t);
	t.fs.uuid = "u";
	tfs_write(&t, "/boot/vmlinuz-6.1.0-13-amd64", "k");
	tfs_write(&t, "/boot/vmlinuz-6.1.0-9-amd64", "k");
	tfs_write(&t, "/boot/xen-4.17-amd64.gz", "x");
	tfs_write(&t, "/boot/grub/grub.cfg",
		  "menuentry 'Debian GNU/Linux, with Xen hypervisor' {\n"
		  "\tmultiboot2\t/boot/xen-4.17-amd64.gz placeholder\n"
		  "\tmodule2\t/boot/vmlinuz-6.1.0-13-amd64 placeholder ro\n"
		  "\tmodule2\t--nounzip /boot/initrd.img-6.1.0-13-amd64\n"
		  "}\n");
	grub_parse_fs(&t.ctx);
	bare_parse_fs(&t.ctx);
	CHECK_INT(t.out.count, 2);
	CHECK_INT(nth(&t, 0)->format, FMT_GRUB);
	CHECK_STR(nth(&t, 1)->kernel.path, "/boot/vmlinuz-6.1.0-9-amd64");
	CHECK_INT(n_warn(&t), 0);
	tfs_done(&t);
}

/* entry_finish() does the same across filesystems: a module on another
 * filesystem drops that filesystem's bare entry for it. */
TEST(modules_on_another_filesystem_drop_bare_entries)
{
	struct tfs esp, root;
	const struct fs_root *all[2];
	struct entry *xen, *bare;

	tfs_init(&esp);
	tfs_init(&root);
	root.fs.uuid = "R00T";
	xen = entry_new(&esp.out, FMT_GRUB, &esp.fs);
	xen->kernel.path = "/xen.efi";
	xen->modules = arena_alloc(&esp.a, sizeof(*xen->modules));
	xen->modules[0] = (struct entry_file){.dev = "UUID=r00t",
					      .path = "/boot/vmlinuz-6.1"};
	xen->n_modules = 1;
	entry_add(&esp.out, xen);
	bare = entry_new(&esp.out, FMT_BARE, &root.fs);
	bare->kernel.path = "/boot/vmlinuz-6.1";
	entry_add(&esp.out, bare);
	bare = entry_new(&esp.out, FMT_BARE, &root.fs);
	bare->kernel.path = "/boot/vmlinuz-6.2";
	entry_add(&esp.out, bare);
	all[0] = &esp.fs;
	all[1] = &root.fs;
	entry_finish(&esp.out, all, 2);
	CHECK_INT(esp.out.count, 2);
	CHECK(xen->modules[0].fs == &root.fs);
	CHECK_STR(nth(&esp, 1)->kernel.path, "/boot/vmlinuz-6.2");
	tfs_done(&esp);
	tfs_done(&root);
}

TEST(root_from_fstab_without_uuid)
{
	struct tfs t;

	tfs_init(&t);
	tfs_write(&t, "/boot/vmlinuz-6.1", "k");
	tfs_write(&t, "/etc/fstab", "# x\nLABEL=root / ext4 defaults 0 1\n");
	bare_parse_fs(&t.ctx);
	CHECK_STR(nth(&t, 0)->cmdline, "root=LABEL=root ro");
	tfs_done(&t);
	tfs_init(&t);
	tfs_write(&t, "/boot/vmlinuz-6.1", "k");
	bare_parse_fs(&t.ctx);
	CHECK_STR(nth(&t, 0)->cmdline, "ro");
	CHECK_INT(n_warn(&t), 1);
	tfs_done(&t);
}

TEST(separate_boot_finds_its_root)
{
	struct tfs boot, root;
	const struct fs_root *all[2];

	tfs_init(&boot);
	tfs_init(&root);
	boot.fs.uuid = "B00T";
	root.fs.uuid = "R00T";
	tfs_write(&boot, "/vmlinuz-6.1", "k");
	tfs_write(&boot, "/initrd.img-6.1", "i");
	tfs_write(&root, "/etc/fstab",
		  "UUID=R00T / ext4 defaults 0 1\n"
		  "UUID=b00t /boot ext2 defaults 0 2\n");
	all[0] = &root.fs;
	all[1] = &boot.fs;
	boot.ctx.all = all;
	boot.ctx.n_all = 2;
	bare_parse_fs(&boot.ctx);
	CHECK_INT(boot.out.count, 1);
	CHECK_STR(nth(&boot, 0)->kernel.path, "/vmlinuz-6.1");
	CHECK_STR(nth(&boot, 0)->initrds[0].path, "/initrd.img-6.1");
	CHECK_STR(nth(&boot, 0)->cmdline, "root=UUID=R00T ro");
	tfs_done(&boot);
	tfs_done(&root);
}

TEST_MAIN("test_bare", newest_first_with_initrds,
	  initrd_names_of_other_generators, arch_microcode_goes_first,
	  symlinks_resolve_to_one_entry, plain_vmlinuz_file,
	  kernels_named_by_a_config_are_skipped,
	  kernels_a_config_loads_as_modules_are_skipped,
	  modules_on_another_filesystem_drop_bare_entries,
	  root_from_fstab_without_uuid, separate_boot_finds_its_root)
