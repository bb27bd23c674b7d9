/* test_boot.c - boot_load_entry(): files through the fs door, fetched as
 * each is opened, progress, refusals as sentences, a UKI's sections, and
 * the --dry-run plan; boot_jump() refusing an object with no load in it.
 * Loads nothing: every case is a dry run or fails before the commit (the
 * whole transaction, boot_run(), is tested with firmware entries in
 * test_efi_boot.c). */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "boot/boot.h"
#include "kexec_double.h"
#include "entry/entry.h"
#include "scan/fs.h"
#include "test.h"
#include "util/le.h"

#define KDIR "build/kernel"
#define FIXDIR "tests/fixtures/memmap"

static bool can_plan_here(void)
{
	if (access("/sys/firmware/memmap/0/start", R_OK) == 0)
		return true;
	test_skip("no /sys/firmware/memmap on this host: the dry run is not "
		  "tried");
	return false;
}

static unsigned long long prog_done, prog_total;
static int prog_calls;

static void progress(void *data, unsigned long long done,
		     unsigned long long total)
{
	CHECK(data == &prog_calls);
	CHECK(done >= prog_done && done <= total);
	prog_done = done;
	prog_total = total;
	prog_calls++;
}

static int run(const struct entry *e, char *out, size_t outlen, char *err,
	       size_t errlen)
{
	FILE *f = fmemopen(out, outlen, "w");
	struct boot_opts o = {.dry_run = true,
			      .plan_out = f,
			      .progress = progress,
			      .progress_data = &prog_calls};
	struct boot_loaded l;
	int rc;

	prog_done = prog_total = 0;
	prog_calls = 0;
	err[0] = '\0';
	rc = boot_load_entry(e, &o, &l, err, errlen);
	fclose(f);
	CHECK(!l.ready && !l.syscall); /* a dry run loads nothing */
	return rc;
}

TEST(dry_run_reads_through_fs)
{
	struct fs_root kfs = {.name = "kernel-dir"}, ifs = {.name = "fixtures"};
	struct entry_file initrds[2] = {{NULL, "/tiny.iomem", &ifs},
					{NULL, "holes.iomem", &ifs}};
	struct entry e = {.id = "t",
			  .title = "Test",
			  .format = FMT_BARE,
			  .kernel = {NULL, "/bzImage", &kfs},
			  .initrds = initrds,
			  .n_initrds = 2,
			  .cmdline = "root=/dev/vda quiet"};
	static char out[16384];
	char err[256];
	size_t klen;

	if (access(KDIR "/bzImage", R_OK)) {
		test_skip(KDIR "/bzImage absent (run make)");
		return;
	}
	if (!can_plan_here())
		return;
	CHECK_INT(fs_root_open_dir(&kfs, KDIR), 0);
	CHECK_INT(fs_root_open_dir(&ifs, FIXDIR), 0);
	free(test_slurp(KDIR "/bzImage", &klen));
	CHECK_INT(run(&e, out, sizeof(out), err, sizeof(err)), 0);
	CHECK_STR(err, "");
	CHECK(strstr(out, "entry:    Test (bare)\n") != NULL);
	CHECK(strstr(out, "kernel:   /bzImage on kernel-dir") != NULL);
	CHECK(strstr(out, "initrd 1: holes.iomem on fixtures\n") != NULL);
	CHECK(strstr(out, "cmdline:  \"root=/dev/vda quiet\"") != NULL);
	CHECK(strstr(out, "syscall:  kexec_load") != NULL);
	CHECK(strstr(out, "  kernel (") != NULL);
	CHECK(strstr(out, "  initrd (") != NULL);
	CHECK(prog_calls >= 3);
	CHECK_INT(prog_done, prog_total);
	CHECK(prog_total > klen); /* kernel + both initrds, padded */
	fs_root_close(&kfs);
	fs_root_close(&ifs);
}

TEST(refusals_are_sentences)
{
	struct fs_root ifs = {.name = "fixtures"};
	struct entry e = {.id = "t",
			  .title = "T",
			  .format = FMT_BARE,
			  .kernel = {"UUID=1234", "/vmlinuz", NULL},
			  .cmdline = ""};
	struct entry_file initrd = {NULL, "/nope.img", &ifs};
	static char out[4096];
	char err[256];

	CHECK_INT(run(&e, out, sizeof(out), err, sizeof(err)), -ENOENT);
	CHECK_STR(err, "the kernel /vmlinuz is on a filesystem that was not "
		       "found (UUID=1234)");
	CHECK_INT(fs_root_open_dir(&ifs, FIXDIR), 0);
	e.kernel = (struct entry_file){NULL, "/holes.iomem", &ifs};
	e.initrds = &initrd;
	e.n_initrds = 1;
	CHECK_INT(run(&e, out, sizeof(out), err, sizeof(err)), -ENOENT);
	CHECK_STR(err, "cannot open the initrd /nope.img on fixtures: No such "
		       "file or directory");
	e.n_initrds = 0;
	if (can_plan_here()) {
		CHECK_INT(run(&e, out, sizeof(out), err, sizeof(err)),
			  -ENOEXEC);
		CHECK(strstr(err, "not a bzImage") != NULL);
	}
	e.format = FMT_UKI;
	CHECK_INT(run(&e, out, sizeof(out), err, sizeof(err)), -ENOEXEC);
	CHECK_STR(err, "the UKI /holes.iomem has no usable .linux section");
	fs_root_close(&ifs);
}

/* Under lockdown (the kexec double's lockdown file) a kernel that is not
 * a PE image is refused before any syscall, the dialog naming the file
 * and what kexec_file_load takes; kexec_load is never called. */
static int locked_loads;

static int locked_load(uint64_t entry, unsigned long nr,
		       const struct kexec_sys_segment *segs,
		       unsigned long flags)
{
	locked_loads++;
	return 0;
}

static int locked_file(int kfd, int ifd, unsigned long len, const char *cmdline,
		       unsigned long flags)
{
	locked_loads++;
	return -ENOEXEC;
}

TEST(locked_down_names_the_file)
{
	static const struct kexec_sys_ops locked = {
	    .load = locked_load,
	    .file_load = locked_file,
	    .lockdown_path = "tests/fixtures/memmap/lockdown-integrity"};
	struct fs_root ifs = {.name = "fixtures"};
	struct entry e = {.id = "t",
			  .title = "T",
			  .format = FMT_BARE,
			  .kernel = {NULL, "/holes.iomem", &ifs},
			  .cmdline = ""};
	struct boot_opts o = {0};
	struct boot_loaded l;
	char err[512];

	CHECK_INT(fs_root_open_dir(&ifs, FIXDIR), 0);
	kexec_sys_set_ops(&locked);
	locked_loads = 0;
	CHECK_INT(boot_load_entry(&e, &o, &l, err, sizeof(err)), -ENOEXEC);
	kexec_sys_set_ops(NULL);
	CHECK_INT(locked_loads, 0);
	CHECK(!l.ready);
	CHECK_STR(err, "the kernel /holes.iomem cannot boot: the kernel is "
		       "locked down (Secure Boot): only a bzImage with a PE "
		       "signature boots, and this image is not a PE file");
	fs_root_close(&ifs);
}

/* --- a network root: every fetch and open written down */

static char net_log[256];
static int net_cancel_at; /* the fetch callback's call that says stop */

static void net_note(const char *what, const char *path)
{
	size_t n = strlen(net_log);

	snprintf(net_log + n, sizeof(net_log) - n, "%s %s|", what, path);
}

static int net_prefetch(const struct fs_root *fs, const char *path,
			const struct fs_progress *cb)
{
	net_note("fetch", path);
	if (cb && cb->fn && cb->fn(cb->data, path, 1, 2))
		return -ECANCELED;
	return 0;
}

static int net_open(const struct fs_root *fs, const char *path, bool dir)
{
	net_note("open", path);
	return strcmp(path, "/vmlinuz") ? -ENOENT : open("/dev/null", O_RDONLY);
}

static int net_fetching(void *data, const char *path, unsigned long long done,
			unsigned long long total)
{
	int *calls = data;

	return ++*calls == net_cancel_at;
}

/* Each file is fetched just before it is opened, its progress going to
 * o->fetch; a nonzero answer stops the load there, said so. */
TEST(network_files_fetched_as_opened)
{
	static const struct fs_ops ops = {.open = net_open,
					  .prefetch = net_prefetch};
	struct fs_root net = {.name = "tftp", .ops = &ops, .root_fd = -1};
	struct entry_file initrds[2] = {{NULL, "/initrd.img", &net},
					{NULL, "/more.img", &net}};
	struct entry e = {.id = "n",
			  .title = "Net",
			  .format = FMT_BARE,
			  .kernel = {NULL, "/vmlinuz", &net},
			  .initrds = initrds,
			  .n_initrds = 2,
			  .cmdline = ""};
	int calls = 0;
	struct boot_opts o = {
	    .dry_run = true, .fetch = net_fetching, .progress_data = &calls};
	struct boot_loaded l;
	char err[256];

	net_log[0] = '\0';
	net_cancel_at = 0;
	CHECK_INT(boot_load_entry(&e, &o, &l, err, sizeof(err)), -ENOENT);
	CHECK_STR(net_log, "fetch /vmlinuz|open /vmlinuz|fetch /initrd.img|"
			   "open /initrd.img|");
	CHECK_STR(err, "cannot open the initrd /initrd.img on tftp: No such "
		       "file or directory");
	CHECK_INT(calls, 2);
	net_log[0] = '\0';
	net_cancel_at = 2; /* Esc while the initrd comes */
	calls = 0;
	CHECK_INT(boot_load_entry(&e, &o, &l, err, sizeof(err)), -ECANCELED);
	CHECK_STR(net_log, "fetch /vmlinuz|open /vmlinuz|fetch /initrd.img|");
	CHECK_STR(err, "cancelled while fetching /initrd.img");
	CHECK(!l.ready);
}

/* boot_jump() consumes a load: with none in the object it refuses before
 * anything is synced, unmounted or rebooted. */
TEST(jump_needs_a_load)
{
	struct boot_loaded l = {0};

	CHECK_INT(boot_jump(&l, NULL), -EINVAL);
	CHECK(!l.ready);
}

/* A minimal PE with .linux, .initrd and .cmdline sections. */
static size_t make_uki(uint8_t *buf, size_t cap, const char *kernel,
		       size_t klen)
{
	static const char initrd[] = "UKI-INITRD";
	static const char cmdline[] = "uki.cmdline=1\n";
	const struct {
		const char *name;
		const void *data;
		size_t len;
	} s[3] = {
	    {".linux", kernel, klen},
	    {".initrd", initrd, sizeof(initrd) - 1},
	    {".cmdline", cmdline, sizeof(cmdline)},
	};
	size_t off = 0x200;

	memset(buf, 0, 0x200);
	put_le16(buf, cap, 0, 0x5a4d);
	put_le32(buf, cap, 0x3c, 0x40);
	memcpy(buf + 0x40, "PE\0\0", 4);
	put_le16(buf, cap, 0x44, 0x8664);
	put_le16(buf, cap, 0x46, 3);
	put_le16(buf, cap, 0x54, 0); /* no optional header */
	for (int i = 0; i < 3; i++) {
		size_t h = 0x58 + 40 * (size_t)i;

		memcpy(buf + h, s[i].name, strlen(s[i].name));
		put_le32(buf, cap, h + 8, (uint32_t)s[i].len);
		put_le32(buf, cap, h + 12, (uint32_t)off);
		put_le32(buf, cap, h + 16, (uint32_t)s[i].len);
		put_le32(buf, cap, h + 20, (uint32_t)off);
		memcpy(buf + off, s[i].data, s[i].len);
		off = (off + s[i].len + 511) & ~(size_t)511;
	}
	return off;
}

TEST(uki_sections)
{
	char dir[] = "/tmp/test_boot.XXXXXX", path[64], err[256];
	struct fs_root fs = {.name = "esp"};
	struct entry e = {.id = "u",
			  .title = "UKI",
			  .format = FMT_UKI,
			  .kernel = {NULL, "/EFI/Linux/t.efi", &fs},
			  .cmdline = ""};
	static char out[16384];
	size_t klen, len;
	char *k = test_slurp(KDIR "/bzImage", &klen);
	uint8_t *pe;
	FILE *f;

	if (!k || !can_plan_here()) {
		free(k);
		return;
	}
	pe = malloc(klen + 4096);
	len = make_uki(pe, klen + 4096, k, klen);
	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/EFI", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/EFI/Linux", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/EFI/Linux/t.efi", dir);
	f = fopen(path, "wb");
	CHECK(f && fwrite(pe, 1, len, f) == len);
	fclose(f);
	CHECK_INT(fs_root_open_dir(&fs, dir), 0);
	CHECK_INT(run(&e, out, sizeof(out), err, sizeof(err)), 0);
	CHECK_STR(err, "");
	CHECK(strstr(out, "the UKI's .linux") != NULL);
	CHECK(strstr(out, "cmdline:  \"uki.cmdline=1\"") != NULL);
	CHECK(strstr(out, "initrd:   10 bytes at") != NULL);
	e.cmdline = "from.entry=1"; /* the entry's command line wins */
	CHECK_INT(run(&e, out, sizeof(out), err, sizeof(err)), 0);
	CHECK(strstr(out, "cmdline:  \"from.entry=1\"") != NULL);
	fs_root_close(&fs);
	unlink(path);
	snprintf(path, sizeof(path), "%s/EFI/Linux", dir);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/EFI", dir);
	rmdir(path);
	rmdir(dir);
	free(pe);
	free(k);
}

TEST_MAIN("test_boot", dry_run_reads_through_fs, refusals_are_sentences,
	  locked_down_names_the_file, network_files_fetched_as_opened,
	  jump_needs_a_load, uki_sections)
