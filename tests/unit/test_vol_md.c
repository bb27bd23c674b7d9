/* test_vol_md.c - md superblocks and RAID1 volumes, on the member images
 * of tests/fixtures/md (made by make.py, checked by mdadm --examine). */
#include "test.h"
#include "vol/md.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#define FIXDIR "tests/fixtures/md/"
#define DEV (128 * 1024)

static int load(const char *name, struct md_member *m, char *err)
{
	struct stat st;
	int fd = open(name, O_RDONLY), rc;

	if (fd < 0 || fstat(fd, &st) < 0) {
		printf("  cannot open %s\n", name);
		return -ENOENT;
	}
	rc = md_member_read(fd, (uint64_t)st.st_size, m, err, 160);
	close(fd);
	return rc;
}

static struct md_member fix(const char *name)
{
	struct md_member m;
	char path[128], err[160] = "";

	snprintf(path, sizeof(path), FIXDIR "%s", name);
	memset(&m, 0, sizeof(m));
	CHECK_INT(load(path, &m, err), 0);
	CHECK_STR(err, "");
	return m;
}

/* The first line of the data a window shows: what the array holds. */
static void check_data(const char *name, const struct vol_window *w,
		       const char *want)
{
	char path[128], got[64] = "";
	int fd;

	snprintf(path, sizeof(path), FIXDIR "%s", name);
	fd = open(path, O_RDONLY);
	CHECK(fd >= 0);
	CHECK_INT(pread(fd, got, strlen(want), (off_t)w->offset),
		  (long)strlen(want));
	CHECK_STR(got, want);
	close(fd);
}

/* A whole image in memory, to damage. */
static uint8_t *image(const char *name)
{
	char path[128];
	size_t len = 0;
	char *buf;

	snprintf(path, sizeof(path), FIXDIR "%s", name);
	buf = test_slurp(path, &len);
	CHECK(buf != NULL);
	CHECK_INT(len, DEV);
	return (uint8_t *)buf;
}

/* calc_sb_1_csum again, written apart from md.c, to re-sign a damaged
 * 1.x superblock */
static void resign1(uint8_t *sb)
{
	uint32_t max_dev, w;
	uint64_t sum = 0;

	memcpy(&max_dev, sb + 220, 4);
	memset(sb + 216, 0, 4);
	for (size_t i = 0; i < 256 + 2 * (size_t)max_dev; i += 4) {
		memcpy(&w, sb + i, 4);
		sum += w;
	}
	w = (uint32_t)((sum & 0xffffffff) + (sum >> 32));
	memcpy(sb + 216, &w, 4);
}

TEST(each_version_found)
{
	struct md_member m = fix("v090-a.img");

	CHECK_STR(m.version, "0.90");
	CHECK_STR(m.uuid_str, "01234567:89abcdef:fedcba98:76543210");
	CHECK_STR(m.name, "md0");
	CHECK_STR(m.set_name, "");
	CHECK_INT(m.level, 1);
	CHECK_INT(m.raid_disks, 2);
	CHECK_INT(m.state, MD_ACTIVE);
	CHECK_INT(m.role, 0);
	CHECK_INT(m.events, 20);
	CHECK_INT(m.sb_offset, 65536);
	CHECK_INT(m.data_offset, 0);
	CHECK_INT(m.data_size, 65536);
	CHECK_INT(m.array_size, 65536); /* mdadm: Array Size : 64 */

	m = fix("v10-b.img");
	CHECK_STR(m.version, "1.0");
	CHECK_STR(m.uuid_str, "10111213:14151617:18191a1b:1c1d1e1f");
	CHECK_STR(m.set_name, "fixture:boot");
	CHECK_STR(m.name, "boot");
	CHECK_INT(m.role, 1);
	CHECK_INT(m.sb_offset, 240 * 512); /* mdadm: Super Offset : 240 */
	CHECK_INT(m.data_offset, 0);
	CHECK_INT(m.data_size, 240 * 512);
	CHECK_INT(m.array_size, 120 * 1024); /* mdadm: Array Size : 120 KiB */

	m = fix("v11-a.img");
	CHECK_STR(m.version, "1.1");
	CHECK_STR(m.name, "root");
	CHECK_INT(m.sb_offset, 0);
	CHECK_INT(m.data_offset, 16 * 512); /* mdadm: Data Offset : 16 */

	m = fix("v12-a.img");
	CHECK_STR(m.version, "1.2");
	CHECK_STR(m.uuid_str, "30313233:34353637:38393a3b:3c3d3e3f");
	CHECK_STR(m.name, "mirror");
	CHECK_INT(m.state, MD_ACTIVE);
	CHECK_INT(m.role, 0);
	CHECK_INT(m.events, 20);
	CHECK_INT(m.sb_offset, 4096);
	CHECK_INT(m.data_offset, 16 * 512);
	CHECK_INT(m.data_size, 240 * 512);
	CHECK_INT(m.array_size, 240 * 512);
}

TEST(checksum_flipped_byte)
{
	uint8_t *b = image("v12-a.img");
	struct md_member m;
	char err[160] = "";
	uint32_t sum;

	CHECK_INT(md_sb_parse(b + 4096, 4096, 4096, DEV, &m, err, 160), 0);
	b[4096 + 40] ^= 0x20; /* a letter of the name */
	CHECK_INT(md_sb_parse(b + 4096, 4096, 4096, DEV, &m, err, 160),
		  -EINVAL);
	CHECK_STR(err, "the md 1.x superblock's checksum is wrong");
	free(b);

	b = image("v090-b.img");
	CHECK_INT(md_sb_parse(b + 65536, 4096, 65536, DEV, &m, err, 160), 0);
	b[65536 + 3968 + 12] ^= 1; /* this_disk.raid_disk */
	CHECK_INT(md_sb_parse(b + 65536, 4096, 65536, DEV, &m, err, 160),
		  -EINVAL);
	CHECK_STR(err, "the md 0.90 superblock's checksum is wrong");
	b[65536 + 3968 + 12] ^= 1;
	/* md_csum_fold: the kernel compares 16-bit folds, and adding
	 * 0xffff leaves the fold as it was */
	sum = (uint32_t)b[65536 + 152] | (uint32_t)b[65536 + 153] << 8 |
	      (uint32_t)b[65536 + 154] << 16 | (uint32_t)b[65536 + 155] << 24;
	CHECK(sum < 0xffff0000u);
	sum += 0xffff;
	memcpy(b + 65536 + 152, &sum, 4);
	CHECK_INT(md_sb_parse(b + 65536, 4096, 65536, DEV, &m, err, 160), 0);
	free(b);
}

/* A damaged member on a device: md_member_read says why. */
TEST(read_reports_bad_superblock)
{
	char path[] = "/tmp/test_vol_md.XXXXXX", err[160] = "";
	uint8_t *b = image("v11-b.img");
	struct md_member m;
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	b[100] ^= 0xff;
	CHECK_INT(write(fd, b, DEV), DEV);
	CHECK_INT(md_member_read(fd, DEV, &m, err, sizeof(err)), -EINVAL);
	CHECK_STR(err, "the md 1.x superblock's checksum is wrong");
	memset(b, 0, DEV);
	CHECK_INT(pwrite(fd, b, DEV, 0), DEV);
	CHECK_INT(md_member_read(fd, DEV, &m, err, sizeof(err)), -ENOENT);
	CHECK_STR(err, "no md superblock on this device");
	close(fd);
	unlink(path);
	free(b);
}

TEST(windows_exact)
{
	static const char *names[] = {"v090-a.img", "v12-a.img",  "v10-a.img",
				      "v11-a.img",  "v090-b.img", "v11-b.img",
				      "v10-b.img",  "v12-b.img"};
	struct md_member ms[8];
	struct vol v[8];
	char notes[8][160];

	for (int i = 0; i < 8; i++)
		ms[i] = fix(names[i]);
	CHECK_INT(md_group(ms, 8, v, notes, 8), 4);
	CHECK_STR(v[0].name, "md0");
	CHECK_STR(v[1].name, "mirror");
	CHECK_STR(v[2].name, "boot");
	CHECK_STR(v[3].name, "root");
	for (int i = 0; i < 4; i++) {
		CHECK_STR(v[i].skip, "");
		CHECK_STR(notes[i], "");
		CHECK_INT(v[i].n, 1);
		CHECK_INT(v[i].w[0].source, i); /* the first, both at 20 */
		CHECK_INT(v[i].size, v[i].w[0].size);
	}
	CHECK_INT(v[0].w[0].offset, 0);
	CHECK_INT(v[0].w[0].size, 65536);
	CHECK_INT(v[1].w[0].offset, 8192);
	CHECK_INT(v[1].w[0].size, 240 * 512);
	CHECK_INT(v[2].w[0].offset, 0);
	CHECK_INT(v[2].w[0].size, 240 * 512);
	CHECK_INT(v[3].w[0].offset, 8192);
	check_data("v090-a.img", &v[0].w[0], "md fixture: md0 (0.90)\n");
	check_data("v12-a.img", &v[1].w[0],
		   "md fixture: fixture:mirror (1.2)\n");
	check_data("v10-a.img", &v[2].w[0], "md fixture: fixture:boot (1.0)\n");
	check_data("v11-a.img", &v[3].w[0], "md fixture: fixture:root (1.1)\n");
	CHECK_INT(md_group(ms, 8, v, NULL, 2), 2); /* room for two */
}

TEST(stale_member_not_chosen)
{
	struct md_member ms[2] = {fix("deg-b-stale.img"), fix("deg-a.img")};
	struct vol v;
	char note[160];

	CHECK_INT(ms[0].events, 12);
	CHECK_INT(md_volume(ms, 2, &v, note, sizeof(note)), 0);
	CHECK_STR(v.name, "deg");
	CHECK_STR(v.skip, "");
	CHECK_INT(v.n, 1);
	CHECK_INT(v.w[0].source, 1);
	check_data("deg-a.img", &v.w[0], "md fixture: fixture:deg, current\n");
	CHECK_STR(note, "deg is degraded (1 of 2 mirrors present): read from "
			"one");
	ms[0] = ms[1];
	ms[1] = fix("deg-b-stale.img"); /* the other order */
	CHECK_INT(md_volume(ms, 2, &v, note, sizeof(note)), 0);
	CHECK_INT(v.w[0].source, 0);
}

/* Two healthy members, equal in events: the one in the lower slot is
 * read, whichever order the scan found them in (it reads as the devices
 * answer, which varies from boot to boot). */
TEST(equal_members_lower_slot_read)
{
	struct md_member ms[2] = {fix("v12-a.img"), fix("v12-b.img")};
	int first = ms[0].role < ms[1].role ? 0 : 1;
	struct vol v;

	CHECK_INT(ms[0].events, ms[1].events);
	CHECK(ms[0].role != ms[1].role);
	CHECK_INT(md_volume(ms, 2, &v, NULL, 0), 0);
	CHECK_INT(v.n, 1);
	CHECK_INT(v.w[0].source, first);
	ms[0] = fix("v12-b.img");
	ms[1] = fix("v12-a.img");
	CHECK_INT(md_volume(ms, 2, &v, NULL, 0), 0);
	CHECK_INT(v.w[0].source, 1 - first);
}

TEST(degraded_still_readable)
{
	struct md_member m = fix("v12-b.img");
	struct vol v;
	char note[160] = "x";

	CHECK_INT(md_volume(&m, 1, &v, note, sizeof(note)), 0);
	CHECK_STR(v.skip, "");
	CHECK_INT(v.n, 1);
	CHECK_INT(v.w[0].offset, 8192);
	CHECK_STR(note, "mirror is degraded (1 of 2 mirrors present): read "
			"from one");
	CHECK_INT(md_volume(&m, 1, &v, NULL, 0), 0); /* no note wanted */
}

TEST(raid5_skipped)
{
	struct md_member m = fix("r5-a.img");
	struct vol v;
	char note[160];

	CHECK_INT(m.level, 5);
	CHECK_INT(m.raid_disks, 3);
	CHECK_INT(md_volume(&m, 1, &v, note, sizeof(note)), 0);
	CHECK_STR(v.name, "data");
	CHECK_STR(v.skip, "data is RAID5: bootmenu reads only RAID1 mirrors");
	CHECK_INT(v.n, 0);
	CHECK_INT(v.size, 0);
}

TEST(no_healthy_member_and_reshape)
{
	uint8_t *b = image("v12-a.img");
	struct md_member m;
	struct vol v;
	char err[160] = "";

	b[4096 + 256] = 0xfe; /* dev_roles[0] = 0xfffe: faulty */
	b[4096 + 257] = 0xff;
	resign1(b + 4096);
	CHECK_INT(md_sb_parse(b + 4096, 4096, 4096, DEV, &m, err, 160), 0);
	CHECK_INT(m.state, MD_FAULTY);
	CHECK_INT(m.role, -1);
	CHECK_INT(md_volume(&m, 1, &v, NULL, 0), 0);
	CHECK_STR(v.skip, "mirror has no healthy, up-to-date member to read");
	CHECK_INT(v.n, 0);

	b[4096 + 256] = 0, b[4096 + 257] = 0;
	b[4096 + 8] = 4; /* feature_map: MD_FEATURE_RESHAPE_ACTIVE */
	resign1(b + 4096);
	CHECK_INT(md_sb_parse(b + 4096, 4096, 4096, DEV, &m, err, 160), 0);
	CHECK_INT(m.reshape, 1);
	CHECK_INT(md_volume(&m, 1, &v, NULL, 0), 0);
	CHECK_STR(v.skip, "mirror is being reshaped: bootmenu reads only a "
			  "mirror at rest");

	memcpy(b + 4096 + 32, "fixture:7\0\0\0\0\0", 14);
	resign1(b + 4096);
	CHECK_INT(md_sb_parse(b + 4096, 4096, 4096, DEV, &m, err, 160), 0);
	CHECK_STR(m.set_name, "fixture:7");
	CHECK_STR(m.name, "md7"); /* mdadm --create /dev/md7 */
	memset(b + 4096 + 32, 0, 32);
	resign1(b + 4096);
	CHECK_INT(md_sb_parse(b + 4096, 4096, 4096, DEV, &m, err, 160), 0);
	CHECK_STR(m.name, "md-30313233");

	b[4096 + 10] = 1; /* feature bit 16: none the kernel knows */
	resign1(b + 4096);
	CHECK_INT(md_sb_parse(b + 4096, 4096, 4096, DEV, &m, err, 160),
		  -EINVAL);
	CHECK_STR(err, "the md superblock uses features bootmenu does not "
		       "know (0x10000)");
	b[4096 + 10] = 0;

	b[4096 + 8] = 2; /* MD_FEATURE_RECOVERY_OFFSET: being rebuilt */
	resign1(b + 4096);
	CHECK_INT(md_sb_parse(b + 4096, 4096, 4096, DEV, &m, err, 160), 0);
	CHECK_INT(m.state, MD_REBUILDING);
	CHECK_INT(m.role, 0);
	CHECK_INT(md_volume(&m, 1, &v, NULL, 0), 0);
	CHECK(v.skip[0] != 0);
	free(b);
}

TEST(truncated_and_garbage)
{
	uint8_t *b = image("v12-a.img"), junk[4096];
	struct md_member m, two[2];
	struct vol v;
	char err[160] = "";

	CHECK_INT(md_sb_parse(b + 4096, 3, 4096, DEV, &m, err, 160), -ENOENT);
	CHECK_INT(md_sb_parse(b + 4096, 200, 4096, DEV, &m, err, 160), -EINVAL);
	CHECK_STR(err, "the md 1.x superblock is cut short or lists too many "
		       "devices");
	CHECK_INT(md_sb_parse(b + 4096, 4096, 0, DEV, &m, err, 160), -EINVAL);
	CHECK_STR(err, "the md superblock says it is at sector 8, but was "
		       "found at byte 0");
	CHECK_INT(md_sb_parse(b + 4096, 4096, 4096, 8192, &m, err, 160),
		  -EINVAL);
	CHECK_STR(err, "the md member's data area runs past the end of the "
		       "device");
	b[4096 + 220] = 0xff, b[4096 + 221] = 0xff; /* max_dev 65535 */
	CHECK_INT(md_sb_parse(b + 4096, 4096, 4096, DEV, &m, err, 160),
		  -EINVAL);
	b[4096 + 220] = 128, b[4096 + 221] = 0;
	b[4096 + 136] = 0xff; /* data_size past the device */
	resign1(b + 4096);
	CHECK_INT(md_sb_parse(b + 4096, 4096, 4096, DEV, &m, err, 160),
		  -EINVAL);
	CHECK_STR(err, "the md member's data area runs past the end of the "
		       "device");
	memset(junk, 0xa5, sizeof(junk));
	CHECK_INT(md_sb_parse(junk, sizeof(junk), 0, DEV, &m, err, 160),
		  -ENOENT);
	memcpy(junk, "\xa9\x2b\x4e\xfc", 4); /* the magic, big-endian */
	CHECK_INT(md_sb_parse(junk, sizeof(junk), 0, DEV, &m, err, 160),
		  -EINVAL);
	CHECK(strstr(err, "big-endian") != NULL);
	memcpy(junk, "\xfc\x4e\x2b\xa9", 4); /* magic, then version junk */
	CHECK_INT(md_sb_parse(junk, sizeof(junk), 0, DEV, &m, err, 160),
		  -EINVAL);
	two[0] = fix("v10-a.img"), two[1] = fix("v11-a.img");
	CHECK_INT(md_volume(two, 2, &v, NULL, 0), -EINVAL); /* two arrays */
	CHECK_INT(md_volume(two, 0, &v, NULL, 0), -EINVAL);
	free(b);
}

/* Hostile member counts, checksums valid (issue #37): 2^32-1 slots in a
 * 1.2 superblock with room for 128 roles, 28 in a 0.90 one; refused
 * before any mirror is planned, with the number in the sentence. */
TEST(member_count_beyond_format)
{
	uint8_t *b = image("v12-a.img"), *z = image("v090-a.img");
	uint8_t *sb0 = z + 0x10000;
	struct md_member m;
	char err[160] = "";
	uint64_t sum = 0;
	uint32_t w;

	memset(b + 4096 + 92, 0xff, 4); /* raid_disks 2^32-1 */
	resign1(b + 4096);
	CHECK_INT(md_sb_parse(b + 4096, 4096, 4096, DEV, &m, err, 160),
		  -EINVAL);
	CHECK_STR(err, "the md superblock claims 4294967295 members, more "
		       "than a 1.x superblock can record (1920)");
	b[4096 + 92] = 0x80, b[4096 + 93] = 0x07, b[4096 + 94] = 0;
	b[4096 + 95] = 0; /* 1920: the most it records, read (degraded) */
	resign1(b + 4096);
	CHECK_INT(md_sb_parse(b + 4096, 4096, 4096, DEV, &m, err, 160), 0);
	CHECK_INT(m.raid_disks, 1920);
	sb0[40] = 28; /* raid_disks, word 10 */
	memset(sb0 + 152, 0, 4);
	for (size_t i = 0; i < 4096; i += 4) {
		memcpy(&w, sb0 + i, 4);
		sum += w;
	}
	w = (uint32_t)((sum & 0xffffffff) + (sum >> 32));
	memcpy(sb0 + 152, &w, 4);
	CHECK_INT(md_sb_parse(sb0, 4096, 0x10000, DEV, &m, err, 160), -EINVAL);
	CHECK_STR(err, "the md 0.90 superblock claims 28 members, more than "
		       "it can describe (27)");
	free(b);
	free(z);
}

TEST_MAIN("test_vol_md", each_version_found, checksum_flipped_byte,
	  read_reports_bad_superblock, windows_exact, stale_member_not_chosen,
	  equal_members_lower_slot_read, degraded_still_readable, raid5_skipped,
	  no_healthy_member_and_reshape, truncated_and_garbage,
	  member_count_beyond_format)
