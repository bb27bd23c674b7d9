/* test_session_unlock.c - the session's lines for locked LUKS devices
 * (issue #33): ENTRY_UNLOCK entries made from the scan's devices, their
 * text and JSON listings, the devices listing's LUKS lines, and, over a
 * fake sysfs with a real LUKS2 image, the entry at the end of the list
 * and gone with its device. */
#include "conf/conf.h"
#include "entry/entry.h"
#include "scan/fs.h"
#include "scan/scan.h"
#include "boot/hand_on.h"
#include "session/keys.h"
#include "session/listing.h"
#include "session/locked.h"
#include "session/session.h"
#include "savedef/savedef.h"
#include "test.h"
#include "util/arena.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define IMG "build/test-images/"
#define LUKS_UUID "1c1c1c1c-2222-4333-8444-555566667777"

/* vda1 mounted, vda3 locked LUKS2 "cr_root", vdb1 locked LUKS1 without
 * a label, vdc a damaged LUKS header. */
static struct scan_dev devs[] = {
    {.name = "vda1", .fstype = "ext4", .state = SCAN_DEV_MOUNTED},
    {.name = "vda3",
     .fstype = "crypto_LUKS",
     .state = SCAN_DEV_LOCKED,
     .luks_version = 2,
     .luks_uuid = "aaaa-1111",
     .luks_label = "cr_root",
     .unlocked_as = ""},
    {.name = "vdb1",
     .fstype = "crypto_LUKS",
     .state = SCAN_DEV_LOCKED,
     .luks_version = 1,
     .luks_uuid = "bbbb-2222",
     .luks_label = "",
     .unlocked_as = ""},
    {.name = "vdc",
     .fstype = "crypto_LUKS",
     .state = SCAN_DEV_FAILED,
     .reason = "the LUKS2 header's checksum is wrong"},
};
#define N_DEVS (sizeof(devs) / sizeof(devs[0]))

static const char *ids(const struct session *s)
{
	static char buf[512];
	size_t k = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < s->n_locked; i++)
		k += (size_t)snprintf(buf + k, sizeof(buf) - k, "%s%s=%s",
				      i ? " " : "", s->locked[i]->unlock_dev,
				      s->locked[i]->id);
	return buf;
}

TEST(locked_entries_made)
{
	struct session s;
	const struct entry *e;
	char what[64];

	memset(&s, 0, sizeof(s));
	CHECK(!session_locked_same(&s, devs, N_DEVS));
	session_locked_make(&s, devs, N_DEVS);
	CHECK_INT(s.n_locked, 2);
	CHECK_STR(ids(&s), "vda3=luks-aaaa-1111 vdb1=luks-bbbb-2222");
	e = s.locked[0];
	CHECK_STR(e->title,
		  "Encrypted: vda3, LUKS2 'cr_root' - Enter to unlock");
	CHECK_INT(e->method, ENTRY_UNLOCK);
	CHECK(e->fs == NULL && e->kernel.path == NULL && !e->is_default);
	CHECK(e->unlock_dev != devs[1].name); /* a copy */
	CHECK_STR(s.locked[1]->title,
		  "Encrypted: vdb1, LUKS1 - Enter to unlock");
	CHECK_INT(session_unlock_what(&s, "vda3", what, sizeof(what)), 0);
	CHECK_STR(what, "LUKS2 'cr_root'");
	CHECK_INT(session_unlock_what(&s, "vdb1", what, sizeof(what)), 0);
	CHECK_STR(what, "LUKS1");
	CHECK_INT(session_unlock_what(&s, "vda1", what, sizeof(what)), -ENOENT);
	CHECK_INT(session_unlock_what(&s, "vda", what, sizeof(what)), -ENOENT);
	CHECK(session_locked_same(&s, devs, N_DEVS));
	/* vdb1 unlocked: its line goes */
	devs[2].state = SCAN_DEV_SKIPPED;
	devs[2].unlocked_as = "luks-bbbb-2222";
	CHECK(!session_locked_same(&s, devs, N_DEVS));
	arena_free(&s.locked_a);
	session_locked_make(&s, devs, N_DEVS);
	CHECK_STR(ids(&s), "vda3=luks-aaaa-1111");
	/* a label given later is another title */
	devs[1].luks_label = "other";
	CHECK(!session_locked_same(&s, devs, N_DEVS));
	devs[1].luks_label = "cr_root";
	CHECK(session_locked_same(&s, devs, N_DEVS));
	devs[2].state = SCAN_DEV_LOCKED;
	devs[2].unlocked_as = "";
	arena_free(&s.locked_a);
	/* nothing locked: none, and no array */
	session_locked_make(&s, devs, 1);
	CHECK_INT(s.n_locked, 0);
	CHECK(session_locked_same(&s, devs, 1));
	arena_free(&s.locked_a);
}

static char *capture(void (*fn)(FILE *, void *), void *ctx)
{
	static char buf[8192];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	buf[0] = '\0';
	if (f) {
		fn(f, ctx);
		fclose(f);
	}
	return buf;
}

static void put_devices(FILE *f, void *ctx)
{
	size_t n = *(size_t *)ctx;

	for (size_t i = 0; i < n; i++)
		session_device_line(f, devs, n, i);
}

TEST(device_lines)
{
	size_t n = N_DEVS;
	struct scan_dev one[] = {
	    {.name = "vda3",
	     .fstype = "crypto_LUKS",
	     .state = SCAN_DEV_SKIPPED,
	     .luks_version = 2,
	     .unlocked_as = "luks-aaaa-1111"},
	    {.name = "luks-aaaa-1111",
	     .fstype = "ext4",
	     .state = SCAN_DEV_MOUNTED},
	    {.name = "vda1", .fstype = "ext4", .state = SCAN_DEV_MOUNTED},
	};
	char buf[1024];
	FILE *f;

	CHECK_STR(capture(put_devices, &n),
		  "device: vda3 crypto_LUKS: locked: LUKS2 'cr_root' "
		  "(luks-aaaa-1111)\n"
		  "device: vdb1 crypto_LUKS: locked: LUKS1 (luks-bbbb-2222)\n"
		  "device: vdc crypto_LUKS: failed: the LUKS2 header's "
		  "checksum is wrong\n");
	f = fmemopen(buf, sizeof(buf), "w");
	for (size_t i = 0; f && i < 3; i++)
		session_device_line(f, one, 3, i);
	if (f)
		fclose(f);
	CHECK_STR(buf, "device: vda3 crypto_LUKS: unlocked as luks-aaaa-1111\n"
		       "device: luks-aaaa-1111 ext4: mounted\n");
}

struct lists {
	struct entry_list l;
	const struct entry *def;
};

static void put_text(FILE *f, void *ctx)
{
	struct lists *x = ctx;

	listing_text(f, &x->l, x->def);
}

static void put_json(FILE *f, void *ctx)
{
	struct lists *x = ctx;

	listing_json(f, &x->l, x->def, NULL);
}

TEST(listings)
{
	static struct fs_root vda1 = {.name = "vda1"};
	struct session s;
	struct arena a = ARENA_INIT;
	struct lists x;
	struct entry *k;
	const char *j;

	memset(&s, 0, sizeof(s));
	entry_list_init(&x.l, &a);
	k = entry_new(&x.l, FMT_BLS, &vda1);
	k->id = "debian";
	k->title = "Debian";
	k->kernel.path = "/vmlinuz";
	entry_add(&x.l, k);
	x.def = k;
	session_locked_make(&s, devs, N_DEVS);
	session_locked_link(&s, &x.l);
	CHECK_INT(x.l.count, 3);
	CHECK_STR(capture(put_text, &x),
		  "0* Debian [bls] vda1:/vmlinuz -- \n"
		  "1  Encrypted: vda3, LUKS2 'cr_root' - Enter to unlock "
		  "[luks] vda3\n"
		  "2  Encrypted: vdb1, LUKS1 - Enter to unlock [luks] vdb1\n");
	j = capture(put_json, &x);
	CHECK(strstr(j, "{\"id\":\"luks-aaaa-1111\",\"loader_id\":null,"
			"\"title\":\"Encrypted: vda3, LUKS2 'cr_root' - Enter "
			"to unlock\",\"group\":null,\"format\":\"luks\","
			"\"method\":\"unlock\""));
	CHECK(strstr(j, "\"device\":\"vda3\""));
	CHECK(strstr(j, "\"device\":\"vdb1\""));
	CHECK(strstr(j, "\"loader_id\":\"debian\""));
	CHECK(strstr(j, "\"method\":\"kexec\""));
	arena_free(&s.locked_a);
	arena_free(&a);
}

/* `bootmenu --save-default N` naming a locked line: refused before any
 * filesystem is looked for (never a default, entry.h). */
TEST(not_saved_as_default)
{
	struct session s;
	struct conf c;
	char err[256] = "";

	memset(&s, 0, sizeof(s));
	conf_init(&c);
	c.save_default = true;
	session_locked_make(&s, devs, N_DEVS);
	CHECK_INT(savedef_save(&s, &c, s.locked[0], err, sizeof(err)), -EINVAL);
	CHECK_STR(err, "vda3 is an encrypted volume to unlock, not a system "
		       "to boot: not saved");
	arena_free(&s.locked_a);
}

/* --- the keys kept for the hand-on step (session/keys.h) */

#define VOL_A "luks-aaaa-1111"
#define VOL_B "luks-bbbb-2222"

static const char *key_text(struct session *s, const char *volume)
{
	static char buf[64];
	const void *key;
	size_t len;

	if (session_key_of(s, volume, &key, &len) < 0)
		return "(none)";
	snprintf(buf, sizeof(buf), "%.*s", (int)len, (const char *)key);
	return buf;
}

/* luks_pass_key = no: a volume unlocked leaves nothing behind. */
TEST(keys_off_nothing_kept)
{
	struct session s;

	memset(&s, 0, sizeof(s));
	CHECK_INT(session_key_put(&s, VOL_A, "pw", 2), 0);
	CHECK_INT(session_keys_count(&s), 0);
	s.pass_key = "";
	CHECK_INT(session_key_put(&s, VOL_A, "pw", 2), 0);
	CHECK_INT(session_keys_count(&s), 0);
	/* nor from an unlock the scan does not know */
	s.pass_key = "*";
	CHECK_INT(session_key_keep(&s, "vda3", "pw", 2), -ENOENT);
	CHECK_INT(session_keys_count(&s), 0);
	CHECK_STR(key_text(&s, VOL_A), "(none)");
}

/* Kept by volume, the newer key for a volume unlocked again, dropped
 * when the volume is not among the devices, all gone with the session. */
TEST(keys_kept_and_dropped)
{
	struct scan_dev present[] = {{.name = "vda3"}, {.name = VOL_A}};
	struct session s;

	memset(&s, 0, sizeof(s));
	s.pass_key = "*";
	CHECK_INT(session_key_put(&s, VOL_A, "first", 5), 0);
	CHECK_INT(session_key_put(&s, VOL_B, "bee\0x", 5), 0);
	CHECK_INT(session_key_put(&s, VOL_A, "again", 5), 0);
	CHECK_INT(session_keys_count(&s), 2);
	CHECK_STR(key_text(&s, VOL_A), "again");
	CHECK_STR(key_text(&s, "luks-cccc"), "(none)");
	/* the exact bytes, a NUL too */
	{
		const void *k;
		size_t n;

		CHECK_INT(session_key_of(&s, VOL_B, &k, &n), 0);
		CHECK(n == 5 && !memcmp(k, "bee\0x", 5));
	}
	/* too long to hand on: not kept */
	{
		static char big[SESSION_KEY_MAX + 1];

		CHECK_INT(session_key_put(&s, "luks-big", big, sizeof(big)), 0);
		CHECK_STR(key_text(&s, "luks-big"), "(none)");
	}
	/* VOL_B's device went (a USB stick pulled) */
	session_keys_prune_to(&s, present, 2);
	CHECK_INT(session_keys_count(&s), 1);
	CHECK_STR(key_text(&s, VOL_B), "(none)");
	CHECK_STR(key_text(&s, VOL_A), "again");
	session_free(&s);
	CHECK_INT(session_keys_count(&s), 0);
	CHECK(s.keys == NULL);
}

/* Which keys go for a filesystem: its own volume's, or through the
 * members of an LVM volume or md mirror to the LUKS volumes under them. */
TEST(keys_under_volumes)
{
	struct scan_dev devs[] = {
	    {.name = "vda3", .members = "", .unlocked_as = VOL_A},
	    {.name = VOL_A, .members = ""},
	    {.name = VOL_B, .members = ""},
	    {.name = "md0", .members = VOL_B " vdc1"},
	    {.name = "vg-root", .members = VOL_A " md0"},
	    {.name = "vg-plain", .members = "vdc1"},
	    {.name = "loop", .members = "loop"},
	};
	size_t n = sizeof(devs) / sizeof(devs[0]);
	struct boot_key out[4];
	struct session s;

	memset(&s, 0, sizeof(s));
	s.pass_key = "*";
	CHECK_INT(session_key_put(&s, VOL_A, "aaa", 3), 0);
	CHECK_INT(session_key_put(&s, VOL_B, "bbbb", 4), 0);
	CHECK_INT(session_keys_under(&s, devs, n, VOL_A, out, 4), 1);
	CHECK_STR(out[0].volume, VOL_A);
	CHECK(out[0].len == 3 && !memcmp(out[0].key, "aaa", 3));
	/* LVM over LUKS and over an md mirror over LUKS */
	CHECK_INT(session_keys_under(&s, devs, n, "vg-root", out, 4), 2);
	CHECK_STR(out[0].volume, VOL_A);
	CHECK_STR(out[1].volume, VOL_B);
	CHECK(out[1].len == 4 && !memcmp(out[1].key, "bbbb", 4));
	CHECK_INT(session_keys_under(&s, devs, n, "vg-root", out, 1), 1);
	/* nothing encrypted under it; a loop in the members ends */
	CHECK_INT(session_keys_under(&s, devs, n, "vg-plain", out, 4), 0);
	CHECK_INT(session_keys_under(&s, devs, n, "loop", out, 4), 0);
	CHECK_INT(session_keys_under(&s, devs, n, "vda1", out, 4), 0);
	/* a volume without a key kept */
	CHECK_INT(session_keys_under(&s, devs, n, "luks-cccc", out, 4), 0);
	session_free(&s);
	CHECK_INT(session_keys_under(&s, devs, n, "vg-root", out, 4), 0);
}

/* --- over a fake sysfs: the scan's own locked device */

static char top[64], sys_dir[96], dev_dir[96], mnt_dir[96];

static void put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static int sh(const char *fmt, const char *a)
{
	char cmd[PATH_MAX * 2];

	snprintf(cmd, sizeof(cmd), fmt, a, a);
	return system(cmd);
}

/* A whole disk @name in the fake sysfs whose node is the image @img. */
static void disk_add(const char *name, const char *img)
{
	char d[PATH_MAX], p[PATH_MAX + 32], t[PATH_MAX], abs[PATH_MAX];

	snprintf(d, sizeof(d), "%s/devices/virtual/block/%s", sys_dir, name);
	sh("mkdir -p '%s'", d);
	snprintf(p, sizeof(p), "%s/dev", d);
	put_file(p, "254:0\n");
	snprintf(p, sizeof(p), "%s/size", d);
	put_file(p, "8192\n");
	snprintf(p, sizeof(p), "%s/uevent", d);
	snprintf(t, sizeof(t), "DEVNAME=%s\nDEVTYPE=disk\n", name);
	put_file(p, t);
	snprintf(p, sizeof(p), "%s/class/block/%s", sys_dir, name);
	snprintf(t, sizeof(t), "../../devices/virtual/block/%s", name);
	if (symlink(t, p) < 0)
		perror(p);
	snprintf(p, sizeof(p), "%s/%s", dev_dir, name);
	if (!realpath(img, abs) || symlink(abs, p) < 0)
		perror(p);
}

static int no_mount(void *ctx, const char *devnode, const char *fstype,
		    const char *target)
{
	return -ENODEV;
}

static const struct scan_opts opts = {
    .sysfs = sys_dir,
    .devdir = dev_dir,
    .mount_base = mnt_dir,
    .timeout_s = 5,
    .mount_fn = no_mount,
};

static const struct entry *last(const struct session *s)
{
	const struct entry *e = s->list.head;

	while (e && e->next)
		e = e->next;
	return e;
}

static const char *devices(struct session *s)
{
	static char buf[2048];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	buf[0] = '\0';
	if (f) {
		session_print_devices(s, f);
		fclose(f);
	}
	return buf;
}

static void wait_settled(struct session *s)
{
	for (int i = 0; i < 200 && !session_settled(s); i++) {
		struct pollfd p = {.fd = session_fd(s), .events = POLLIN};

		poll(&p, 1, 50);
		session_update(s);
	}
}

TEST(locked_device_in_session)
{
	struct session s;
	const struct entry *e;
	char what[64] = "";

	if (system("bash tests/unit/mkimages.sh " IMG) != 0 ||
	    access(IMG "luks.img", R_OK) != 0) {
		test_skip("no %sluks.img (cryptsetup missing?)", IMG);
		return;
	}
	snprintf(top, sizeof(top), "/tmp/bm_sunlock_XXXXXX");
	if (!mkdtemp(top))
		abort();
	snprintf(sys_dir, sizeof(sys_dir), "%s/sys", top);
	snprintf(dev_dir, sizeof(dev_dir), "%s/dev", top);
	snprintf(mnt_dir, sizeof(mnt_dir), "%s/mnt", top);
	sh("mkdir -p '%s/class/block'", sys_dir);
	sh("mkdir -p '%s'", dev_dir);
	sh("mkdir -p '%s'", mnt_dir);
	disk_add("vdf", IMG "luks.img");
	memset(&s, 0, sizeof(s));
	s.scan_opts = &opts;
	CHECK_INT(session_start(&s, 2), 0);
	wait_settled(&s);
	CHECK(session_settled(&s));
	CHECK(strstr(devices(&s), "device: vdf crypto_LUKS: "));
	e = last(&s);
	if (!e || e->method != ENTRY_UNLOCK) {
		test_skip("the scan reports no SCAN_DEV_LOCKED device yet "
			  "(the scan's half of issue #33)");
		goto out;
	}
	CHECK_STR(devices(&s), "device: vdf crypto_LUKS: locked: LUKS2 "
			       "(luks-" LUKS_UUID ")\n");
	CHECK_STR(e->title, "Encrypted: vdf, LUKS2 - Enter to unlock");
	CHECK_STR(e->id, "luks-" LUKS_UUID);
	CHECK_STR(e->unlock_dev, "vdf");
	CHECK_INT(session_unlock_what(&s, "vdf", what, sizeof(what)), 0);
	CHECK_STR(what, "LUKS2");
	CHECK_INT(session_unlock_what(&s, "vdz", what, sizeof(what)), -ENOENT);
	/* a key kept for a volume: a device event that does not list the
	 * volume drops it at the next update, and a rescan drops them all */
	s.pass_key = "*";
	CHECK_INT(session_key_put(&s, "luks-" LUKS_UUID, "pw", 2), 0);
	session_keys_prune(&s);
	CHECK_INT(session_keys_count(&s), 0); /* vdf is locked: no volume */
	CHECK_INT(session_key_put(&s, "luks-" LUKS_UUID, "pw", 2), 0);
	CHECK_INT(session_keys_count(&s), 1);
	/* a rescan makes it again, from the scan's new device */
	CHECK_INT(session_rescan(&s), 0);
	CHECK_INT(session_keys_count(&s), 0);
	wait_settled(&s);
	CHECK(last(&s) && last(&s)->method == ENTRY_UNLOCK);
	CHECK_INT(s.n_locked, 1);
out:
	session_free(&s);
	sh("rm -rf '%s'", top);
}

TEST_MAIN("test_session_unlock", locked_entries_made, device_lines, listings,
	  not_saved_as_default, keys_off_nothing_kept, keys_kept_and_dropped,
	  keys_under_volumes, locked_device_in_session)
