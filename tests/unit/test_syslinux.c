/* test_syslinux.c - one test per syslinux keyword. */
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

TEST(config_label_becomes_group)
{
	struct tfs t;

	tfs_init(&t);
	tfs_write(&t, "/isolinux/isolinux.cfg",
		  "DEFAULT loadconfig\nLABEL loadconfig\nCONFIG "
		  "/syslinux/archiso.cfg\n"
		  "APPEND /syslinux/\n");
	tfs_write(&t, "/syslinux/archiso.cfg",
		  "LABEL arch\nLINUX boot/vmlinuz\n");
	syslinux_parse_fs(&t.ctx);
	CHECK_INT(t.out.count, 1);
	CHECK_STR(nth(&t, 0)->group, "loadconfig");
	/* APPEND gave the new working directory */
	CHECK_STR(nth(&t, 0)->kernel.path, "/syslinux/boot/vmlinuz");
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

TEST_MAIN("test_syslinux", label_kernel_append, keywords_ignore_case,
	  append_initrd_comma_list, initrd_keyword, global_append_and_dash,
	  kernel_args_before_append, label_without_kernel_boots_itself,
	  default_names_label, default_with_options_and_ui_module, menu_default,
	  ontimeout_wins, menu_label_strips_caret, menu_hide,
	  menu_title_and_passwd, timeout_tenths, include_relative_to_config_dir,
	  include_loop_and_depth, include_fan_out_is_bounded,
	  menu_include_with_tag_is_submenu, menu_begin_end_groups,
	  localboot_and_modules_disabled, config_label_becomes_group,
	  fdt_and_devicetree, text_help_is_not_config,
	  ignored_and_unknown_keywords, pxelinux_default_only,
	  same_config_twice_read_once, buffer_entry_point)
