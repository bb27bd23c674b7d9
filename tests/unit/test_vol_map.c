/* test_vol_map.c - a volume's window as a read-only loop device, on a
 * scratch image (needs root and loop devices: skipped with a note
 * otherwise, as on a build machine without them). */
#include "test.h"
#include "vol/map.h"

#include <errno.h>
#include <fcntl.h>
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
		printf("  note: not root or no loop devices: skipped\n");
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

TEST_MAIN("test_vol_map", window_maps_read_only, bad_windows_refused)
