/* test_syslinux.c - one test per syslinux keyword, where each variant
 * finds its config, and what the boot runs (issue 17). */
#include "test.h"
#include "cfg/syslinux.h"
#include "entry/entry.h"
#include "scan/fs.h"
#include "util/arena.h"

#include <ftw.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tfs.h"

/* Parse @text as /boot/syslinux/syslinux.cfg of a fresh filesystem. */
static int parse(struct tfs *t, const char *text)
{
	tfs_init(t);
	tfs_write(t, "/boot/syslinux/syslinux.cfg", text);
	return syslinux_parse_fs(&t->ctx);
}

TEST(label_kernel_append)
{
	struct tfs t;
	struct entry *e;

	parse(&t,
	      "LABEL linux\n  KERNEL vmlinuz\n  APPEND root=/dev/sda1 ro\n");
	e = nth(&t, 0);
	CHECK_INT(t.out.count, 1);
	CHECK_STR(e->id, "linux");
	CHECK_STR(e->title, "linux");
	CHECK_STR(e->kernel.path, "/boot/syslinux/vmlinuz");
	CHECK_STR(e->cmdline, "BOOT_IMAGE=vmlinuz root=/dev/sda1 ro");
	CHECK_STR(e->source, "/boot/syslinux/syslinux.cfg");
	CHECK_INT(e->line, 1);
	CHECK(e->is_default);
	CHECK_INT(e->n_initrds, 0);
	CHECK_INT(n_warn(&t), 0);
	tfs_done(&t);
}

TEST(keywords_ignore_case)
{
	struct tfs t;

	parse(&t, "label a\n\tlinux /vmlinuz\n\tappend quiet\nLaBeL b\n\tLiNuX "
		  "/k2\n");
	CHECK_INT(t.out.count, 2);
	CHECK_STR(nth(&t, 0)->kernel.path, "/vmlinuz");
	CHECK_STR(nth(&t, 0)->cmdline, "BOOT_IMAGE=/vmlinuz quiet");
	CHECK_STR(nth(&t, 1)->kernel.path, "/k2");
	tfs_done(&t);
}

TEST(append_initrd_comma_list)
{
	struct tfs t;
	struct entry *e;

	parse(&t, "LABEL l\nLINUX vmlinuz\nAPPEND initrd=/a.img,b.img quiet\n");
	e = nth(&t, 0);
	CHECK_INT(e->n_initrds, 2);
	CHECK_STR(e->initrds[0].path, "/a.img");
	CHECK_STR(e->initrds[1].path, "/boot/syslinux/b.img");
	/* syslinux leaves initrd= on the command line */
	CHECK_STR(e->cmdline, "BOOT_IMAGE=vmlinuz initrd=/a.img,b.img quiet");
	tfs_done(&t);
}

TEST(initrd_keyword)
{
	struct tfs t;
	struct entry *e;

	parse(&t, "INITRD /ignored-global.img\nLABEL l\nLINUX vmlinuz\n"
		  "INITRD initrd.gz\nAPPEND ro\n");
	e = nth(&t, 0);
	CHECK_INT(e->n_initrds, 1);
	CHECK_STR(e->initrds[0].path, "/boot/syslinux/initrd.gz");
	CHECK_STR(e->cmdline, "BOOT_IMAGE=vmlinuz ro initrd=initrd.gz");
	tfs_done(&t);
}

TEST(global_append_and_dash)
{
	struct tfs t;

	parse(&t, "APPEND console=ttyS0\nLABEL a\nLINUX k\nLABEL b\nLINUX k\n"
		  "APPEND -\nLABEL c\nLINUX k\nAPPEND own\n");
	CHECK_STR(nth(&t, 0)->cmdline, "BOOT_IMAGE=k console=ttyS0");
	CHECK_STR(nth(&t, 1)->cmdline, "BOOT_IMAGE=k");
	CHECK_STR(nth(&t, 2)->cmdline, "BOOT_IMAGE=k own");
	tfs_done(&t);
}

TEST(kernel_args_before_append)
{
	struct tfs t;

	parse(&t, "LABEL a\nKERNEL vmlinuz single\nAPPEND ro\n");
	CHECK_STR(nth(&t, 0)->kernel.path, "/boot/syslinux/vmlinuz");
	CHECK_STR(nth(&t, 0)->cmdline, "BOOT_IMAGE=vmlinuz single ro");
	tfs_done(&t);
}

TEST(label_without_kernel_boots_itself)
{
	struct tfs t;

	parse(&t, "LABEL vmlinuz\nAPPEND ro\n");
	CHECK_STR(nth(&t, 0)->kernel.path, "/boot/syslinux/vmlinuz");
	tfs_done(&t);
}

TEST(default_names_label)
{
	struct tfs t;

	parse(&t, "DEFAULT b\nLABEL a\nLINUX k\nLABEL b\nLINUX k\n");
	CHECK(!nth(&t, 0)->is_default);
	CHECK(nth(&t, 1)->is_default);
	tfs_done(&t);
}

TEST(default_with_options_and_ui_module)
{
	struct tfs t;

	parse(&t, "DEFAULT b quiet\nLABEL a\nLINUX k\nLABEL b\nLINUX k\n");
	CHECK(nth(&t, 1)->is_default);
	tfs_done(&t);
	/* DEFAULT vesamenu.c32 is the UI, not a label: the first entry */
	parse(&t, "DEFAULT vesamenu.c32\nLABEL a\nLINUX k\nLABEL b\nLINUX k\n");
	CHECK(nth(&t, 0)->is_default);
	CHECK(!nth(&t, 1)->is_default);
	tfs_done(&t);
}

TEST(menu_default)
{
	struct tfs t;

	parse(
	    &t,
	    "UI menu.c32\nLABEL a\nLINUX k\nLABEL b\nMENU DEFAULT\nLINUX k\n");
	CHECK(!nth(&t, 0)->is_default);
	CHECK(nth(&t, 1)->is_default);
	tfs_done(&t);
}

TEST(ontimeout_wins)
{
	struct tfs t;

	parse(&t, "DEFAULT a\nONTIMEOUT c\nLABEL a\nLINUX k\nLABEL b\nLINUX k\n"
		  "LABEL c\nLINUX k\n");
	CHECK(!nth(&t, 0)->is_default);
	CHECK(nth(&t, 2)->is_default);
	tfs_done(&t);
}

TEST(menu_label_strips_caret)
{
	struct tfs t;

	parse(&t, "LABEL install\nMENU LABEL ^Install Debian\nLINUX k\n");
	CHECK_STR(nth(&t, 0)->title, "Install Debian");
	CHECK_STR(nth(&t, 0)->id, "install");
	tfs_done(&t);
}

TEST(menu_hide)
{
	struct tfs t;

	parse(&t, "LABEL a\nLINUX k\nLABEL secret\nMENU HIDE\nLINUX k\n");
	CHECK_INT(t.out.count, 1);
	CHECK_STR(nth(&t, 0)->id, "a");
	tfs_done(&t);
	/* a hidden label that ONTIMEOUT boots is listed, as the default */
	parse(&t, "ONTIMEOUT secret\nLABEL a\nLINUX k\nLABEL secret\nMENU "
		  "HIDE\nLINUX k\n");
	CHECK_INT(t.out.count, 2);
	CHECK_STR(nth(&t, 1)->id, "secret");
	CHECK(nth(&t, 1)->is_default);
	tfs_done(&t);
}

TEST(menu_title_and_passwd)
{
	struct tfs t;

	parse(&t,
	      "MENU TITLE Boot menu\nLABEL a\nMENU PASSWD $4$x$\nLINUX k\n");
	CHECK_STR(nth(&t, 0)->title, "a");
	CHECK(nth(&t, 0)->password);
	CHECK_INT(n_warn(&t), 0);
	tfs_done(&t);
}

TEST(timeout_tenths)
{
	struct tfs t;

	parse(&t, "TIMEOUT 50\nLABEL a\nLINUX k\n");
	CHECK_INT(t.out.timeout_ds, 50);
	tfs_done(&t);
	parse(&t, "TIMEOUT 50\nTOTALTIMEOUT 30\nLABEL a\nLINUX k\n");
	CHECK_INT(t.out.timeout_ds, 30);
	tfs_done(&t);
	parse(&t, "TOTALTIMEOUT 90\nLABEL a\nLINUX k\n");
	CHECK_INT(t.out.timeout_ds, 90);
	tfs_done(&t);
	/* 0 waits forever: no timeout recorded */
	parse(&t, "TIMEOUT 0\nLABEL a\nLINUX k\n");
	CHECK_INT(t.out.timeout_ds, -1);
	tfs_done(&t);
}

TEST(include_relative_to_config_dir)
{
	struct tfs t;

	tfs_init(&t);
	tfs_write(&t, "/boot/syslinux/syslinux.cfg",
		  "INCLUDE sub/menu.cfg\nLABEL z\nLINUX z\n");
	/* paths in an included file are still relative to the main config */
	tfs_write(&t, "/boot/syslinux/sub/menu.cfg",
		  "LABEL a\nLINUX vmlinuz\n");
	syslinux_parse_fs(&t.ctx);
	CHECK_INT(t.out.count, 2);
	CHECK_STR(nth(&t, 0)->kernel.path, "/boot/syslinux/vmlinuz");
	CHECK_STR(nth(&t, 0)->source, "/boot/syslinux/sub/menu.cfg");
	CHECK_STR(nth(&t, 1)->id, "z");
	tfs_done(&t);
}

TEST(include_loop_and_depth)
{
	struct tfs t;
	char name[64], text[128];

	tfs_init(&t);
	tfs_write(&t, "/syslinux.cfg", "INCLUDE a.cfg\nLABEL top\nLINUX k\n");
	tfs_write(&t, "/a.cfg", "LABEL a\nLINUX k\nINCLUDE syslinux.cfg\n");
	syslinux_parse_fs(&t.ctx);
	CHECK_INT(t.out.count, 2);
	CHECK_INT(n_warn(&t), 1); /* the loop */
	tfs_done(&t);

	tfs_init(&t);
	for (int i = 0; i < CFG_INCLUDE_DEPTH + 4; i++) {
		snprintf(name, sizeof(name), "/d%d.cfg", i);
		snprintf(text, sizeof(text),
			 "LABEL l%d\nLINUX k\nINCLUDE d%d.cfg\n", i, i + 1);
		tfs_write(&t, i ? name : "/syslinux.cfg", text);
	}
	syslinux_parse_fs(&t.ctx);
	CHECK_INT(t.out.count, CFG_INCLUDE_DEPTH + 1);
	CHECK(n_warn(&t) >= 1);
	tfs_done(&t);
}

/* syslinux skips an INCLUDE whose file is missing without a word (d-i's
 * text netboot menu.cfg names the gtk variant's files): no warning. */
TEST(include_missing_is_silent)
{
	struct tfs t;

	tfs_init(&t);
	tfs_write(&t, "/syslinux.cfg",
		  "INCLUDE gtk.cfg\nLABEL top\nLINUX k\nINCLUDE absent.cfg\n");
	syslinux_parse_fs(&t.ctx);
	CHECK_INT(t.out.count, 1);
	CHECK_INT(n_warn(&t), 0);
	tfs_done(&t);
}

/* Eight files that each include the next ten times would be 10^7 reads;
 * the budget stops it after CFG_FILES_MAX, with one warning, keeping the
 * labels read before. */
TEST(include_fan_out_is_bounded)
{
	struct tfs t;
	char name[64], text[256];
	const struct warning *w;
	int budget = 0;

	tfs_init(&t);
	for (int i = 0; i < 8; i++) {
		size_t n = 0;

		snprintf(name, sizeof(name), "/f%d.cfg", i);
		for (int j = 0; j < 10; j++)
			n += (size_t)snprintf(text + n, sizeof(text) - n,
					      "INCLUDE f%d.cfg\n", i + 1);
		tfs_write(&t, i ? name : "/syslinux.cfg", text);
	}
	tfs_write(&t, "/f8.cfg", "LABEL x\nLINUX k\n");
	syslinux_parse_fs(&t.ctx);
	CHECK(t.out.count > 0 && t.out.count <= CFG_FILES_MAX);
	for (w = t.out.warnings; w; w = w->next)
		budget += strstr(w->msg, "included more than") != NULL;
	CHECK_INT(budget, 1);
	tfs_done(&t);
}

TEST(menu_include_with_tag_is_submenu)
{
	struct tfs t;

	tfs_init(&t);
	tfs_write(&t, "/syslinux.cfg",
		  "MENU INCLUDE more.cfg More options\nLABEL b\nLINUX k\n");
	tfs_write(&t, "/more.cfg", "LABEL a\nLINUX k\n");
	syslinux_parse_fs(&t.ctx);
	CHECK_STR(nth(&t, 0)->group, "More options");
	CHECK_STR(nth(&t, 1)->group, NULL);
	tfs_done(&t);
}

TEST(menu_begin_end_groups)
{
	struct tfs t;

	parse(&t, "LABEL a\nLINUX k\nMENU BEGIN adv\nMENU LABEL ^Advanced\n"
		  "MENU TITLE Advanced options\nLABEL b\nLINUX k\nMENU BEGIN\n"
		  "MENU TITLE Deeper\nLABEL c\nLINUX k\nLABEL back\nMENU EXIT\n"
		  "MENU END\nMENU END\nLABEL d\nLINUX k\n");
	CHECK_INT(t.out.count, 4);
	CHECK_STR(nth(&t, 0)->group, NULL);
	CHECK_STR(nth(&t, 1)->group, "Advanced");
	CHECK_STR(nth(&t, 2)->group, "Advanced>Deeper");
	CHECK_STR(nth(&t, 3)->id, "d");
	CHECK_STR(nth(&t, 3)->group, NULL);
	tfs_done(&t);
}

TEST(localboot_and_modules_disabled)
{
	struct tfs t;

	parse(
	    &t,
	    "LABEL hd\nLOCALBOOT 0\nLABEL hdt\nKERNEL hdt.c32\nLABEL win\n"
	    "COM32 chain.c32\nAPPEND hd0 1\nLABEL mem\nKERNEL memtest86+.bin\n"
	    "LABEL iso\nKERNEL memdisk\nAPPEND iso initrd=x.iso\n");
	CHECK_INT(t.out.count, 5);
	CHECK(nth(&t, 0)->disabled &&
	      strstr(nth(&t, 0)->disabled, "LOCALBOOT"));
	CHECK_STR(nth(&t, 0)->kernel.path, NULL);
	CHECK(nth(&t, 1)->disabled &&
	      strstr(nth(&t, 1)->disabled, "COM32 module hdt.c32"));
	CHECK(nth(&t, 2)->disabled &&
	      strstr(nth(&t, 2)->disabled, "chainloads"));
	CHECK(nth(&t, 3)->disabled &&
	      strstr(nth(&t, 3)->disabled, "boot sector"));
	CHECK(nth(&t, 4)->disabled && strstr(nth(&t, 4)->disabled, "memdisk"));
	tfs_done(&t);
}

/* Xen through mboot.c32 (Qubes' installer, Alpine's xen_params): listed,
 * disabled with the reason grub's multiboot entries carry; another COM32
 * module keeps the generic one. */
TEST(mboot_xen_disabled_as_xen)
{
	struct tfs t;

	parse(&t, "LABEL q\nKERNEL mboot.c32\nAPPEND xen.gz --- vmlinuz "
		  "quiet --- initrd.img\nLABEL m\nCOM32 MBOOT.C32\n"
		  "APPEND xen.gz --- vmlinuz\n");
	CHECK_INT(t.out.count, 2);
	CHECK_STR(nth(&t, 0)->disabled,
		  "Xen (multiboot) is not bootable with kexec yet");
	CHECK_STR(nth(&t, 1)->disabled,
		  "Xen (multiboot) is not bootable with kexec yet");
	tfs_done(&t);
}

/* --- where the config is (issue 17, class 2) */

/* `extlinux --install /boot` (Alpine): ldlinux.sys and extlinux.conf in
 * /boot, which is the working directory. */
TEST(extlinux_installed_in_boot)
{
	struct tfs t;
	struct entry *e;

	tfs_init(&t);
	tfs_write(&t, "/boot/ldlinux.sys", "");
	tfs_write(&t, "/boot/extlinux.conf",
		  "DEFAULT menu.c32\nLABEL lts\n  LINUX vmlinuz-lts\n"
		  "  INITRD initramfs-lts\n  APPEND root=/dev/sda1\n");
	syslinux_parse_fs(&t.ctx);
	CHECK_INT(t.out.count, 1);
	e = nth(&t, 0);
	CHECK_STR(e ? e->source : NULL, "/boot/extlinux.conf");
	CHECK_STR(e ? e->kernel.path : NULL, "/boot/vmlinuz-lts");
	CHECK_INT(e ? e->n_initrds : 0, 1);
	CHECK_STR(e && e->n_initrds ? e->initrds[0].path : NULL,
		  "/boot/initramfs-lts");
	CHECK_INT(n_warn(&t), 0);
	tfs_done(&t);
}

/* generic_open_config(): the install directory, then /boot/syslinux,
 * /syslinux, /; extlinux.conf before syslinux.cfg in each; one config. */
TEST(sys_search_order)
{
	struct tfs t;

	tfs_init(&t);
	t.fs.fstype = "ext4";
	tfs_write(&t, "/boot/extlinux/ldlinux.sys", "");
	tfs_write(&t, "/boot/extlinux/syslinux.cfg", "LABEL inst2\nLINUX k\n");
	tfs_write(&t, "/boot/extlinux/extlinux.conf", "LABEL inst\nLINUX k\n");
	tfs_write(&t, "/boot/syslinux/syslinux.cfg", "LABEL bs\nLINUX k\n");
	tfs_write(&t, "/extlinux.conf", "LABEL root\nLINUX k\n");
	syslinux_parse_fs(&t.ctx);
	CHECK_INT(t.out.count, 1);
	CHECK_STR(nth(&t, 0) ? nth(&t, 0)->id : NULL, "inst");
	CHECK_STR(nth(&t, 0) ? nth(&t, 0)->kernel.path : NULL,
		  "/boot/extlinux/k");
	tfs_done(&t);
	/* no install directory: /boot/syslinux before /, and in /
	 * extlinux.conf before syslinux.cfg */
	tfs_init(&t);
	t.fs.fstype = "vfat";
	tfs_write(&t, "/syslinux.cfg", "LABEL s\nLINUX k\n");
	tfs_write(&t, "/extlinux.conf", "LABEL e\nLINUX k\n");
	syslinux_parse_fs(&t.ctx);
	CHECK_INT(t.out.count, 1);
	CHECK_STR(nth(&t, 0) ? nth(&t, 0)->id : NULL, "e");
	tfs_write(&t, "/boot/syslinux/syslinux.cfg", "LABEL b\nLINUX k\n");
	t.out.head = NULL, t.out.tail = &t.out.head, t.out.count = 0;
	syslinux_parse_fs(&t.ctx);
	CHECK_INT(t.out.count, 1);
	CHECK_STR(nth(&t, 0) ? nth(&t, 0)->id : NULL, "b");
	tfs_done(&t);
}

/* ldlinux.sys lives in the btrfs/xfs boot area: ldlinux.c32 shows the
 * install directory. A disk never reads isolinux.cfg. */
TEST(sys_install_dir_by_ldlinux_c32)
{
	struct tfs t;

	tfs_init(&t);
	t.fs.fstype = "btrfs";
	tfs_write(&t, "/boot/syslinux/ldlinux.c32", "");
	tfs_write(&t, "/boot/syslinux/syslinux.cfg", "LABEL a\nLINUX k\n");
	tfs_write(&t, "/isolinux/isolinux.cfg", "LABEL iso\nLINUX k\n");
	syslinux_parse_fs(&t.ctx);
	CHECK_INT(t.out.count, 1);
	CHECK_STR(nth(&t, 0) ? nth(&t, 0)->id : NULL, "a");
	tfs_done(&t);
	tfs_init(&t);
	t.fs.fstype = "vfat";
	tfs_write(&t, "/isolinux/isolinux.cfg", "LABEL iso\nLINUX k\n");
	syslinux_parse_fs(&t.ctx);
	CHECK_INT(t.out.count, 0);
	tfs_done(&t);
}

/* iso_open_config(): /boot/isolinux, /isolinux, /boot/syslinux,
 * /syslinux, /; isolinux.cfg then syslinux.cfg; never extlinux.conf. */
TEST(isolinux_search_order)
{
	struct tfs t;

	tfs_init(&t);
	t.fs.fstype = "iso9660";
	tfs_write(&t, "/boot/syslinux/isolinux.cfg", "LABEL bs\nLINUX k\n");
	tfs_write(&t, "/isolinux/syslinux.cfg", "LABEL iso2\nLINUX k\n");
	tfs_write(&t, "/isolinux/isolinux.cfg", "LABEL iso\nLINUX k\n");
	tfs_write(&t, "/extlinux.conf", "LABEL ext\nLINUX k\n");
	syslinux_parse_fs(&t.ctx);
	CHECK_INT(t.out.count, 1);
	CHECK_STR(nth(&t, 0) ? nth(&t, 0)->id : NULL, "iso");
	CHECK_STR(nth(&t, 0) ? nth(&t, 0)->kernel.path : NULL, "/isolinux/k");
	tfs_done(&t);
	tfs_init(&t);
	t.fs.fstype = "iso9660";
	tfs_write(&t, "/extlinux.conf", "LABEL ext\nLINUX k\n");
	syslinux_parse_fs(&t.ctx);
	CHECK_INT(t.out.count, 0);
	tfs_done(&t);
}

/* A --root tree has no filesystem type: isolinux.bin where ISOLINUX
 * looks makes it an ISO's, ldlinux.sys a disk install. */
TEST(tree_variant_by_loader_files)
{
	static const char *const marks[] = {"/boot/syslinux/isolinux.bin",
					    "/boot/syslinux/ldlinux.sys", NULL};
	static const char *const want[] = {"iso", "sys", "sys"};

	for (int i = 0; i < 3; i++) {
		struct tfs t;

		tfs_init(&t);
		if (marks[i])
			tfs_write(&t, marks[i], "");
		tfs_write(&t, "/isolinux/isolinux.cfg", "LABEL iso\nLINUX k\n");
		tfs_write(&t, "/boot/syslinux/syslinux.cfg",
			  "LABEL sys\nLINUX k\n");
		syslinux_parse_fs(&t.ctx);
		CHECK_INT(t.out.count, 1);
		CHECK_STR(nth(&t, 0) ? nth(&t, 0)->id : NULL, want[i]);
		tfs_done(&t);
	}
}

/* --- as the loader runs (issue 17, class 3) */

/* DEFAULT runs a CONFIG label at once (no UI, no PROMPT): that config
 * replaces this one, its working directory from APPEND. */
TEST(config_replaces_the_configuration)
{
	struct tfs t;

	tfs_init(&t);
	tfs_write(&t, "/isolinux/isolinux.cfg",
		  "TIMEOUT 10\nDEFAULT loadconfig\nLABEL loadconfig\nCONFIG "
		  "/syslinux/archiso.cfg\nAPPEND /syslinux/\nLABEL other\n"
		  "LINUX other\n");
	tfs_write(&t, "/syslinux/archiso.cfg",
		  "TIMEOUT 50\nLABEL arch\nLINUX boot/vmlinuz\n");
	syslinux_parse_fs(&t.ctx);
	CHECK_INT(t.out.count, 1);
	CHECK_STR(nth(&t, 0) ? nth(&t, 0)->id : NULL, "arch");
	CHECK_STR(nth(&t, 0) ? nth(&t, 0)->group : "x", NULL);
	CHECK_STR(nth(&t, 0) ? nth(&t, 0)->kernel.path : NULL,
		  "/syslinux/boot/vmlinuz");
	CHECK(nth(&t, 0) && nth(&t, 0)->is_default);
	CHECK_INT(t.out.timeout_ds, 50);
	tfs_done(&t);
	/* no directory: the working directory stays (execute.c) */
	tfs_init(&t);
	tfs_write(&t, "/isolinux/isolinux.cfg",
		  "DEFAULT c\nLABEL c\nCONFIG sub/next.cfg\n");
	tfs_write(&t, "/isolinux/sub/next.cfg", "LABEL n\nLINUX vmlinuz\n");
	syslinux_parse_fs(&t.ctx);
	CHECK_INT(t.out.count, 1);
	CHECK_STR(nth(&t, 0) ? nth(&t, 0)->kernel.path : NULL,
		  "/isolinux/vmlinuz");
	tfs_done(&t);
}

/* With a menu or a boot: prompt shown, a CONFIG label is something to
 * choose: its config's menu is a group. A config that CONFIGs itself is
 * followed SYSLINUX_CONFIG_DEPTH times, with a warning. */
TEST(config_label_in_a_menu_and_loops)
{
	struct tfs t;

	tfs_init(&t);
	tfs_write(&t, "/syslinux.cfg",
		  "UI menu.c32\nLABEL a\nLINUX k\nLABEL help\nMENU LABEL "
		  "^Help\nCONFIG help.cfg\n");
	tfs_write(&t, "/help.cfg", "PROMPT 1\nLABEL h\nLINUX hk\n");
	syslinux_parse_fs(&t.ctx);
	CHECK_INT(t.out.count, 2);
	CHECK_STR(nth(&t, 1) ? nth(&t, 1)->group : NULL, "Help");
	CHECK(nth(&t, 0) && nth(&t, 0)->is_default);
	tfs_done(&t);
	tfs_init(&t);
	tfs_write(&t, "/syslinux.cfg",
		  "PROMPT 1\nDEFAULT c\nLABEL c\nCONFIG /x.cfg\n");
	tfs_write(&t, "/x.cfg", "LABEL x\nLINUX k\n");
	syslinux_parse_fs(&t.ctx);
	CHECK_INT(t.out.count, 1);
	CHECK_STR(nth(&t, 0) ? nth(&t, 0)->group : NULL, "c");
	tfs_done(&t);
	tfs_init(&t);
	tfs_write(&t, "/syslinux.cfg",
		  "DEFAULT again\nLABEL again\nCONFIG syslinux.cfg\n");
	syslinux_parse_fs(&t.ctx);
	CHECK_INT(t.out.count, 0);
	CHECK_INT(n_warn(&t), 1);
	CHECK(t.out.warnings && strstr(t.out.warnings->msg, "CONFIG followed"));
	tfs_done(&t);
}

/* archiso's syslinux.cfg: whichsys.c32 picks the branch of the variant
 * bootmenu acts as. */
static const char whichsys_cfg[] =
    "DEFAULT select\nLABEL select\nCOM32 whichsys.c32\n"
    "APPEND -pxe- pxe -sys- sys -iso- iso\nLABEL pxe\nCONFIG pxe.cfg\n"
    "LABEL sys\nCONFIG sys.cfg\nLABEL iso\nCONFIG iso.cfg\n";

static void write_branches(struct tfs *t, const char *dir)
{
	char path[256];
	static const char *const names[] = {"pxe", "sys", "iso"};

	for (int i = 0; i < 3; i++) {
		char text[64];

		snprintf(path, sizeof(path), "%s/%s.cfg", dir, names[i]);
		snprintf(text, sizeof(text), "LABEL %s-entry\nLINUX k\n",
			 names[i]);
		tfs_write(t, path, text);
	}
}

TEST(whichsys_follows_the_variant)
{
	static const char *const fstypes[] = {"iso9660", "ext4"};
	static const char *const want[] = {"iso-entry", "sys-entry"};
	struct tfs t;

	for (int i = 0; i < 2; i++) {
		tfs_init(&t);
		t.fs.fstype = fstypes[i];
		tfs_write(&t, "/syslinux/syslinux.cfg", whichsys_cfg);
		write_branches(&t, "/syslinux");
		syslinux_parse_fs(&t.ctx);
		CHECK_INT(t.out.count, 1);
		CHECK_STR(nth(&t, 0) ? nth(&t, 0)->id : NULL, want[i]);
		tfs_done(&t);
	}
	tfs_init(&t);
	tfs_write(&t, "/srv/tftp/pxelinux.cfg/default", whichsys_cfg);
	write_branches(&t, "/srv/tftp");
	syslinux_parse_fs(&t.ctx);
	CHECK_INT(t.out.count, 1);
	CHECK_STR(nth(&t, 0) ? nth(&t, 0)->id : NULL, "pxe-entry");
	tfs_done(&t);
	/* no branch for this variant: the label is shown, disabled */
	parse(&t, "LABEL w\nCOM32 whichsys.c32\nAPPEND -iso- x\nLABEL x\n"
		  "LINUX k\n");
	CHECK_INT(t.out.count, 2);
	CHECK_STR(nth(&t, 0) ? nth(&t, 0)->disabled : NULL,
		  "whichsys.c32 names no command for SYSLINUX");
	tfs_done(&t);
}

/* ifcpu64.c32 on a 64-bit CPU runs its first branch; the label shows
 * what that branch boots. */
TEST(ifcpu64_takes_the_64bit_branch)
{
	struct tfs t;
	struct entry *e;

	parse(&t, "DEFAULT auto\nLABEL auto\nMENU LABEL Install\nKERNEL "
		  "ifcpu64.c32\nAPPEND l64 quiet -- l32\nLABEL l64\nMENU HIDE\n"
		  "LINUX amd64/linux\nINITRD amd64/initrd.gz\nAPPEND vga=788\n"
		  "LABEL l32\nMENU HIDE\nLINUX 386/linux\n");
	CHECK_INT(t.out.count, 1);
	e = nth(&t, 0);
	CHECK_STR(e ? e->title : NULL, "Install");
	CHECK_STR(e ? e->kernel.path : NULL, "/boot/syslinux/amd64/linux");
	CHECK_STR(
	    e ? e->cmdline : NULL,
	    "BOOT_IMAGE=amd64/linux vga=788 initrd=amd64/initrd.gz quiet");
	CHECK_STR(e ? e->disabled : "x", NULL);
	CHECK(e && e->is_default);
	tfs_done(&t);
}

/* ifcpu.c32: "64" and "pae" hold on x86-64, other features are taken as
 * absent (the second branch); "dry-run" boots nothing. */
TEST(ifcpu_features)
{
	static const struct {
		const char *append, *kernel, *disabled;
	} cases[] = {
	    {"64 pae -- a -- b", "/boot/syslinux/ka", NULL},
	    {"64 hvm -- a -- b", "/boot/syslinux/kb", NULL},
	    {"smp -- a", "/boot/syslinux/ka", NULL},
	    {"dry-run 64 -- a -- b", "/boot/syslinux/ifcpu.c32",
	     "ifcpu.c32 dry-run: boots nothing"},
	};
	struct tfs t;
	char cfg[256];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(cfg, sizeof(cfg),
			 "LABEL c\nCOM32 ifcpu.c32\nAPPEND %s\nLABEL a\nMENU "
			 "HIDE\nLINUX ka\nLABEL b\nMENU HIDE\nLINUX kb\n",
			 cases[i].append);
		parse(&t, cfg);
		CHECK_INT(t.out.count, 1);
		CHECK_STR(nth(&t, 0) ? nth(&t, 0)->kernel.path : NULL,
			  cases[i].kernel);
		CHECK_STR(nth(&t, 0) ? nth(&t, 0)->disabled : "x",
			  cases[i].disabled);
		tfs_done(&t);
	}
}

/* `::` is the TFTP root: only PXELINUX can open it. */
TEST(pxelinux_double_colon_paths)
{
	static const char cfg[] = "LABEL n\nLINUX ::/arch/vmlinuz\n"
				  "INITRD ::/arch/initrd.img\n";
	struct tfs t;

	parse(&t, cfg);
	CHECK_INT(t.out.count, 1);
	CHECK_STR(nth(&t, 0) ? nth(&t, 0)->disabled : NULL,
		  "a PXELINUX path (::...) is only reachable over the network");
	tfs_done(&t);
	tfs_init(&t);
	tfs_write(&t, "/srv/tftp/pxelinux.cfg/default", cfg);
	syslinux_parse_fs(&t.ctx);
	CHECK_INT(t.out.count, 1);
	CHECK_STR(nth(&t, 0) ? nth(&t, 0)->kernel.path : NULL,
		  "/srv/tftp/arch/vmlinuz");
	CHECK_STR(nth(&t, 0) && nth(&t, 0)->n_initrds
		      ? nth(&t, 0)->initrds[0].path
		      : NULL,
		  "/srv/tftp/arch/initrd.img");
	CHECK_STR(nth(&t, 0) ? nth(&t, 0)->disabled : "x", NULL);
	tfs_done(&t);
}

/* DEFAULT naming a label whose kernel is vesamenu.c32 runs the menu:
 * that label is not an entry, and the default is MENU DEFAULT. */
TEST(menu_module_label_is_the_menu)
{
	struct tfs t;

	parse(&t, "DEFAULT menu\nLABEL menu\nKERNEL vesamenu.c32\nLABEL a\n"
		  "LINUX k\nLABEL b\nMENU DEFAULT\nLINUX k\n");
	CHECK_INT(t.out.count, 2);
	CHECK_STR(nth(&t, 0) ? nth(&t, 0)->id : NULL, "a");
	CHECK(nth(&t, 1) && nth(&t, 1)->is_default);
	tfs_done(&t);
}

/* MENU SEPARATOR ends the label: a following APPEND is global. */
TEST(menu_separator_ends_label)
{
	struct tfs t;

	parse(&t, "LABEL a\nLINUX k\nMENU SEPARATOR\nAPPEND global\nLABEL b\n"
		  "LINUX k\n");
	CHECK_INT(t.out.count, 2);
	CHECK_STR(nth(&t, 0) ? nth(&t, 0)->cmdline : NULL, "BOOT_IMAGE=k");
	CHECK_STR(nth(&t, 1) ? nth(&t, 1)->cmdline : NULL,
		  "BOOT_IMAGE=k global");
	tfs_done(&t);
}

TEST(fdt_and_devicetree)
{
	struct tfs t;

	parse(&t, "LABEL a\nLINUX k\nFDT dtbs/board.dtb\nLABEL b\nLINUX "
		  "k\nDEVICETREE /x.dtb\n");
	CHECK_STR(nth(&t, 0)->devicetree, "/boot/syslinux/dtbs/board.dtb");
	CHECK_STR(nth(&t, 1)->devicetree, "/x.dtb");
	tfs_done(&t);
}

TEST(text_help_is_not_config)
{
	struct tfs t;

	parse(&t, "LABEL a\nLINUX k\nTEXT HELP\n  LABEL fake\n  KERNEL "
		  "nope\nENDTEXT\n"
		  "APPEND after\n");
	CHECK_INT(t.out.count, 1);
	CHECK_STR(nth(&t, 0)->cmdline, "BOOT_IMAGE=k after");
	tfs_done(&t);
}

TEST(ignored_and_unknown_keywords)
{
	struct tfs t;

	parse(&t,
	      "SAY hello\nPROMPT 1\nPATH /lib\nSERIAL 0 115200\nF1 help.txt\n"
	      "FROBNICATE x\nLABEL a\nLINUX k\n# comment\n");
	CHECK_INT(t.out.count, 1);
	CHECK_INT(n_warn(&t), 1);
	CHECK_INT(t.out.warnings->line, 6);
	CHECK(strstr(t.out.warnings->msg, "FROBNICATE") != NULL);
	tfs_done(&t);
}

TEST(pxelinux_default_only)
{
	struct tfs t;

	tfs_init(&t);
	tfs_write(&t, "/srv/tftp/pxelinux.cfg/default",
		  "LABEL net\nKERNEL debian/linux\n");
	tfs_write(&t, "/srv/tftp/pxelinux.cfg/01-52-54-00-12-34-56",
		  "LABEL mac\nKERNEL m\n");
	syslinux_parse_fs(&t.ctx);
	CHECK_INT(t.out.count, 1);
	CHECK_STR(nth(&t, 0)->id, "net");
	CHECK_STR(nth(&t, 0)->kernel.path, "/srv/tftp/debian/linux");
	CHECK_INT(n_warn(&t), 1); /* the per-client file is not chosen */
	tfs_done(&t);
}

TEST(same_config_twice_read_once)
{
	struct tfs t;

	tfs_init(&t);
	tfs_write(&t, "/boot/extlinux/extlinux.conf", "LABEL a\nLINUX k\n");
	tfs_link(&t, "/extlinux.conf", "boot/extlinux/extlinux.conf");
	syslinux_parse_fs(&t.ctx);
	CHECK_INT(t.out.count, 1);
	tfs_done(&t);
}

TEST(buffer_entry_point)
{
	struct tfs t;
	static const char cfg[] =
	    "LABEL a\nLINUX k\n\r\nLABEL b\r\nLINUX j\r\n";

	tfs_init(&t);
	CHECK_INT(
	    syslinux_parse_buf(&t.ctx, "/x/y.cfg", NULL, cfg, sizeof(cfg) - 1),
	    2);
	CHECK_STR(nth(&t, 1)->kernel.path, "/x/j");
	tfs_done(&t);
}

/* What bootmenu-install --bios writes (install/bios.c): one entry
 * booting bootmenu itself. */
#define BIOS_INSTALL_CONF                                                      \
	"DEFAULT bootmenu\nPROMPT 0\nTIMEOUT 0\nLABEL bootmenu\n"              \
	"\tLINUX bootmenu.efi\n"                                               \
	"\tAPPEND console=tty0 console=ttyS0,115200\n"

/* bootmenu's own install (/boot/bootmenu/ with ldlinux.sys) is no config
 * the finder reads, and its one entry, parsed anyway, is dropped by
 * entry_finish(): bootmenu would only start itself. */
TEST(bios_install_of_bootmenu_is_not_listed)
{
	struct tfs t;

	tfs_init(&t);
	tfs_write(&t, "/boot/bootmenu/extlinux.conf", BIOS_INSTALL_CONF);
	tfs_write(&t, "/boot/bootmenu/ldlinux.sys", "x");
	tfs_write(&t, "/boot/bootmenu/ldlinux.c32", "x");
	tfs_write(&t, "/boot/bootmenu/bootmenu.efi", "MZ");
	CHECK_INT(syslinux_parse_fs(&t.ctx), 0);
	CHECK_INT(t.out.count, 0);
	CHECK_INT(
	    syslinux_parse_file(&t.ctx, "/boot/bootmenu/extlinux.conf", NULL),
	    1);
	CHECK_STR(nth(&t, 0)->kernel.path, "/boot/bootmenu/bootmenu.efi");
	entry_finish(&t.out, t.all, 1);
	CHECK_INT(t.out.count, 0);
	CHECK(t.out.head == NULL);
	tfs_done(&t);
}

/* A user's config chaining bootmenu (a separate /boot: the path is
 * /bootmenu/bootmenu.efi) loses that entry and keeps the others. */
TEST(entry_booting_bootmenu_is_dropped)
{
	struct tfs t;

	parse(&t, "LABEL bm\n LINUX /bootmenu/bootmenu.efi\n"
		  "LABEL linux\n LINUX /vmlinuz\n"
		  "LABEL other\n LINUX /bootmenu/bootmenu.efi.old\n");
	CHECK_INT(t.out.count, 3);
	entry_finish(&t.out, t.all, 1);
	CHECK_INT(t.out.count, 2);
	CHECK_STR(nth(&t, 0)->id, "linux");
	CHECK_STR(nth(&t, 1)->id, "other");
	tfs_done(&t);
}

TEST_MAIN("test_syslinux", label_kernel_append, keywords_ignore_case,
	  bios_install_of_bootmenu_is_not_listed,
	  entry_booting_bootmenu_is_dropped, append_initrd_comma_list,
	  initrd_keyword, global_append_and_dash, kernel_args_before_append,
	  label_without_kernel_boots_itself, default_names_label,
	  default_with_options_and_ui_module, menu_default, ontimeout_wins,
	  menu_label_strips_caret, menu_hide, menu_title_and_passwd,
	  timeout_tenths, include_relative_to_config_dir,
	  include_loop_and_depth, include_missing_is_silent,
	  include_fan_out_is_bounded, menu_include_with_tag_is_submenu,
	  menu_begin_end_groups, localboot_and_modules_disabled,
	  mboot_xen_disabled_as_xen, extlinux_installed_in_boot,
	  sys_search_order, sys_install_dir_by_ldlinux_c32,
	  isolinux_search_order, tree_variant_by_loader_files,
	  config_replaces_the_configuration, config_label_in_a_menu_and_loops,
	  whichsys_follows_the_variant, ifcpu64_takes_the_64bit_branch,
	  ifcpu_features, pxelinux_double_colon_paths,
	  menu_module_label_is_the_menu, menu_separator_ends_label,
	  fdt_and_devicetree, text_help_is_not_config,
	  ignored_and_unknown_keywords, pxelinux_default_only,
	  same_config_twice_read_once, buffer_entry_point)
