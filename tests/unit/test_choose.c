/* test_choose.c - the one default rule, the fallback order and the
 * timeout precedence (choose.h), and the same answer from the front-ends:
 * the plain chooser and --list over --root trees. */
#include "choose/choose.h"
#include "conf/conf.h"
#include "entry/entry.h"
#include "scan/fs.h"
#include "tchoose.h"
#include "test.h"
#include "util/arena.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct fs_root stick = {
    .name = "sda1", .removable = true, .uuid = "5555-aaaa"};
static struct fs_root disk1 = {.name = "vda1", .label = "one"};
static struct fs_root disk2 = {.name = "vdb1", .partuuid = "abcd-02"};

static struct entry *add(struct entry_list *l, struct fs_root *fs,
			 const char *id, bool def, int fallback,
			 const char *disabled)
{
	struct entry *e = entry_new(l, FMT_GRUB, fs);

	e->id = e->title = id;
	e->is_default = def;
	e->fallback = fallback;
	e->disabled = disabled;
	entry_add(l, e);
	return e;
}

/* sda1 (a stick): s0*; vda1: a0, a1* (fallback a0), a2 (fallback 2),
 * broken; vdb1: b0, b1* */
static void fill(struct entry_list *l, struct arena *a)
{
	entry_list_init(l, a);
	add(l, &stick, "s0", true, 0, NULL);
	add(l, &disk1, "a0", false, 1, NULL);
	add(l, &disk1, "a1", true, 0, NULL);
	add(l, &disk1, "a2", false, 2, NULL);
	add(l, &disk1, "broken", false, 0, "kernel not found");
	add(l, &disk2, "b0", false, 0, NULL);
	add(l, &disk2, "b1", true, 0, NULL);
}

TEST(default_rule_table)
{
	struct arena a = ARENA_INIT;
	struct entry_list l;
	struct conf cf;
	struct choose c;

	fill(&l, &a);
	conf_init(&cf);
	choose_init(&c, &cf, "", -2);
	/* internal disks in order, each default then its grub fallbacks,
	 * the stick last; then every other bootable entry */
	CHECK_STR(tchoose_order(&c, &l), "a1 a0 a2 b1 s0 b0");
	/* the disk bootmenu came from first */
	choose_init(&c, &cf, "quiet bootmenu.from=PARTUUID=ABCD-02", -2);
	CHECK_STR(tchoose_order(&c, &l), "b1 a1 a0 a2 s0 b0");
	/* bootmenu.conf default_device, even a stick */
	choose_init(&c, &cf, "", -2);
	strcpy(cf.default_device, "UUID=5555-AAAA");
	CHECK_STR(tchoose_order(&c, &l), "s0 a1 a0 a2 b1 b0");
	/* bootmenu.conf default: before default_device */
	strcpy(cf.default_pat, "b*");
	CHECK_STR(tchoose_order(&c, &l), "b0 b1 s0 a1 a0 a2");
	/* the saved default before everything; a disabled one never */
	strcpy(c.saved_id, "a2");
	CHECK_STR(tchoose_order(&c, &l), "a2 b0 b1 s0 a1 a0");
	strcpy(c.saved_id, "broken");
	CHECK_STR(choose_default(&c, &l)->id, "b0");
	arena_free(&a);
}

TEST(timeout_precedence)
{
	struct arena a = ARENA_INIT;
	struct entry_list l;
	struct conf cf;
	struct choose c;

	entry_list_init(&l, &a);
	conf_init(&cf);
	choose_init(&c, &cf, "", -2);
	CHECK(choose_timeout(&c, &l) == CHOOSE_DEFAULT_TIMEOUT_S);
	CHECK(choose_user_timeout(&c) == -2);
	l.timeout_ds = 100;
	CHECK(choose_timeout(&c, &l) == 10);
	cf.timeout = 9;
	CHECK(choose_timeout(&c, &l) == 9);
	choose_init(&c, &cf, "bootmenu.timeout=7", -2);
	CHECK(choose_timeout(&c, &l) == 7);
	choose_init(&c, &cf, "bootmenu.timeout=0", -2);
	CHECK(choose_timeout(&c, &l) == 0);
	CHECK(choose_user_timeout(&c) == 0);
	choose_init(&c, &cf, "bootmenu.timeout=7", 3);
	CHECK(choose_timeout(&c, &l) == 3);
	choose_init(&c, &cf, "bootmenu.timeout=7", -1);
	CHECK(choose_timeout(&c, &l) == -1);
	arena_free(&a);
}

/* Several filesystems' configs disagree: the first one that sets a
 * timeout, in the filesystems' order, counts ("wait" included); none set
 * one: the default. The user's settings still come first. */
TEST(timeout_across_filesystems)
{
	static const int unset[] = {-1, -1}, second[] = {-1, 30, 70},
			 waits[] = {0, 30};
	struct arena a = ARENA_INIT;
	struct entry_list l;
	struct conf cf;
	struct choose c;

	entry_list_init(&l, &a);
	conf_init(&cf);
	choose_init(&c, &cf, "", -2);
	l.fs_timeout_ds = unset;
	l.n_fs_timeout_ds = 2;
	CHECK(choose_timeout(&c, &l) == CHOOSE_DEFAULT_TIMEOUT_S);
	l.fs_timeout_ds = second;
	l.n_fs_timeout_ds = 3;
	CHECK(choose_timeout(&c, &l) == 3);
	l.fs_timeout_ds = waits; /* syslinux's TIMEOUT 0, lilo without prompt */
	l.n_fs_timeout_ds = 2;
	CHECK(choose_timeout(&c, &l) == 0);
	choose_init(&c, &cf, "bootmenu.timeout=7", -2);
	CHECK(choose_timeout(&c, &l) == 7);
	arena_free(&a);
}

/* grub's next_entry is used up by any boot that loaded, as GRUB's own
 * grub.cfg uses it up whatever is booted; never by a dry run or a load
 * that failed. */
TEST(next_entry_consumed)
{
	CHECK(choose_consumes_once(0, false));
	CHECK(!choose_consumes_once(0, true));
	CHECK(!choose_consumes_once(-ENOEXEC, false));
	CHECK(!choose_consumes_once(-ENOENT, true));
}

struct fake {
	const char *fail; /* ids that fail to load, space-separated */
	char tried[256];
	int failed_calls;
	bool stop;
};

static int fake_boot(void *ctx, const struct entry *e, char *err, size_t len)
{
	struct fake *f = ctx;

	strcat(f->tried, e->id);
	strcat(f->tried, " ");
	if (strstr(f->fail, e->id)) {
		snprintf(err, len, "not a kernel");
		return -ENOEXEC;
	}
	return 0;
}

static bool fake_failed(void *ctx, const struct entry *e, const char *err,
			const struct entry *next)
{
	struct fake *f = ctx;

	f->failed_calls++;
	return !f->stop;
}

TEST(autoboot_falls_back_in_order)
{
	struct arena a = ARENA_INIT;
	struct entry_list l;
	struct conf cf;
	struct choose c;
	struct fake f = {.fail = "a1 a0"};
	struct choose_ops ops = {
	    .boot = fake_boot, .failed = fake_failed, .ctx = &f};

	fill(&l, &a);
	conf_init(&cf);
	choose_init(&c, &cf, "", -2);
	CHECK_INT(choose_autoboot(&c, &l, false, &ops), 0);
	CHECK_STR(f.tried, "a1 a0 a2 ");
	CHECK_INT(f.failed_calls, 2);
	/* everything fails: the last error, every candidate tried once */
	f = (struct fake){.fail = "a1 a0 a2 b1 s0 b0"};
	CHECK_INT(choose_autoboot(&c, &l, false, &ops), -ENOEXEC);
	CHECK_STR(f.tried, "a1 a0 a2 b1 s0 b0 ");
	/* a key during the failure box stops it */
	f = (struct fake){.fail = "a1", .stop = true};
	CHECK_INT(choose_autoboot(&c, &l, false, &ops), -ECANCELED);
	CHECK_STR(f.tried, "a1 ");
	/* lilo's mandatory password: skipped without a prompt */
	((struct entry *)l.head->next->next)->password = true;
	f = (struct fake){.fail = ""};
	CHECK_INT(choose_autoboot(&c, &l, false, &ops), 0);
	CHECK_STR(f.tried, "a0 ");
	arena_free(&a);
}

/* The reported fault: two BLS entries, `default = First` in the file
 * given with --config, no terminal: plain mode and --list both pick
 * "First" (they took "Second" or ignored bootmenu.conf before). */
TEST(front_ends_agree)
{
	char dir[] = "/tmp/bm-choose-XXXXXX", cmd[2048], conf[64], out[4096];
	FILE *f;
	size_t n;

	if (access("build/host/bootmenu", X_OK)) {
		test_skip("build/host/bootmenu absent (run make)");
		return;
	}
	CHECK(mkdtemp(dir) != NULL);
	snprintf(cmd, sizeof(cmd),
		 "mkdir -p %s/loader/entries && cd %s/loader/entries && "
		 "printf 'title First\\nversion 1\\nlinux /k1\\n' > a.conf && "
		 "printf 'title Second\\nversion 2\\nlinux /k2\\n' > b.conf && "
		 "echo k > ../../k1 && echo k > ../../k2 && "
		 "printf 'default = First\\n' > %s/bootmenu.conf",
		 dir, dir, dir);
	CHECK_INT(system(cmd), 0);
	snprintf(conf, sizeof(conf), "%s/bootmenu.conf", dir);
	snprintf(cmd, sizeof(cmd),
		 "build/host/bootmenu --root %s --config %s --list; "
		 "build/host/bootmenu --root %s --config %s --dry-run "
		 "--timeout 0 </dev/null 2>&1; rm -rf %s",
		 dir, conf, dir, conf, dir);
	f = popen(cmd, "r");
	CHECK(f != NULL);
	n = f ? fread(out, 1, sizeof(out) - 1, f) : 0;
	out[n] = '\0';
	if (f)
		pclose(f);
	CHECK(strstr(out, "1* First") != NULL);
	CHECK(strstr(out, "0  Second") != NULL);
	CHECK(strstr(out, "bootmenu: loading \"First\"") != NULL);
	CHECK(strstr(out, "bootmenu: loading \"Second\"") == NULL ||
	      strstr(out, "bootmenu: loading \"First\"") <
		  strstr(out, "bootmenu: loading \"Second\""));
}

/* Another OS booted by the firmware comes after every kernel; the
 * firmware's setup screen is never chosen without a key. */
TEST(firmware_entries_last)
{
	static struct fs_root esp = {.name = "vda1", .esp = true};
	struct arena a = ARENA_INIT;
	struct entry_list l;
	struct conf cf;
	struct choose c;
	struct entry *e;

	entry_list_init(&l, &a);
	e = add(&l, &esp, "windows", false, 0, NULL);
	e->method = ENTRY_FIRMWARE;
	e = add(&l, &esp, "setup", false, 0, NULL);
	e->method = ENTRY_FIRMWARE;
	e->fw_setup = true;
	add(&l, &disk2, "b0", false, 0, NULL);
	conf_init(&cf);
	choose_init(&c, &cf, "", -2);
	CHECK_STR(tchoose_order(&c, &l), "b0 windows");
	strcpy(cf.default_pat, "setup");
	CHECK_STR(tchoose_order(&c, &l), "b0 windows");
	strcpy(c.saved_id, "windows");
	CHECK_STR(tchoose_order(&c, &l), "windows b0");
	arena_free(&a);
}

/* network = auto: a network root's entries come after every local one,
 * a removable stick's and a local entry that is no config's default
 * included; the network's default is the default only when nothing local
 * can boot, and a saved default may still name it. */
TEST(network_after_local)
{
	static struct fs_net pxe = {.loader = FS_NET_PXELINUX};
	static struct fs_root net = {.name = "eth0", .net = &pxe};
	struct arena a = ARENA_INIT;
	struct entry_list l;
	struct conf cf;
	struct choose c;
	struct entry *s0, *a0;

	conf_init(&cf);
	choose_init(&c, &cf, "", -2);
	/* the network alone: its default, then its other entries */
	entry_list_init(&l, &a);
	add(&l, &net, "n0", false, 0, NULL);
	add(&l, &net, "n1", true, 0, NULL);
	CHECK_STR(tchoose_order(&c, &l), "n1 n0");
	CHECK_INT(choose_fs_rank(&c, &net), 3);
	/* a stick's default and an internal entry that is nobody's default
	 * both come before the network's default */
	entry_list_init(&l, &a);
	s0 = add(&l, &stick, "s0", true, 0, NULL);
	a0 = add(&l, &disk1, "a0", false, 0, NULL);
	add(&l, &net, "n0", false, 0, NULL);
	add(&l, &net, "n1", true, 0, NULL);
	CHECK_STR(tchoose_order(&c, &l), "s0 a0 n1 n0");
	CHECK_STR(choose_default(&c, &l)->id, "s0");
	/* local entries that cannot boot: the network's default */
	s0->disabled = a0->disabled = "kernel not found";
	CHECK_STR(tchoose_order(&c, &l), "n1 n0");
	/* someone's choice names a network entry: it comes first */
	s0->disabled = a0->disabled = NULL;
	strcpy(c.saved_id, "n0");
	CHECK_STR(tchoose_order(&c, &l), "n0 s0 a0 n1");
	arena_free(&a);
}

static int unlock_boot_calls;

static int unlock_boot(void *ctx, const struct entry *e, char *err, size_t len)
{
	unlock_boot_calls++;
	snprintf(err, len, "booted %s", e->id);
	return -EIO;
}

/* A locked LUKS volume's line (ENTRY_UNLOCK, no filesystem, as the
 * session makes it) is never a candidate: not alone, not named by the
 * saved default, bootmenu.conf's pattern or the OS's variables, not even
 * marked as a config default. */
TEST(unlock_entry_never_chosen)
{
	struct arena a = ARENA_INIT;
	struct entry_list l;
	struct conf cf;
	struct choose c;
	struct choose_ops ops = {.boot = unlock_boot};
	struct entry *u;
	char note[256];

	entry_list_init(&l, &a);
	u = add(&l, NULL, "luks-1234", true, 1, NULL);
	u->method = ENTRY_UNLOCK;
	u->unlock_dev = "vda3";
	conf_init(&cf);
	choose_init(&c, &cf, "", -2);
	CHECK_STR(tchoose_order(&c, &l), "");
	CHECK(choose_default(&c, &l) == NULL);
	strcpy(c.saved_id, "luks-1234");
	strcpy(cf.default_pat, "luks*");
	strcpy(c.loader_oneshot, "luks-*");
	strcpy(c.loader_default, "*");
	CHECK(choose_default(&c, &l) == NULL);
	CHECK_INT(choose_autoboot(&c, &l, true, &ops), -ENOENT);
	CHECK_INT(unlock_boot_calls, 0);
	/* the OS's request names no boot entry: the menu says so */
	CHECK(choose_loader_find(&l, "luks-*") == NULL);
	CHECK(choose_loader_note(&c, &l, note, sizeof(note)));
	CHECK(strstr(note, "LoaderEntryOneShot \"luks-*\" names no entry"));
	/* with a kernel beside it, the kernel, whatever names the line */
	add(&l, &disk2, "b0", false, 0, NULL);
	CHECK_STR(tchoose_order(&c, &l), "b0");
	CHECK_INT(choose_autoboot(&c, &l, true, &ops), -EIO);
	CHECK_INT(unlock_boot_calls, 1);
	arena_free(&a);
}

TEST_MAIN("test_choose", default_rule_table, timeout_precedence,
	  timeout_across_filesystems, next_entry_consumed,
	  firmware_entries_last, autoboot_falls_back_in_order, front_ends_agree,
	  unlock_entry_never_chosen, network_after_local)
