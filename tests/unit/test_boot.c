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
#include "boot/hand_on.h"
#include "boot/transaction.h"
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

/* --- the hand-on step (boot/hand_on.h) inside the load: called before
 * the measuring step, its words on the line measured and passed, its
 * archive after the event log */

static int step_seq, hand_on_at, measure_at;
static char measured_line[512];

static int fake_measure(void *ctx, const struct boot_read *r,
			struct kexec_blob *extra, char *err, size_t len)
{
	measure_at = ++step_seq;
	snprintf(measured_line, sizeof(measured_line), "%s", r->cmdline);
	*extra = (struct kexec_blob){"EVENTLOG", 8};
	return 0;
}

static int fake_hand_on(void *ctx, const struct entry *e, FILE *dry,
			struct kexec_blob *archive, char *add, size_t cap,
			char *err, size_t len)
{
	hand_on_at = ++step_seq;
	*archive = (struct kexec_blob){"KEYBYTES-1", 10};
	snprintf(add, cap, "cryptopts=target=x");
	if (dry)
		fprintf(dry, "hand on:  fake\n");
	return 0;
}

static char loaded_initrd[4096], loaded_line[512];
static size_t loaded_len;
static int kept_ifd = -1; /* the initrd's memfd, kept to read it after */

static int rec_file_load(int kfd, int ifd, unsigned long len,
			 const char *cmdline, unsigned long flags)
{
	ssize_t n =
	    ifd < 0 ? 0 : pread(ifd, loaded_initrd, sizeof(loaded_initrd), 0);

	loaded_len = n < 0 ? 0 : (size_t)n;
	kept_ifd = ifd < 0 ? -1 : dup(ifd);
	snprintf(loaded_line, sizeof(loaded_line), "%s", cmdline);
	return 0;
}

TEST(hand_on_in_the_load)
{
	static const struct kexec_sys_ops rec = {
	    .file_load = rec_file_load,
	    .lockdown_path = "tests/fixtures/memmap/lockdown-none"};
	struct fs_root kfs = {.name = "kernel-dir"}, ifs = {.name = "fixtures"};
	struct entry_file initrd = {NULL, "/holes.iomem", &ifs};
	struct entry e = {.id = "t",
			  .title = "Test",
			  .format = FMT_BARE,
			  .kernel = {NULL, "/bzImage", &kfs},
			  .initrds = &initrd,
			  .n_initrds = 1,
			  .cmdline = "root=/dev/vda quiet"};
	static char out[16384];
	char err[256] = "", want[4096];
	struct boot_opts o = {.measure = fake_measure,
			      .hand_on = fake_hand_on,
			      .file_syscall = true};
	struct boot_loaded l;
	size_t ilen, k;
	char *ibytes = test_slurp(FIXDIR "/holes.iomem", &ilen);
	FILE *f;

	if (access(KDIR "/bzImage", R_OK) || !ibytes || ilen > 2048) {
		free(ibytes);
		test_skip(KDIR "/bzImage absent (run make)");
		return;
	}
	CHECK_INT(fs_root_open_dir(&kfs, KDIR), 0);
	CHECK_INT(fs_root_open_dir(&ifs, FIXDIR), 0);
	/* a real load, the kexec_file_load syscall written down */
	kexec_sys_set_ops(&rec);
	step_seq = 0;
	CHECK_INT(boot_load_entry(&e, &o, &l, err, sizeof(err)), 0);
	kexec_sys_set_ops(NULL);
	CHECK_STR(err, "");
	CHECK(l.ready);
	CHECK_INT(hand_on_at, 1);
	CHECK_INT(measure_at, 2);
	CHECK_STR(measured_line, "root=/dev/vda quiet cryptopts=target=x");
	CHECK_STR(loaded_line, "root=/dev/vda quiet cryptopts=target=x");
	/* the initrd, the event log, then the keys: each at 4 bytes */
	memset(want, 0, sizeof(want));
	memcpy(want, ibytes, ilen);
	k = (ilen + 3) & ~(size_t)3;
	memcpy(want + k, "EVENTLOG", 8);
	memcpy(want + k + 8, "KEYBYTES-1", 10);
	CHECK_INT(loaded_len, k + 18);
	CHECK(loaded_len == k + 18 && !memcmp(loaded_initrd, want, k + 18));
	/* once the syscall has its copy, the memfd's key bytes are zeros
	 * (its pages go back to the kernel unwiped) and the rest is kept */
	CHECK(kept_ifd >= 0);
	if (kept_ifd >= 0) {
		char after[4096] = "";

		CHECK_INT(pread(kept_ifd, after, sizeof(after), 0),
			  (long)(k + 18));
		CHECK(!memcmp(after, want, k + 8));
		memset(want + k + 8, 0, 10);
		CHECK(!memcmp(after + k + 8, want + k + 8, 10));
		close(kept_ifd);
		kept_ifd = -1;
	}
	/* a dry run prints the step's lines, and the line with its words */
	if (can_plan_here()) {
		f = fmemopen(out, sizeof(out), "w");
		o.dry_run = true;
		o.file_syscall = false;
		o.plan_out = f;
		CHECK_INT(boot_load_entry(&e, &o, &l, err, sizeof(err)), 0);
		fclose(f);
		CHECK(strstr(out, "hand on:  fake\n") != NULL);
		CHECK(strstr(out, "cmdline:  \"root=/dev/vda quiet "
				  "cryptopts=target=x\"") != NULL);
	}
	free(ibytes);
	fs_root_close(&kfs);
	fs_root_close(&ifs);
}

static size_t run_keys_of(void *session, const char *fs_name,
			  struct boot_key *out, size_t max)
{
	CHECK(session == &step_seq);
	if (strcmp(fs_name, "luks-0d9f6a2c") || !max)
		return 0;
	snprintf(out[0].volume, sizeof(out[0].volume), "%s", fs_name);
	out[0].key = "correct horse";
	out[0].len = 13;
	return 1;
}

/* boot_run() wires the step when luks_pass_key and the session's keys
 * are given, and not otherwise; the plan never shows the key. */
TEST(boot_run_wires_hand_on)
{
	struct fs_root kfs = {.name = "luks-0d9f6a2c"};
	struct entry e = {.id = "t",
			  .title = "Test",
			  .format = FMT_BARE,
			  .method = ENTRY_KEXEC,
			  .fs = &kfs,
			  .kernel = {NULL, "/bzImage", &kfs},
			  .cmdline = "root=/dev/vda"};
	static char out[16384];
	char err[256] = "";
	struct boot_opts o = {.dry_run = true,
			      .session = &step_seq,
			      .keys_of = run_keys_of,
			      .tpm = BOOT_MEASURE_OFF};
	FILE *f;

	if (access(KDIR "/bzImage", R_OK) || !can_plan_here()) {
		test_skip(KDIR "/bzImage or the memory map absent");
		return;
	}
	CHECK_INT(fs_root_open_dir(&kfs, KDIR), 0);
	for (int on = 0; on < 2; on++) {
		o.pass_key = on ? "Te*" : "";
		f = fmemopen(out, sizeof(out), "w");
		o.plan_out = f;
		CHECK_INT(boot_run(&e, &o, NULL, err, sizeof(err)), 0);
		fclose(f);
		CHECK_STR(err, "");
		CHECK(!strstr(out, "correct horse"));
		if (on)
			CHECK(strstr(out, "hand on:  the key of luks-0d9f6a2c "
					  "as /etc/cryptsetup-keys.d/"
					  "luks-0d9f6a2c.key (not in "
					  "crypttab)\n") != NULL);
		else
			CHECK(!strstr(out, "hand on:"));
		CHECK(strstr(out, "initrd:   ") != NULL || !on);
	}
	fs_root_close(&kfs);
}

TEST_MAIN("test_boot", dry_run_reads_through_fs, refusals_are_sentences,
	  locked_down_names_the_file, network_files_fetched_as_opened,
	  jump_needs_a_load, uki_sections, hand_on_in_the_load,
	  boot_run_wires_hand_on)
