/* test_scan.c - the uevent parser, and the whole scan over a fake sysfs
 * whose device nodes are image files (mkimages.sh), with a stand-in for
 * mount(2): events, skip reasons, the time limit, hotplug by injected
 * uevents, coalescing, removal. No block device, no real mount. */
#include "scan/fs.h"
#include "scan/scan.h"
#include "scan/uevent.h"
#include "test.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MSG(s) s, sizeof(s) - 1 /* a literal with its inner NULs */

TEST(test_uevent_parse)
{
	struct uevent ev;

	CHECK_INT(
	    uevent_parse(
		MSG("add@/devices/pci0/block/sda/sda1\0ACTION=add\0"
		    "DEVPATH=/devices/pci0/block/sda/sda1\0SUBSYSTEM=block\0"
		    "MAJOR=8\0MINOR=1\0DEVNAME=sda1\0DEVTYPE=partition\0"
		    "SEQNUM=1234\0"),
		&ev),
	    0);
	CHECK_INT(ev.action, UEVENT_ADD);
	CHECK_STR(ev.action_name, "add");
	CHECK_STR(ev.devpath, "/devices/pci0/block/sda/sda1");
	CHECK_STR(ev.subsystem, "block");
	CHECK_STR(ev.devname, "sda1");
	CHECK_STR(ev.devtype, "partition");
	CHECK_INT(ev.major, 8);
	CHECK_INT(ev.minor, 1);
	CHECK(ev.has_devno);
	CHECK_INT(ev.seqnum, 1234);
	CHECK(uevent_is_block(&ev));
	CHECK(!ev.media_change);

	/* the last field without its NUL still counts */
	CHECK_INT(
	    uevent_parse(MSG("change@/x/sr0\0ACTION=change\0DEVPATH=/x/sr0\0"
			     "SUBSYSTEM=block\0DEVTYPE=disk\0DEVNAME=sr0\0"
			     "DISK_MEDIA_CHANGE=1"),
			 &ev),
	    0);
	CHECK_INT(ev.action, UEVENT_CHANGE);
	CHECK(ev.media_change);
	CHECK(uevent_is_block(&ev));

	CHECK_INT(
	    uevent_parse(MSG("remove@/x/eth0\0ACTION=remove\0DEVPATH=/x/eth0\0"
			     "SUBSYSTEM=net\0"),
			 &ev),
	    0);
	CHECK_INT(ev.action, UEVENT_REMOVE);
	CHECK(!uevent_is_block(&ev));
	CHECK_INT(uevent_parse(MSG("frob@/x\0ACTION=frob\0DEVPATH=/x\0"), &ev),
		  0);
	CHECK_INT(ev.action, UEVENT_OTHER);
}

TEST(test_uevent_reject)
{
	struct uevent ev;

	CHECK_INT(uevent_parse(MSG("libudev\0\xfe\xed\xca\xfe"), &ev), -ENOMSG);
	CHECK_INT(uevent_parse("", 0, &ev), -EINVAL);
	CHECK_INT(uevent_parse(MSG("no header\0ACTION=add\0DEVPATH=/x\0"), &ev),
		  -EINVAL);
	CHECK_INT(uevent_parse(MSG("@/x\0ACTION=add\0DEVPATH=/x\0"), &ev),
		  -EINVAL);
	/* header and ACTION disagree */
	CHECK_INT(uevent_parse(MSG("add@/x\0ACTION=remove\0DEVPATH=/x\0"), &ev),
		  -EINVAL);
	CHECK_INT(uevent_parse(MSG("add@/x\0DEVPATH=/x\0"), &ev), -EINVAL);
	CHECK_INT(uevent_parse(MSG("add@/x\0ACTION=add\0"), &ev), -EINVAL);
	/* a header with no NUL at all */
	CHECK_INT(uevent_parse(MSG("add@/x"), &ev), -EINVAL);
	/* partition without a name is no block event to act on */
	CHECK_INT(
	    uevent_parse(MSG("add@/x\0ACTION=add\0DEVPATH=/x\0SUBSYSTEM=block\0"
			     "DEVTYPE=partition\0"),
			 &ev),
	    0);
	CHECK(!uevent_is_block(&ev));
}

TEST(test_uevent_long_fields)
{
	char msg[1200];
	size_t len;
	struct uevent ev;

	len = (size_t)snprintf(msg, sizeof(msg),
			       "add@/y%cACTION=add%cDEVPATH=/y%cDEVNAME=", 0, 0,
			       0);
	memset(msg + len, 'n', 600);
	len += 600;
	CHECK_INT(uevent_parse(msg, len, &ev), 0);
	CHECK_INT(strlen(ev.devname), sizeof(ev.devname) - 1);
}

/* --- the scan over a fake machine */

#define IMG "build/test-images/"

static char top[64], sys_dir[96], dev_dir[96], mnt_dir[96];

static void put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void mkdirs(const char *path)
{
	char cmd[PATH_MAX];

	snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", path);
	if (system(cmd) != 0)
		printf("  mkdir %s failed\n", path);
}

/* A whole disk @name whose node is the image file @img (NULL: no medium). */
static void fake_disk(const char *name, const char *img)
{
	char d[PATH_MAX], p[PATH_MAX + 32], t[PATH_MAX], abs[PATH_MAX];
	struct stat st;

	snprintf(d, sizeof(d), "%s/devices/virtual/block/%s", sys_dir, name);
	mkdirs(d);
	snprintf(p, sizeof(p), "%s/dev", d);
	put_file(p, "254:0\n");
	snprintf(p, sizeof(p), "%s/size", d);
	snprintf(t, sizeof(t), "%lld\n",
		 img && stat(img, &st) == 0 ? (long long)st.st_size / 512
					    : 0LL);
	put_file(p, t);
	snprintf(p, sizeof(p), "%s/uevent", d);
	snprintf(t, sizeof(t), "DEVNAME=%s\nDEVTYPE=disk\n", name);
	put_file(p, t);
	snprintf(p, sizeof(p), "%s/class/block/%s", sys_dir, name);
	snprintf(t, sizeof(t), "../../devices/virtual/block/%s", name);
	if (symlink(t, p) < 0)
		perror(p);
	if (img && realpath(img, abs)) {
		snprintf(p, sizeof(p), "%s/%s", dev_dir, name);
		if (symlink(abs, p) < 0)
			perror(p);
	}
}

/* The stand-in for mount(2): a directory with one file naming the device;
 * an iso9660 "device" hangs for 1.5 s, as a dead drive would. */
static int fake_mount(void *ctx, const char *devnode, const char *fstype,
		      const char *target)
{
	char p[PATH_MAX + 16];

	(void)ctx;
	if (!strcmp(fstype, "iso9660"))
		usleep(1500 * 1000);
	if (mkdir(target, 0755) < 0 && errno != EEXIST)
		return -errno;
	snprintf(p, sizeof(p), "%s/boot", target);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/boot/hello", target);
	put_file(p, devnode);
	return 0;
}

struct seen {
	int added, removed, device, settled;
	const struct fs_root *last_added, *last_removed;
	char added_names[256];
};

static void drain(struct scan *s, struct seen *w)
{
	struct scan_event ev;

	while (scan_next(s, &ev) > 0) {
		switch (ev.type) {
		case SCAN_EV_FS_ADDED:
			w->added++;
			w->last_added = ev.fs;
			strcat(w->added_names, ev.name);
			strcat(w->added_names, " ");
			break;
		case SCAN_EV_FS_REMOVED:
			w->removed++;
			w->last_removed = ev.fs;
			break;
		case SCAN_EV_DEVICE:
			w->device++;
			break;
		case SCAN_EV_SETTLED:
			w->settled++;
			break;
		}
	}
}

/* poll() the scan's fd like a menu would, for @ms, draining events. */
static void pump(struct scan *s, struct seen *w, int ms)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		struct pollfd p = {.fd = scan_fd(s), .events = POLLIN};
		long left;

		clock_gettime(CLOCK_MONOTONIC, &t);
		left = ms - ((t.tv_sec - t0.tv_sec) * 1000 +
			     (t.tv_nsec - t0.tv_nsec) / 1000000);
		if (left <= 0)
			break;
		if (poll(&p, 1, (int)left) > 0)
			drain(s, w);
	}
	drain(s, w);
}

static const struct scan_dev *find_dev(const struct scan_dev *v, size_t n,
				       const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].name, name))
			return &v[i];
	return NULL;
}

/* The fake tree's options: vdf's mount answers after its 0.5 s limit. */
static struct scan_opts fake_opts(void)
{
	struct scan_opts o = {
	    .sysfs = sys_dir,
	    .devdir = dev_dir,
	    .mount_base = mnt_dir,
	    .timeout_s = 0.5,
	    .settle_s = 5,
	    .mount_fn = fake_mount,
	};

	return o;
}

static struct scan *start_scan(void)
{
	struct scan_opts o = fake_opts();

	return scan_new(&o);
}

TEST(test_scan_setup)
{
	char p[PATH_MAX];

	CHECK_INT(system("bash tests/unit/mkimages.sh " IMG), 0);
	snprintf(top, sizeof(top), "/tmp/bm_scan_XXXXXX");
	if (!mkdtemp(top))
		abort();
	snprintf(sys_dir, sizeof(sys_dir), "%s/sys", top);
	snprintf(dev_dir, sizeof(dev_dir), "%s/dev", top);
	snprintf(mnt_dir, sizeof(mnt_dir), "%s/mnt", top);
	snprintf(p, sizeof(p), "%s/class/block", sys_dir);
	mkdirs(p);
	mkdirs(dev_dir);
	mkdirs(mnt_dir);
	fake_disk("vda", IMG "ext4.img");
	fake_disk("vdb", IMG "luks.img");
	fake_disk("vdc", IMG "swap.img");
	fake_disk("vdd", IMG "noise.img");
	fake_disk("vde", NULL);
	fake_disk("vdf", IMG "iso.img");
	fake_disk("vdg", IMG "squashfs.img");
}

TEST(test_scan_start)
{
	struct scan *s = start_scan();
	struct scan_dev devs[16];
	const struct fs_root *roots[8];
	const struct scan_dev *d;
	struct seen w = {0};
	char *buf = NULL, want[PATH_MAX];
	size_t n, len;

	CHECK(s != NULL);
	if (!s)
		return;
	/* settles once vdf has timed out (0.5 s), long before its 1.5 s */
	CHECK_INT(scan_settle(s, 2.5), 0);
	pump(s, &w, 50);
	CHECK_INT(w.settled, 1);
	CHECK_INT(w.added, 2);
	CHECK_STR(w.added_names[0] ? "" : "none", "");
	CHECK(strstr(w.added_names, "vda ") && strstr(w.added_names, "vdg "));
	CHECK_INT(scan_roots(s, roots, 8), 2);
	n = scan_devices(s, devs, 16);
	CHECK_INT(n, 7);

	d = find_dev(devs, n, "vda");
	CHECK(d && d->state == SCAN_DEV_MOUNTED);
	if (d && d->fs) {
		CHECK_STR(d->fstype, "ext4");
		CHECK_STR(d->fs->uuid, "e4e4e4e4-0000-4000-8000-00000000e4e4");
		CHECK_STR(d->fs->label, "wholedisk");
		CHECK_STR(d->fs->name, "vda");
		CHECK(d->fs->partuuid == NULL);
		CHECK(!d->fs->casefold);
		snprintf(want, sizeof(want), "%s/vda", dev_dir);
		CHECK_STR(d->fs->device, want);
		snprintf(want, sizeof(want), "%s/vda", mnt_dir);
		CHECK_STR(d->fs->mountpoint, want);
		/* the parsers' door works on what the scan handed on */
		CHECK_INT(fs_read_file(d->fs, "/boot/hello", FS_CONFIG_MAX,
				       &buf, &len),
			  0);
		snprintf(want, sizeof(want), "%s/vda", dev_dir);
		CHECK_STR(buf, want);
		free(buf);
	}
	d = find_dev(devs, n, "vdb");
	/* its LUKS2 header read (#33): locked, with the facts */
	CHECK(d && d->state == SCAN_DEV_LOCKED);
	CHECK_STR(d ? d->reason : NULL, "LUKS2");
	CHECK_STR(d ? d->fstype : NULL, "crypto_LUKS");
	CHECK_INT(d ? d->luks_version : -1, 2);
	CHECK_STR(d ? d->luks_uuid : NULL,
		  "1c1c1c1c-2222-4333-8444-555566667777");
	CHECK_STR(d ? d->luks_label : NULL, "");
	CHECK_STR(d ? d->unlocked_as : NULL, "");
	d = find_dev(devs, n, "vdc");
	CHECK_STR(d ? d->reason : NULL, "swap space");
	d = find_dev(devs, n, "vdd");
	CHECK_STR(d ? d->reason : NULL, "no filesystem found");
	d = find_dev(devs, n, "vde");
	CHECK(d && d->state == SCAN_DEV_SKIPPED);
	CHECK_STR(d ? d->reason : NULL, "no medium");
	d = find_dev(devs, n, "vdf");
	CHECK(d && d->state == SCAN_DEV_TIMEOUT);
	CHECK_STR(d ? d->reason : NULL, "no answer within 0.5 s");
	d = find_dev(devs, n, "vdg");
	CHECK(d && d->state == SCAN_DEV_MOUNTED);
	CHECK_STR(d ? d->fstype : NULL, "squashfs");
	CHECK_INT(scan_unmount_all(s), 0);
	CHECK_INT(scan_roots(s, roots, 8), 0);
	scan_free(s);
}

#define ADD_VDH                                                                \
	"add@/devices/virtual/block/vdh\0ACTION=add\0"                         \
	"DEVPATH=/devices/virtual/block/vdh\0SUBSYSTEM=block\0"                \
	"DEVNAME=vdh\0DEVTYPE=disk\0"
#define REMOVE_VDH                                                             \
	"remove@/devices/virtual/block/vdh\0ACTION=remove\0"                   \
	"DEVPATH=/devices/virtual/block/vdh\0SUBSYSTEM=block\0"                \
	"DEVNAME=vdh\0DEVTYPE=disk\0"

TEST(test_scan_hotplug)
{
	struct scan *s = start_scan();
	struct scan_dev devs[16];
	const struct fs_root *fs;
	struct seen w = {0};
	size_t n;

	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_INT(scan_settle(s, 2.5), 0);
	pump(s, &w, 20);
	CHECK_INT(w.added, 2);
	memset(&w, 0, sizeof(w));
	/* a stick appears: a burst of three adds is one probe */
	fake_disk("vdh", IMG "btrfs.img");
	for (int i = 0; i < 3; i++)
		CHECK_INT(scan_inject_uevent(s, MSG(ADD_VDH)), 0);
	/* not an event about a block device: ignored */
	CHECK_INT(
	    scan_inject_uevent(
		s, MSG("add@/x\0ACTION=add\0DEVPATH=/x\0SUBSYSTEM=net\0")),
	    0);
	CHECK_INT(scan_settle(s, 2), 0);
	pump(s, &w, 50);
	CHECK_INT(w.added, 1);
	CHECK_STR(w.added_names, "vdh ");
	fs = w.last_added;
	CHECK(fs != NULL);
	if (!fs)
		goto out;
	CHECK_STR(fs->fstype, "btrfs");
	CHECK_STR(fs->label, "btrdisk");
	CHECK(fs->root_fd >= 0);
	CHECK_INT(scan_roots(s, NULL, 0), 3);
	/* pulled out again */
	CHECK_INT(scan_inject_uevent(s, MSG(REMOVE_VDH)), 0);
	pump(s, &w, 300);
	CHECK_INT(w.removed, 1);
	CHECK(w.last_removed == fs);
	CHECK_INT(fs->root_fd, -1);	 /* closed as the event was taken */
	CHECK_STR(fs->label, "btrdisk"); /* the memory stays the scan's */
	CHECK_INT(scan_roots(s, NULL, 0), 2);
	n = scan_devices(s, devs, 16);
	CHECK_INT(n, 7);
	CHECK(find_dev(devs, n, "vdh") == NULL);
out:
	scan_free(s);
}

/* The hand-off of a filesystem that went (scan.h): its fs_root is the
 * scan's until the caller took its FS_REMOVED and hands it back, then its
 * memory goes; a stick pulled and plugged again and again leaves the
 * scan's bytes where the first pull left them. */
TEST(test_scan_hand_back)
{
	struct scan *s = start_scan();
	struct scan_dev devs[16];
	struct seen w = {0};
	size_t bytes = 0;

	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_INT(scan_settle(s, 2.5), 0);
	pump(s, &w, 20);
	CHECK_INT(w.added, 3); /* vdh is test_scan_hotplug's */
	for (int i = 0, before = test_failures; i < 5; i++) {
		size_t n = scan_devices(s, devs, 16);
		const struct scan_dev *d = find_dev(devs, n, "vdh");
		const struct fs_root *fs = d ? d->fs : NULL;

		CHECK(fs != NULL);
		if (!fs)
			break;
		CHECK_INT(scan_release(s, fs), -EBUSY); /* mounted */
		memset(&w, 0, sizeof(w));
		CHECK_INT(scan_inject_uevent(s, MSG(REMOVE_VDH)), 0);
		CHECK_INT(scan_settle(s, 2), 0);
		CHECK_INT(scan_release(s, fs), -EBUSY); /* not taken yet */
		pump(s, &w, 20);
		CHECK_INT(w.removed, 1);
		CHECK(w.last_removed == fs);
		CHECK_INT(scan_release(s, fs), 0);
		CHECK_INT(scan_release(s, fs), -ENOENT); /* once */
		if (i == 0)
			bytes = scan_mem_bytes(s);
		CHECK_INT(scan_mem_bytes(s), bytes);
		CHECK_INT(scan_inject_uevent(s, MSG(ADD_VDH)), 0);
		CHECK_INT(scan_settle(s, 2), 0);
		pump(s, &w, 20);
		CHECK_INT(w.added, 1);
		CHECK_STR(w.added_names, "vdh ");
		if (test_failures != before)
			break;
	}
	scan_free(s);
}

TEST(test_scan_bad_sysfs)
{
	struct scan_opts o = {.sysfs = "/nonexistent"};

	errno = 0;
	CHECK(scan_new(&o) == NULL);
	CHECK_INT(errno, ENOENT);
	scan_free(NULL);
}

/* --- the settle and USB sticks: usb-storage reports a stick's disk a
 * second after its SCSI host appeared (delay_use). A stick that appeared
 * while the scan was settling must be in that scan's list, not only
 * mounted later by hotplug. */

#define USB_HOST "/devices/pci0/usb1/1-1/1-1:1.0/host"

struct late_disk {
	struct scan *s;
	const char *name, *img;
	int host;     /* inject the host's own uevent first; -1: none */
	int delay_ms; /* then wait this long for the disk */
};

static void inject_fmt(struct scan *s, const char *action, const char *devpath,
		       const char *subsystem, const char *devtype,
		       const char *devname)
{
	char msg[512];
	int n = snprintf(msg, sizeof(msg),
			 "%s@%s%cACTION=%s%cDEVPATH=%s%cSUBSYSTEM=%s%c"
			 "DEVTYPE=%s%cDEVNAME=%s%c",
			 action, devpath, 0, action, 0, devpath, 0, subsystem,
			 0, devtype, 0, devname, 0);

	CHECK_INT(scan_inject_uevent(s, msg, (size_t)n), 0);
}

static void *late_disk_main(void *arg)
{
	struct late_disk *l = arg;
	char path[256];
	int h = l->host < 0 ? -l->host : l->host;

	usleep(100 * 1000);
	snprintf(path, sizeof(path), USB_HOST "%d", h);
	if (l->host >= 0)
		inject_fmt(l->s, "add", path, "scsi", "scsi_host", "");
	usleep((useconds_t)l->delay_ms * 1000);
	fake_disk(l->name, l->img);
	snprintf(path, sizeof(path),
		 USB_HOST "%d/target%d:0:0/%d:0:0:0/block/%s", h, h, h,
		 l->name);
	inject_fmt(l->s, "add", path, "block", "disk", l->name);
	return NULL;
}

static bool has_root(struct scan *s, const char *name)
{
	const struct fs_root *roots[16];
	size_t n = scan_roots(s, roots, 16);

	for (size_t i = 0; i < n && i < 16; i++)
		if (!strcmp(roots[i]->name, name))
			return true;
	return false;
}

static void drop_disk(const char *name)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/class/block/%s", sys_dir, name);
	unlink(p);
	snprintf(p, sizeof(p), "%s/%s", dev_dir, name);
	unlink(p);
}

/* A USB host whose disk comes 1.2 s later: the scan settles after it. */
TEST(test_scan_settle_usb_event)
{
	struct late_disk l = {NULL, "sdh", IMG "btrfs.img", 6, 1200};
	struct scan *s;
	pthread_t t;

	drop_disk("vdh"); /* test_scan_hotplug's */
	s = l.s = start_scan();
	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_INT(pthread_create(&t, NULL, late_disk_main, &l), 0);
	CHECK_INT(scan_all(s, 8), 3); /* vda, vdg, and the stick */
	CHECK(has_root(s, "sdh"));
	pthread_join(t, NULL);
	scan_free(s);
	drop_disk("sdh");
}

/* The host was there before the scan started, its disk not yet. */
TEST(test_scan_settle_usb_sysfs)
{
	char p[PATH_MAX], d[PATH_MAX];
	struct late_disk l = {NULL, "sdi", IMG "btrfs.img", -7, 1200};
	struct scan *s;
	pthread_t t;

	snprintf(d, sizeof(d), "%s" USB_HOST "7", sys_dir);
	mkdirs(d);
	snprintf(p, sizeof(p), "%s/class/scsi_host/host7", sys_dir);
	mkdirs(p);
	snprintf(p, sizeof(p), "%s/class/scsi_host/host7/device", sys_dir);
	if (symlink(d, p) < 0)
		perror(p);
	s = start_scan();
	CHECK(s != NULL);
	if (!s)
		return;
	l.s = s;
	CHECK_INT(pthread_create(&t, NULL, late_disk_main, &l), 0);
	CHECK_INT(scan_all(s, 8), 3);
	CHECK(has_root(s, "sdi"));
	pthread_join(t, NULL);
	scan_free(s);
	drop_disk("sdi");
}

/* A host that never reports a disk holds the settle only for a while:
 * quiet (0), long before the 8 s bound. Its target dir: no wait. */
TEST(test_scan_settle_usb_empty)
{
	char p[PATH_MAX], d[PATH_MAX];
	struct scan *s;

	snprintf(d, sizeof(d), "%s" USB_HOST "8", sys_dir);
	mkdirs(d);
	snprintf(p, sizeof(p), "%s/class/scsi_host/host8", sys_dir);
	mkdirs(p);
	snprintf(p, sizeof(p), "%s/class/scsi_host/host8/device", sys_dir);
	if (symlink(d, p) < 0)
		perror(p);
	/* host7 has a target now: it holds nothing */
	snprintf(p, sizeof(p), "%s" USB_HOST "7/target7:0:0", sys_dir);
	mkdirs(p);
	s = start_scan();
	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_INT(scan_settle(s, 8), 0);
	CHECK_INT(scan_roots(s, NULL, 0), 2);
	scan_free(s);
}

/* --- settling by knowing (scan_owed.c): what USB still owes at start
 * holds the first settle; a fake sysfs of hubs and devices, and a fake
 * of the hubs' port status answers. */

struct fake_ports {
	uint16_t status[3]; /* ports 1, 2 */
	int asked;
	char node[PATH_MAX];
};

static int fake_port_fn(void *ctx, const char *node, unsigned port,
			uint16_t *status)
{
	struct fake_ports *f = ctx;

	snprintf(f->node, sizeof(f->node), "%s", node);
	f->asked++;
	if (port < 1 || port > 2)
		return -EINVAL;
	*status = f->status[port];
	return 0;
}

static void usb_attr(const char *dev, const char *name, const char *text)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/bus/usb/devices/%s", sys_dir, dev);
	mkdirs(p);
	snprintf(p, sizeof(p), "%s/bus/usb/devices/%s/%s", sys_dir, dev, name);
	put_file(p, text);
}

/* A root hub with two ports, and no SCSI host left by the tests above
 * (each would hold the settle for its 3 s). */
static void fake_root_hub(void)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "rm -rf '%s/class/scsi_host'", sys_dir);
	CHECK_INT(system(p), 0);
	usb_attr("usb1", "bDeviceClass", "09\n");
	usb_attr("usb1", "busnum", "1\n");
	usb_attr("usb1", "devnum", "1\n");
	usb_attr("usb1", "maxchild", "2\n");
	usb_attr("usb1", "speed", "480\n");
}

struct late_stick {
	struct scan *s;
	const char *dev; /* "1-1", "1-1.2" */
	int delay_ms;
	size_t owed; /* scan_owed_waiting() just before the stick came */
};

static void stick_path(char *p, size_t n, const struct late_stick *l,
		       const char *rest)
{
	snprintf(p, n, "%s/bus/usb/devices/%s:1.0%s", sys_dir, l->dev, rest);
}

/* After @delay_ms: the device, its storage interface, its host and its
 * disk appear, as hub_wq, usb-storage and sd make them. */
static void *late_stick_main(void *arg)
{
	struct late_stick *l = arg;
	char p[PATH_MAX], iface[64];

	usleep((useconds_t)l->delay_ms * 1000);
	l->owed = scan_owed_waiting(l->s);
	snprintf(iface, sizeof(iface), "%s:1.0", l->dev);
	usb_attr(l->dev, "bDeviceClass", "00\n");
	usb_attr(l->dev, "bNumInterfaces", " 1\n");
	usb_attr(iface, "bInterfaceClass", "08\n");
	stick_path(p, sizeof(p), l, "/host9");
	mkdirs(p);
	usleep(100 * 1000); /* usb-storage's delay_use, shortened */
	stick_path(p, sizeof(p), l, "/host9/target9:0:0");
	mkdirs(p);
	usleep(100 * 1000); /* sd's probe */
	fake_disk("sdj", IMG "btrfs.img");
	stick_path(p, sizeof(p), l, "/host9/target9:0:0/9:0:0:0/block");
	mkdirs(p);
	snprintf(p, sizeof(p),
		 "/devices/pci0/usb1/%s/%s/host9/target9:0:0/9:0:0:0/block/sdj",
		 l->dev, iface);
	inject_fmt(l->s, "add", p, "block", "disk", "sdj");
	return NULL;
}

/* Start a scan over fake_root_hub() (and, with @hub, a hub behind its
 * port 1) whose ports answer @port1 and @port2, with a stick appearing
 * at @dev after @delay_ms: the first settle must have the stick or not,
 * as @want_stick says. */
static void settle_with_stick(uint16_t port1, uint16_t port2, bool hub,
			      const char *dev, int delay_ms, bool want_stick)
{
	struct fake_ports ports = {.status = {0, port1, port2}};
	struct scan_opts o = fake_opts();
	struct late_stick l = {NULL, dev, delay_ms, 0};
	char p[PATH_MAX];
	pthread_t t;

	o.settle_s = 8;
	o.hotplug = true;
	o.usb_port_fn = fake_port_fn;
	o.usb_port_ctx = &ports;

	fake_root_hub();
	if (hub) {
		usb_attr("1-1", "bDeviceClass", "09\n");
		usb_attr("1-1", "busnum", "1\n");
		usb_attr("1-1", "devnum", "2\n");
		usb_attr("1-1", "maxchild", "2\n");
		usb_attr("1-1", "speed", "480\n");
	}
	l.s = scan_new(&o);
	CHECK(l.s != NULL);
	if (!l.s)
		return;
	CHECK_INT(pthread_create(&t, NULL, late_stick_main, &l), 0);
	/* vda, vdg, and the stick when it was waited for */
	CHECK_INT(scan_all(l.s, 8), want_stick ? 3 : 2);
	CHECK(has_root(l.s, "sdj") == want_stick);
	CHECK((l.owed > 0) == want_stick); /* the status line's count */
	CHECK(ports.asked > 0);
	pthread_join(t, NULL);
	scan_free(l.s);
	drop_disk("sdj");
	snprintf(p, sizeof(p), "rm -rf '%s/bus'", sys_dir);
	CHECK_INT(system(p), 0);
}

/* Root port 1 says a device is connected that is not enumerated yet:
 * the settle waits for it, though no uevent says anything for 1.2 s. */
TEST(test_scan_settle_knows_port)
{
	settle_with_stick(0x0101, 0x0100, false, "1-1", 1200, true);
}

/* Nothing connected, every port powered: nothing is owed, and the scan
 * settles without the stick (which comes only after). */
TEST(test_scan_settle_knows_nothing_owed)
{
	settle_with_stick(0x0100, 0x0100, false, "1-1", 1200, false);
}

/* A hub behind root port 1, just set up: its ports say powered and
 * empty, but a device there shows only a while after power-on (the
 * stick comes about 300 ms after the hub was first seen, once the other
 * devices' 0.5 s are over). The settle waits SCAN_HUB_YOUNG_MS for the
 * hub's ports, and so sees the stick. */
TEST(test_scan_settle_knows_young_hub)
{
	settle_with_stick(0x0100, 0x0100, true, "1-1.2", 800, true);
}

TEST(test_scan_teardown)
{
	char cmd[128];

	/* let the abandoned iso9660 workers finish their 1.5 s first */
	sleep(2);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	CHECK_INT(system(cmd), 0);
}

TEST_MAIN("test_scan", test_uevent_parse, test_uevent_reject,
	  test_uevent_long_fields, test_scan_setup, test_scan_start,
	  test_scan_hotplug, test_scan_hand_back, test_scan_bad_sysfs,
	  test_scan_settle_usb_event, test_scan_settle_usb_sysfs,
	  test_scan_settle_usb_empty, test_scan_settle_knows_port,
	  test_scan_settle_knows_nothing_owed, test_scan_settle_knows_young_hub,
	  test_scan_teardown)
