/* test_scan_vol.c - LVM2 logical volumes and md mirrors in the scan: a
 * fake sysfs whose disks are copies of the PVs and md members of
 * tests/fixtures/lvm and md (grown to a size libblkid probes, with a FAT
 * written where a volume's bytes are), real read-only loop devices for
 * the volumes, a stand-in for mount(2). Needs root, /dev/loop-control
 * and mkfs.vfat; skipped with a note otherwise. */
#include "scan/fs.h"
#include "scan/scan.h"
#include "test.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MSG(s) s, sizeof(s) - 1 /* a literal with its inner NULs */
#define NIMG 7
#define LATE 6 /* imgs[LATE] comes by hotplug */

static char top[64], sys_dir[128], dev_dir[128], mnt_dir[128];
static bool can_run;

/* The member images: disk name, fixture, size grown to, and the FAT put
 * into it ("" none) at the byte where its volume starts. */
static const struct img {
	const char *disk, *fixture, *grow, *fat_label;
	unsigned fat_kib_at, fat_kib;
} imgs[NIMG] = {
    /* vgsys/boot: PE 0-7 of 1 MiB extents from 64 KiB */
    {"vda", "lvm/linear/linear.pv", "34M", "VGBOOT", 64, 8192},
    {"vdb", "lvm/twopv/pv0.pv", "2M", "", 0, 0}, /* pv1 never comes */
    /* md/mirror: data from sector 16 */
    {"vdc", "md/v12-a.img", "4M", "MDMIRROR", 8, 64},
    {"vdd", "md/v12-b.img", "4M", "MDMIRROR", 8, 64},
    {"vde", "md/r5-a.img", "4M", "", 0, 0},
    {"vdf", "md/deg-a.img", "4M", "", 0, 0},	 /* held by md127 */
    {"vdh", "lvm/twopv/pv1.pv", "2M", "", 0, 0}, /* vgdata's other PV */
};
static char *before[NIMG];
static size_t before_len[NIMG];

/* system() of a command made as printf() makes a string. */
static int __attribute__((format(printf, 1, 2))) sh(const char *fmt, ...)
{
	char cmd[PATH_MAX * 3];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

static void put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* The member image of imgs[i] under top/img/. */
static void img_path(size_t i, char *out, size_t len)
{
	snprintf(out, len, "%s/img/%s.img", top, imgs[i].disk);
}

static int make_image(size_t i)
{
	const struct img *m = &imgs[i];
	char path[PATH_MAX], fat[PATH_MAX], kib[16], at[16];

	img_path(i, path, sizeof(path));
	snprintf(fat, sizeof(fat), "%s/img/fat", top);
	if (sh("cp tests/fixtures/%s %s", m->fixture, path) ||
	    sh("truncate -s %s %s", m->grow, path))
		return -1;
	if (!m->fat_label[0])
		return 0;
	snprintf(kib, sizeof(kib), "%u", m->fat_kib);
	snprintf(at, sizeof(at), "%u", m->fat_kib_at);
	if (sh("rm -f %s; PATH=$PATH:/usr/sbin:/sbin mkfs.vfat -C -n %s -i "
	       "0badcafe %s %s >/dev/null",
	       fat, m->fat_label, fat, kib))
		return -1;
	return sh("dd if=%s of=%s bs=1K seek=%s conv=notrunc status=none", fat,
		  path, at);
}

/* Disk @name in the fake sysfs, its node the image; @holder: the kernel
 * device that holds it ("" none). */
static void fake_disk(const char *name, const char *img, const char *holder)
{
	char d[PATH_MAX], p[PATH_MAX + 32], t[PATH_MAX];
	struct stat st;

	snprintf(d, sizeof(d), "%s/devices/virtual/block/%s", sys_dir, name);
	sh("mkdir -p %s/holders", d);
	snprintf(p, sizeof(p), "%s/dev", d);
	put_file(p, "254:0\n");
	snprintf(p, sizeof(p), "%s/size", d);
	snprintf(t, sizeof(t), "%lld\n",
		 stat(img, &st) == 0 ? (long long)st.st_size / 512 : 0LL);
	put_file(p, t);
	snprintf(p, sizeof(p), "%s/uevent", d);
	snprintf(t, sizeof(t), "DEVNAME=%s\nDEVTYPE=disk\n", name);
	put_file(p, t);
	if (holder[0]) {
		snprintf(p, sizeof(p), "%s/holders/%s", d, holder);
		put_file(p, "");
	}
	snprintf(p, sizeof(p), "%s/class/block/%s", sys_dir, name);
	snprintf(t, sizeof(t), "../../devices/virtual/block/%s", name);
	CHECK(symlink(t, p) == 0);
	snprintf(p, sizeof(p), "%s/%s", dev_dir, name);
	CHECK(symlink(img, p) == 0);
}

/* How many loop devices are bound to files under top/. */
static int loops_on_ours(void)
{
	DIR *d = opendir("/sys/block");
	struct dirent *de;
	int n = 0;

	while (d && (de = readdir(d))) {
		char p[PATH_MAX], back[PATH_MAX] = "";
		FILE *f;

		if (strncmp(de->d_name, "loop", 4))
			continue;
		snprintf(p, sizeof(p), "/sys/block/%s/loop/backing_file",
			 de->d_name);
		f = fopen(p, "r");
		if (!f)
			continue;
		if (fgets(back, sizeof(back), f) && !strncmp(back, top, 15))
			n++;
		fclose(f);
	}
	if (d)
		closedir(d);
	return n;
}

/* The stand-in for mount(2): a directory with one file naming the device */
static int fake_mount(void *ctx, const char *devnode, const char *fstype,
		      const char *target)
{
	char p[PATH_MAX + 16];

	(void)ctx;
	(void)fstype;
	if (mkdir(target, 0755) < 0 && errno != EEXIST)
		return -errno;
	snprintf(p, sizeof(p), "%s/boot", target);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/boot/hello", target);
	put_file(p, devnode);
	return 0;
}

TEST(setup)
{
	char p[PATH_MAX];

	if (geteuid() != 0 || access("/dev/loop-control", R_OK | W_OK) ||
	    sh("PATH=$PATH:/usr/sbin:/sbin command -v mkfs.vfat >/dev/null")) {
		test_skip("needs root, loop devices and mkfs.vfat");
		return;
	}
	snprintf(top, sizeof(top), "/tmp/bm_scanvol_XXXXXX");
	if (!mkdtemp(top))
		abort();
	snprintf(sys_dir, sizeof(sys_dir), "%s/sys", top);
	snprintf(dev_dir, sizeof(dev_dir), "%s/dev", top);
	snprintf(mnt_dir, sizeof(mnt_dir), "%s/mnt", top);
	CHECK_INT(
	    sh("mkdir -p %s/class/block %s %s", sys_dir, dev_dir, mnt_dir), 0);
	snprintf(p, sizeof(p), "%s/img", top);
	CHECK(mkdir(p, 0755) == 0);
	for (size_t i = 0; i < NIMG; i++) {
		CHECK_INT(make_image(i), 0);
		img_path(i, p, sizeof(p));
		before[i] = test_slurp(p, &before_len[i]);
		CHECK(before[i] != NULL);
		if (i != LATE)
			fake_disk(imgs[i].disk, p, i == 5 ? "md127" : "");
	}
	can_run = test_failures == 0;
}

static void pump(struct scan *s, int *added, int *removed)
{
	struct scan_event ev;

	while (scan_next(s, &ev) > 0) {
		*added += ev.type == SCAN_EV_FS_ADDED;
		*removed += ev.type == SCAN_EV_FS_REMOVED;
	}
}

static const struct scan_dev *dev(const struct scan_dev *v, size_t n,
				  const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].name, name))
			return &v[i];
	printf("  no device %s\n", name);
	return NULL;
}

static const char *reason(const struct scan_dev *v, size_t n, const char *name)
{
	const struct scan_dev *d = dev(v, n, name);

	return d && d->state == SCAN_DEV_SKIPPED ? d->reason : "(not skipped)";
}

/* A volume of several runs over the images of the fake disk @disk:
 * device-mapper refused them (not block devices), with the sentence. */
static void check_dm_refused(const struct scan_dev *d, const char *disk)
{
	char want[PATH_MAX];

	CHECK(d && d->state == SCAN_DEV_FAILED);
	if (!d)
		return;
	snprintf(want, sizeof(want),
		 "could not be read: cannot use %s/%s for device-mapper: "
		 "Block device required",
		 dev_dir, disk);
	CHECK_STR(d->reason, want);
}

/* A volume mounted from its loop device: its fs, and what the stand-in
 * mount wrote. */
static void check_mounted(const struct scan_dev *d, const char *label,
			  const char *dir)
{
	char want[PATH_MAX], *buf = NULL;
	size_t len;

	CHECK(d && d->state == SCAN_DEV_MOUNTED && d->fs);
	if (!d || !d->fs)
		return;
	CHECK_STR(d->fstype, "vfat");
	CHECK_STR(d->label, label);
	CHECK(d->fs->volume);
	CHECK(!strncmp(d->devnode, "/dev/loop", 9));
	CHECK_STR(d->fs->device, d->devnode);
	snprintf(want, sizeof(want), "%s/%s", mnt_dir, dir);
	CHECK_STR(d->fs->mountpoint, want);
	CHECK_INT(fs_read_file(d->fs, "/boot/hello", 64, &buf, &len), 0);
	CHECK_STR(buf, d->devnode);
	free(buf);
}

static const char add_vdh[] = "add@/devices/virtual/block/vdh\0ACTION=add\0"
			      "DEVPATH=/devices/virtual/block/vdh\0"
			      "SUBSYSTEM=block\0DEVNAME=vdh\0DEVTYPE=disk\0";
static const char rm_vda[] =
    "remove@/devices/virtual/block/vda\0ACTION=remove\0"
    "DEVPATH=/devices/virtual/block/vda\0"
    "SUBSYSTEM=block\0DEVNAME=vda\0DEVTYPE=disk\0";

TEST(volumes_found_mapped_and_gone)
{
	struct scan_opts o = {.sysfs = sys_dir,
			      .devdir = dev_dir,
			      .mount_base = mnt_dir,
			      .timeout_s = 5,
			      .settle_s = 10,
			      .mount_fn = fake_mount};
	struct scan *s;
	struct scan_dev v[32];
	int added = 0, removed = 0;
	char p[PATH_MAX];
	size_t n;

	if (!can_run) {
		test_skip("the set-up did not run or failed");
		return;
	}
	s = scan_new(&o);
	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_INT(scan_settle(s, 10), 0);
	pump(s, &added, &removed);
	n = scan_devices(s, v, 32);
	CHECK_INT(n, NIMG - 1 + 7);
	CHECK_STR(reason(v, n, "vda"),
		  "LVM physical volume: volume group vgsys");
	CHECK_STR(reason(v, n, "vdc"), "RAID member: member of mirror (1.2)");
	CHECK_STR(reason(v, n, "vdf"), "RAID member: in use by md127");
	check_mounted(dev(v, n, "vgsys/boot"), "VGBOOT", "vgsys:boot");
	check_mounted(dev(v, n, "md/mirror"), "MDMIRROR", "md:mirror");
	/* which devices each volume is made of (the hand-on step follows
	 * them to a LUKS volume, boot/hand_on.h); others have none */
	CHECK_STR(dev(v, n, "vgsys/boot")->members, "vda");
	CHECK_STR(dev(v, n, "md/mirror")->members, "vdc"); /* the one read */
	CHECK_STR(dev(v, n, "vda")->members, "");
	/* two runs: device-mapper's, which takes block devices only (the
	 * ioctls run in QEMU, tests/e2e/test_volumes.py) */
	check_dm_refused(dev(v, n, "vgsys/root"), "vda");
	CHECK_STR(reason(v, n, "vgsys/home"), "no filesystem found");
	CHECK_STR(reason(v, n, "vgdata/span"),
		  "volume group vgdata: 1 of 2 physical volumes missing");
	CHECK_STR(reason(v, n, "vgdata/stripe"),
		  "volume group vgdata: 1 of 2 physical volumes missing");
	CHECK_STR(reason(v, n, "md/data"),
		  "md/data is RAID5: bootmenu reads only RAID1 mirrors");
	/* md/deg's member is the kernel's: no record of ours */
	CHECK(scan_devices(s, v, 32) == n);
	for (size_t i = 0; i < n; i++)
		CHECK(strcmp(v[i].name, "md/deg") != 0);
	CHECK_INT(added, 2);
	CHECK_INT(loops_on_ours(), 2); /* vgsys/home's went after its probe */

	/* vgdata's missing PV comes: its LVs are planned again, and now
	 * say what keeps them from a loop device */
	img_path(LATE, p, sizeof(p));
	fake_disk("vdh", p, "");
	CHECK_INT(scan_inject_uevent(s, MSG(add_vdh)), 0);
	usleep(100 * 1000);
	CHECK_INT(scan_settle(s, 5), 0);
	pump(s, &added, &removed);
	n = scan_devices(s, v, 32);
	CHECK_INT(n, NIMG + 7);
	CHECK_STR(reason(v, n, "vdh"),
		  "LVM physical volume: volume group vgdata");
	check_dm_refused(dev(v, n, "vgdata/span"), "vdb");
	check_dm_refused(dev(v, n, "vgdata/stripe"), "vdb");
	CHECK_STR(dev(v, n, "vgdata/span")->members, "vdb vdh");
	CHECK_INT(added, 2);

	/* its PV goes: vgsys's volumes and their mapping with it */
	CHECK_INT(scan_inject_uevent(s, MSG(rm_vda)), 0);
	CHECK_INT(scan_settle(s, 5), 0);
	usleep(100 * 1000);
	pump(s, &added, &removed);
	CHECK_INT(removed, 1);
	n = scan_devices(s, v, 32);
	CHECK_INT(n, NIMG - 1 + 4);
	for (size_t i = 0; i < n; i++) /* vgsys's volumes went with vda */
		CHECK(strncmp(v[i].name, "vgsys/", 6) != 0);
	CHECK_INT(loops_on_ours(), 1);

	CHECK_INT(scan_unmount_all(s), 0);
	CHECK_INT(loops_on_ours(), 0);
	scan_free(s);
}

TEST(members_unchanged)
{
	char p[PATH_MAX];

	if (!can_run) {
		test_skip("the set-up did not run or failed");
		return;
	}
	for (size_t i = 0; i < NIMG; i++) {
		size_t len = 0;
		char *now;

		img_path(i, p, sizeof(p));
		now = test_slurp(p, &len);
		CHECK(now && len == before_len[i] &&
		      !memcmp(now, before[i], len));
		free(now);
		free(before[i]);
	}
	CHECK_INT(sh("rm -rf %s", top), 0);
}

TEST_MAIN("test_scan_vol", setup, volumes_found_mapped_and_gone,
	  members_unchanged)
