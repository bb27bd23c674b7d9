/* test_bare.c - kernels in /boot with no config (and none that a config
 * boots or loads as a module). Most tests are tables of cases: files in,
 * the values expected of the entries out. */
#include "test.h"
#include "cfg/cfg.h"
#include "cfg/resolve.h"
#include "entry/entry.h"
#include "scan/fs.h"
#include "util/arena.h"

#include <ftw.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tfs.h"

/* What one value of a case is: of the whole run up to W_WARNINGS, of
 * entry @i from W_TITLE on. */
enum what {
	W_END, /* ends a case's list */
	W_COUNT,
	W_WARNINGS,
	W_TITLE,
	W_VERSION,
	W_KERNEL,
	W_CMDLINE,
	W_INITRD, /* the path of initrd @num */
	W_N_INITRDS,
	W_FORMAT,
	W_NOT_DEFAULT,
};

static const char *const what_name[] = {
    [W_COUNT] = "count",   [W_WARNINGS] = "warnings",
    [W_TITLE] = "title",   [W_VERSION] = "version",
    [W_KERNEL] = "kernel", [W_CMDLINE] = "cmdline",
    [W_INITRD] = "initrd", [W_N_INITRDS] = "initrd count",
    [W_FORMAT] = "format", [W_NOT_DEFAULT] = "not default",
};

/* A value a case expects: a string in @str (NULL: the field is NULL), a
 * number in @num (W_INITRD: which initrd). */
struct want {
	enum what what;
	int i;
	const char *str;
	long num;
};

#define WANT_MAX 12
#define FILES_MAX 6

/* A file with @text, or a symbolic link to @link. */
struct file {
	const char *path, *text, *link;
};

/* One filesystem (its UUID @uuid) holding @files; with @grub_first,
 * grub_parse_fs() runs before bare_parse_fs(), as a scan runs them. */
struct bcase {
	const char *name;
	const char *uuid;
	bool grub_first;
	struct file files[FILES_MAX];
	struct want want[WANT_MAX];
};

static const char *entry_str(const struct entry *e, const struct want *w)
{
	switch (w->what) {
	case W_TITLE:
		return e->title;
	case W_VERSION:
		return e->version;
	case W_KERNEL:
		return e->kernel.path;
	case W_CMDLINE:
		return e->cmdline;
	default: /* W_INITRD */
		return w->num >= 0 && (size_t)w->num < e->n_initrds
			   ? e->initrds[w->num].path
			   : "(no such initrd)";
	}
}

static void check_want(struct tfs *t, const struct want *w)
{
	const struct entry *e = nth(t, w->i);

	switch (w->what) {
	case W_COUNT:
		CHECK_INT(t->out.count, w->num);
		break;
	case W_WARNINGS:
		CHECK_INT(n_warn(t), w->num);
		break;
	case W_N_INITRDS:
		CHECK_INT(e ? (long)e->n_initrds : -1, w->num);
		break;
	case W_FORMAT:
		CHECK_INT(e ? (long)e->format : -1, w->num);
		break;
	case W_NOT_DEFAULT:
		CHECK(e && !e->is_default);
		break;
	default:
		CHECK_STR(e ? entry_str(e, w) : "(no entry)", w->str);
	}
}

/* Check each value @c wants of @t; a value that differs is followed by
 * the case's name and what the value is. */
static void check_case(struct tfs *t, const struct bcase *c)
{
	for (const struct want *w = c->want;
	     w < c->want + WANT_MAX && w->what != W_END; w++) {
		int before = test_failures;

		check_want(t, w);
		if (test_failures == before)
			continue;
		printf("  case %s: %s", c->name, what_name[w->what]);
		if (w->what == W_INITRD)
			printf(" %ld", w->num);
		if (w->what >= W_TITLE)
			printf(" of entry %d", w->i);
		printf("\n");
	}
}

/* Make each case's filesystem, find its kernels and check them. */
static void run_cases(const struct bcase *cases, size_t n)
{
	for (const struct bcase *c = cases; c < cases + n; c++) {
		struct tfs t;

		tfs_init(&t);
		t.fs.uuid = c->uuid;
		for (const struct file *f = c->files;
		     f < c->files + FILES_MAX && f->path; f++) {
			if (f->link)
				tfs_link(&t, f->path, f->link);
			else
				tfs_write(&t, f->path, f->text);
		}
		if (c->grub_first)
			grub_parse_fs(&t.ctx);
		bare_parse_fs(&t.ctx);
		check_case(&t, c);
		tfs_done(&t);
	}
}

#define RUN_CASES(cases) run_cases(cases, sizeof(cases) / sizeof(cases[0]))

TEST(names_versions_and_initrds)
{
	static const struct bcase cases[] = {
	    {.name = "newest_first_with_initrds",
	     .uuid = "1111-2222",
	     .files = {{"/boot/vmlinuz-6.1.0-9-amd64", "k"},
		       {"/boot/vmlinuz-6.1.0-13-amd64", "k"},
		       {"/boot/vmlinuz-6.1.0-13-amd64.sig", "s"},
		       {"/boot/initrd.img-6.1.0-13-amd64", "i"},
		       {"/boot/config-6.1.0-13-amd64", "c"}},
	     .want = {{W_COUNT, .num = 2},
		      {W_TITLE, 0, "Linux 6.1.0-13-amd64"},
		      {W_VERSION, 0, "6.1.0-13-amd64"},
		      {W_KERNEL, 0, "/boot/vmlinuz-6.1.0-13-amd64"},
		      {W_N_INITRDS, 0, .num = 1},
		      {W_INITRD, 0, "/boot/initrd.img-6.1.0-13-amd64", 0},
		      {W_CMDLINE, 0, "root=UUID=1111-2222 ro"},
		      {W_FORMAT, 0, .num = FMT_BARE},
		      {W_TITLE, 1, "Linux 6.1.0-9-amd64"},
		      {W_N_INITRDS, 1, .num = 0},
		      {W_NOT_DEFAULT, 0},
		      {W_WARNINGS, .num = 0}}},
	    {.name = "initrd_names_of_other_generators",
	     .uuid = "u",
	     .files = {{"/boot/vmlinuz-6.5.6-300.fc39.x86_64", "k"},
		       {"/boot/initramfs-6.5.6-300.fc39.x86_64.img", "i"},
		       {"/boot/vmlinuz-5.15.0-gentoo", "k"},
		       {"/boot/initrd-5.15.0-gentoo", "i"}},
	     .want = {{W_COUNT, .num = 2},
		      {W_VERSION, 0, "6.5.6-300.fc39.x86_64"},
		      {W_N_INITRDS, 0, .num = 1},
		      {W_INITRD, 0, "/boot/initramfs-6.5.6-300.fc39.x86_64.img",
		       0},
		      {W_VERSION, 1, "5.15.0-gentoo"},
		      {W_INITRD, 1, "/boot/initrd-5.15.0-gentoo", 0}}},
	    {.name = "arch_microcode_goes_first",
	     .uuid = "u",
	     .files = {{"/boot/vmlinuz-linux", "k"},
		       {"/boot/vmlinuz-linux-lts", "k"},
		       {"/boot/initramfs-linux.img", "i"},
		       {"/boot/initramfs-linux-fallback.img", "i"},
		       {"/boot/initramfs-linux-lts.img", "i"},
		       {"/boot/intel-ucode.img", "u"}},
	     .want = {{W_COUNT, .num = 2},
		      {W_VERSION, 0, "linux-lts"}, /* the longer is newer */
		      {W_VERSION, 1, "linux"},
		      {W_N_INITRDS, 1, .num = 2},
		      {W_INITRD, 1, "/boot/intel-ucode.img", 0},
		      {W_INITRD, 1, "/boot/initramfs-linux.img", 1}}},
	    {.name = "symlinks_resolve_to_one_entry",
	     .uuid = "u",
	     .files = {{"/boot/vmlinuz-6.1", "k"},
		       {"/vmlinuz", .link = "boot/vmlinuz-6.1"},
		       {"/boot/vmlinuz", .link = "vmlinuz-6.1"},
		       {"/vmlinuz.old", .link = "/boot/missing"}},
	     .want = {{W_COUNT, .num = 1}, {W_KERNEL, 0, "/boot/vmlinuz-6.1"}}},
	    {.name = "plain_vmlinuz_file",
	     .uuid = "u",
	     .files = {{"/boot/vmlinuz", "k"}},
	     .want = {{W_COUNT, .num = 1},
		      {W_TITLE, 0, "Linux (vmlinuz)"},
		      {W_VERSION, 0, NULL}}},
	};

	RUN_CASES(cases);
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
	static const struct bcase xen = {
	    .name = "xen_dom0_kernel",
	    .uuid = "u",
	    .grub_first = true,
	    .files = {{"/boot/vmlinuz-6.1.0-13-amd64", "k"},
		      {"/boot/vmlinuz-6.1.0-9-amd64", "k"},
		      {"/boot/xen-4.17-amd64.gz", "x"},
		      {"/boot/grub/grub.cfg",
		       "menuentry 'Debian GNU/Linux, with Xen hypervisor' {\n"
		       "\tmultiboot2\t/boot/xen-4.17-amd64.gz placeholder\n"
		       "\tmodule2\t/boot/vmlinuz-6.1.0-13-amd64 placeholder "
		       "ro\n"
		       "\tmodule2\t--nounzip /boot/initrd.img-6.1.0-13-amd64\n"
		       "}\n"}},
	    .want = {{W_COUNT, .num = 2},
		     {W_FORMAT, 0, .num = FMT_GRUB},
		     {W_KERNEL, 1, "/boot/vmlinuz-6.1.0-9-amd64"},
		     {W_WARNINGS, .num = 0}}};

	run_cases(&xen, 1);
}

/* cfg_finish() does the same across filesystems: a module on another
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
	cfg_finish(&esp.out, all, 2);
	CHECK_INT(esp.out.count, 2);
	CHECK(xen->modules[0].fs == &root.fs);
	CHECK_STR(nth(&esp, 1)->kernel.path, "/boot/vmlinuz-6.2");
	tfs_done(&esp);
	tfs_done(&root);
}

/* A filesystem with no UUID: root= names what its /etc/fstab mounts on
 * /; with no fstab, root= is left out, with a warning. */
TEST(root_from_fstab_without_uuid)
{
	static const struct bcase cases[] = {
	    {.name = "root_from_fstab",
	     .files = {{"/boot/vmlinuz-6.1", "k"},
		       {"/etc/fstab", "# x\nLABEL=root / ext4 defaults 0 1\n"}},
	     .want = {{W_CMDLINE, 0, "root=LABEL=root ro"}}},
	    {.name = "no_root_at_all",
	     .files = {{"/boot/vmlinuz-6.1", "k"}},
	     .want = {{W_CMDLINE, 0, "ro"}, {W_WARNINGS, .num = 1}}},
	};

	RUN_CASES(cases);
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

TEST_MAIN("test_bare", names_versions_and_initrds,
	  kernels_named_by_a_config_are_skipped,
	  kernels_a_config_loads_as_modules_are_skipped,
	  modules_on_another_filesystem_drop_bare_entries,
	  root_from_fstab_without_uuid, separate_boot_finds_its_root)
