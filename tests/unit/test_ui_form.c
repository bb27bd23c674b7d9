/* test_ui_form.c - the `e` editor: fields, keys, the edited entry. */
#include "entry/entry.h"
#include "scan/fs.h"
#include "test.h"
#include "ui/form.h"
#include "ui/key.h"
#include "util/arena.h"

#include <errno.h>

static struct fs_root fs_a = {.name = "sda1"};
static struct fs_root fs_b = {.name = "sdb1"};

static struct entry *sample(struct entry_list *l, struct arena *a, int initrds)
{
	struct entry *e;

	entry_list_init(l, a);
	e = entry_new(l, FMT_GRUB, &fs_a);
	e->title = "Debian";
	e->id = "debian";
	e->cmdline = "root=/dev/sda2 ro quiet";
	e->kernel.path = "/vmlinuz";
	if (initrds > 0)
		entry_add_initrd(l, e, "UUID=1234", "/initrd.img");
	if (initrds > 1)
		entry_add_initrd(l, e, NULL, "/ucode.img");
	for (size_t i = 0; i < e->n_initrds; i++)
		e->initrds[i].fs = i ? &fs_a : &fs_b;
	entry_add(l, e);
	return e;
}

static void type(struct ui_form *f, const char *s)
{
	while (*s)
		CHECK_INT(ui_form_key(f, (unsigned char)*s++), UI_EDIT_MORE);
}

static struct ui_form f;

TEST(fields_from_the_entry)
{
	struct arena a = {0};
	struct entry_list l;
	struct entry *e = sample(&l, &a, 2);

	ui_form_init(&f, e);
	CHECK_INT(f.cur, UI_FORM_CMDLINE);
	CHECK_STR(f.f[UI_FORM_CMDLINE].buf, "root=/dev/sda2 ro quiet");
	CHECK_INT(f.f[UI_FORM_CMDLINE].cur, 23);
	CHECK_STR(f.f[UI_FORM_KERNEL].buf, "/vmlinuz");
	CHECK_STR(f.f[UI_FORM_INITRD].buf, "/initrd.img /ucode.img");
	CHECK_STR(ui_form_label(UI_FORM_KERNEL), "kernel");
	arena_free(&a);
}

TEST(tab_and_arrows_move_between_fields)
{
	struct arena a = {0};
	struct entry_list l;

	ui_form_init(&f, sample(&l, &a, 0));
	CHECK_INT(ui_form_key(&f, '\t'), UI_EDIT_MORE);
	CHECK_INT(f.cur, UI_FORM_KERNEL);
	ui_form_key(&f, UI_KEY_DOWN);
	CHECK_INT(f.cur, UI_FORM_INITRD);
	ui_form_key(&f, '\t');
	CHECK_INT(f.cur, UI_FORM_CMDLINE); /* wraps */
	ui_form_key(&f, UI_KEY_UP);
	CHECK_INT(f.cur, UI_FORM_INITRD);
	ui_form_key(&f, UI_KEY_BACKTAB);
	CHECK_INT(f.cur, UI_FORM_KERNEL);
	/* Left/Right and typing stay in the field */
	ui_form_key(&f, UI_KEY_HOME);
	type(&f, "/boot");
	CHECK_STR(f.f[UI_FORM_KERNEL].buf, "/boot/vmlinuz");
	CHECK_STR(f.f[UI_FORM_CMDLINE].buf, "root=/dev/sda2 ro quiet");
	CHECK_INT(ui_form_key(&f, UI_KEY_ENTER), UI_EDIT_DONE);
	CHECK_INT(ui_form_key(&f, UI_KEY_ESC), UI_EDIT_CANCEL);
	arena_free(&a);
}

TEST(apply_builds_the_edited_entry)
{
	struct arena a = {0};
	struct entry_list l;
	struct entry *e = sample(&l, &a, 2), out;
	struct entry_file files[UI_FORM_INITRDS];
	char err[128];

	ui_form_init(&f, e);
	type(&f, " marker=edited");
	ui_form_key(&f, '\t');
	ui_form_key(&f, UI_KEY_CTRL('u'));
	type(&f, "/vmlinuz.old");
	ui_form_key(&f, '\t');
	ui_form_key(&f, UI_KEY_END);
	type(&f, "  /extra.img ");
	CHECK_INT(ui_form_apply(&f, e, &out, files, err, sizeof(err)), 0);
	CHECK_STR(out.cmdline, "root=/dev/sda2 ro quiet marker=edited");
	CHECK_STR(out.kernel.path, "/vmlinuz.old");
	CHECK(out.kernel.fs == e->kernel.fs);
	CHECK_STR(out.title, "Debian");
	CHECK_INT(out.n_initrds, 3);
	CHECK_STR(out.initrds[0].path, "/initrd.img");
	CHECK_STR(out.initrds[0].dev, "UUID=1234"); /* its own place */
	CHECK(out.initrds[0].fs == &fs_b);
	CHECK_STR(out.initrds[2].path, "/extra.img");
	CHECK(out.initrds[2].fs == &fs_a); /* the last one's */
	/* the original is untouched */
	CHECK_STR(e->cmdline, "root=/dev/sda2 ro quiet");
	CHECK_STR(e->kernel.path, "/vmlinuz");
	CHECK_INT(e->n_initrds, 2);
	/* the field still shows what was typed */
	CHECK_STR(f.f[UI_FORM_INITRD].buf,
		  "/initrd.img /ucode.img  /extra.img ");
	arena_free(&a);
}

TEST(empty_initrd_field_means_none)
{
	struct arena a = {0};
	struct entry_list l;
	struct entry *e = sample(&l, &a, 1), out;
	struct entry_file files[UI_FORM_INITRDS];
	char err[128];

	ui_form_init(&f, e);
	f.cur = UI_FORM_INITRD;
	ui_form_key(&f, UI_KEY_CTRL('u'));
	CHECK_INT(ui_form_apply(&f, e, &out, files, err, sizeof(err)), 0);
	CHECK_INT(out.n_initrds, 0);
	CHECK(out.initrds == NULL);
	arena_free(&a);
}

TEST(bad_paths_refused_and_nothing_changes)
{
	struct arena a = {0};
	struct entry_list l;
	struct entry *e = sample(&l, &a, 0), out = {.title = "unchanged"};
	struct entry_file files[UI_FORM_INITRDS];
	char err[128];

	ui_form_init(&f, e);
	f.cur = UI_FORM_KERNEL;
	ui_form_key(&f, UI_KEY_CTRL('u'));
	CHECK_INT(ui_form_apply(&f, e, &out, files, err, sizeof(err)), -EINVAL);
	CHECK_STR(err, "the kernel path is empty");
	type(&f, "vmlinuz");
	CHECK_INT(ui_form_apply(&f, e, &out, files, err, sizeof(err)), -EINVAL);
	CHECK_STR(err, "kernel \"vmlinuz\": a path starts with /");
	ui_form_key(&f, UI_KEY_HOME);
	type(&f, "/");
	f.cur = UI_FORM_INITRD;
	type(&f, "/a.img initrd.img");
	CHECK_INT(ui_form_apply(&f, e, &out, files, err, sizeof(err)), -EINVAL);
	CHECK_STR(err, "initrd \"initrd.img\": a path starts with /");
	CHECK_STR(out.title, "unchanged");
	CHECK_STR(f.f[UI_FORM_INITRD].buf, "/a.img initrd.img");
	ui_form_key(&f, UI_KEY_CTRL('u'));
	for (int i = 0; i <= UI_FORM_INITRDS; i++)
		type(&f, "/i ");
	CHECK_INT(ui_form_apply(&f, e, &out, files, err, sizeof(err)), -EINVAL);
	CHECK_STR(err, "at most 16 initrds");
	arena_free(&a);
}

/* A Xen entry: its command line, xen.gz, then one field per module's
 * string (dom0's command line first); the files stay. */
TEST(multiboot_modules_edited)
{
	static const char *args[] = {"root=/dev/vda1 ro", ""};
	static const bool nounzip[] = {false, true};
	struct arena a = {0};
	struct entry_list l;
	struct entry *e = sample(&l, &a, 0), out;
	struct entry_file files[UI_FORM_INITRDS],
	    mods[2] = {{.path = "/boot/vmlinuz"}, {.path = "/boot/initrd.img"}};
	char err[128];

	e->multiboot = 2;
	e->cmdline = "dom0_mem=1024M";
	e->kernel.path = "/boot/xen.gz";
	e->modules = mods;
	e->n_modules = 2;
	e->module_args = args;
	e->module_nounzip = nounzip;
	ui_form_init(&f, e);
	CHECK_INT(f.n, 4);
	CHECK_STR(f.f[UI_FORM_INITRD].buf, "root=/dev/vda1 ro");
	CHECK_STR(f.f[UI_FORM_INITRD + 1].buf, "");
	type(&f, " loglvl=all");
	ui_form_key(&f, '\t');
	ui_form_key(&f, '\t');
	CHECK_INT(f.cur, UI_FORM_INITRD);
	type(&f, " single");
	ui_form_key(&f, UI_KEY_UP);
	ui_form_key(&f, UI_KEY_UP);
	ui_form_key(&f, UI_KEY_UP); /* wraps to the last module */
	CHECK_INT(f.cur, UI_FORM_INITRD + 1);
	CHECK_INT(ui_form_apply(&f, e, &out, files, err, sizeof(err)), 0);
	CHECK_STR(out.cmdline, "dom0_mem=1024M loglvl=all");
	CHECK_STR(out.kernel.path, "/boot/xen.gz");
	CHECK_INT(out.n_modules, 2);
	CHECK(out.modules == mods);
	CHECK(out.module_nounzip == nounzip);
	CHECK_STR(out.module_args[0], "root=/dev/vda1 ro single");
	CHECK_STR(out.module_args[1], "");
	CHECK_INT(out.n_initrds, 0);
	CHECK_STR(args[0], "root=/dev/vda1 ro"); /* the entry's own stay */
	arena_free(&a);
}

TEST_MAIN("test_ui_form", multiboot_modules_edited, fields_from_the_entry,
	  tab_and_arrows_move_between_fields, apply_builds_the_edited_entry,
	  empty_initrd_field_means_none, bad_paths_refused_and_nothing_changes)
