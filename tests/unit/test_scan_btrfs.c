/* test_scan_btrfs.c - scan/btrfs.c: the search-result parsers over
 * made-up buffers, and the ioctls over a real btrfs image loop-mounted
 * (as root, with btrfs-progs; skipped otherwise, saying so). */
#include "scan/btrfs.h"
#include "scan/fs.h"
#include "scan/mount.h"
#include "test.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <unistd.h>

#define DIR_ITEM 84
#define BACKREF 144

/* One search header (host order) and an item of @n bytes. */
static size_t put_hit(uint8_t *buf, size_t off, uint64_t objectid,
		      uint64_t offset, uint32_t type, const void *item,
		      uint32_t n)
{
	uint64_t v[3] = {1, objectid, offset};
	uint32_t tl[2] = {type, n};

	memcpy(buf + off, v, sizeof(v));
	memcpy(buf + off + 24, tl, sizeof(tl));
	memcpy(buf + off + 32, item, n);
	return off + 32 + n;
}

/* A packed btrfs_dir_item pointing at subvolume @id, named @name. */
static uint32_t dir_item(uint8_t *it, uint64_t id, const char *name)
{
	size_t nl = strlen(name);

	memset(it, 0, 30);
	for (int i = 0; i < 8; i++)
		it[i] = (uint8_t)(id >> (8 * i));
	it[8] = 132; /* ROOT_ITEM */
	it[27] = (uint8_t)nl;
	memcpy(it + 30, name, nl);
	return (uint32_t)(30 + nl);
}

TEST(test_find_default)
{
	uint8_t buf[512], it[64];
	size_t off = 0;
	uint64_t id = 0;

	off = put_hit(buf, off, 6, 1, DIR_ITEM, it, dir_item(it, 9, "other"));
	off =
	    put_hit(buf, off, 6, 2, DIR_ITEM, it, dir_item(it, 263, "default"));
	CHECK_INT(btrfs_find_default(buf, off, 2, &id), 0);
	CHECK_INT(id, 263);
	CHECK_INT(btrfs_find_default(buf, off, 1, &id), -ENOENT);
	/* an item cut short, and a name longer than its item */
	CHECK_INT(btrfs_find_default(buf, off - 3, 2, &id), -EUCLEAN);
	it[27] = 200;
	put_hit(buf, 0, 6, 1, DIR_ITEM, it, 37);
	CHECK_INT(btrfs_find_default(buf, 69, 1, &id), -EUCLEAN);
	/* an item of 29 bytes: its name length (at 27) is there, the rest of
	 * a dir_item is not (the long fuzz run of 2026-12-07 read past it) */
	it[27] = 7;
	put_hit(buf, 0, 6, 1, DIR_ITEM, it, 29);
	CHECK_INT(btrfs_find_default(buf, 32 + 29, 1, &id), -EUCLEAN);
}

TEST(test_find_backref)
{
	uint8_t buf[256], it[18 + 9] = {0};
	uint64_t parent = 0, dirid = 0;
	char name[16], tiny[4];
	size_t off;

	it[0] = 0x00, it[1] = 0x01; /* dirid 256 */
	it[16] = 9;
	memcpy(it + 18, "@snapshot", 9);
	off = put_hit(buf, 0, 300, 257, BACKREF, it, sizeof(it));
	CHECK_INT(btrfs_find_backref(buf, off, 1, &parent, &dirid, name,
				     sizeof(name)),
		  0);
	CHECK_INT(parent, 257);
	CHECK_INT(dirid, 256);
	CHECK_STR(name, "@snapshot");
	CHECK_INT(btrfs_find_backref(buf, off, 1, &parent, &dirid, tiny,
				     sizeof(tiny)),
		  -ENAMETOOLONG);
	CHECK_INT(btrfs_find_backref(buf, off, 0, &parent, &dirid, name,
				     sizeof(name)),
		  -ENOENT);
	CHECK_INT(
	    btrfs_find_backref(buf, 20, 1, &parent, &dirid, name, sizeof(name)),
	    -EUCLEAN);
}

/* The ROOT_BACKREF items among the others a search brings (ROOT_ITEM,
 * ROOT_REF), each subvolume once, up to the cap; the cursor past the
 * last item whatever its type. */
TEST(test_find_subvols)
{
	uint8_t buf[512], it[18 + 4] = {0}, other[8] = {0};
	struct btrfs_cursor at = {0, 0, 0};
	uint64_t ids[4] = {0};
	size_t off = 0, count = 0;

	it[16] = 4;
	memcpy(it + 18, "snap", 4);
	off = put_hit(buf, off, 256, 0, 132, other, sizeof(other));
	off = put_hit(buf, off, 256, 5, BACKREF, it, sizeof(it));
	off = put_hit(buf, off, 256, 257, 156, other, sizeof(other));
	off = put_hit(buf, off, 257, 256, BACKREF, it, sizeof(it));
	off = put_hit(buf, off, 257, 256, BACKREF, it, sizeof(it));
	off = put_hit(buf, off, 258, 0, 132, other, sizeof(other));
	CHECK_INT(btrfs_find_subvols(buf, off, 6, ids, 4, &count, &at), 0);
	CHECK_INT(count, 2);
	CHECK_INT(ids[0], 256);
	CHECK_INT(ids[1], 257);
	/* the next search starts right after ROOT_ITEM 258: its backref */
	CHECK_INT(at.objectid, 258);
	CHECK_INT(at.type, 132);
	CHECK_INT(at.offset, 1);
	count = 0;
	CHECK_INT(btrfs_find_subvols(buf, off, 6, ids, 1, &count, &at), 0);
	CHECK_INT(count, 1); /* the cap */
	CHECK_INT(btrfs_find_subvols(buf, off - 1, 6, ids, 4, &count, &at),
		  -EUCLEAN);
	at = (struct btrfs_cursor){7, 8, 9};
	CHECK_INT(btrfs_find_subvols(buf, off, 0, ids, 4, &count, &at), 0);
	CHECK_INT(at.objectid, 7); /* nothing read: where it was */
	off = put_hit(buf, 0, UINT64_MAX, UINT64_MAX, 255, other, 0);
	CHECK_INT(btrfs_find_subvols(buf, off, 1, ids, 4, &count, &at),
		  -ERANGE);
	off = put_hit(buf, 0, 300, UINT64_MAX, 255, other, 0);
	CHECK_INT(btrfs_find_subvols(buf, off, 1, ids, 4, &count, &at), 0);
	CHECK_INT(at.objectid, 301);
	CHECK_INT(at.type, 0);
	CHECK_INT(at.offset, 0);
}

#define SCRATCH "/tmp/bm-test-btrfs"

static int sh(const char *cmd)
{
	char full[1024];

	snprintf(full, sizeof(full), "cd " SCRATCH " && (%s) >/dev/null 2>&1",
		 cmd);
	return system(full);
}

/* openSUSE's layout: @, @/.snapshots, @/.snapshots/1/snapshot (the
 * default), each with a /boot; Ubuntu's @ beside it. */
static bool make_image(void)
{
	if (geteuid() != 0 || system("command -v mkfs.btrfs >/dev/null 2>&1 "
				     "&& command -v btrfs >/dev/null 2>&1")) {
		test_skip("needs root and btrfs-progs");
		return false;
	}
	/* a loop device of its own, writable whatever an earlier user left
	 * (BLKROSET outlives losetup -d) */
	if (system("mkdir -p " SCRATCH "/mnt") ||
	    sh("truncate -s 128M img && mkfs.btrfs -q -f img && "
	       "losetup -f --show img > loopdev && "
	       "blockdev --setrw \"$(cat loopdev)\" && "
	       "mount \"$(cat loopdev)\" mnt && "
	       "btrfs subvolume create mnt/@ && mkdir mnt/@/boot && "
	       "btrfs subvolume create mnt/@/.snapshots && "
	       "mkdir mnt/@/.snapshots/1 && "
	       "btrfs subvolume snapshot mnt/@ mnt/@/.snapshots/1/snapshot")) {
		printf("  skipped: cannot make and mount a btrfs image\n");
		sh("umount mnt; losetup -d \"$(cat loopdev)\"; rm -f loopdev");
		return false;
	}
	return true;
}

/* The scan's own mount: the top level, read-only, whatever the default
 * subvolume is (set to @/.snapshots/1/snapshot by then). */
static void mount_top_level(void)
{
	char dev[64] = "", detail[MOUNT_DETAIL_MAX], path[BTRFS_PATH_MAX];
	FILE *f;
	int fd;

	f = fopen(SCRATCH "/loopdev", "r");
	if (!f || !fgets(dev, sizeof(dev), f))
		dev[0] = '\0';
	if (f)
		fclose(f);
	dev[strcspn(dev, "\n")] = '\0';
	CHECK_INT(mount_fs(dev, "btrfs", SCRATCH "/top", false, detail), 0);
	CHECK_STR(detail, "btrfs rescue=nologreplay,subvolid=5");
	fd = open(SCRATCH "/top", O_PATH | O_DIRECTORY | O_CLOEXEC);
	CHECK_INT(btrfs_default_path(fd, path, sizeof(path)), 0);
	CHECK_STR(path, "@/.snapshots/1/snapshot");
	btrfs_pick_root(fd, "", path); /* the top level itself: @ has /boot */
	CHECK_STR(path, "@");
	close(fd);
	CHECK_INT(mount_release(SCRATCH "/top", false), 0);
	sh("losetup -d \"$(cat loopdev)\"; rm -f loopdev");
}

/* Every subvolume, in order of their ids; past FS_SUBVOL_MAX (300 more
 * made: searches over several 4 KiB answers), the later ones not. */
static void check_subvol_list(int fd)
{
	char *list = NULL;
	size_t n = 0;
	const char *p;

	CHECK_INT(btrfs_subvol_list(fd, &list, &n), 0);
	CHECK_INT(n, 3);
	p = list;
	CHECK_STR(p, "@");
	p += strlen(p) + 1;
	CHECK_STR(p, "@/.snapshots");
	p += strlen(p) + 1;
	CHECK_STR(p, "@/.snapshots/1/snapshot");
	free(list);
	CHECK_INT(sh("mkdir mnt/@/m && for i in $(seq 1 300); do "
		     "btrfs subvolume create mnt/@/m/$i || exit 1; done"),
		  0);
	CHECK_INT(btrfs_subvol_list(fd, &list, &n), 0);
	CHECK_INT(n, FS_SUBVOL_MAX);
	p = list;
	for (size_t i = 1; i < n; i++)
		p += strlen(p) + 1;
	CHECK_STR(p, "@/m/253"); /* 3 first, then 253 of the 300 */
	free(list);
}

TEST(test_btrfs_image)
{
	char path[BTRFS_PATH_MAX];
	int fd;

	if (!make_image())
		return;
	fd = open(SCRATCH "/mnt", O_PATH | O_DIRECTORY | O_CLOEXEC);
	CHECK(fd >= 0);
	/* fresh: the top level is the default, and "@" holds /boot */
	CHECK_INT(btrfs_default_path(fd, path, sizeof(path)), 0);
	CHECK_STR(path, "");
	btrfs_pick_root(fd, "", path);
	CHECK_STR(path, "@");
	CHECK_INT(sh("btrfs subvolume set-default mnt/@/.snapshots/1/snapshot"),
		  0);
	CHECK_INT(btrfs_default_path(fd, path, sizeof(path)), 0);
	CHECK_STR(path, "@/.snapshots/1/snapshot");
	btrfs_pick_root(fd, path, path);
	CHECK_STR(path, "@/.snapshots/1/snapshot");
	CHECK_INT(btrfs_subvol_path(fd, BTRFS_TOP_ID, path, sizeof(path)), 0);
	CHECK_STR(path, "");
	CHECK_INT(btrfs_default_path(fd, path, 8), -ENAMETOOLONG);
	check_subvol_list(fd);
	close(fd);
	fd = open(SCRATCH, O_PATH | O_DIRECTORY | O_CLOEXEC);
	CHECK(btrfs_default_path(fd, path, sizeof(path)) < 0); /* not btrfs */
	close(fd);
	sh("umount mnt");
	mount_top_level();
	sh("rm -f img");
}

TEST_MAIN("test_scan_btrfs", test_find_default, test_find_backref,
	  test_find_subvols, test_btrfs_image)
