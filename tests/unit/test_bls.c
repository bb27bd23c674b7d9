/* test_bls.c - BLS Type 1 entries: version order, each ordering rule,
 * boot counting, loader.conf, and the grub blscfg entry point. */
#include "test.h"
#include "cfg/bls_entry.h"
#include "cfg/verscmp.h"
#include "entry/entry.h"
#include "scan/fs.h"
#include "util/arena.h"

#include <errno.h>
#include <ftw.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tfs.h"

TEST(version_order_of_the_spec)
{
	/* oldest first: the specification's and systemd's examples */
	static const char *const v[] = {
	    "",	       "~1",	  "ab",	   "abb",     "abc",	   "0001",
	    "002",     "12",	  "122",   "122.9",   "123~rc1-1", "123",
	    "123-a",   "123-a.1", "123-1", "123-1.1", "123^post1", "123.a-1",
	    "123.1-1", "123a-1",  "124-1",
	};

	for (size_t i = 0; i + 1 < sizeof(v) / sizeof(v[0]); i++) {
		CHECK(cfg_verscmp(v[i], v[i + 1]) < 0);
		CHECK(cfg_verscmp(v[i + 1], v[i]) > 0);
		CHECK_INT(cfg_verscmp(v[i], v[i]), 0);
	}
	CHECK_INT(cfg_verscmp("6.1.0-13-amd64", "6.1.0-13-amd64"), 0);
	CHECK(cfg_verscmp("6.1.0-18-amd64", "6.1.0-13-amd64") > 0);
	CHECK(cfg_verscmp("6.5.0-0.deb12.4-amd64", "6.1.0-18-amd64") > 0);
	CHECK(cfg_verscmp("5.10", "5.9") > 0);
	CHECK_INT(cfg_verscmp("123_a", "123a"), 0); /* "_" is dropped */
	CHECK(cfg_verscmp(NULL, "1") < 0);
	CHECK_INT(cfg_verscmp(NULL, ""), 0);
}

static void counter(const char *name, const char *id, int left, int done)
{
	struct arena a = ARENA_INIT;
	const char *got;
	int l, d;

	bls_name_counter(&a, name, ".conf", &got, &l, &d);
	CHECK_STR(got, id);
	CHECK_INT(l, left);
	CHECK_INT(d, done);
	arena_free(&a);
}

TEST(boot_counter_names)
{
	counter("fedora-6.5.conf", "fedora-6.5.conf", -1, -1);
	counter("fedora-6.5+3.conf", "fedora-6.5.conf", 3, 0);
	counter("fedora-6.5+2-1.conf", "fedora-6.5.conf", 2, 1);
	counter("fedora-6.5+0-3.conf", "fedora-6.5.conf", 0, 3);
	counter("a+b+1-0.conf", "a+b.conf", 1, 0);
	counter("a+x.conf", "a+x.conf", -1, -1);
	counter("a+.conf", "a+.conf", -1, -1);
	counter("a+1-.conf", "a+1-.conf", -1, -1);
	counter("a+1-2-3.conf", "a+1-2-3.conf", -1, -1);
	counter("a+3.txt", "a+3.txt", -1, -1);
}

static struct entry *entry_of(struct tfs *t, const char *name, const char *text)
{
	return bls_parse_entry(&t->ctx, "/loader/entries", name, text,
			       strlen(text), FMT_BLS, NULL, NULL);
}

TEST(entry_keys)
{
	struct tfs t;
	struct entry *e;

	tfs_init(&t);
	e = entry_of(
	    &t, "deb+2.conf",
	    "# comment\ntitle  Debian GNU/Linux 12\nversion 6.1.0-13-amd64\n"
	    "machine-id 4e9d\nsort-key debian\nlinux /4e9d/6.1/linux\n"
	    "initrd /4e9d/6.1/ucode.img\ninitrd /4e9d/6.1/initrd.img\n"
	    "options root=UUID=x ro\noptions quiet\ndevicetree /dtb/b.dtb\n"
	    "architecture x64\n");
	CHECK(e != NULL);
	CHECK_STR(e->id, "deb.conf");
	CHECK_STR(e->title, "Debian GNU/Linux 12");
	CHECK_STR(e->version, "6.1.0-13-amd64");
	CHECK_STR(e->machine_id, "4e9d");
	CHECK_STR(e->sort_key, "debian");
	CHECK_STR(e->kernel.path, "/4e9d/6.1/linux");
	CHECK_INT(e->n_initrds, 2);
	CHECK_STR(e->initrds[0].path, "/4e9d/6.1/ucode.img");
	CHECK_STR(e->initrds[1].path, "/4e9d/6.1/initrd.img");
	CHECK_STR(e->cmdline, "root=UUID=x ro quiet");
	CHECK_STR(e->devicetree, "/dtb/b.dtb");
	CHECK_STR(e->source, "/loader/entries/deb+2.conf");
	CHECK_INT(e->line, 6);
	CHECK_INT(e->tries_left, 2);
	CHECK_INT(e->tries_done, 0);
	CHECK_INT(n_warn(&t), 0);
	tfs_done(&t);
}

TEST(entry_architecture_efi_and_nothing)
{
	struct tfs t;
	struct entry *e;

	tfs_init(&t);
	CHECK(entry_of(&t, "arm.conf", "linux /k\narchitecture aa64\n") ==
	      NULL);
	CHECK_INT(n_warn(&t), 1); /* why it is not listed */
	t.out.n_warnings = 0;
	e = entry_of(&t, "x.conf", "linux /k\narchitecture X64\n");
	CHECK(e != NULL);
	e = entry_of(&t, "shell.conf", "title EFI Shell\nefi /shellx64.efi\n");
	CHECK(e && e->disabled && strstr(e->disabled, "not a Linux kernel"));
	CHECK_STR(e->kernel.path, "/shellx64.efi");
	CHECK_INT(n_warn(&t), 0);
	CHECK(entry_of(&t, "empty.conf", "title nothing\n") == NULL);
	CHECK_INT(n_warn(&t), 1);
	e = entry_of(&t, "notitle.conf", "linux /k\nfrobnicate 1\n");
	CHECK_STR(e->title, "notitle.conf");
	CHECK_INT(n_warn(&t), 2);
	tfs_done(&t);
}

/* Entries for the ordering tests, built directly. */
static struct entry *mk(struct tfs *t, const char *id, const char *sort_key,
			const char *mid, const char *version, int left,
			int done)
{
	struct entry *e = entry_new(&t->out, FMT_BLS, &t->fs);

	e->id = id;
	e->sort_key = sort_key;
	e->machine_id = mid;
	e->version = version;
	e->tries_left = left;
	e->tries_done = done;
	return e;
}

TEST(order_sort_key_first_then_without)
{
	struct tfs t;

	tfs_init(&t);
	CHECK(bls_compare(mk(&t, "z", "arch", 0, 0, -1, -1),
			  mk(&t, "a", 0, 0, 0, -1, -1)) < 0);
	CHECK(bls_compare(mk(&t, "z", "arch", 0, 0, -1, -1),
			  mk(&t, "a", "fedora", 0, 0, -1, -1)) < 0);
	tfs_done(&t);
}

TEST(order_machine_id_then_version_descending)
{
	struct tfs t;

	tfs_init(&t);
	CHECK(bls_compare(mk(&t, "x", "d", "aaa", "1", -1, -1),
			  mk(&t, "y", "d", "bbb", "9", -1, -1)) < 0);
	CHECK(bls_compare(mk(&t, "x", "d", "aaa", "6.10", -1, -1),
			  mk(&t, "y", "d", "aaa", "6.9", -1, -1)) < 0);
	CHECK(bls_compare(mk(&t, "x", "d", "aaa", "6.9", -1, -1),
			  mk(&t, "y", "d", "aaa", "6.10", -1, -1)) > 0);
	tfs_done(&t);
}

TEST(order_id_descending_last)
{
	struct tfs t;

	tfs_init(&t);
	/* no sort-key: by id only, newest first */
	CHECK(bls_compare(mk(&t, "linux-6.10.conf", 0, 0, "1", -1, -1),
			  mk(&t, "linux-6.9.conf", 0, 0, "9", -1, -1)) < 0);
	/* same sort-key, machine-id and version: id decides */
	CHECK(bls_compare(mk(&t, "b.conf", "s", "m", "1", -1, -1),
			  mk(&t, "a.conf", "s", "m", "1", -1, -1)) < 0);
	tfs_done(&t);
}

TEST(order_no_tries_left_goes_last)
{
	struct tfs t;
	struct entry *v[3];

	tfs_init(&t);
	v[0] = mk(&t, "new.conf", "s", "m", "9", 0, 3);
	v[1] = mk(&t, "old.conf", "s", "m", "1", -1, -1);
	v[2] = mk(&t, "mid.conf", "s", "m", "5", 2, 1);
	bls_sort(v, 3);
	CHECK_STR(v[0]->id, "mid.conf");
	CHECK_STR(v[1]->id, "old.conf");
	CHECK_STR(v[2]->id, "new.conf");
	/* same entry twice: more tries left first, then fewer done */
	CHECK(bls_compare(mk(&t, "a", 0, 0, 0, 3, 0),
			  mk(&t, "a", 0, 0, 0, 1, 2)) < 0);
	CHECK(bls_compare(mk(&t, "a", 0, 0, 0, 2, 0),
			  mk(&t, "a", 0, 0, 0, 2, 1)) < 0);
	CHECK_INT(bls_compare(mk(&t, "a", 0, 0, 0, 2, 1),
			      mk(&t, "a", 0, 0, 0, -1, -1)),
		  0);
	tfs_done(&t);
}

TEST(loader_conf_keys)
{
	struct tfs t;
	struct loader_conf lc = {NULL, -1};
	static const char text[] = "# c\ndefault arch-*\ntimeout 5\neditor no\n"
				   "console-mode max\nbogus 1\n";

	tfs_init(&t);
	loader_conf_parse(&t.ctx, "/loader/loader.conf", text, sizeof(text) - 1,
			  &lc);
	CHECK_STR(lc.default_pattern, "arch-*");
	CHECK_INT(lc.timeout_ds, 50);
	CHECK_INT(n_warn(&t), 1);
	CHECK_INT(t.out.warnings->line, 6);
	loader_conf_parse(&t.ctx, "/l", "timeout menu-force\n", 19, &lc);
	CHECK_INT(lc.timeout_ds, -1);
	loader_conf_parse(&t.ctx, "/l", "timeout menu-hidden\n", 20, &lc);
	CHECK_INT(lc.timeout_ds, 0);
	loader_conf_parse(&t.ctx, "/l", "default @saved\n", 15, &lc);
	CHECK_STR(lc.default_pattern, NULL);
	CHECK_INT(n_warn(&t), 2);
	loader_conf_parse(&t.ctx, "/l", "timeout soon\n", 13, &lc);
	CHECK_INT(n_warn(&t), 3);
	tfs_done(&t);
}

TEST(parse_fs_default_glob_and_timeout)
{
	struct tfs t;

	tfs_init(&t);
	tfs_write(&t, "/loader/entries/arch.conf",
		  "title Arch\nlinux /vmlinuz-linux\n");
	tfs_write(&t, "/loader/entries/arch-lts.conf",
		  "title LTS\nlinux /vmlinuz-linux-lts\n");
	tfs_write(&t, "/loader/entries/README", "not an entry\n");
	tfs_write(&t, "/loader/loader.conf", "default ARCH.conf\ntimeout 3\n");
	bls_parse_fs(&t.ctx);
	CHECK_INT(t.out.count, 2);
	CHECK_STR(nth(&t, 0)->id, "arch.conf"); /* id descending */
	CHECK_STR(nth(&t, 1)->id, "arch-lts.conf");
	CHECK(nth(&t, 0)->is_default); /* the glob matches without case */
	CHECK(!nth(&t, 1)->is_default);
	CHECK_INT(t.out.timeout_ds, 30);
	tfs_done(&t);
}

TEST(default_pattern_without_suffix)
{
	struct tfs t;
	struct entry *v[2];

	tfs_init(&t);
	v[0] = entry_new(&t.out, FMT_BLS, &t.fs);
	v[0]->id = "Pop_OS-oldkern.conf";
	v[1] = entry_new(&t.out, FMT_BLS, &t.fs);
	v[1]->id = "Pop_OS-current.conf";
	CHECK_INT(bls_pick_default(v, 2, "Pop_OS-current"), 1);
	CHECK_INT(bls_pick_default(v, 2, "Pop_OS-*"), 0);
	CHECK_INT(bls_pick_default(v, 2, "nothing"), 0);
	CHECK_INT(bls_pick_default(v, 0, "x"), -1);
	tfs_done(&t);
}

TEST(parse_fs_first_is_default_without_pattern)
{
	struct tfs t;

	tfs_init(&t);
	tfs_write(&t, "/loader/entries/a+0-3.conf", "linux /a\n");
	tfs_write(&t, "/loader/entries/b.conf", "linux /b\n");
	bls_parse_fs(&t.ctx);
	CHECK_STR(nth(&t, 0)->id, "b.conf");
	CHECK(nth(&t, 0)->is_default);
	CHECK_STR(nth(&t, 1)->id, "a.conf");
	CHECK_INT(nth(&t, 1)->tries_left, 0);
	CHECK_INT(n_warn(&t), 1); /* the mark: no tries left */
	CHECK(strstr(t.out.warnings->msg, "no boot tries left") != NULL);
	tfs_done(&t);
}

TEST(boot_loader_entries_on_root_fs)
{
	struct tfs t;

	tfs_init(&t);
	tfs_write(&t, "/boot/vmlinuz-6.5", "k");
	tfs_write(
	    &t, "/boot/loader/entries/f.conf",
	    "title Fedora\nlinux /vmlinuz-6.5\ninitrd /initramfs-6.5.img\n");
	bls_parse_fs(&t.ctx);
	/* /boot is not a partition here: the paths are under /boot */
	CHECK_STR(nth(&t, 0)->kernel.path, "/boot/vmlinuz-6.5");
	/* a file that is in neither place keeps the entry's path */
	CHECK_STR(nth(&t, 0)->initrds[0].path, "/initramfs-6.5.img");
	tfs_done(&t);
}

static const char *expand_kernelopts(void *data, const char *s)
{
	struct arena *a = data;

	if (!strcmp(s, "$kernelopts"))
		return arena_strdup(a, "root=/dev/vda2 ro");
	if (!strcmp(s, "$tuned_initrd /initramfs.img"))
		return arena_strdup(a, "/tuned.img /initramfs.img");
	return s;
}

TEST(collect_for_grub_blscfg)
{
	struct tfs t;

	tfs_init(&t);
	tfs_write(&t, "/loader/entries/f.conf",
		  "title Fedora\nversion 6.5\nlinux /vmlinuz\n"
		  "initrd $tuned_initrd /initramfs.img\noptions $kernelopts\n");
	tfs_write(&t, "/loader/entries/g.conf",
		  "title G\nversion 6.9\nlinux /g\n");
	CHECK_INT(bls_collect(&t.ctx, "/loader/entries", FMT_GRUB,
			      expand_kernelopts, &t.a),
		  2);
	CHECK_INT(nth(&t, 0)->format, FMT_GRUB);
	CHECK_STR(nth(&t, 0)->id, "g.conf");
	CHECK_STR(nth(&t, 1)->cmdline, "root=/dev/vda2 ro");
	CHECK_INT(nth(&t, 1)->n_initrds, 2);
	CHECK_STR(nth(&t, 1)->initrds[0].path, "/tuned.img");
	CHECK(!nth(&t, 0)->is_default && !nth(&t, 1)->is_default);
	/* the directory grub already listed is not listed again as BLS */
	bls_parse_fs(&t.ctx);
	CHECK_INT(t.out.count, 2);
	CHECK_INT(bls_collect(&t.ctx, "/nonexistent", FMT_GRUB, NULL, NULL),
		  -ENOENT);
	tfs_done(&t);
}

/* An entry of many short `options` and `initrd` lines costs memory in
 * proportion to its size: each options line once joined (not the whole
 * command line copied at every line, 7 GB for a 1 MB file), the initrds
 * kept up to ENTRY_INITRD_MAX (each add copies the array), then disabled. */
TEST(many_lines_cost_linear_memory)
{
	enum { LINES = 20000 };
	static char text[LINES * 12 + 64];
	struct tfs t;
	struct entry *e;
	size_t n = 0, before;

	tfs_init(&t);
	n += (size_t)sprintf(text, "linux /k\n");
	for (int i = 0; i < LINES; i++)
		n += (size_t)sprintf(text + n, "options a\n");
	before = t.a.used;
	e = entry_of(&t, "opts.conf", text);
	CHECK(e != NULL);
	CHECK_INT(strlen(e->cmdline), 2 * LINES - 1);
	CHECK(!strncmp(e->cmdline, "a a ", 4));
	CHECK(t.a.used - before < 64 * n);
	n = (size_t)sprintf(text, "linux /k\n");
	for (int i = 0; i < LINES; i++)
		n += (size_t)sprintf(text + n, "initrd /i%d\n", i % 10);
	before = t.a.used;
	e = entry_of(&t, "initrds.conf", text);
	CHECK(e != NULL);
	CHECK_INT(e->n_initrds, ENTRY_INITRD_MAX);
	CHECK(t.a.used - before < 64 * n);
	CHECK(e->disabled == NULL);
	entry_add(&t.out, e);
	entry_finish(&t.out, t.all, 1);
	CHECK_STR(e->disabled,
		  "names more than 32 initrds, the most one boot loads");
	tfs_done(&t);
}

TEST_MAIN("test_bls", version_order_of_the_spec, boot_counter_names, entry_keys,
	  entry_architecture_efi_and_nothing, order_sort_key_first_then_without,
	  order_machine_id_then_version_descending, order_id_descending_last,
	  order_no_tries_left_goes_last, loader_conf_keys,
	  parse_fs_default_glob_and_timeout, default_pattern_without_suffix,
	  parse_fs_first_is_default_without_pattern,
	  boot_loader_entries_on_root_fs, collect_for_grub_blscfg,
	  many_lines_cost_linear_memory)
