/* test_scan_luks.c - LUKS devices in the scan (#33): a fake sysfs whose
 * disks are the images of tests/fixtures/luks (read in place: their
 * SHA-256 is checked before and after), a stand-in for mount(2), and one
 * for the dm-crypt mapping put in place at link time (this file's
 * vol_map_crypt() and vol_unmap_crypt(): there is no dm-crypt on a build
 * machine; the real one runs in QEMU, tests/e2e). */
#include "scan/fs.h"
#include "scan/scan.h"
#include "scan/scan_int.h" /* scan_luks_mem_max_kib() */
#include "util/file.h"
#include "test.h"
#include "util/say.h"
#include "util/sha256.h"
#include "vol/luks.h"
#include "vol/map.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define FIX "tests/fixtures/luks/"
#define PLAIN "build/test-images/ext4.img" /* what a mapping "holds" */
#define PASS "correct horse"
#define MSG(s) s, sizeof(s) - 1

static char top[64], sys_dir[128], dev_dir[128], mnt_dir[128];
static char damaged[PATH_MAX], serpent[PATH_MAX], plain[PATH_MAX];

/* --- the stand-in for vol/map_crypt.c */

static struct {
	int maps, unmaps;
	int fail; /* -errno: the next mappings fail as without dm-crypt */
	char name[64], line[1024], unmapped[PATH_MAX];
} fake;

int vol_map_crypt(const char *name, const char *line, char *dev, size_t devlen,
		  char *err, size_t errlen)
{
	fake.maps++;
	snprintf(fake.name, sizeof(fake.name), "%s", name);
	snprintf(fake.line, sizeof(fake.line), "%s", line);
	if (fake.fail)
		return say(err, errlen, fake.fail,
			   "cannot map %s through dm-crypt: this kernel has "
			   "no device-mapper",
			   name);
	snprintf(dev, devlen, "%s", plain);
	return 0;
}

int vol_unmap_crypt(const char *dev)
{
	fake.unmaps++;
	snprintf(fake.unmapped, sizeof(fake.unmapped), "%s", dev);
	return 0;
}

/* --- the fake machine */

static void put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static int __attribute__((format(printf, 1, 2))) sh(const char *fmt, ...)
{
	char cmd[PATH_MAX * 3];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

/* Disk @name (device number 254:@minor) whose node is the file @img;
 * @holder: a kernel device holding it ("" none). */
static void fake_disk(const char *name, int minor, const char *img,
		      const char *holder)
{
	char d[PATH_MAX], p[PATH_MAX + 32], t[PATH_MAX], abs[PATH_MAX];
	struct stat st;

	snprintf(d, sizeof(d), "%s/devices/virtual/block/%s", sys_dir, name);
	CHECK_INT(sh("mkdir -p %s/holders", d), 0);
	snprintf(p, sizeof(p), "%s/dev", d);
	snprintf(t, sizeof(t), "254:%d\n", minor);
	put_file(p, t);
	snprintf(p, sizeof(p), "%s/size", d);
	snprintf(t, sizeof(t), "%lld\n",
		 stat(img, &st) == 0 ? (long long)st.st_size / 512 : 0LL);
	put_file(p, t);
	snprintf(p, sizeof(p), "%s/uevent", d);
	snprintf(t, sizeof(t), "DEVNAME=%s\nDEVTYPE=disk\n", name);
	put_file(p, t);
	if (holder[0]) {
		snprintf(p, sizeof(p), "%s/holders/%s", d, holder);
		CHECK_INT(mkdir(p, 0755), 0);
	}
	snprintf(p, sizeof(p), "%s/class/block/%s", sys_dir, name);
	snprintf(t, sizeof(t), "../../devices/virtual/block/%s", name);
	CHECK(symlink(t, p) == 0);
	CHECK(realpath(img, abs) != NULL);
	snprintf(p, sizeof(p), "%s/%s", dev_dir, name);
	CHECK(symlink(abs, p) == 0);
}

static int fake_mount(void *ctx, const char *devnode, const char *fstype,
		      const char *target)
{
	char p[PATH_MAX + 16];

	(void)ctx;
	(void)fstype;
	if (mkdir(target, 0755) < 0 && errno != EEXIST)
		return -errno;
	snprintf(p, sizeof(p), "%s/hello", target);
	put_file(p, devnode);
	return 0;
}

/* --- the fixtures stay as they are */

static const char *const fixtures[] = {
    "luks1-sha1",    "luks1-sha256",   "luks2-pbkdf2",
    "luks2-argon2i", "luks2-argon2id",
};
#define NFIX (sizeof(fixtures) / sizeof(fixtures[0]))
static uint8_t digest_before[NFIX][SHA256_LEN];

static int digest(const char *name, uint8_t out[SHA256_LEN])
{
	char path[PATH_MAX];
	struct sha256 c;
	size_t len = 0;
	char *buf;

	snprintf(path, sizeof(path), FIX "%s.img", name);
	buf = test_slurp(path, &len);
	if (!buf)
		return -1;
	sha256_init(&c);
	sha256_update(&c, buf, len);
	sha256_final(&c, out);
	free(buf);
	return 0;
}

/* The fixture's line of FIX "expected": its UUID and volume key (hex). */
static void expected(const char *image, char uuid[64], char key[160])
{
	char name[64] = "";
	FILE *f = fopen(FIX "expected", "r");

	uuid[0] = key[0] = '\0';
	while (f && fscanf(f, "%63s %63s %159s", name, uuid, key) == 3 &&
	       strcmp(name, image))
		;
	if (f)
		fclose(f);
	CHECK_STR(name, image);
}

/* A copy of luks2-pbkdf2 with both JSON areas (primary at 4 KiB, the
 * secondary at 16 KiB + 4 KiB) overwritten: damaged beyond use. */
static int make_damaged(void)
{
	return sh("cp " FIX "luks2-pbkdf2.img %s && printf 'XXXXXXXX' | dd "
		  "of=%s bs=1 seek=4100 conv=notrunc status=none && printf "
		  "'XXXXXXXX' | dd of=%s bs=1 seek=20484 conv=notrunc "
		  "status=none",
		  damaged, damaged, damaged);
}

/* A copy of luks1-sha256 whose cipher-name (LUKS1 2.4: 32 bytes at
 * offset 8) says serpent: a cipher bootmenu's kernel lacks. */
static int make_serpent(void)
{
	return sh("cp " FIX "luks1-sha256.img %s && printf 'serpent\\0' | dd "
		  "of=%s bs=1 seek=8 conv=notrunc status=none",
		  serpent, serpent);
}

TEST(setup)
{
	char p[PATH_MAX];

	CHECK_INT(sh("bash tests/unit/mkimages.sh build/test-images/"), 0);
	CHECK(realpath(PLAIN, plain) != NULL);
	for (size_t i = 0; i < NFIX; i++)
		CHECK_INT(digest(fixtures[i], digest_before[i]), 0);
	snprintf(top, sizeof(top), "/tmp/bm_scanluks_XXXXXX");
	if (!mkdtemp(top))
		abort();
	snprintf(sys_dir, sizeof(sys_dir), "%s/sys", top);
	snprintf(dev_dir, sizeof(dev_dir), "%s/dev", top);
	snprintf(mnt_dir, sizeof(mnt_dir), "%s/mnt", top);
	snprintf(damaged, sizeof(damaged), "%s/damaged.img", top);
	snprintf(serpent, sizeof(serpent), "%s/serpent.img", top);
	CHECK_INT(
	    sh("mkdir -p %s/class/block %s %s", sys_dir, dev_dir, mnt_dir), 0);
	CHECK_INT(make_damaged(), 0);
	CHECK_INT(make_serpent(), 0);
	fake_disk("vda", 0, FIX "luks2-argon2i.img", "");
	fake_disk("vdb", 16, FIX "luks1-sha256.img", "");
	fake_disk("vdc", 32, damaged, "");
	fake_disk("vdd", 48, FIX "luks1-sha1.img", "dm-3");
	fake_disk("vde", 64, serpent, "");
	snprintf(p, sizeof(p), "%s/class/block", sys_dir);
	CHECK(access(p, R_OK) == 0);
}

static int rd(void *ctx, uint64_t off, void *buf, size_t len)
{
	ssize_t n = pread(*(int *)ctx, buf, len, (off_t)off);

	return n == (ssize_t)len ? 0 : -EIO;
}

/* --- the scan */

struct seen {
	int added, removed;
	char added_names[256];
	const struct fs_root *last_added;
};

static void pump(struct scan *s, struct seen *w, int ms)
{
	struct timespec t0, t;
	struct scan_event ev;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		struct pollfd p = {.fd = scan_fd(s), .events = POLLIN};
		long left;

		clock_gettime(CLOCK_MONOTONIC, &t);
		left = ms - ((t.tv_sec - t0.tv_sec) * 1000 +
			     (t.tv_nsec - t0.tv_nsec) / 1000000);
		if (left <= 0)
			break;
		poll(&p, 1, (int)left);
		while (scan_next(s, &ev) > 0) {
			if (ev.type == SCAN_EV_FS_ADDED) {
				w->added++;
				w->last_added = ev.fs;
				strcat(w->added_names, ev.name);
				strcat(w->added_names, " ");
			}
			w->removed += ev.type == SCAN_EV_FS_REMOVED;
		}
	}
}

static struct scan *start(void)
{
	struct scan_opts o = {
	    .sysfs = sys_dir,
	    .devdir = dev_dir,
	    .mount_base = mnt_dir,
	    .timeout_s = 5,
	    .settle_s = 5,
	    .mount_fn = fake_mount,
	};
	struct scan *s = scan_new(&o);

	CHECK(s != NULL);
	if (s)
		CHECK_INT(scan_settle(s, 8), 0);
	return s;
}

/* A copy of device @name as the scan sees it now (state -1: none). */
static struct scan_dev dev(struct scan *s, const char *name)
{
	struct scan_dev v[16], none = {.state = (enum scan_state) - 1};
	size_t n = scan_devices(s, v, 16);

	for (size_t i = 0; i < n && i < 16; i++)
		if (!strcmp(v[i].name, name))
			return v[i];
	return none;
}

/* Pump until device @name is in @state (-1: gone), at most 5 s: a
 * loaded machine may take its time to probe. */
static void wait_for(struct scan *s, struct seen *w, const char *name,
		     int state)
{
	for (int t = 0; t < 100 && (int)dev(s, name).state != state; t++)
		pump(s, w, 50);
	pump(s, w, 50);
}

TEST(locked_with_facts)
{
	struct scan *s = start();
	struct scan_dev d;
	char uuid[64], key[160], err[256] = "";
	struct luks_hdr h;
	int fd;

	if (!s)
		return;
	expected("luks2-argon2i", uuid, key);
	d = dev(s, "vda");
	CHECK_INT(d.state, SCAN_DEV_LOCKED);
	CHECK_STR(d.reason, "LUKS2 'cr_root'");
	CHECK_STR(d.fstype, "crypto_LUKS");
	CHECK_INT(d.luks_version, 2);
	CHECK_STR(d.luks_uuid, uuid);
	CHECK_STR(d.luks_label, "cr_root");
	CHECK_STR(d.unlocked_as, "");
	expected("luks1-sha256", uuid, key);
	d = dev(s, "vdb");
	CHECK_INT(d.state, SCAN_DEV_LOCKED);
	CHECK_STR(d.reason, "LUKS1");
	CHECK_INT(d.luks_version, 1);
	CHECK_STR(d.luks_uuid, uuid);
	CHECK_STR(d.luks_label, "");
	/* damaged: luks_read()'s own sentence */
	fd = open(damaged, O_RDONLY);
	CHECK_INT(luks_read(rd, &fd, 360448, &h, err, sizeof(err)), -EINVAL);
	close(fd);
	d = dev(s, "vdc");
	CHECK_INT(d.state, SCAN_DEV_FAILED);
	CHECK_STR(d.reason, err);
	CHECK_INT(d.luks_version, 0);
	/* the kernel's own dm-crypt holds it: left alone */
	d = dev(s, "vdd");
	CHECK_INT(d.state, SCAN_DEV_SKIPPED);
	CHECK_STR(d.reason, "in use by dm-3");
	scan_free(s);
}

static int progress_calls;

static int progress(void *ctx, unsigned done, unsigned total)
{
	(void)done;
	(void)total;
	progress_calls++;
	return ctx ? 1 : 0; /* a context: cancel */
}

static int unlock(struct scan *s, const char *name, const char *pass,
		  void *cancel, char *err, size_t errlen)
{
	struct scan_unlock u = {
	    .pass = pass,
	    .pass_len = strlen(pass),
	    .slot = -1,
	    .progress = progress,
	    .progress_ctx = cancel,
	};

	return scan_unlock(s, name, &u, err, errlen);
}

/* Nothing changed by a failed unlock: still locked, nothing mapped. */
static void check_unchanged(struct scan *s, const char *name, int maps)
{
	struct scan_dev d = dev(s, name);

	CHECK_INT(d.state, SCAN_DEV_LOCKED);
	CHECK_STR(d.unlocked_as, "");
	CHECK_INT(fake.maps, maps);
	CHECK_INT(fake.unmaps, 0);
}

TEST(unlock_refusals)
{
	struct scan *s = start();
	char err[512] = "";

	if (!s)
		return;
	memset(&fake, 0, sizeof(fake));
	CHECK_INT(unlock(s, "vdb", "wrong horse", NULL, err, sizeof(err)),
		  -EACCES);
	CHECK(err[0] != '\0');
	check_unchanged(s, "vdb", 0);
	CHECK_INT(unlock(s, "vdx", PASS, NULL, err, sizeof(err)), -ENOENT);
	CHECK_STR(err, "there is no device vdx");
	CHECK_INT(unlock(s, "vdc", PASS, NULL, err, sizeof(err)), -ENOENT);
	CHECK_STR(err, "vdc is not a locked LUKS device");
	/* a cipher the kernel lacks: refused before the KDF, named */
	CHECK_INT(dev(s, "vde").state, SCAN_DEV_LOCKED);
	CHECK_INT(unlock(s, "vde", PASS, NULL, err, sizeof(err)), -ENOTSUP);
	CHECK_STR(err, "cipher serpent-xts-plain64 is not in bootmenu's "
		       "kernel (it has aes-xts-plain64, aes-xts-plain, "
		       "aes-cbc-essiv:sha256, aes-cbc-plain64, aes-cbc-plain, "
		       "aes-ecb)");
	check_unchanged(s, "vde", 0);
	/* cancelled from the progress callback during Argon2 */
	progress_calls = 0;
	CHECK_INT(unlock(s, "vda", PASS, &fake, err, sizeof(err)), -ECANCELED);
	CHECK(progress_calls > 0);
	check_unchanged(s, "vda", 0);
	/* the right passphrase, but no dm-crypt (as on this machine): the
	 * mapping's sentence, and the device stays locked */
	fake.fail = -ENODEV;
	CHECK_INT(unlock(s, "vdb", PASS, NULL, err, sizeof(err)), -ENODEV);
	CHECK_STR(err, "cannot map luks-3430634b-7063-4321-84b7-b37be6b75495 "
		       "through dm-crypt: this kernel has no device-mapper");
	check_unchanged(s, "vdb", 1);
	fake.fail = 0;
	scan_free(s);
	CHECK_INT(fake.unmaps, 0);
}

/* The right passphrase: the table line carries the volume key and the
 * device by number; the volume comes as a record of its own, probed and
 * mounted; the LUKS device says what it was unlocked as. */
TEST(unlock_maps_a_volume)
{
	struct scan *s = start();
	struct seen w = {0};
	struct scan_dev d;
	char uuid[64], key[160], err[512] = "", want[1024], vol[80];

	if (!s)
		return;
	memset(&fake, 0, sizeof(fake));
	expected("luks1-sha256", uuid, key);
	snprintf(vol, sizeof(vol), "luks-%s", uuid);
	pump(s, &w, 50);
	CHECK_INT(unlock(s, "vdb", PASS, NULL, err, sizeof(err)), 0);
	CHECK_STR(err, "");
	CHECK_INT(fake.maps, 1);
	CHECK_STR(fake.name, vol);
	/* LUKS1 payload at sector 2056 of 2184 (make.sh: --align-payload) */
	snprintf(want, sizeof(want),
		 "0 128 crypt aes-xts-plain64 %s 0 254:16 2056", key);
	CHECK_STR(fake.line, want);
	wait_for(s, &w, vol, SCAN_DEV_MOUNTED);
	d = dev(s, vol);
	CHECK_INT(d.state, SCAN_DEV_MOUNTED);
	CHECK_STR(d.fstype, "ext4");
	CHECK_STR(d.devnode, plain);
	CHECK(d.size == 128 * 512);
	CHECK(d.fs && d.fs->volume);
	CHECK_INT(w.added, 1);
	snprintf(want, sizeof(want), "%s ", vol);
	CHECK_STR(w.added_names, want);
	d = dev(s, "vdb");
	CHECK_STR(d.unlocked_as, vol);
	CHECK_INT(d.state, SCAN_DEV_SKIPPED);
	snprintf(want, sizeof(want), "unlocked as %s", vol);
	CHECK_STR(d.reason, want);
	CHECK_INT(d.luks_version, 1);
	CHECK_INT(unlock(s, "vdb", PASS, NULL, err, sizeof(err)), -EALREADY);
	snprintf(want, sizeof(want), "vdb is unlocked already, as %s", vol);
	CHECK_STR(err, want);
	CHECK_INT(fake.unmaps, 0);
	/* the LUKS device goes (hot-unplugged): its volume and mapping too */
	CHECK_INT(
	    scan_inject_uevent(
		s, MSG("remove@/devices/virtual/block/vdb\0ACTION=remove\0"
		       "DEVPATH=/devices/virtual/block/vdb\0SUBSYSTEM="
		       "block\0DEVNAME=vdb\0DEVTYPE=disk\0")),
	    0);
	wait_for(s, &w, vol, -1);
	CHECK_INT(w.removed, 1);
	CHECK_INT(fake.unmaps, 1);
	CHECK_STR(fake.unmapped, plain);
	CHECK_INT((int)dev(s, vol).state, -1);
	CHECK_INT((int)dev(s, "vdb").state, -1);
	scan_free(s);
	CHECK_INT(fake.unmaps, 1); /* not twice */
}

/* LUKS2 with 4096-byte sectors (its table says so); the mapping goes on
 * rescan (scan_free), and when the LUKS device changes. */
TEST(unlock_luks2_and_rescan)
{
	struct scan *s = start();
	struct seen w = {0};
	char uuid[64], key[160], err[512] = "", want[1024], vol[80];

	if (!s)
		return;
	memset(&fake, 0, sizeof(fake));
	expected("luks2-argon2i", uuid, key);
	snprintf(vol, sizeof(vol), "luks-%s", uuid);
	progress_calls = 0;
	CHECK_INT(unlock(s, "vda", PASS, NULL, err, sizeof(err)), 0);
	CHECK(progress_calls > 0);
	CHECK(strstr(fake.line, key) != NULL);
	CHECK(strstr(fake.line, " 254:0 ") != NULL);
	snprintf(want, sizeof(want), "%s", " 1 sector_size:4096");
	CHECK(strlen(fake.line) > strlen(want) &&
	      !strcmp(fake.line + strlen(fake.line) - strlen(want), want));
	wait_for(s, &w, vol, SCAN_DEV_MOUNTED);
	CHECK_INT(dev(s, vol).state, SCAN_DEV_MOUNTED);
	/* a change of the LUKS device: probed again, locked again */
	CHECK_INT(
	    scan_inject_uevent(
		s, MSG("change@/devices/virtual/block/vda\0ACTION=change\0"
		       "DEVPATH=/devices/virtual/block/vda\0SUBSYSTEM="
		       "block\0DEVNAME=vda\0DEVTYPE=disk\0")),
	    0);
	wait_for(s, &w, "vda", SCAN_DEV_LOCKED);
	CHECK_INT(fake.unmaps, 1);
	CHECK_INT((int)dev(s, vol).state, -1);
	CHECK_INT(dev(s, "vda").state, SCAN_DEV_LOCKED);
	CHECK_STR(dev(s, "vda").unlocked_as, "");
	/* unlocked again, then the rescan (scan_free) unmaps it */
	CHECK_INT(unlock(s, "vda", PASS, NULL, err, sizeof(err)), 0);
	wait_for(s, &w, vol, SCAN_DEV_MOUNTED);
	CHECK_INT(dev(s, vol).state, SCAN_DEV_MOUNTED);
	CHECK_INT(fake.unmaps, 1);
	CHECK_INT(scan_unmount_all(s), 0);
	CHECK_INT(fake.unmaps, 2);
	scan_free(s);
	CHECK_INT(fake.unmaps, 2);
	CHECK_INT(fake.maps, 2);
}

/* A LUKS stick plugged in after the start: locked the same way. */
TEST(hotplugged_stick)
{
	struct scan *s = start();
	struct seen w = {0};
	char uuid[64], key[160];

	if (!s)
		return;
	expected("luks2-argon2id", uuid, key);
	fake_disk("sdb", 80, FIX "luks2-argon2id.img", "");
	CHECK_INT(scan_inject_uevent(
		      s, MSG("add@/devices/virtual/block/sdb\0ACTION=add\0"
			     "DEVPATH=/devices/virtual/block/sdb\0SUBSYSTEM="
			     "block\0DEVNAME=sdb\0DEVTYPE=disk\0")),
		  0);
	wait_for(s, &w, "sdb", SCAN_DEV_LOCKED);
	CHECK_INT(dev(s, "sdb").state, SCAN_DEV_LOCKED);
	CHECK_STR(dev(s, "sdb").luks_uuid, uuid);
	CHECK_STR(dev(s, "sdb").reason, "LUKS2");
	scan_free(s);
}

/* An Argon2 keyslot may take half of MemAvailable (proc(5)). */
TEST(memory_for_argon2)
{
	CHECK(util_meminfo_kib("MemTotal:       24731400 kB\n"
			       "MemFree:          336792 kB\n"
			       "MemAvailable:   23190036 kB\n",
			       "MemAvailable:") == 23190036);
	CHECK(util_meminfo_kib("MemTotal:       24731400 kB\n", "MemTotal:") ==
	      24731400);
	CHECK(util_meminfo_kib("MemAvailable: 512 kB", "MemAvailable:") == 512);
	CHECK(util_meminfo_kib("MemTotal: 1 kB\nMemFree: 1 kB\n",
			       "MemAvailable:") == 0);
	CHECK(util_meminfo_kib("XMemAvailable: 7 kB\n", "MemAvailable:") == 0);
	CHECK(util_meminfo_kib("MemAvailable: kB\n", "MemAvailable:") == 0);
	CHECK(util_meminfo_kib("", "MemAvailable:") == 0);
	CHECK(scan_luks_mem_max_kib() > 0);
}

TEST(fixtures_unchanged)
{
	uint8_t after[SHA256_LEN];

	for (size_t i = 0; i < NFIX; i++) {
		CHECK_INT(digest(fixtures[i], after), 0);
		if (memcmp(after, digest_before[i], SHA256_LEN))
			printf("  %s changed\n", fixtures[i]);
		CHECK(memcmp(after, digest_before[i], SHA256_LEN) == 0);
	}
	test_rmtree(top);
}

TEST_MAIN("test_scan_luks", setup, locked_with_facts, unlock_refusals,
	  unlock_maps_a_volume, unlock_luks2_and_rescan, hotplugged_stick,
	  memory_for_argon2, fixtures_unchanged)
