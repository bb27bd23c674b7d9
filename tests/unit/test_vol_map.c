/* test_vol_map.c - a volume's window as a read-only loop device, on a
 * scratch image (needs root and loop devices: skipped with a note
 * otherwise, as on a build machine without them); the device-mapper
 * request for a volume in several runs, byte by byte (the ioctls
 * themselves run in QEMU: tests/e2e/test_volumes.py). */
#include "test.h"
#include "vol/dm.h"
#include "vol/map.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/dm-ioctl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define IMG "/tmp/test_vol_map.img"
#define KIB 1024u

/* 4 MiB where every 512-byte sector holds its own number */
static int make_image(void)
{
	static uint32_t sec[128];
	int fd = open(IMG, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	int ok = fd >= 0;

	for (uint32_t s = 0; ok && s < 8192; s++) {
		for (size_t i = 0; i < 128; i++)
			sec[i] = s;
		ok = write(fd, sec, sizeof(sec)) == (ssize_t)sizeof(sec);
	}
	if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

static int can_map(void)
{
	if (geteuid() != 0 || access("/dev/loop-control", R_OK | W_OK)) {
		test_skip("needs root and loop devices");
		return 0;
	}
	return 1;
}

TEST(window_maps_read_only)
{
	struct vol_window w = {0, 1024 * KIB, 512 * KIB};
	char dev[64] = "", err[256] = "";
	uint32_t first[128], last[128];
	unsigned long long size = 0;
	int fd, ro = 0;

	if (!can_map())
		return;
	CHECK(make_image() == 0);
	CHECK_INT(vol_map_window(IMG, &w, dev, sizeof(dev), err, sizeof(err)),
		  0);
	CHECK_STR(err, "");
	CHECK(strncmp(dev, "/dev/loop", 9) == 0);
	fd = open(dev, O_RDONLY);
	CHECK(fd >= 0);
	CHECK(ioctl(fd, BLKGETSIZE64, &size) == 0);
	CHECK(size == 512 * KIB);
	/* the window's first and last sectors are the image's 2048, 3071 */
	CHECK(pread(fd, first, sizeof(first), 0) == (ssize_t)sizeof(first));
	CHECK(pread(fd, last, sizeof(last), 512 * KIB - 512) ==
	      (ssize_t)sizeof(last));
	CHECK_INT((int)first[0], 2048);
	CHECK_INT((int)last[127], 3071);
	CHECK(pread(fd, last, sizeof(last), 512 * KIB) == 0);
	CHECK(ioctl(fd, BLKROGET, &ro) == 0);
	CHECK_INT(ro, 1);
	close(fd);
	/* read-only: no write gets through to the image */
	fd = open(dev, O_WRONLY);
	if (fd >= 0) {
		CHECK(pwrite(fd, first, sizeof(first), 0) < 0);
		close(fd);
	}
	CHECK_INT(vol_unmap(dev), 0);
	unlink(IMG);
}

TEST(bad_windows_refused)
{
	struct vol_window past = {0, 4096 * KIB - 512, 1024};
	struct vol_window odd = {0, 100, 512};
	struct vol_window none = {0, 0, 0};
	char dev[64] = "", err[256] = "";

	if (!can_map())
		return;
	CHECK(make_image() == 0);
	CHECK_INT(
	    vol_map_window(IMG, &past, dev, sizeof(dev), err, sizeof(err)),
	    -ERANGE);
	CHECK_STR(err, "the volume's bytes 4193792+1024 do not lie inside " IMG
		       " (4194304 bytes)");
	CHECK_INT(vol_map_window(IMG, &odd, dev, sizeof(dev), err, sizeof(err)),
		  -ERANGE);
	CHECK_INT(
	    vol_map_window(IMG, &none, dev, sizeof(dev), err, sizeof(err)),
	    -ERANGE);
	CHECK_INT(vol_map_window("/tmp/test_vol_map.absent", &none, dev,
				 sizeof(dev), err, sizeof(err)),
		  -ENOENT);
	CHECK_STR(err, "cannot open /tmp/test_vol_map.absent: No such file "
		       "or directory");
	unlink(IMG);
}

/* The request a two-run LV loads: the header, then each linear target
 * at an 8-byte boundary with `next` counted from its own start, the
 * parameters "MAJ:MIN SECTOR" NUL-terminated, read-only. */
TEST(dm_table_layout)
{
	static _Alignas(8) unsigned char buf[1024];
	const struct vol_dm_run runs[] = {{254, 0, 2048, 16384},
					  {8, 17, 1234567, 8}};
	const struct dm_ioctl *io = (const void *)buf;
	const struct dm_target_spec *t;
	long used;
	size_t at;

	memset(buf, 0xaa, sizeof(buf));
	used = vol_dm_table(buf, sizeof(buf), "bootmenu-vgsys-root-1-0", runs,
			    2, 0);
	CHECK(used > 0);
	CHECK_INT((int)io->version[0], DM_VERSION_MAJOR);
	CHECK_INT((int)io->data_size, (int)used);
	CHECK_INT((int)io->data_start % 8, 0);
	CHECK(io->data_start >= sizeof(*io));
	CHECK_INT((int)io->target_count, 2);
	CHECK_INT((int)io->flags, DM_READONLY_FLAG);
	CHECK_STR(io->name, "bootmenu-vgsys-root-1-0");
	at = io->data_start;
	t = (const void *)(buf + at);
	CHECK(t->sector_start == 0 && t->length == 16384);
	CHECK_STR(t->target_type, "linear");
	CHECK_STR((const char *)(t + 1), "254:0 2048");
	CHECK_INT((int)t->next % 8, 0);
	at += t->next;
	t = (const void *)(buf + at);
	CHECK(t->sector_start == 16384 && t->length == 8);
	CHECK_STR((const char *)(t + 1), "8:17 1234567");
	/* the last spec's padding ends the request */
	CHECK_INT((int)(at + t->next), (int)used);
	CHECK_INT((int)used % 8, 0);
}

/* A striped LV (lvcreate -i2 -I64k) is one "striped" target over both
 * stripes: its length is theirs together, the chunk in sectors. */
TEST(dm_table_striped)
{
	static _Alignas(8) unsigned char buf[1024];
	const struct vol_dm_run st[] = {{8, 16, 128, 8192}, {8, 32, 128, 8192}};
	const struct vol_dm_run uneven[] = {{8, 16, 128, 8192},
					    {8, 32, 128, 4096}};
	const struct dm_ioctl *io = (const void *)buf;
	const struct dm_target_spec *t;
	long used = vol_dm_table(buf, sizeof(buf), "s", st, 2, 128);

	CHECK(used > 0);
	CHECK_INT((int)io->target_count, 1);
	CHECK_INT((int)io->flags, DM_READONLY_FLAG);
	t = (const void *)(buf + io->data_start);
	CHECK(t->sector_start == 0 && t->length == 16384);
	CHECK_STR(t->target_type, "striped");
	CHECK_STR((const char *)(t + 1), "2 128 8:16 128 8:32 128");
	CHECK_INT((int)(io->data_start + t->next), (int)used);
	CHECK_INT((int)vol_dm_table(buf, sizeof(buf), "s", uneven, 2, 128),
		  -EINVAL);
}

TEST(dm_table_refusals)
{
	static _Alignas(8) unsigned char buf[1024];
	const struct vol_dm_run one = {8, 1, 0, 8}, empty = {8, 1, 0, 0};
	const struct vol_dm_run huge[2] = {{8, 1, 0, UINT64_MAX}, {8, 2, 0, 1}};
	char name[200];

	memset(name, 'x', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	CHECK_INT((int)vol_dm_table(buf, sizeof(buf), "a", &one, 0, 0),
		  -EINVAL);
	CHECK_INT((int)vol_dm_table(buf, sizeof(buf), "a", &empty, 1, 0),
		  -EINVAL);
	CHECK_INT((int)vol_dm_table(buf, sizeof(buf), "a", huge, 2, 0),
		  -EINVAL);
	CHECK_INT((int)vol_dm_table(buf, sizeof(buf), name, &one, 1, 0),
		  -ENAMETOOLONG);
	CHECK_INT((int)vol_dm_table(buf, sizeof(struct dm_ioctl) + 8, "a", &one,
				    1, 0),
		  -ENOSPC);
	CHECK_INT((int)vol_dm_table(buf, 16, "a", &one, 1, 0), -ENOSPC);
}

/* Several windows need block devices: an image file is refused with a
 * sentence, and nothing is mapped. */
TEST(several_windows_need_block_devices)
{
	const struct vol_window w[2] = {{0, 0, 512 * KIB},
					{1, 1024 * KIB, 512 * KIB}};
	const char *members[2] = {IMG, IMG};
	char dev[64] = "", err[256] = "";

	CHECK(make_image() == 0);
	CHECK_INT(vol_map("vg/lv", w, 2, 0, 0, members, dev, sizeof(dev), err,
			  sizeof(err)),
		  -ENOTBLK);
	CHECK_STR(err, "cannot use " IMG " for device-mapper: Block device "
		       "required");
	CHECK_STR(dev, "");
	CHECK_INT(vol_map("vg/lv", w, 0, 0, 0, members, dev, sizeof(dev), err,
			  sizeof(err)),
		  -EINVAL);
	CHECK_STR(err, "vg/lv has no bytes to map");
	unlink(IMG);
}

TEST_MAIN("test_vol_map", window_maps_read_only, bad_windows_refused,
	  dm_table_layout, dm_table_striped, dm_table_refusals,
	  several_windows_need_block_devices)
