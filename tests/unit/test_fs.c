/* test_fs.c - the fs door: confinement for both resolvers, caps, FIFOs,
 * listing, realpath, FAT case folding. Builds its own tree under /tmp. */
#include "cfg/resolve.h"
#include "cfg/cfg.h"
#include "entry/entry.h"
#include "scan/fs.h"
#include "util/arena.h"
#include "test.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static char top[64]; /* /tmp/bm_fs_XXXXXX, holds root/ and outside.txt */
static char root[96];

static void put(const char *rel, const char *text)
{
	char p[512];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	f = fopen(p, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void dir(const char *rel)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	mkdir(p, 0755);
}

static void link_(const char *target, const char *rel)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	if (symlink(target, p) < 0)
		perror(p);
}

static void build_tree(void)
{
	char p[512];

	snprintf(top, sizeof(top), "/tmp/bm_fs_XXXXXX");
	if (!mkdtemp(top))
		abort();
	snprintf(root, sizeof(root), "%s/root", top);
	mkdir(root, 0755);
	snprintf(p, sizeof(p), "%s/outside.txt", top);
	FILE *f = fopen(p, "w");
	fputs("OUTSIDE", f);
	fclose(f);
	dir("etc");
	dir("boot");
	dir("boot/grub");
	dir("EFI");
	dir("EFI/BOOT");
	put("etc/passwd", "inside");
	put("boot/vmlinuz-6.1", "kernel");
	put("boot/grub/grub.cfg", "cfg");
	put("EFI/BOOT/BOOTX64.EFI", "efi");
	link_("boot/vmlinuz-6.1", "vmlinuz");
	link_("/etc/passwd", "abs");
	link_("../../../../../../etc/passwd", "up");
	link_("../../..", "updir");
	link_("../outside.txt", "esc");
	link_(p, "esc_abs"); /* the outside file's real absolute path */
	link_("/", "slash");
	link_("/boot", "bootlink");
	link_("loop2", "loop1");
	link_("loop1", "loop2");
	link_("nowhere", "dangling");
	link_("/proc/self/root/etc/passwd", "magic");
	link_("/dev/null", "devnull");
	for (int i = 0; i < 45; i++) {
		char name[32], target[32];

		snprintf(name, sizeof(name), "chain%d", i);
		snprintf(target, sizeof(target), "chain%d", i + 1);
		link_(i == 44 ? "etc/passwd" : target, name);
	}
	link_("etc/passwd", "short9");
	for (int i = 0; i < 9; i++) {
		char name[32], target[32];

		snprintf(name, sizeof(name), "short%d", i);
		snprintf(target, sizeof(target), "short%d", i + 1);
		link_(target, name);
	}
	snprintf(p, sizeof(p), "%s/fifo", root);
	mkfifo(p, 0644);
	/* 30 nested directories d/d/.../f */
	snprintf(p, sizeof(p), "%s", root);
	for (int i = 0; i < 30; i++) {
		strcat(p, "/d");
		mkdir(p, 0755);
	}
	strcat(p, "/f");
	f = fopen(p, "w");
	fputs("deep", f);
	fclose(f);
}

static void remove_tree(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	if (system(cmd) != 0)
		printf("  could not remove %s\n", top);
}

static struct fs_root open_root(bool casefold)
{
	struct fs_root fs = {.root_fd = -1, .casefold = casefold};

	if (fs_root_open_dir(&fs, root) < 0)
		abort();
	return fs;
}

/* What @path reads as through @how: its text, or "E<errno name>". */
static const char *read_how(struct fs_root *fs, const char *path,
			    enum fs_resolver how)
{
	static char buf[64];
	int fd = fs_open_how(fs, path, O_RDONLY | O_NONBLOCK, how);
	ssize_t n;

	if (fd < 0) {
		snprintf(buf, sizeof(buf), "E%d", -fd);
		return buf;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		snprintf(buf, sizeof(buf), "read %d", errno);
	else
		buf[n] = '\0';
	return buf;
}

static char *err(int e)
{
	static char b[8][16];
	static int i;

	i = (i + 1) % 8;
	snprintf(b[i], sizeof(b[i]), "E%d", e);
	return b[i];
}

static void confinement_cases(enum fs_resolver how)
{
	struct fs_root fs = open_root(false);
	char longp[FS_PATH_MAX + 16], longname[300], deep[128] = "";

	CHECK_STR(read_how(&fs, "etc/passwd", how), "inside");
	CHECK_STR(read_how(&fs, "/etc/passwd", how), "inside");
	CHECK_STR(read_how(&fs, "//etc//./passwd", how), "inside");
	CHECK_STR(read_how(&fs, "vmlinuz", how), "kernel");
	CHECK_STR(read_how(&fs, "abs", how), "inside");
	CHECK_STR(read_how(&fs, "up", how), "inside");
	CHECK_STR(read_how(&fs, "updir/etc/passwd", how), "inside");
	CHECK_STR(read_how(&fs, "../../../../etc/passwd", how), "inside");
	CHECK_STR(read_how(&fs, "boot/grub/../../../../../etc/passwd", how),
		  "inside");
	CHECK_STR(read_how(&fs, "slash/slash/etc/passwd", how), "inside");
	CHECK_STR(read_how(&fs, "bootlink/grub/grub.cfg", how), "cfg");
	CHECK_STR(read_how(&fs, "bootlink/../etc/passwd", how), "inside");
	/* escapes land inside the root, where nothing is */
	CHECK_STR(read_how(&fs, "esc", how), err(ENOENT));
	CHECK_STR(read_how(&fs, "esc_abs", how), err(ENOENT));
	CHECK_STR(read_how(&fs, "../outside.txt", how), err(ENOENT));
	CHECK_STR(read_how(&fs, "devnull", how), err(ENOENT));
	/* a magic link path is only text inside the root */
	CHECK_STR(read_how(&fs, "magic", how), err(ENOENT));
	CHECK_STR(read_how(&fs, "loop1", how), err(ELOOP));
	CHECK_STR(read_how(&fs, "dangling", how), err(ENOENT));
	CHECK_STR(read_how(&fs, "chain0", how), err(ELOOP));
	CHECK_STR(read_how(&fs, "short0", how), "inside");
	CHECK_STR(read_how(&fs, "etc/passwd/x", how), err(ENOTDIR));
	/* the FIFO opens (O_NONBLOCK) and reads empty, never blocks */
	CHECK_STR(read_how(&fs, "fifo", how), "");
	for (int i = 0; i < 30; i++)
		strcat(deep, "d/");
	strcat(deep, "f");
	CHECK_STR(read_how(&fs, deep, how), "deep");
	memset(longp, 'a', sizeof(longp) - 1);
	longp[sizeof(longp) - 1] = '\0';
	CHECK_STR(read_how(&fs, longp, how), err(ENAMETOOLONG));
	memset(longname, 'b', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	CHECK_STR(read_how(&fs, longname, how), err(ENAMETOOLONG));
	fs_root_close(&fs);
}

/* The resolvers must not leak descriptors on any path through them. */
static int count_fds(void)
{
	int n = 0;

	for (int fd = 0; fd < 1024; fd++)
		n += fcntl(fd, F_GETFD) >= 0;
	return n;
}

TEST(test_confine_openat2)
{
	int before = count_fds();

	CHECK(fs_have_openat2());
	confinement_cases(FS_RESOLVE_OPENAT2);
	CHECK_INT(count_fds(), before);
}

TEST(test_confine_walk)
{
	int before = count_fds();

	confinement_cases(FS_RESOLVE_WALK);
	CHECK_INT(count_fds(), before);
}

TEST(test_read_file)
{
	struct fs_root fs = open_root(false);
	char *buf;
	size_t len;

	CHECK_INT(
	    fs_read_file(&fs, "/boot/grub/grub.cfg", FS_CONFIG_MAX, &buf, &len),
	    0);
	CHECK_STR(buf, "cfg");
	CHECK_INT(len, 3);
	free(buf);
	CHECK_INT(fs_read_file(&fs, "vmlinuz", 3, &buf, &len), -EFBIG);
	CHECK(buf == NULL);
	CHECK_INT(fs_read_file(&fs, "boot", FS_CONFIG_MAX, &buf, &len),
		  -EISDIR);
	CHECK_INT(fs_read_file(&fs, "fifo", FS_CONFIG_MAX, &buf, &len),
		  -EINVAL);
	CHECK_INT(fs_read_file(&fs, "esc", FS_CONFIG_MAX, &buf, &len), -ENOENT);
	CHECK_INT(fs_open(&fs, "etc/passwd", true), -ENOTDIR);
	CHECK_INT(fs_open(&fs, "fifo", false), -EINVAL);
	CHECK_INT(fs_open(&fs, NULL, false), -EINVAL);
	CHECK(fs_is_file(&fs, "abs"));
	CHECK(!fs_is_file(&fs, "boot"));
	CHECK(!fs_is_file(&fs, "fifo"));
	fs_root_close(&fs);
}

TEST(test_stat)
{
	struct fs_root fs = open_root(false);
	struct stat st;

	CHECK_INT(fs_stat(&fs, "fifo", &st), 0);
	CHECK(S_ISFIFO(st.st_mode));
	CHECK_INT(fs_stat(&fs, "bootlink", &st), 0);
	CHECK(S_ISDIR(st.st_mode));
	CHECK_INT(fs_stat(&fs, "vmlinuz", &st), 0);
	CHECK_INT(st.st_size, 6);
	CHECK_INT(fs_stat(&fs, "esc_abs", &st), -ENOENT);
	fs_root_close(&fs);
}

TEST(test_list)
{
	struct fs_root fs = open_root(false);
	struct arena a = ARENA_INIT;
	char **names;
	size_t n;

	CHECK_INT(fs_list(&fs, "bootlink", &a, &names, &n), 0);
	CHECK_INT(n, 2);
	if (n == 2) {
		CHECK_STR(names[0], "grub");
		CHECK_STR(names[1], "vmlinuz-6.1");
	}
	CHECK_INT(fs_list(&fs, "vmlinuz", &a, &names, &n), -ENOTDIR);
	CHECK_INT(fs_list(&fs, "updir/..", &a, &names, &n), 0);
	CHECK(n > 40);
	arena_free(&a);
	fs_root_close(&fs);
}

TEST(test_realpath)
{
	struct fs_root fs = open_root(false);
	struct arena a = ARENA_INIT;
	char *p = NULL;

	CHECK_INT(fs_realpath(&fs, "/vmlinuz", &a, &p), 0);
	CHECK_STR(p, "/boot/vmlinuz-6.1");
	CHECK_INT(fs_realpath(&fs, "up", &a, &p), 0);
	CHECK_STR(p, "/etc/passwd");
	CHECK_INT(fs_realpath(&fs, "bootlink/grub/../grub", &a, &p), 0);
	CHECK_STR(p, "/boot/grub");
	CHECK_INT(fs_realpath(&fs, "updir", &a, &p), 0);
	CHECK_STR(p, "/");
	CHECK_INT(fs_realpath(&fs, "/", &a, &p), 0);
	CHECK_STR(p, "/");
	CHECK_INT(fs_realpath(&fs, "esc", &a, &p), -ENOENT);
	arena_free(&a);
	fs_root_close(&fs);
}

TEST(test_casefold)
{
	struct fs_root exact = open_root(false), fat = open_root(true);
	struct arena a = ARENA_INIT;
	char *p = NULL;

	CHECK_STR(read_how(&exact, "efi/boot/bootx64.efi", FS_RESOLVE_OPENAT2),
		  err(ENOENT));
	CHECK_STR(read_how(&exact, "efi/boot/bootx64.efi", FS_RESOLVE_WALK),
		  err(ENOENT));
	CHECK_STR(read_how(&fat, "efi/boot/bootx64.efi", FS_RESOLVE_OPENAT2),
		  "efi");
	CHECK_STR(read_how(&fat, "efi/boot/bootx64.efi", FS_RESOLVE_WALK),
		  "efi");
	CHECK_STR(read_how(&fat, "/Etc/PASSWD", FS_RESOLVE_AUTO), "inside");
	CHECK_STR(read_how(&fat, "../ESC", FS_RESOLVE_WALK), err(ENOENT));
	CHECK_INT(fs_realpath(&fat, "efi/Boot/bootX64.efi", &a, &p), 0);
	CHECK_STR(p, "/EFI/BOOT/BOOTX64.EFI");
	arena_free(&a);
	fs_root_close(&exact);
	fs_root_close(&fat);
}

/* --- the backend seam: an in-memory tree, as a network root would be */

static const struct {
	const char *path, *text;
} mem_files[] = {
    {"/boot/grub/grub.cfg",
     "set default=1\nmenuentry 'Mem one' {\n  linux /boot/vmlinuz-1\n}\n"
     "menuentry 'Mem two' {\n  linux /boot/vmlinuz-2 quiet\n"
     "  initrd /boot/initrd-2\n}\n"},
    {"/boot/vmlinuz-1", "k1"},
    {"/boot/vmlinuz-2", "k2"},
    {"/boot/initrd-2", "i2"},
};

static int mem_find(const char *path)
{
	for (size_t i = 0; i < sizeof(mem_files) / sizeof(mem_files[0]); i++)
		if (!strcmp(mem_files[i].path, path))
			return (int)i;
	return -ENOENT;
}

/* Each file opened is a new memfd holding its bytes. */
static int mem_open(const struct fs_root *fs, const char *path, bool want_dir)
{
	int i = mem_find(path), fd;
	size_t n;

	if (i < 0 || want_dir)
		return i < 0 ? i : -ENOTDIR;
	fd = memfd_create("bm-test", MFD_CLOEXEC);
	n = strlen(mem_files[i].text);
	if (fd < 0 || write(fd, mem_files[i].text, n) != (ssize_t)n)
		return -EIO;
	lseek(fd, 0, SEEK_SET);
	return fd;
}

static int mem_stat(const struct fs_root *fs, const char *path, struct stat *st)
{
	int i = mem_find(path);

	if (i < 0)
		return i;
	memset(st, 0, sizeof(*st));
	st->st_mode = S_IFREG | 0444;
	st->st_size = (off_t)strlen(mem_files[i].text);
	return 0;
}

static const struct fs_ops mem_ops = {.open = mem_open, .stat = mem_stat};

TEST(test_backend_seam)
{
	struct fs_root fs = {.ops = &mem_ops, .name = "mem", .root_fd = -1};
	const struct fs_root *all[] = {&fs};
	struct arena a = ARENA_INIT;
	struct entry_list l;
	struct cfg_ctx ctx = {
	    .a = &a, .fs = &fs, .out = &l, .all = all, .n_all = 1};
	char *buf, **names;
	size_t len, n;
	struct entry *e;

	CHECK_INT(fs_read_file(&fs, "/boot/vmlinuz-2", 16, &buf, &len), 0);
	CHECK_STR(buf, "k2");
	free(buf);
	CHECK_INT(fs_read_file(&fs, "/boot/grub/grub.cfg", 8, &buf, &len),
		  -EFBIG);
	CHECK_INT(fs_read_file(&fs, "/nope", 8, &buf, &len), -ENOENT);
	CHECK(fs_is_file(&fs, "/boot/initrd-2"));
	CHECK_INT(fs_list(&fs, "/boot", &a, &names, &n), -EOPNOTSUPP);
	/* the grub parser reads it like any mounted filesystem */
	entry_list_init(&l, &a);
	cfg_scan_fs(&ctx);
	cfg_finish(&l, all, 1);
	CHECK_INT(l.count, 2);
	e = l.head ? l.head->next : NULL;
	CHECK_STR(e ? e->title : NULL, "Mem two");
	CHECK(e && e->is_default);
	CHECK_STR(e ? e->cmdline : NULL, "BOOT_IMAGE=/boot/vmlinuz-2 quiet");
	CHECK(e && e->n_initrds == 1 && e->initrds[0].fs == &fs);
	arena_free(&a);
}

/* The subvolume a path is in: the longest that ends where one of the
 * path's components ends, whatever the order of the list. */
TEST(test_subvol_prefix)
{
	static const char *const sv[] = {"@", "@/.snap", "@/.snapshots",
					 "@/.snapshots/12/snapshot", "@home"};
	static const char *const rev[] = {"@/.snapshots/12/snapshot", "@"};

	CHECK_INT(fs_subvol_prefix(sv, 5, "@/.snapshots/12/snapshot/boot/k"),
		  24); /* nested: the longest */
	CHECK_INT(fs_subvol_prefix(rev, 2, "@/.snapshots/12/snapshot/boot/k"),
		  24);
	CHECK_INT(fs_subvol_prefix(sv, 5, "@/.snapshots/3/snapshot/boot/k"),
		  12); /* not listed: the one above it */
	CHECK_INT(fs_subvol_prefix(sv, 2, "@/.snapshots/3/snapshot/boot/k"),
		  1); /* "@/.snap" stops inside ".snapshots" */
	CHECK_INT(fs_subvol_prefix(sv, 5, "@/.snapshots/12/snapshotx/k"), 12);
	CHECK_INT(fs_subvol_prefix(sv, 5, "@/.snap"), 7); /* its own root */
	CHECK_INT(fs_subvol_prefix(sv, 5, "@homework/k"), 0);
	CHECK_INT(fs_subvol_prefix(sv, 5, "@home/user"), 5);
	CHECK_INT(fs_subvol_prefix(sv, 5, "boot/vmlinuz"), 0); /* top level */
	CHECK_INT(fs_subvol_prefix(sv, 5, ""), 0);
	CHECK_INT(fs_subvol_prefix(sv, 0, "@/boot/k"), 0);
}

/* fs_subvol(): the path from the top level through either view, "//"
 * and "." taken out; ".." and a path past the buffer are not named. */
TEST(test_subvol)
{
	static const char *const sv[] = {"/@/"};
	struct fs_root home = {.root_fd = -1, .name = "b"}, plain = {0};
	struct arena a = {0};
	char p[256], buf[64];
	size_t sub = 9;
	int tfd;

	dir("bt");
	dir("bt/@");
	snprintf(p, sizeof(p), "%s/bt/@", root);
	CHECK_INT(fs_root_open_dir(&home, p), 0);
	snprintf(p, sizeof(p), "%s/bt", root);
	tfd = open(p, O_PATH | O_DIRECTORY | O_CLOEXEC);
	CHECK_INT(fs_root_add_btrfs(&home, &a, tfd, "@",
				    "@/.snapshots/1/snapshot", sv, 1),
		  0);
	CHECK_INT(home.btrfs->n_subvols, 2); /* the default, then "@" */
	CHECK_STR(home.btrfs->subvols[0], "@/.snapshots/1/snapshot");
	CHECK_STR(home.btrfs->subvols[1], "@");
	CHECK_INT(fs_subvol(&home, "/boot//./vmlinuz", buf, sizeof(buf), &sub),
		  0);
	CHECK_STR(buf, "@/boot/vmlinuz");
	CHECK_INT(sub, 1);
	CHECK_INT(fs_subvol(home.btrfs->top, "/@/.snapshots/1/snapshot/boot/k",
			    buf, sizeof(buf), &sub),
		  0);
	CHECK_STR(buf, "@/.snapshots/1/snapshot/boot/k");
	CHECK_INT(sub, 23);
	CHECK_INT(fs_subvol(home.btrfs->top, "/boot/k", buf, sizeof(buf), &sub),
		  0);
	CHECK_STR(buf, "boot/k");
	CHECK_INT(sub, 0); /* a top-level file */
	CHECK_INT(fs_subvol(&home, "/boot/../k", buf, sizeof(buf), &sub),
		  -EINVAL);
	CHECK_INT(fs_subvol(&home, "/boot/vmlinuz-6.9.1-1", buf, 16, &sub),
		  -ENAMETOOLONG);
	CHECK_INT(fs_subvol(&plain, "/boot/k", buf, sizeof(buf), &sub),
		  -EINVAL); /* not btrfs */
	CHECK_INT(sub, 0);
	fs_root_close(&home);
	arena_free(&a);
}

TEST(test_setup)
{
	build_tree();
	CHECK(root[0] != '\0');
}

TEST(test_teardown)
{
	remove_tree();
}

TEST_MAIN("test_fs", test_setup, test_confine_openat2, test_confine_walk,
	  test_read_file, test_stat, test_list, test_realpath, test_casefold,
	  test_backend_seam, test_subvol_prefix, test_subvol, test_teardown)
