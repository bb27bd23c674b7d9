/* test_probe.c - libblkid probing of image files made by mkimages.sh, the
 * skip rules, and enumeration over a fake /sys/class/block tree. */
#include "scan/probe.h"
#include "test.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define IMG "build/test-images/"

static struct probe_result res[16];
static size_t nres;

static void image(const char *name)
{
	memset(res, 0, sizeof(res));
	nres = 0;
	CHECK_INT(probe_image(name, res, 16, &nres), 0);
}

TEST(test_mkimages)
{
	CHECK_INT(system("bash tests/unit/mkimages.sh " IMG), 0);
}

TEST(test_gpt)
{
	image(IMG "gpt.img");
	CHECK_INT(nres, 7);
	if (nres != 7)
		return;
	CHECK_STR(res[0].pttype, "gpt");
	CHECK_STR(res[0].ptuuid, "11111111-2222-4333-8444-555555555555");
	CHECK_STR(res[0].type, "");
	CHECK(res[0].skip == probe_skip_table);
	CHECK_STR(res[0].detail, "gpt");

	CHECK_STR(res[1].type, "vfat");
	CHECK_STR(res[1].uuid, "1234-ABCD");
	CHECK_STR(res[1].label, "ESP");
	CHECK_STR(res[1].part_scheme, "gpt");
	CHECK_STR(res[1].partuuid, "aaaaaaaa-0000-4000-8000-000000000001");
	CHECK_STR(res[1].partlabel, "EFI System");
	CHECK_STR(res[1].parttype, "c12a7328-f81f-11d2-ba4b-00a0c93ec93b");
	CHECK_INT(res[1].partno, 1);
	CHECK(res[1].esp && !res[1].xbootldr);
	CHECK(res[1].skip == NULL);

	CHECK_STR(res[2].uuid, "0BAD-F00D");
	CHECK_STR(res[2].label, "XBOOT");
	CHECK_STR(res[2].partlabel, "Linux extended boot");
	CHECK(!res[2].esp && res[2].xbootldr);

	CHECK_STR(res[3].type, "ext4");
	CHECK_STR(res[3].uuid, "0f0e0d0c-0b0a-4908-8706-050403020100");
	CHECK_STR(res[3].label, "rootfs");
	CHECK_STR(res[3].partuuid, "aaaaaaaa-0000-4000-8000-000000000003");
	CHECK_INT(res[3].partno, 3);
	CHECK(!res[3].esp && !res[3].xbootldr && res[3].skip == NULL);

	CHECK_STR(res[4].type, "swap");
	CHECK_STR(res[4].label, "swp");
	CHECK_STR(res[4].uuid, "5a5a5a5a-1111-4222-8333-444455556666");
	CHECK(res[4].skip == probe_skip_swap);

	CHECK_STR(res[5].type, "crypto_LUKS");
	CHECK_STR(res[5].uuid, "1c1c1c1c-2222-4333-8444-555566667777");
	CHECK_STR(res[5].partlabel, "vault");
	CHECK(res[5].skip == probe_skip_encrypted);
	CHECK_STR(res[5].skip, "encrypted, not opened");

	CHECK_STR(res[6].type, "");
	CHECK_STR(res[6].partuuid, "aaaaaaaa-0000-4000-8000-000000000006");
	CHECK(res[6].skip == probe_skip_nothing);
}

TEST(test_mbr)
{
	image(IMG "mbr.img");
	CHECK_INT(nres, 4);
	if (nres != 4)
		return;
	CHECK_STR(res[0].pttype, "dos");
	CHECK_STR(res[0].ptuuid, "12345678");
	CHECK(res[0].skip == probe_skip_table);

	CHECK_STR(res[1].type, "vfat");
	CHECK_STR(res[1].uuid, "CAFE-0001");
	CHECK_STR(res[1].label, "MBRESP");
	CHECK_STR(res[1].part_scheme, "dos");
	CHECK_STR(res[1].partuuid, "12345678-01");
	CHECK_STR(res[1].parttype, "0xef");
	CHECK(res[1].esp);

	CHECK_STR(res[2].type, "ext2");
	CHECK_STR(res[2].uuid, "22222222-aaaa-4bbb-8ccc-dddddddddddd");
	CHECK_STR(res[2].label, "boot2");
	CHECK_STR(res[2].partuuid, "12345678-02");
	CHECK(!res[2].esp);

	/* the logical partition inside the extended one (which is left out) */
	CHECK_INT(res[3].partno, 5);
	CHECK_STR(res[3].type, "ext4");
	CHECK_STR(res[3].label, "logical");
	CHECK_STR(res[3].partuuid, "12345678-05");
}

static void whole(const char *file, const char *type, const char *uuid,
		  const char *label, const char *skip)
{
	struct probe_result r;

	CHECK_INT(probe_path(file, 0, 0, &r), 0);
	CHECK_STR(r.type, type);
	CHECK_STR(r.uuid, uuid);
	CHECK_STR(r.label, label);
	CHECK_STR(r.skip, skip);
	CHECK_INT(r.partno, 0);
	CHECK_STR(r.partuuid, "");
	if (strcmp(r.type, type))
		printf("  (in %s)\n", file);
}

TEST(test_whole_disk)
{
	whole(IMG "ext4.img", "ext4", "e4e4e4e4-0000-4000-8000-00000000e4e4",
	      "wholedisk", NULL);
	whole(IMG "xfs.img", "xfs", "f0f0f0f0-1234-4567-89ab-cdef01234567",
	      "xfsdisk", NULL);
	whole(IMG "btrfs.img", "btrfs", "b7b7b7b7-0000-4000-8000-00000000b7b7",
	      "btrdisk", NULL);
	/* ISO 9660's UUID is its modification time */
	whole(IMG "iso.img", "iso9660", "2024-01-02-03-04-05-00", "BMTEST_ISO",
	      NULL);
	whole(IMG "squashfs.img", "squashfs", "", "", NULL);
	whole(IMG "swap.img", "swap", "5a5a5a5a-1111-4222-8333-444455556666",
	      "swp", "swap space");
	whole(IMG "luks.img", "crypto_LUKS",
	      "1c1c1c1c-2222-4333-8444-555566667777", "",
	      "encrypted, not opened");
	whole(IMG "noise.img", "", "", "", "no filesystem found");
	whole(IMG "truncated.img", "", "", "", "no filesystem found");
}

TEST(test_ambivalent)
{
	struct probe_result r;

	CHECK_INT(probe_path(IMG "ambivalent.img", 0, 0, &r), 0);
	CHECK(r.skip == probe_skip_ambivalent);
	CHECK_STR(r.type, ""); /* reported, not guessed */
	CHECK_STR(r.detail, "xfs ext4");
}

TEST(test_window)
{
	struct probe_result r;

	/* the ext4 partition of gpt.img at 33 MiB, as a window of the file */
	CHECK_INT(probe_path(IMG "gpt.img", 33ull << 20, 32ull << 20, &r), 0);
	CHECK_STR(r.type, "ext4");
	CHECK_STR(r.label, "rootfs");
	CHECK_STR(r.partuuid, ""); /* a window knows no table */
	CHECK_INT(probe_path(IMG "missing.img", 0, 0, &r), -ENOENT);
	CHECK(r.skip == probe_skip_error);
	CHECK_STR(r.detail, "No such file or directory");
}

TEST(test_table)
{
	struct probe_part parts[8];
	char pttype[PROBE_TYPE_MAX];
	size_t n;

	CHECK_INT(probe_table(IMG "mbr.img", pttype, parts, 8, &n), 0);
	CHECK_STR(pttype, "dos");
	CHECK_INT(n, 4);
	CHECK_INT(parts[0].start, 1 << 20);
	CHECK_INT(parts[0].size, 16 << 20);
	CHECK(parts[2].extended);
	CHECK_STR(parts[2].type, "0x05");
	CHECK_INT(parts[3].partno, 5);
	CHECK_INT(probe_table(IMG "ext4.img", pttype, parts, 8, &n), 0);
	CHECK_STR(pttype, "");
	CHECK_INT(n, 0);
}

TEST(test_classify)
{
	struct probe_result r = {.part_scheme = "dos", .parttype = "0xEF"};

	CHECK_STR(probe_classify("LVM2_member", "raid"), "LVM physical volume");
	CHECK_STR(probe_classify("linux_raid_member", "raid"), "RAID member");
	CHECK_STR(probe_classify("isw_raid_member", "raid"), "RAID member");
	CHECK_STR(probe_classify("crypto_LUKS", "crypto"),
		  "encrypted, not opened");
	CHECK_STR(probe_classify("BitLocker", "crypto"),
		  "encrypted, not opened");
	CHECK_STR(probe_classify("swap", "other"), "swap space");
	CHECK_STR(probe_classify("bcache", "other"), "not a filesystem");
	CHECK_STR(probe_classify("", ""), "no filesystem found");
	CHECK(probe_classify("vfat", "filesystem") == NULL);
	CHECK(probe_classify("ext4", NULL) == NULL);
	probe_classify_part(&r);
	CHECK(r.esp && !r.xbootldr);
	snprintf(r.parttype, sizeof(r.parttype), "0xea");
	probe_classify_part(&r);
	CHECK(!r.esp && r.xbootldr);
	snprintf(r.part_scheme, sizeof(r.part_scheme), "gpt");
	snprintf(r.parttype, sizeof(r.parttype),
		 "C12A7328-F81F-11D2-BA4B-00A0C93EC93B");
	probe_classify_part(&r);
	CHECK(r.esp && !r.xbootldr);
}

/* --- a fake sysfs: devices/<bus>/block/<disk>[/<part>] with class/block
 * symlinks, as the kernel lays it out */

static char sysroot[64];

static void sysfile(const char *rel, const char *text)
{
	char p[256], cmd[512];
	FILE *f;

	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s/%s')\"", sysroot,
		 rel);
	if (system(cmd) != 0)
		return;
	snprintf(p, sizeof(p), "%s/%s", sysroot, rel);
	f = fopen(p, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void fake_block(const char *devpath, const char *name, const char *dev,
		       const char *size, const char *part, const char *uevent)
{
	char rel[256], target[256], link[256];

	snprintf(rel, sizeof(rel), "%s/dev", devpath);
	sysfile(rel, dev);
	snprintf(rel, sizeof(rel), "%s/size", devpath);
	sysfile(rel, size);
	snprintf(rel, sizeof(rel), "%s/ro", devpath);
	sysfile(rel, "0\n");
	snprintf(rel, sizeof(rel), "%s/uevent", devpath);
	sysfile(rel, uevent);
	if (part) {
		snprintf(rel, sizeof(rel), "%s/partition", devpath);
		sysfile(rel, part);
		snprintf(rel, sizeof(rel), "%s/start", devpath);
		sysfile(rel, "2048\n");
	} else {
		snprintf(rel, sizeof(rel), "%s/removable", devpath);
		sysfile(rel, strstr(devpath, "usb") ? "1\n" : "0\n");
	}
	snprintf(target, sizeof(target), "../../%s", devpath);
	snprintf(link, sizeof(link), "%s/class/block/%s", sysroot, name);
	if (symlink(target, link) < 0)
		perror(link);
}

static void build_sysfs(void)
{
	snprintf(sysroot, sizeof(sysroot), "/tmp/bm_sys_XXXXXX");
	if (!mkdtemp(sysroot))
		abort();
	sysfile("class/block/.keep", "");
	fake_block("devices/pci0/ata1/block/sda", "sda", "8:0\n", "204800\n",
		   NULL, "MAJOR=8\nMINOR=0\nDEVNAME=sda\nDEVTYPE=disk\n");
	fake_block(
	    "devices/pci0/ata1/block/sda/sda1", "sda1", "8:1\n", "32768\n",
	    "1\n",
	    "MAJOR=8\nMINOR=1\nDEVNAME=sda1\nDEVTYPE=partition\nPARTN=1\n");
	fake_block("devices/pci0/ata1/block/sda/sda10", "sda10", "8:10\n",
		   "100\n", "10\n", "DEVNAME=sda10\n");
	fake_block("devices/pci0/ata1/block/sda/sda2", "sda2", "8:2\n", "100\n",
		   "2\n", "DEVNAME=sda2\n");
	fake_block("devices/pci0/nvme/block/nvme0n1", "nvme0n1", "259:0\n",
		   "1000\n", NULL, "DEVNAME=nvme0n1\n");
	fake_block("devices/pci0/nvme/block/nvme0n1/nvme0n1p1", "nvme0n1p1",
		   "259:1\n", "900\n", "1\n", "DEVNAME=nvme0n1p1\n");
	fake_block("devices/pci0/usb1/block/sdb", "sdb", "8:16\n", "0\n", NULL,
		   "DEVNAME=sdb\n");
	fake_block("devices/pci0/ata2/block/sr0", "sr0", "11:0\n", "0\n", NULL,
		   "DEVNAME=sr0\n");
	fake_block("devices/virtual/block/loop0", "loop0", "7:0\n", "100\n",
		   NULL, "DEVNAME=loop0\n");
	fake_block("devices/virtual/block/ram0", "ram0", "1:0\n", "100\n", NULL,
		   "DEVNAME=ram0\n");
	fake_block("devices/virtual/block/zram0", "zram0", "252:0\n", "100\n",
		   NULL, "DEVNAME=zram0\n");
	fake_block("devices/virtual/block/dm-0", "dm-0", "253:0\n", "100\n",
		   NULL, "DEVNAME=dm-0\nDM_NAME=x\n");
}

TEST(test_sysfs)
{
	static const char *const want[] = {
	    "dm-0", "nvme0n1", "nvme0n1p1", "sda", "sda1",
	    "sda2", "sda10",   "sdb",	    "sr0",
	};
	struct probe_dev *d, one;
	size_t n;
	char cmd[128];

	build_sysfs();
	CHECK_INT(probe_sysfs_list(sysroot, "/dev", 0, &d, &n), 0);
	CHECK_INT(n, 9);
	for (size_t i = 0; i < n && i < 9; i++)
		CHECK_STR(d[i].name, want[i]);
	if (n == 9) {
		CHECK_STR(d[2].disk, "nvme0n1");
		CHECK_INT(d[2].partno, 1);
		CHECK_STR(d[4].devnode, "/dev/sda1");
		CHECK_STR(d[4].disk, "sda");
		CHECK_INT(d[4].major, 8);
		CHECK_INT(d[4].minor, 1);
		CHECK_INT(d[4].size, 32768 * 512);
		CHECK_INT(d[4].start, 2048 * 512);
		CHECK(!d[4].removable && d[4].skip == NULL);
		CHECK_INT(d[3].partno, 0);
		CHECK_STR(d[3].disk, "sda");
		CHECK(d[7].removable);
		CHECK_STR(d[7].skip, "no medium");
		CHECK_STR(d[8].skip, "no medium");
	}
	free(d);
	CHECK_INT(probe_sysfs_list(sysroot, "/dev", PROBE_SYSFS_LOOP, &d, &n),
		  0);
	CHECK_INT(n, 10);
	free(d);
	CHECK_INT(probe_sysfs_dev(sysroot, "/x", "sda2", 0, &one), 0);
	CHECK_STR(one.devnode, "/x/sda2");
	CHECK_INT(probe_sysfs_dev(sysroot, "/dev", "ram0", 0, &one), -EPERM);
	CHECK_INT(probe_sysfs_dev(sysroot, "/dev", "sdz", 0, &one), -ENOENT);
	CHECK_INT(probe_sysfs_dev(sysroot, "/dev", "../../etc", 0, &one),
		  -EINVAL);
	CHECK_INT(probe_sysfs_list("/nonexistent", "/dev", 0, &d, &n), -ENOENT);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", sysroot);
	CHECK_INT(system(cmd), 0);
}

TEST_MAIN("test_probe", test_mkimages, test_gpt, test_mbr, test_whole_disk,
	  test_ambivalent, test_window, test_table, test_classify, test_sysfs)
