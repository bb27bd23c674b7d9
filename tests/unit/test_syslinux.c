/* test_syslinux.c - the syslinux keywords, where each variant finds its
 * config, and what the boot runs (issue 17). Most tests are tables of
 * cases: files in, the values expected of the entries out. */
#include "test.h"
#include "cfg/syslinux.h"
#include "cfg/resolve.h"
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

/* What one value of a case is: of the whole run up to W_WARN_HAS, of
 * entry @i from W_ID on (strings up to W_INITRD, then numbers, then
 * conditions). */
enum what {
	W_END, /* ends a case's list */
	W_COUNT,
	W_WARNINGS,
	W_TIMEOUT,
	W_WARN_LINE, /* the first warning's line */
	W_WARN_HAS,  /* the first warning's message contains @str */
	W_ID,
	W_TITLE,
	W_KERNEL,
	W_CMDLINE,
	W_GROUP,
	W_SOURCE,
	W_DEVICETREE,
	W_DISABLED,
	W_MODULE,      /* the path of module @num */
	W_MODULE_ARGS, /* the string of module @num */
	W_INITRD,      /* the path of initrd @num */
	W_N_INITRDS,
	W_N_MODULES,
	W_MULTIBOOT,
	W_LINE,
	W_DISABLED_HAS, /* disabled, the reason containing @str */
	W_DEFAULT,
	W_NOT_DEFAULT,
	W_PASSWORD,
};

static const char *const what_name[] = {
    [W_COUNT] = "count",
    [W_WARNINGS] = "warnings",
    [W_TIMEOUT] = "timeout",
    [W_WARN_LINE] = "first warning's line",
    [W_WARN_HAS] = "first warning",
    [W_ID] = "id",
    [W_TITLE] = "title",
    [W_KERNEL] = "kernel",
    [W_CMDLINE] = "cmdline",
    [W_GROUP] = "group",
    [W_SOURCE] = "source",
    [W_DEVICETREE] = "devicetree",
    [W_DISABLED] = "disabled",
    [W_INITRD] = "initrd",
    [W_MODULE] = "module",
    [W_MODULE_ARGS] = "module's string",
    [W_N_MODULES] = "module count",
    [W_MULTIBOOT] = "multiboot",
    [W_DISABLED_HAS] = "disabled",
    [W_N_INITRDS] = "initrd count",
    [W_LINE] = "line",
    [W_DEFAULT] = "default",
    [W_NOT_DEFAULT] = "not default",
    [W_PASSWORD] = "password",
};

/* A value a case expects: a string in @str (NULL: the field is NULL), a
 * number in @num (W_INITRD: which initrd). */
struct want {
	enum what what;
	int i;
	const char *str;
	long num;
};

#define WANT_MAX 14
#define FILES_MAX 5

/* A file with @text, or a symbolic link to @link. */
struct file {
	const char *path, *text, *link;
};

/* A filesystem of type @fstype (NULL: a --root tree) with @cfg as
 * /boot/syslinux/syslinux.cfg (when not NULL) and @files, what
 * syslinux_parse_fs() makes of it. */
struct scase {
	const char *name;
	const char *cfg;
	const char *fstype;
	struct file files[FILES_MAX];
	struct want want[WANT_MAX];
};

static const char *entry_str(const struct entry *e, const struct want *w)
{
	switch (w->what) {
	case W_ID:
		return e->id;
	case W_TITLE:
		return e->title;
	case W_KERNEL:
		return e->kernel.path;
	case W_CMDLINE:
		return e->cmdline;
	case W_GROUP:
		return e->group;
	case W_SOURCE:
		return e->source;
	case W_DEVICETREE:
		return e->devicetree;
	case W_DISABLED:
		return e->disabled;
	case W_MODULE:
	case W_MODULE_ARGS:
		if (w->num < 0 || (size_t)w->num >= e->n_modules)
			return "(no such module)";
		return w->what == W_MODULE ? e->modules[w->num].path
					   : e->module_args[w->num];
	default: /* W_INITRD */
		return w->num >= 0 && (size_t)w->num < e->n_initrds
			   ? e->initrds[w->num].path
			   : "(no such initrd)";
	}
}

/* A number of the whole run. */
static long run_num(struct tfs *t, const struct want *w)
{
	switch (w->what) {
	case W_COUNT:
		return (long)t->out.count;
	case W_WARNINGS:
		return (long)n_warn(t);
	case W_TIMEOUT:
		return t->out.timeout_ds;
	default: /* W_WARN_LINE */
		return t->out.warnings ? t->out.warnings->line : -1;
	}
}

/* Does entry @e meet condition @w? */
static bool entry_is(const struct entry *e, const struct want *w)
{
	switch (w->what) {
	case W_DISABLED_HAS:
		return e->disabled && strstr(e->disabled, w->str);
	case W_DEFAULT:
		return e->is_default;
	case W_NOT_DEFAULT:
		return !e->is_default;
	default: /* W_PASSWORD */
		return e->password;
	}
}

static void check_want(struct tfs *t, const struct want *w)
{
	const struct entry *e = nth(t, w->i);
	const struct warning *first = t->out.warnings;

	if (w->what == W_WARN_HAS)
		CHECK(first && strstr(first->msg, w->str));
	else if (w->what < W_ID)
		CHECK_INT(run_num(t, w), w->num);
	else if (w->what <= W_INITRD)
		CHECK_STR(e ? entry_str(e, w) : "(no entry)", w->str);
	else if (w->what == W_N_INITRDS)
		CHECK_INT(e ? (long)e->n_initrds : -1, w->num);
	else if (w->what == W_N_MODULES)
		CHECK_INT(e ? (long)e->n_modules : -1, w->num);
	else if (w->what == W_MULTIBOOT)
		CHECK_INT(e ? e->multiboot : -1, w->num);
	else if (w->what == W_LINE)
		CHECK_INT(e ? e->line : -1, w->num);
	else
		CHECK(e && entry_is(e, w));
}

/* Check each value @c wants of @t; a value that differs is followed by
 * the case's name and what the value is. */
static void check_case(struct tfs *t, const struct scase *c)
{
	for (const struct want *w = c->want;
	     w < c->want + WANT_MAX && w->what != W_END; w++) {
		int before = test_failures;

		check_want(t, w);
		if (test_failures == before)
			continue;
		printf("  case %s: %s", c->name, what_name[w->what]);
		if (w->what == W_INITRD || w->what == W_MODULE ||
		    w->what == W_MODULE_ARGS)
			printf(" %ld", w->num);
		if (w->what >= W_ID)
			printf(" of entry %d", w->i);
		printf("\n");
	}
}

/* Build each case's filesystem, parse it and check it. */
static void run_cases(const struct scase *cases, size_t n)
{
	for (const struct scase *c = cases; c < cases + n; c++) {
		struct tfs t;

		tfs_init(&t);
		t.fs.fstype = c->fstype;
		if (c->cfg)
			tfs_write(&t, "/boot/syslinux/syslinux.cfg", c->cfg);
		for (const struct file *f = c->files;
		     f < c->files + FILES_MAX && f->path; f++) {
			if (f->link)
				tfs_link(&t, f->path, f->link);
			else
				tfs_write(&t, f->path, f->text);
		}
		syslinux_parse_fs(&t.ctx);
		check_case(&t, c);
		tfs_done(&t);
	}
}

#define RUN_CASES(cases) run_cases(cases, sizeof(cases) / sizeof(cases[0]))

/* --- the keywords (issue 17, class 1) */

TEST(label_kernel_and_append)
{
	static const struct scase cases[] = {
	    {.name = "label_kernel_append",
	     .cfg = "LABEL linux\n  KERNEL vmlinuz\n"
		    "  APPEND root=/dev/sda1 ro\n",
	     .want = {{W_COUNT, .num = 1},
		      {W_ID, 0, "linux"},
		      {W_TITLE, 0, "linux"},
		      {W_KERNEL, 0, "/boot/syslinux/vmlinuz"},
		      {W_CMDLINE, 0, "BOOT_IMAGE=vmlinuz root=/dev/sda1 ro"},
		      {W_SOURCE, 0, "/boot/syslinux/syslinux.cfg"},
		      {W_LINE, 0, .num = 1},
		      {W_DEFAULT, 0},
		      {W_N_INITRDS, 0, .num = 0},
		      {W_WARNINGS, .num = 0}}},
	    {.name = "keywords_ignore_case",
	     .cfg = "label a\n\tlinux /vmlinuz\n\tappend quiet\n"
		    "LaBeL b\n\tLiNuX /k2\n",
	     .want = {{W_COUNT, .num = 2},
		      {W_KERNEL, 0, "/vmlinuz"},
		      {W_CMDLINE, 0, "BOOT_IMAGE=/vmlinuz quiet"},
		      {W_KERNEL, 1, "/k2"}}},
	    /* syslinux leaves initrd= on the command line */
	    {.name = "append_initrd_comma_list",
	     .cfg =
		 "LABEL l\nLINUX vmlinuz\nAPPEND initrd=/a.img,b.img quiet\n",
	     .want = {{W_N_INITRDS, 0, .num = 2},
		      {W_INITRD, 0, "/a.img", 0},
		      {W_INITRD, 0, "/boot/syslinux/b.img", 1},
		      {W_CMDLINE, 0,
		       "BOOT_IMAGE=vmlinuz initrd=/a.img,b.img quiet"}}},
	    {.name = "initrd_keyword",
	     .cfg = "INITRD /ignored-global.img\nLABEL l\nLINUX vmlinuz\n"
		    "INITRD initrd.gz\nAPPEND ro\n",
	     .want = {{W_N_INITRDS, 0, .num = 1},
		      {W_INITRD, 0, "/boot/syslinux/initrd.gz", 0},
		      {W_CMDLINE, 0,
		       "BOOT_IMAGE=vmlinuz ro initrd=initrd.gz"}}},
	    {.name = "global_append_and_dash",
	     .cfg = "APPEND console=ttyS0\nLABEL a\nLINUX k\nLABEL b\nLINUX k\n"
		    "APPEND -\nLABEL c\nLINUX k\nAPPEND own\n",
	     .want = {{W_CMDLINE, 0, "BOOT_IMAGE=k console=ttyS0"},
		      {W_CMDLINE, 1, "BOOT_IMAGE=k"},
		      {W_CMDLINE, 2, "BOOT_IMAGE=k own"}}},
	    {.name = "kernel_args_before_append",
	     .cfg = "LABEL a\nKERNEL vmlinuz single\nAPPEND ro\n",
	     .want = {{W_KERNEL, 0, "/boot/syslinux/vmlinuz"},
		      {W_CMDLINE, 0, "BOOT_IMAGE=vmlinuz single ro"}}},
	    {.name = "label_without_kernel_boots_itself",
	     .cfg = "LABEL vmlinuz\nAPPEND ro\n",
	     .want = {{W_KERNEL, 0, "/boot/syslinux/vmlinuz"}}},
	    /* MENU SEPARATOR ends the label: a following APPEND is global */
	    {.name = "menu_separator_ends_label",
	     .cfg = "LABEL a\nLINUX k\nMENU SEPARATOR\nAPPEND global\n"
		    "LABEL b\nLINUX k\n",
	     .want = {{W_COUNT, .num = 2},
		      {W_CMDLINE, 0, "BOOT_IMAGE=k"},
		      {W_CMDLINE, 1, "BOOT_IMAGE=k global"}}},
	    {.name = "fdt_and_devicetree",
	     .cfg = "LABEL a\nLINUX k\nFDT dtbs/board.dtb\n"
		    "LABEL b\nLINUX k\nDEVICETREE /x.dtb\n",
	     .want = {{W_DEVICETREE, 0, "/boot/syslinux/dtbs/board.dtb"},
		      {W_DEVICETREE, 1, "/x.dtb"}}},
	    {.name = "text_help_is_not_config",
	     .cfg = "LABEL a\nLINUX k\nTEXT HELP\n  LABEL fake\n"
		    "  KERNEL nope\nENDTEXT\nAPPEND after\n",
	     .want = {{W_COUNT, .num = 1},
		      {W_CMDLINE, 0, "BOOT_IMAGE=k after"}}},
	};

	RUN_CASES(cases);
}

TEST(default_keywords)
{
	static const struct scase cases[] = {
	    {.name = "default_names_label",
	     .cfg = "DEFAULT b\nLABEL a\nLINUX k\nLABEL b\nLINUX k\n",
	     .want = {{W_NOT_DEFAULT, 0}, {W_DEFAULT, 1}}},
	    {.name = "default_with_options",
	     .cfg = "DEFAULT b quiet\nLABEL a\nLINUX k\nLABEL b\nLINUX k\n",
	     .want = {{W_DEFAULT, 1}}},
	    /* DEFAULT vesamenu.c32 is the UI, not a label: the first entry */
	    {.name = "default_ui_module",
	     .cfg = "DEFAULT vesamenu.c32\nLABEL a\nLINUX k\nLABEL b\n"
		    "LINUX k\n",
	     .want = {{W_DEFAULT, 0}, {W_NOT_DEFAULT, 1}}},
	    {.name = "menu_default",
	     .cfg = "UI menu.c32\nLABEL a\nLINUX k\nLABEL b\nMENU DEFAULT\n"
		    "LINUX k\n",
	     .want = {{W_NOT_DEFAULT, 0}, {W_DEFAULT, 1}}},
	    {.name = "ontimeout_wins",
	     .cfg = "DEFAULT a\nONTIMEOUT c\nLABEL a\nLINUX k\nLABEL b\n"
		    "LINUX k\nLABEL c\nLINUX k\n",
	     .want = {{W_NOT_DEFAULT, 0}, {W_DEFAULT, 2}}},
	    /* DEFAULT naming a label whose kernel is vesamenu.c32 runs the
	     * menu: that label is not an entry, the default is MENU
	     * DEFAULT */
	    {.name = "menu_module_label_is_the_menu",
	     .cfg = "DEFAULT menu\nLABEL menu\nKERNEL vesamenu.c32\nLABEL a\n"
		    "LINUX k\nLABEL b\nMENU DEFAULT\nLINUX k\n",
	     .want = {{W_COUNT, .num = 2}, {W_ID, 0, "a"}, {W_DEFAULT, 1}}},
	};

	RUN_CASES(cases);
}

TEST(menu_keywords)
{
	static const struct scase cases[] = {
	    {.name = "menu_label_strips_caret",
	     .cfg = "LABEL install\nMENU LABEL ^Install Debian\nLINUX k\n",
	     .want = {{W_TITLE, 0, "Install Debian"}, {W_ID, 0, "install"}}},
	    {.name = "menu_hide",
	     .cfg = "LABEL a\nLINUX k\nLABEL secret\nMENU HIDE\nLINUX k\n",
	     .want = {{W_COUNT, .num = 1}, {W_ID, 0, "a"}}},
	    /* a hidden label that ONTIMEOUT boots is listed, as the default */
	    {.name = "menu_hide_ontimeout",
	     .cfg = "ONTIMEOUT secret\nLABEL a\nLINUX k\nLABEL secret\n"
		    "MENU HIDE\nLINUX k\n",
	     .want = {{W_COUNT, .num = 2},
		      {W_ID, 1, "secret"},
		      {W_DEFAULT, 1}}},
	    {.name = "menu_title_and_passwd",
	     .cfg = "MENU TITLE Boot menu\nLABEL a\nMENU PASSWD $4$x$\n"
		    "LINUX k\n",
	     .want = {{W_TITLE, 0, "a"},
		      {W_PASSWORD, 0},
		      {W_WARNINGS, .num = 0}}},
	    {.name = "menu_begin_end_groups",
	     .cfg = "LABEL a\nLINUX k\nMENU BEGIN adv\nMENU LABEL ^Advanced\n"
		    "MENU TITLE Advanced options\nLABEL b\nLINUX k\n"
		    "MENU BEGIN\nMENU TITLE Deeper\nLABEL c\nLINUX k\n"
		    "LABEL back\nMENU EXIT\nMENU END\nMENU END\nLABEL d\n"
		    "LINUX k\n",
	     .want = {{W_COUNT, .num = 4},
		      {W_GROUP, 0, NULL},
		      {W_GROUP, 1, "Advanced"},
		      {W_GROUP, 2, "Advanced>Deeper"},
		      {W_ID, 3, "d"},
		      {W_GROUP, 3, NULL}}},
	    {.name = "ignored_and_unknown_keywords",
	     .cfg = "SAY hello\nPROMPT 1\nPATH /lib\nSERIAL 0 115200\n"
		    "F1 help.txt\nFROBNICATE x\nLABEL a\nLINUX k\n"
		    "# comment\n",
	     .want = {{W_COUNT, .num = 1},
		      {W_WARNINGS, .num = 1},
		      {W_WARN_LINE, .num = 6},
		      {W_WARN_HAS, .str = "FROBNICATE"}}},
	};

	RUN_CASES(cases);
}

TEST(timeout_tenths)
{
	static const struct scase cases[] = {
	    {.name = "timeout",
	     .cfg = "TIMEOUT 50\nLABEL a\nLINUX k\n",
	     .want = {{W_TIMEOUT, .num = 50}}},
	    {.name = "totaltimeout_wins",
	     .cfg = "TIMEOUT 50\nTOTALTIMEOUT 30\nLABEL a\nLINUX k\n",
	     .want = {{W_TIMEOUT, .num = 30}}},
	    {.name = "totaltimeout",
	     .cfg = "TOTALTIMEOUT 90\nLABEL a\nLINUX k\n",
	     .want = {{W_TIMEOUT, .num = 90}}},
	    /* 0 waits forever: no timeout recorded */
	    {.name = "timeout_0",
	     .cfg = "TIMEOUT 0\nLABEL a\nLINUX k\n",
	     .want = {{W_TIMEOUT, .num = -1}}},
	};

	RUN_CASES(cases);
}

TEST(include_keywords)
{
	static const struct scase cases[] = {
	    /* paths in an included file are still relative to the main
	     * config */
	    {.name = "include_relative_to_config_dir",
	     .cfg = "INCLUDE sub/menu.cfg\nLABEL z\nLINUX z\n",
	     .files = {{"/boot/syslinux/sub/menu.cfg",
			"LABEL a\nLINUX vmlinuz\n"}},
	     .want = {{W_COUNT, .num = 2},
		      {W_KERNEL, 0, "/boot/syslinux/vmlinuz"},
		      {W_SOURCE, 0, "/boot/syslinux/sub/menu.cfg"},
		      {W_ID, 1, "z"}}},
	    /* the loop is one warning */
	    {.name = "include_loop",
	     .files = {{"/syslinux.cfg", "INCLUDE a.cfg\nLABEL top\nLINUX k\n"},
		       {"/a.cfg", "LABEL a\nLINUX k\nINCLUDE syslinux.cfg\n"}},
	     .want = {{W_COUNT, .num = 2}, {W_WARNINGS, .num = 1}}},
	    /* syslinux skips an INCLUDE whose file is missing without a
	     * word (d-i's text netboot menu.cfg names the gtk variant's
	     * files): no warning */
	    {.name = "include_missing_is_silent",
	     .files = {{"/syslinux.cfg", "INCLUDE gtk.cfg\nLABEL top\nLINUX k\n"
					 "INCLUDE absent.cfg\n"}},
	     .want = {{W_COUNT, .num = 1}, {W_WARNINGS, .num = 0}}},
	    {.name = "menu_include_with_tag_is_submenu",
	     .files = {{"/syslinux.cfg",
			"MENU INCLUDE more.cfg More options\nLABEL b\n"
			"LINUX k\n"},
		       {"/more.cfg", "LABEL a\nLINUX k\n"}},
	     .want = {{W_GROUP, 0, "More options"}, {W_GROUP, 1, NULL}}},
	};

	RUN_CASES(cases);
}

/* Issue #35: the Qubes R4.0 installer's isolinux.cfg (the fixture's)
 * gives four bootable multiboot entries: xen.gz with its string, then
 * vmlinuz with its options and initrd.img, from /isolinux. */
TEST(qubes_fixture_multiboot_entries)
{
	size_t len = 0;
	char *cfg = test_slurp("tests/fixtures/syslinux/qubes-r4.0-installer-"
			       "iso/root/isolinux/isolinux.cfg",
			       &len);
	const struct entry *e;
	struct tfs t;
	char *text;

	if (!cfg) {
		test_skip("the qubes fixture is missing");
		return;
	}
	tfs_init(&t);
	tfs_write(&t, "/isolinux/isolinux.bin", "");
	text = strndup(cfg, len); /* test_slurp() ends with no NUL */
	tfs_write(&t, "/isolinux/isolinux.cfg", text ? text : "");
	free(text);
	syslinux_parse_fs(&t.ctx);
	e = nth(&t, 1); /* "check", the config's default */
	CHECK(e && e->is_default && !e->disabled && e->multiboot == 1);
	if (e) {
		CHECK_STR(e->kernel.path, "/isolinux/xen.gz");
		CHECK_STR(e->cmdline, "xen.gz");
		CHECK_INT(e->n_modules, 2);
		if (e->n_modules == 2) {
			CHECK_STR(e->modules[0].path, "/isolinux/vmlinuz");
			CHECK_STR(e->module_args[0],
				  "vmlinuz inst.stage2=hd:LABEL=Qubes-R4.0-"
				  "x86_64 quiet rd.live.check");
			CHECK_STR(e->modules[1].path, "/isolinux/initrd.img");
			CHECK_STR(e->module_args[1], "initrd.img");
		}
	}
	for (int i = 0; i < 4; i++)
		CHECK(nth(&t, i) && nth(&t, i)->multiboot == 1 &&
		      !nth(&t, i)->disabled && nth(&t, i)->n_modules == 2);
	tfs_done(&t);
	free(cfg);
}

TEST(include_depth_limit)
{
	struct tfs t;
	char name[64], text[128];

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

TEST(disabled_entries)
{
	static const struct scase cases[] = {
	    {.name = "localboot_and_modules_disabled",
	     .cfg = "LABEL hd\nLOCALBOOT 0\nLABEL hdt\nKERNEL hdt.c32\n"
		    "LABEL win\nCOM32 chain.c32\nAPPEND hd0 1\nLABEL mem\n"
		    "KERNEL memtest86+.bin\nLABEL iso\nKERNEL memdisk\n"
		    "APPEND iso initrd=x.iso\n",
	     .want = {{W_COUNT, .num = 5},
		      {W_DISABLED_HAS, 0, "LOCALBOOT"},
		      {W_KERNEL, 0, NULL},
		      {W_DISABLED_HAS, 1, "COM32 module hdt.c32"},
		      {W_DISABLED_HAS, 2, "chainloads"},
		      {W_DISABLED_HAS, 3, "boot sector"},
		      {W_DISABLED_HAS, 4, "memdisk"}}},
	    /* Xen through mboot.c32 (Qubes' installer, Alpine's
	     * xen_params): a multiboot (v1) kernel and its modules, each
	     * part's string starting with its file's name (com32/mboot),
	     * paths from the working directory; any spelling of the name */
	    {.name = "mboot_xen_bootable_with_modules",
	     .cfg = "LABEL q\nKERNEL mboot.c32\nAPPEND xen.gz dom0_mem=1G "
		    "--- vmlinuz quiet --- initrd.img\nLABEL m\n"
		    "COM32 MBOOT.C32\nAPPEND xen.gz --- vmlinuz ---x\n",
	     .want = {{W_COUNT, .num = 2},
		      {W_DISABLED, 0, NULL},
		      {W_MULTIBOOT, 0, .num = 1},
		      {W_KERNEL, 0, "/boot/syslinux/xen.gz"},
		      {W_CMDLINE, 0, "xen.gz dom0_mem=1G"},
		      {W_N_MODULES, 0, .num = 2},
		      {W_MODULE, 0, "/boot/syslinux/vmlinuz", 0},
		      {W_MODULE_ARGS, 0, "vmlinuz quiet", 0},
		      {W_MODULE, 0, "/boot/syslinux/initrd.img", 1},
		      {W_MODULE_ARGS, 0, "initrd.img", 1},
		      {W_DISABLED, 1, NULL},
		      /* "---x" is a word, not a separator */
		      {W_N_MODULES, 1, .num = 1},
		      {W_MODULE_ARGS, 1, "vmlinuz ---x", 0}}},
	    {.name = "mboot_without_a_kernel",
	     .cfg = "LABEL q\nKERNEL mboot.c32\nAPPEND --- vmlinuz\n",
	     .want = {{W_COUNT, .num = 1},
		      {W_DISABLED, 0,
		       "mboot.c32 is given an empty kernel or module"}}},
	};

	RUN_CASES(cases);
}

/* --- where the config is (issue 17, class 2) */

/* `::` is the TFTP root: only PXELINUX can open it. */
static const char pxe_paths_cfg[] = "LABEL n\nLINUX ::/arch/vmlinuz\n"
				    "INITRD ::/arch/initrd.img\n";

/* generic_open_config(): the install directory, then /boot/syslinux,
 * /syslinux, /; extlinux.conf before syslinux.cfg in each; one config.
 * ldlinux.sys lives in the btrfs/xfs boot area: ldlinux.c32 shows the
 * install directory. A disk never reads isolinux.cfg.
 * iso_open_config(): /boot/isolinux, /isolinux, /boot/syslinux,
 * /syslinux, /; isolinux.cfg then syslinux.cfg; never extlinux.conf. */
TEST(where_the_config_is)
{
	static const struct scase cases[] = {
	    /* `extlinux --install /boot` (Alpine): ldlinux.sys and
	     * extlinux.conf in /boot, which is the working directory */
	    {.name = "extlinux_installed_in_boot",
	     .files = {{"/boot/ldlinux.sys", ""},
		       {"/boot/extlinux.conf",
			"DEFAULT menu.c32\nLABEL lts\n  LINUX vmlinuz-lts\n"
			"  INITRD initramfs-lts\n  APPEND root=/dev/sda1\n"}},
	     .want = {{W_COUNT, .num = 1},
		      {W_SOURCE, 0, "/boot/extlinux.conf"},
		      {W_KERNEL, 0, "/boot/vmlinuz-lts"},
		      {W_N_INITRDS, 0, .num = 1},
		      {W_INITRD, 0, "/boot/initramfs-lts", 0},
		      {W_WARNINGS, .num = 0}}},
	    {.name = "sys_install_dir_first",
	     .fstype = "ext4",
	     .files = {{"/boot/extlinux/ldlinux.sys", ""},
		       {"/boot/extlinux/syslinux.cfg",
			"LABEL inst2\nLINUX k\n"},
		       {"/boot/extlinux/extlinux.conf",
			"LABEL inst\nLINUX k\n"},
		       {"/boot/syslinux/syslinux.cfg", "LABEL bs\nLINUX k\n"},
		       {"/extlinux.conf", "LABEL root\nLINUX k\n"}},
	     .want = {{W_COUNT, .num = 1},
		      {W_ID, 0, "inst"},
		      {W_KERNEL, 0, "/boot/extlinux/k"}}},
	    /* no install directory: in / extlinux.conf before syslinux.cfg,
	     * and /boot/syslinux before / */
	    {.name = "sys_extlinux_conf_first",
	     .fstype = "vfat",
	     .files = {{"/syslinux.cfg", "LABEL s\nLINUX k\n"},
		       {"/extlinux.conf", "LABEL e\nLINUX k\n"}},
	     .want = {{W_COUNT, .num = 1}, {W_ID, 0, "e"}}},
	    {.name = "sys_boot_syslinux_before_root",
	     .fstype = "vfat",
	     .files = {{"/syslinux.cfg", "LABEL s\nLINUX k\n"},
		       {"/extlinux.conf", "LABEL e\nLINUX k\n"},
		       {"/boot/syslinux/syslinux.cfg", "LABEL b\nLINUX k\n"}},
	     .want = {{W_COUNT, .num = 1}, {W_ID, 0, "b"}}},
	    {.name = "sys_install_dir_by_ldlinux_c32",
	     .fstype = "btrfs",
	     .files = {{"/boot/syslinux/ldlinux.c32", ""},
		       {"/boot/syslinux/syslinux.cfg", "LABEL a\nLINUX k\n"},
		       {"/isolinux/isolinux.cfg", "LABEL iso\nLINUX k\n"}},
	     .want = {{W_COUNT, .num = 1}, {W_ID, 0, "a"}}},
	    {.name = "sys_never_reads_isolinux_cfg",
	     .fstype = "vfat",
	     .files = {{"/isolinux/isolinux.cfg", "LABEL iso\nLINUX k\n"}},
	     .want = {{W_COUNT, .num = 0}}},
	    {.name = "isolinux_search_order",
	     .fstype = "iso9660",
	     .files = {{"/boot/syslinux/isolinux.cfg", "LABEL bs\nLINUX k\n"},
		       {"/isolinux/syslinux.cfg", "LABEL iso2\nLINUX k\n"},
		       {"/isolinux/isolinux.cfg", "LABEL iso\nLINUX k\n"},
		       {"/extlinux.conf", "LABEL ext\nLINUX k\n"}},
	     .want = {{W_COUNT, .num = 1},
		      {W_ID, 0, "iso"},
		      {W_KERNEL, 0, "/isolinux/k"}}},
	    {.name = "isolinux_never_reads_extlinux_conf",
	     .fstype = "iso9660",
	     .files = {{"/extlinux.conf", "LABEL ext\nLINUX k\n"}},
	     .want = {{W_COUNT, .num = 0}}},
	    /* the per-client file is not chosen: a warning */
	    {.name = "pxelinux_default_only",
	     .files = {{"/srv/tftp/pxelinux.cfg/default",
			"LABEL net\nKERNEL debian/linux\n"},
		       {"/srv/tftp/pxelinux.cfg/01-52-54-00-12-34-56",
			"LABEL mac\nKERNEL m\n"}},
	     .want = {{W_COUNT, .num = 1},
		      {W_ID, 0, "net"},
		      {W_KERNEL, 0, "/srv/tftp/debian/linux"},
		      {W_WARNINGS, .num = 1}}},
	    {.name = "pxelinux_double_colon_paths_on_a_disk",
	     .cfg = pxe_paths_cfg,
	     .want = {{W_COUNT, .num = 1},
		      {W_DISABLED, 0,
		       "a PXELINUX path (::...) is only reachable over the "
		       "network"}}},
	    {.name = "pxelinux_double_colon_paths",
	     .files = {{"/srv/tftp/pxelinux.cfg/default", pxe_paths_cfg}},
	     .want = {{W_COUNT, .num = 1},
		      {W_KERNEL, 0, "/srv/tftp/arch/vmlinuz"},
		      {W_INITRD, 0, "/srv/tftp/arch/initrd.img", 0},
		      {W_DISABLED, 0, NULL}}},
	    {.name = "same_config_twice_read_once",
	     .files = {{"/boot/extlinux/extlinux.conf", "LABEL a\nLINUX k\n"},
		       {"/extlinux.conf",
			.link = "boot/extlinux/extlinux.conf"}},
	     .want = {{W_COUNT, .num = 1}}},
	};

	RUN_CASES(cases);
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
 * replaces this one, its working directory from APPEND. With a menu or a
 * boot: prompt shown, a CONFIG label is something to choose: its
 * config's menu is a group. A config that CONFIGs itself is followed
 * SYSLINUX_CONFIG_DEPTH times, with a warning. ifcpu64.c32 on a 64-bit
 * CPU runs its first branch; the label shows what that branch boots. */
TEST(as_the_loader_runs)
{
	static const struct scase cases[] = {
	    {.name = "config_replaces_the_configuration",
	     .files = {{"/isolinux/isolinux.cfg",
			"TIMEOUT 10\nDEFAULT loadconfig\nLABEL loadconfig\n"
			"CONFIG /syslinux/archiso.cfg\nAPPEND /syslinux/\n"
			"LABEL other\nLINUX other\n"},
		       {"/syslinux/archiso.cfg",
			"TIMEOUT 50\nLABEL arch\nLINUX boot/vmlinuz\n"}},
	     .want = {{W_COUNT, .num = 1},
		      {W_ID, 0, "arch"},
		      {W_GROUP, 0, NULL},
		      {W_KERNEL, 0, "/syslinux/boot/vmlinuz"},
		      {W_DEFAULT, 0},
		      {W_TIMEOUT, .num = 50}}},
	    /* no directory: the working directory stays (execute.c) */
	    {.name = "config_without_a_directory",
	     .files = {{"/isolinux/isolinux.cfg",
			"DEFAULT c\nLABEL c\nCONFIG sub/next.cfg\n"},
		       {"/isolinux/sub/next.cfg", "LABEL n\nLINUX vmlinuz\n"}},
	     .want = {{W_COUNT, .num = 1}, {W_KERNEL, 0, "/isolinux/vmlinuz"}}},
	    {.name = "config_label_in_a_menu",
	     .files = {{"/syslinux.cfg",
			"UI menu.c32\nLABEL a\nLINUX k\nLABEL help\n"
			"MENU LABEL ^Help\nCONFIG help.cfg\n"},
		       {"/help.cfg", "PROMPT 1\nLABEL h\nLINUX hk\n"}},
	     .want = {{W_COUNT, .num = 2},
		      {W_GROUP, 1, "Help"},
		      {W_DEFAULT, 0}}},
	    {.name = "config_label_at_a_prompt",
	     .files = {{"/syslinux.cfg",
			"PROMPT 1\nDEFAULT c\nLABEL c\nCONFIG /x.cfg\n"},
		       {"/x.cfg", "LABEL x\nLINUX k\n"}},
	     .want = {{W_COUNT, .num = 1}, {W_GROUP, 0, "c"}}},
	    {.name = "config_loop",
	     .files = {{"/syslinux.cfg",
			"DEFAULT again\nLABEL again\nCONFIG syslinux.cfg\n"}},
	     .want = {{W_COUNT, .num = 0},
		      {W_WARNINGS, .num = 1},
		      {W_WARN_HAS, .str = "CONFIG followed"}}},
	    {.name = "ifcpu64_takes_the_64bit_branch",
	     .cfg = "DEFAULT auto\nLABEL auto\nMENU LABEL Install\n"
		    "KERNEL ifcpu64.c32\nAPPEND l64 quiet -- l32\nLABEL l64\n"
		    "MENU HIDE\nLINUX amd64/linux\nINITRD amd64/initrd.gz\n"
		    "APPEND vga=788\nLABEL l32\nMENU HIDE\nLINUX 386/linux\n",
	     .want = {{W_COUNT, .num = 1},
		      {W_TITLE, 0, "Install"},
		      {W_KERNEL, 0, "/boot/syslinux/amd64/linux"},
		      {W_CMDLINE, 0,
		       "BOOT_IMAGE=amd64/linux vga=788 initrd=amd64/initrd.gz "
		       "quiet"},
		      {W_DISABLED, 0, NULL},
		      {W_DEFAULT, 0}}},
	};

	RUN_CASES(cases);
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
	cfg_finish(&t.out, t.all, 1);
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
	cfg_finish(&t.out, t.all, 1);
	CHECK_INT(t.out.count, 2);
	CHECK_STR(nth(&t, 0)->id, "linux");
	CHECK_STR(nth(&t, 1)->id, "other");
	tfs_done(&t);
}

TEST_MAIN("test_syslinux", label_kernel_and_append, default_keywords,
	  menu_keywords, timeout_tenths, include_keywords, include_depth_limit,
	  include_fan_out_is_bounded, disabled_entries, where_the_config_is,
	  tree_variant_by_loader_files, as_the_loader_runs,
	  whichsys_follows_the_variant, ifcpu_features, buffer_entry_point,
	  bios_install_of_bootmenu_is_not_listed,
	  entry_booting_bootmenu_is_dropped, qubes_fixture_multiboot_entries)
