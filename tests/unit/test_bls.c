/* test_bls.c - BLS Type 1 entries: version order, each ordering rule,
 * boot counting, loader.conf, the grub blscfg entry point, systemd-boot's
 * unique titles, known vendor keys; and the warnings a parse leaves
 * (repeats counted once, --list --json carrying them). */
#include "test.h"
#include "cfg/bls.h"
#include "cfg/loader_conf.h"
#include "cfg/resolve.h"
#include "cfg/verscmp.h"
#include "entry/entry.h"
#include "session/listing.h"
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
	cfg_finish(&t.out, t.all, 1);
	CHECK_STR(e->disabled,
		  "names more than 32 initrds, the most one boot loads");
	tfs_done(&t);
}

/* An entry for the title tests: @title, @version, @mid, its file @name. */
static struct entry *mkt(struct tfs *t, const char *title, const char *version,
			 const char *mid, const char *name)
{
	struct entry *e = entry_new(&t->out, FMT_BLS, &t->fs);

	e->title = title;
	e->version = version;
	e->machine_id = mid;
	e->id = name;
	e->source = arena_printf(&t->a, "/loader/entries/%s", name);
	return e;
}

/* systemd 252, src/boot/efi/boot.c config_title_generate(): version, then
 * the machine-id's first 8 characters, then the id (the file name in lower
 * case), each only for titles still shared. */
TEST(unique_titles_systemd_boot_rules)
{
	struct tfs t;
	struct entry *v[4];

	tfs_init(&t);
	v[0] = mkt(&t, "NixOS", "6.6.1", NULL, "nixos-gen-2.conf");
	v[1] = mkt(&t, "NixOS", "6.1.60", NULL, "nixos-gen-1.conf");
	v[2] = mkt(&t, "Memtest", NULL, NULL, "memtest.conf");
	bls_unique_titles(&t.a, v, 3);
	CHECK_STR(v[0]->title, "NixOS (6.6.1)");
	CHECK_STR(v[1]->title, "NixOS (6.1.60)");
	CHECK_STR(v[2]->title, "Memtest"); /* unique: untouched */
	/* same version: machine-id, cut at 8 characters */
	v[0] = mkt(&t, "Fedora", "6.5", "0123456789abcdef", "a.conf");
	v[1] = mkt(&t, "Fedora", "6.5", "fedcba9876543210", "b.conf");
	v[2] = mkt(&t, "Fedora", "6.4", "0123456789abcdef", "c.conf");
	bls_unique_titles(&t.a, v, 3);
	CHECK_STR(v[0]->title, "Fedora (6.5) (01234567)");
	CHECK_STR(v[1]->title, "Fedora (6.5) (fedcba98)");
	CHECK_STR(v[2]->title, "Fedora (6.4)");
	/* all the same: the file name, counter kept, in lower case */
	v[0] = mkt(&t, "Pop!_OS", NULL, NULL, "Pop_OS-current.conf");
	v[1] = mkt(&t, "Pop!_OS", NULL, NULL, "Pop_OS-oldkern+2-1.conf");
	v[0]->id = "Pop_OS-current.conf";
	bls_unique_titles(&t.a, v, 2);
	CHECK_STR(v[0]->title, "Pop!_OS (pop_os-current.conf)");
	CHECK_STR(v[1]->title, "Pop!_OS (pop_os-oldkern+2-1.conf)");
	tfs_done(&t);
}

TEST(unique_titles_rounds_only_touch_shared_titles)
{
	struct tfs t;
	struct entry *v[4];

	tfs_init(&t);
	/* no version: that round leaves it, and then it is unique */
	v[0] = mkt(&t, "Arch", NULL, "m1", "a.conf");
	v[1] = mkt(&t, "Arch", "6.6", "m2", "b.conf");
	bls_unique_titles(&t.a, v, 2);
	CHECK_STR(v[0]->title, "Arch");
	CHECK_STR(v[1]->title, "Arch (6.6)");
	/* a round can make a new collision with a title that was unique */
	v[0] = mkt(&t, "Arch (6.6)", NULL, "m0", "x.conf");
	v[1] = mkt(&t, "Arch", "6.6", "m1", "y.conf");
	v[2] = mkt(&t, "Arch", "6.1", "m2", "z.conf");
	bls_unique_titles(&t.a, v, 3);
	CHECK_STR(v[0]->title, "Arch (6.6) (m0)");
	CHECK_STR(v[1]->title, "Arch (6.6) (m1)");
	CHECK_STR(v[2]->title, "Arch (6.1)");
	/* one entry, none: nothing to do */
	bls_unique_titles(&t.a, v, 1);
	bls_unique_titles(&t.a, NULL, 0);
	CHECK_STR(v[0]->title, "Arch (6.6) (m0)");
	tfs_done(&t);
}

/* bls_parse_fs() shows systemd-boot's titles; grub's blscfg does not
 * change them (GRUB shows the title as written). */
TEST(parse_fs_titles_unique_after_sorting)
{
	struct tfs t;
	static const char nixos[] = "title NixOS\nversion %s\nsort-key nixos\n"
				    "linux /k-%s\n";
	char buf[128];

	tfs_init(&t);
	snprintf(buf, sizeof(buf), nixos, "6.1.60", "6.1.60");
	tfs_write(&t, "/loader/entries/nixos-generation-1.conf", buf);
	snprintf(buf, sizeof(buf), nixos, "6.6.1", "6.6.1");
	tfs_write(&t, "/loader/entries/nixos-generation-2.conf", buf);
	bls_parse_fs(&t.ctx);
	CHECK_INT(t.out.count, 2);
	CHECK_STR(nth(&t, 0)->title, "NixOS (6.6.1)");
	CHECK_STR(nth(&t, 1)->title, "NixOS (6.1.60)");
	CHECK(nth(&t, 0)->is_default);
	tfs_done(&t);
	tfs_init(&t);
	snprintf(buf, sizeof(buf), nixos, "6.1.60", "6.1.60");
	tfs_write(&t, "/loader/entries/a.conf", buf);
	tfs_write(&t, "/loader/entries/b.conf", buf);
	CHECK_INT(bls_collect(&t.ctx, "/loader/entries", FMT_GRUB, NULL, NULL),
		  2);
	CHECK_STR(nth(&t, 0)->title, "NixOS");
	CHECK_STR(nth(&t, 1)->title, "NixOS");
	tfs_done(&t);
}

/* Fedora/RHEL entries carry keys for grub's blscfg; both loaders pass
 * over them silently, and so does bootmenu. */
TEST(fedora_and_ostree_keys_are_known)
{
	struct tfs t;
	struct entry *e;

	tfs_init(&t);
	e = entry_of(&t, "f.conf",
		     "title Fedora Linux (6.5.6-300.fc39.x86_64) 39\n"
		     "version 6.5.6-300.fc39.x86_64\n"
		     "linux /vmlinuz-6.5.6-300.fc39.x86_64\n"
		     "options root=UUID=x ro rhgb quiet\n"
		     "id fedora-20231010-6.5.6-300.fc39.x86_64\n"
		     "grub_users $grub_users\ngrub_arg --unrestricted\n"
		     "grub_class fedora\naboot /a.img\nabootcfg /a.cfg\n");
	CHECK(e != NULL);
	CHECK_INT(n_warn(&t), 0);
	CHECK_STR(e->id, "f.conf"); /* the file name, not the id key */
	e = entry_of(&t, "g.conf", "linux /k\ngrub_userz x\n");
	CHECK_INT(n_warn(&t), 1);
	CHECK_STR(t.out.warnings->msg, "unknown key 'grub_userz' ignored");
	tfs_done(&t);
}

/* The same warning again for the same file: once, with a count, the first
 * line kept; a repeat costs no memory. */
TEST(repeated_warning_counted_once)
{
	enum { N = 100000 };
	struct tfs t;
	size_t used;

	tfs_init(&t);
	entry_warn(&t.out, &t.fs, "/f", 3, "bad line %d", 1);
	used = t.a.used;
	for (int i = 1; i < N; i++)
		entry_warn(&t.out, &t.fs, "/f", 3 + i, "bad line %d", 1);
	CHECK_INT(n_warn(&t), 1);
	CHECK_INT(t.out.warnings->count, N);
	CHECK_INT(t.out.warnings->line, 3);
	CHECK_STR(t.out.warnings->msg, "bad line 1 (100000 times)");
	CHECK_INT(t.out.warnings->msg_len, strlen("bad line 1"));
	CHECK_INT(t.a.used, used);
	/* another file, another filesystem, another message: their own */
	entry_warn(&t.out, &t.fs, "/g", 1, "bad line %d", 1);
	entry_warn(&t.out, NULL, "/f", 1, "bad line %d", 1);
	entry_warn(&t.out, &t.fs, "/f", 1, "bad line %d", 2);
	CHECK_INT(n_warn(&t), 4);
	/* interleaved repeats within the last 8 are found */
	for (int i = 0; i < 3; i++) {
		entry_warn(&t.out, &t.fs, "/f", 9, "bad line %d", 1);
		entry_warn(&t.out, &t.fs, "/f", 9, "bad line %d", 2);
	}
	CHECK_INT(n_warn(&t), 4);
	CHECK_STR(t.out.warnings->msg, "bad line 1 (100003 times)");
	tfs_done(&t);
}

/* The search is bounded: past the last 8, a repeat is a new warning. */
TEST(repeat_search_is_bounded)
{
	struct tfs t;

	tfs_init(&t);
	for (int round = 0; round < 2; round++)
		for (int i = 0; i < 9; i++)
			entry_warn(&t.out, &t.fs, "/f", i, "w%d", i);
	CHECK_INT(n_warn(&t), 18);
	for (int i = 0; i < 8; i++)
		entry_warn(&t.out, &t.fs, "/f", i, "w%d", (i + 1) % 9);
	CHECK_INT(n_warn(&t), 18);
	tfs_done(&t);
}

/* --list --json: one object, the entries and the warnings. */
TEST(json_carries_the_warnings)
{
	struct tfs t;
	char *out = NULL;
	size_t len = 0;
	FILE *f;

	tfs_init(&t);
	tfs_write(&t, "/loader/entries/x.conf",
		  "title X\nfrob 1\nlinux /k\nfrob 2\nfrob \"3\"\n");
	bls_parse_fs(&t.ctx);
	f = open_memstream(&out, &len);
	listing_json(f, &t.out, t.out.head, NULL);
	fclose(f);
	CHECK(!strncmp(out,
		       "{\"entries\":[\n  {\"id\":\"x.conf\","
		       "\"loader_id\":\"x.conf\"",
		       50));
	CHECK(strstr(out, "\n],\n\"warnings\":[\n  {\"device\":\"t\","
			  "\"file\":\"/loader/entries/x.conf\",\"line\":2,"
			  "\"message\":\"unknown key 'frob' ignored\","
			  "\"count\":3}\n]}\n") != NULL);
	free(out);
	f = open_memstream(&out, &len);
	listing_text(f, &t.out, t.out.head);
	fclose(f);
	CHECK(strstr(out, "warning: t:/loader/entries/x.conf:2: unknown key "
			  "'frob' ignored (3 times)\n") != NULL);
	free(out);
	entry_list_init(&t.out, &t.a);
	f = open_memstream(&out, &len);
	listing_json(f, &t.out, NULL, NULL);
	fclose(f);
	CHECK_STR(out, "{\"entries\":[\n],\n\"warnings\":[\n]}\n");
	free(out);
	tfs_done(&t);
}

TEST_MAIN("test_bls", version_order_of_the_spec, boot_counter_names, entry_keys,
	  entry_architecture_efi_and_nothing, order_sort_key_first_then_without,
	  order_machine_id_then_version_descending, order_id_descending_last,
	  order_no_tries_left_goes_last, loader_conf_keys,
	  parse_fs_default_glob_and_timeout, default_pattern_without_suffix,
	  parse_fs_first_is_default_without_pattern,
	  boot_loader_entries_on_root_fs, collect_for_grub_blscfg,
	  many_lines_cost_linear_memory, unique_titles_systemd_boot_rules,
	  unique_titles_rounds_only_touch_shared_titles,
	  parse_fs_titles_unique_after_sorting,
	  fedora_and_ostree_keys_are_known, repeated_warning_counted_once,
	  repeat_search_is_bounded, json_carries_the_warnings)
