/* test_install.c - the installer (bootmenu/install/) on a scratch tree:
 * an ESP directory, a directory playing /sys/firmware/efi with its
 * efivars, and the images. Each mode's files and variables; --print and
 * every refusal leave the whole tree byte-identical; --uninstall puts it
 * back byte for byte. Never this machine's ESP or variables. */
#include "efi/devpath.h"
#include "efi/efivar.h"
#include "efi/guid.h"
#include "efi/loadopt.h"
#include "install/install.h"
#include "test.h"
#include "util/arena.h"
#include "format/inflate.h"
#include "util/le.h"

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define PARTUUID "0e7a8d5c-3b51-4c0e-9f2a-6d1b8e4f7a21"
#define SIGNED "tests/fixtures/pe_sig/snakeoil.efi"
#define SB_NAME "SecureBoot"
#define OLD_LOADER "MZ the loader that was there"

struct scratch {
	char root[64];
	char esp[128], efi[128], vars[160], img[128];
	const char *dirs[2];
	struct efi_vars v;
	struct install_part part;
	struct install_opts o;
	char *printed; /* the list of changes */
	size_t printed_len;
	char err[1024];
};

static void put_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(data, 1, len, f) != len)
		abort();
	fclose(f);
}

static void put_fmt(struct scratch *s, const char *rel, const char *text)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", s->root, rel);
	put_file(path, text, strlen(text));
}

/* The signed fixture with its certificate table entry cleared: the same
 * PE image, unsigned (the PE32+ data directory 4 sits at 0xe8 here). */
static void put_images(struct scratch *s)
{
	char path[PATH_MAX];
	size_t len;
	char *pe = test_slurp(SIGNED, &len);

	if (!pe || len < 1024)
		abort();
	snprintf(path, sizeof(path), "%s/bootmenu.signed.efi", s->img);
	put_file(path, pe, len);
	put_le32(pe, len, 0xe8, 0);
	put_le32(pe, len, 0xec, 0);
	snprintf(path, sizeof(path), "%s/bootmenu.efi", s->img);
	put_file(path, pe, 1024);
	free(pe);
}

static void put_var(struct scratch *s, const char *name, const uint8_t *data,
		    size_t len)
{
	char path[PATH_MAX];
	uint8_t buf[1024];

	put_le32(buf, sizeof(buf), 0, EFI_VARIABLE_NV_BS_RT);
	memcpy(buf + 4, data, len);
	snprintf(path, sizeof(path), "%s/%s-%s", s->vars, name,
		 EFI_GLOBAL_GUID);
	put_file(path, buf, len + 4);
}

/* Boot@num for @file on the scratch ESP's partition. */
static void put_option(struct scratch *s, uint16_t num, const char *desc,
		       const char *file)
{
	uint8_t dp[512], opt[1024];
	char name[EFI_BOOT_NAME_LEN];
	struct efi_hd hd;
	ssize_t n;

	CHECK_INT(efi_hd_gpt(&hd, 1, 2048, 100000, PARTUUID), 0);
	n = efi_dp_encode_hd_file(&hd, file, dp, sizeof(dp));
	n = efi_loadopt_encode(EFI_LOAD_OPTION_ACTIVE, desc, dp, (size_t)n,
			       NULL, 0, opt, sizeof(opt));
	CHECK(n > 0);
	efi_boot_name(num, name);
	put_var(s, name, opt, (size_t)n);
}

static void put_order(struct scratch *s, const uint16_t *nums, size_t n)
{
	uint8_t buf[64];

	efi_boot_order_encode(nums, n, buf, sizeof(buf));
	put_var(s, "BootOrder", buf, 2 * n);
}

static void mkdirs(const char *path)
{
	char buf[PATH_MAX];

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *p = buf + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(buf, 0755);
			*p = '/';
		}
	mkdir(buf, 0755);
}

/* The tree: esp/EFI/BOOT/BOOTX64.EFI (another loader), the firmware with
 * Boot0000 and BootOrder 0000, the two images. */
static void scratch_make(struct scratch *s)
{
	static const uint16_t order[] = {0};
	char path[PATH_MAX];

	memset(s, 0, sizeof(*s));
	snprintf(s->root, sizeof(s->root), "/tmp/test_install.XXXXXX");
	if (!mkdtemp(s->root))
		abort();
	snprintf(s->esp, sizeof(s->esp), "%s/esp", s->root);
	snprintf(s->efi, sizeof(s->efi), "%s/efi", s->root);
	snprintf(s->vars, sizeof(s->vars), "%s/efivars", s->efi);
	snprintf(s->img, sizeof(s->img), "%s/img", s->root);
	mkdirs(s->vars);
	mkdirs(s->img);
	snprintf(path, sizeof(path), "%s/EFI/BOOT", s->esp);
	mkdirs(path);
	strcat(path, "/BOOTX64.EFI");
	put_file(path, OLD_LOADER, strlen(OLD_LOADER));
	put_images(s);
	put_option(s, 0, "debian", "\\EFI\\debian\\shimx64.efi");
	put_order(s, order, 1);
	s->dirs[0] = s->img;
	s->v.dir = s->vars;
	s->part = (struct install_part){.partuuid = PARTUUID,
					.disk = "/dev/test",
					.num = 1,
					.start = 2048,
					.size = 100000};
	s->o = (struct install_opts){.esp = s->esp,
				     .image_dirs = s->dirs,
				     .efi_dir = s->efi,
				     .vars = &s->v,
				     .part = &s->part};
}

static void scratch_remove(struct scratch *s)
{
	umount2(s->esp, MNT_DETACH);
	test_rmtree(s->root);
	free(s->printed);
}

/* --- The whole tree as text, to compare before and after */

#define SNAP_MAX 256

static char *snap_lines[SNAP_MAX];
static size_t snap_n;
static size_t snap_skip; /* the root's length */

/* "path type hex-of-contents" for each file and directory. */
static int snap_one(const char *p, const struct stat *st, int flag,
		    struct FTW *ftw)
{
	size_t len = 0, o;
	char *b = flag == FTW_F ? test_slurp(p, &len) : NULL;
	char *line = malloc(strlen(p) + 2 * len + 64);

	(void)ftw;
	if (!line || snap_n == SNAP_MAX)
		abort();
	o = (size_t)sprintf(line, "%s %s %o ", p + snap_skip,
			    flag == FTW_F ? "file" : "dir",
			    (unsigned)st->st_mode);
	for (size_t i = 0; i < len; i++)
		o += (size_t)sprintf(line + o, "%02x", (uint8_t)b[i]);
	snap_lines[snap_n++] = line;
	free(b);
	return 0;
}

static int snap_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The ESP and the firmware directory, sorted, as one malloc'd text. */
static char *snapshot(struct scratch *s)
{
	size_t total = 1, o = 0;
	char *text;

	snap_n = 0;
	snap_skip = strlen(s->root);
	nftw(s->esp, snap_one, 16, FTW_PHYS);
	nftw(s->efi, snap_one, 16, FTW_PHYS);
	qsort(snap_lines, snap_n, sizeof(*snap_lines), snap_cmp);
	for (size_t i = 0; i < snap_n; i++)
		total += strlen(snap_lines[i]) + 1;
	text = malloc(total);
	text[0] = '\0';
	for (size_t i = 0; i < snap_n; i++) {
		o += (size_t)sprintf(text + o, "%s\n", snap_lines[i]);
		free(snap_lines[i]);
	}
	return text;
}

/* --- Running it */

static int run(struct scratch *s)
{
	FILE *f;
	int rc;

	free(s->printed);
	s->printed = NULL;
	f = open_memstream(&s->printed, &s->printed_len);
	s->o.out = f;
	rc = install_run(&s->o, s->err, sizeof(s->err));
	fclose(f);
	return rc;
}

static bool printed(struct scratch *s, const char *line)
{
	bool yes = s->printed && strstr(s->printed, line);

	if (!yes)
		printf("  not printed: \"%s\" in:\n%s", line,
		       s->printed ? s->printed : "");
	return yes;
}

static bool same_file(const char *a, const char *b)
{
	size_t la, lb;
	char *x = test_slurp(a, &la), *y = test_slurp(b, &lb);
	bool yes = x && y && la == lb && !memcmp(x, y, la);

	free(x);
	free(y);
	return yes;
}

static bool esp_file_is(struct scratch *s, const char *rel, const char *want)
{
	char a[PATH_MAX], b[PATH_MAX];

	snprintf(a, sizeof(a), "%s/%s", s->esp, rel);
	snprintf(b, sizeof(b), "%s/%s", s->img, want);
	return same_file(a, b);
}

/* BootOrder as "0001,0000". */
static const char *order_text(struct scratch *s, char *out, size_t cap)
{
	uint8_t buf[256];
	uint16_t nums[64];
	uint32_t attrs;
	size_t len, n = 0, o = 0;

	out[0] = '\0';
	if (efi_var_read(&s->v, "BootOrder", EFI_GLOBAL_GUID, &attrs, buf,
			 sizeof(buf), &len, NULL, 0) < 0 ||
	    efi_boot_order_decode(buf, len, nums, 64, &n) < 0)
		return "-";
	for (size_t i = 0; i < n; i++)
		o += (size_t)snprintf(out + o, cap - o, "%s%04X", i ? "," : "",
				      nums[i]);
	return out;
}

/* Boot@num's description and where it points, "desc|HD(..)/File(..)". */
static const char *option_text(struct scratch *s, uint16_t num, char *out,
			       size_t cap)
{
	struct arena a = ARENA_INIT;
	struct efi_load_option lo;
	char name[EFI_BOOT_NAME_LEN], dp[512];
	uint8_t buf[1024];
	uint32_t attrs;
	size_t len;

	efi_boot_name(num, name);
	snprintf(out, cap, "-");
	if (efi_var_read(&s->v, name, EFI_GLOBAL_GUID, &attrs, buf, sizeof(buf),
			 &len, NULL, 0) == 0 &&
	    efi_loadopt_decode(&a, buf, len, &lo) == 0) {
		efi_dp_format(&lo.path, dp, sizeof(dp));
		snprintf(out, cap, "%s|%s|%x", lo.desc, dp, lo.attrs);
	}
	arena_free(&a);
	return out;
}

/* The tree is now as @before says (which is freed); the scratch goes. */
static void ends_as(struct scratch *s, char *before)
{
	char *after = snapshot(s);

	CHECK_STR(after, before);
	free(before);
	free(after);
	scratch_remove(s);
}

/* --uninstall succeeds and gives back the tree @before. */
static void uninstall_ends_as(struct scratch *s, char *before)
{
	s->o.uninstall = true;
	CHECK_INT(run(s), 0);
	ends_as(s, before);
}

#define OUR_OPTION                                                             \
	"bootmenu|HD(1,GPT," PARTUUID ",0x800,0x186a0)/"                       \
	"File(\\EFI\\bootmenu\\bootmenu.efi)|1"

/* --- Installing and taking it back */

/* Files, Boot0001, BootOrder with --default; --uninstall restores all. */
TEST(install_default_removable)
{
	struct scratch s;
	char *before, text[512];

	scratch_make(&s);
	before = snapshot(&s);
	s.o.removable = s.o.set_default = true;
	CHECK_INT(run(&s), 0);
	CHECK_STR(s.err, "");
	CHECK(esp_file_is(&s, "EFI/bootmenu/bootmenu.efi", "bootmenu.efi"));
	CHECK(esp_file_is(&s, "EFI/BOOT/BOOTX64.EFI", "bootmenu.efi"));
	{
		char old[PATH_MAX];
		size_t len;
		char *b;

		snprintf(old, sizeof(old),
			 "%s/EFI/BOOT/BOOTX64.EFI"
			 ".bootmenu-old",
			 s.esp);
		b = test_slurp(old, &len);
		CHECK(b && len == strlen(OLD_LOADER) &&
		      !memcmp(b, OLD_LOADER, len));
		free(b);
	}
	CHECK_STR(option_text(&s, 1, text, sizeof(text)), OUR_OPTION);
	CHECK_STR(order_text(&s, text, sizeof(text)), "0001,0000");
	CHECK(printed(&s, "image:    "));
	CHECK(printed(&s, "(not signed)\n"));
	CHECK(printed(&s, "mkdir:    EFI/bootmenu\n"));
	CHECK(printed(&s, "keep:     EFI/BOOT/BOOTX64.EFI as "
			  "EFI/BOOT/BOOTX64.EFI.bootmenu-old\n"));
	CHECK(printed(&s, "variable: Boot0001 \"bootmenu\" HD(1,GPT,"));
	CHECK(printed(&s, "variable: BootOrder 0001,0000 (was 0000)\n"));
	CHECK(printed(&s, "write:    EFI/bootmenu/install.rec"));

	s.o.uninstall = true;
	CHECK_INT(run(&s), 0);
	CHECK(printed(&s, "restore:  EFI/BOOT/BOOTX64.EFI"));
	CHECK(printed(&s, "delete:   Boot0001\n"));
	ends_as(&s, before);
}

/* Without --default the entry goes last; the fallback is not touched. */
TEST(install_not_default)
{
	struct scratch s;
	char *before, text[512], path[PATH_MAX];
	size_t len;
	char *b;

	scratch_make(&s);
	before = snapshot(&s);
	CHECK_INT(run(&s), 0);
	CHECK_STR(order_text(&s, text, sizeof(text)), "0000,0001");
	snprintf(path, sizeof(path), "%s/EFI/BOOT/BOOTX64.EFI", s.esp);
	b = test_slurp(path, &len);
	CHECK(b && len == strlen(OLD_LOADER));
	free(b);
	uninstall_ends_as(&s, before);
}

/* An option already pointing at our file is reused (not made again, not
 * deleted by --uninstall), and its place in BootOrder comes back. */
TEST(install_reuses_option)
{
	static const uint16_t order[] = {0, 4, 3};
	struct scratch s;
	char *before, text[512];

	scratch_make(&s);
	put_option(&s, 3, "mine", "\\EFI\\bootmenu\\bootmenu.efi");
	put_option(&s, 4, "other", "\\EFI\\other\\x.efi");
	put_order(&s, order, 3);
	before = snapshot(&s);
	s.o.set_default = true;
	CHECK_INT(run(&s), 0);
	CHECK(printed(&s, "keep:     Boot0003 (it points at "));
	CHECK_STR(order_text(&s, text, sizeof(text)), "0003,0000,0004");
	CHECK_STR(option_text(&s, 1, text, sizeof(text)), "-");
	uninstall_ends_as(&s, before);
}

/* Installed twice (the second time with --removable): one record with
 * both runs' changes; one --uninstall takes back both. */
TEST(install_again)
{
	struct scratch s;
	char *before, text[512];

	scratch_make(&s);
	before = snapshot(&s);
	CHECK_INT(run(&s), 0);
	s.o.removable = s.o.set_default = true;
	CHECK_INT(run(&s), 0);
	CHECK(!strstr(s.printed, "mkdir:    EFI/bootmenu\n"));
	CHECK(!strstr(s.printed, "keep:     EFI/bootmenu/bootmenu.efi"));
	CHECK(printed(&s, "keep:     Boot0001 (it points at "
			  "EFI/bootmenu/bootmenu.efi already)\n"));
	CHECK_STR(order_text(&s, text, sizeof(text)), "0001,0000");
	CHECK_STR(option_text(&s, 2, text, sizeof(text)), "-");
	uninstall_ends_as(&s, before);
}

/* An empty ESP (no EFI directory): EFI, EFI/bootmenu and EFI/BOOT are
 * made, each listed once under --print, and --uninstall removes them. */
TEST(install_empty_esp)
{
	struct scratch s;
	char *before, *first, path[PATH_MAX];

	scratch_make(&s);
	snprintf(path, sizeof(path), "%s/EFI", s.esp);
	test_rmtree(path);
	before = snapshot(&s);
	s.o.removable = s.o.print = true;
	CHECK_INT(run(&s), 0);
	CHECK(printed(&s, "mkdir:    EFI\nmkdir:    EFI/bootmenu\n"));
	CHECK(printed(&s, "mkdir:    EFI/BOOT\n"));
	first = strstr(s.printed, "mkdir:    EFI\n");
	CHECK(first && !strstr(first + 1, "mkdir:    EFI\n"));
	s.o.print = false;
	CHECK_INT(run(&s), 0);
	CHECK(esp_file_is(&s, "EFI/bootmenu/bootmenu.efi", "bootmenu.efi"));
	CHECK(esp_file_is(&s, "EFI/BOOT/BOOTX64.EFI", "bootmenu.efi"));
	uninstall_ends_as(&s, before);
}

/* --print lists every change and makes none. */
TEST(print_changes_nothing)
{
	struct scratch s;
	char *before, *after;

	scratch_make(&s);
	before = snapshot(&s);
	s.o.removable = s.o.set_default = s.o.print = true;
	CHECK_INT(run(&s), 0);
	CHECK(printed(&s, "write:    EFI/bootmenu/bootmenu.efi (1024 bytes"));
	CHECK(printed(&s, "write:    EFI/BOOT/BOOTX64.EFI (1024 bytes"));
	CHECK(printed(&s, "variable: Boot0001"));
	CHECK(printed(&s, "variable: BootOrder 0001,0000 (was 0000)\n"));
	CHECK(printed(&s, "nothing was changed (--print)\n"));
	after = snapshot(&s);
	CHECK_STR(after, before);
	free(after);

	/* and --uninstall --print over an install */
	s.o.print = false;
	CHECK_INT(run(&s), 0);
	free(before);
	before = snapshot(&s);
	s.o.print = s.o.uninstall = true;
	CHECK_INT(run(&s), 0);
	CHECK(printed(&s, "remove:   EFI/bootmenu/bootmenu.efi\n"));
	CHECK(printed(&s, "delete:   Boot0001\n"));
	ends_as(&s, before);
}

/* --no-nvram on a plain directory: files only, no variable read for the
 * partition, none written. */
TEST(no_nvram_plain_directory)
{
	struct scratch s;
	char *before;

	scratch_make(&s);
	s.o.part = NULL;
	s.o.no_nvram = s.o.removable = true;
	before = snapshot(&s);
	CHECK_INT(run(&s), 0);
	CHECK(esp_file_is(&s, "EFI/BOOT/BOOTX64.EFI", "bootmenu.efi"));
	CHECK(!strstr(s.printed, "variable:"));
	uninstall_ends_as(&s, before);
}

/* The installer's syncfs() calls (file.c), counted: this definition
 * stands in for the C library's in this program. */
static int syncfs_calls;

int syncfs(int fd)
{
	syncfs_calls++;
	return (int)syscall(SYS_syncfs, fd);
}

/* Each file written is followed by a syncfs() of the ESP: on FAT, an
 * fsync of the directory leaves a renamed file's entry (its size and
 * first cluster) and the rename itself unwritten, and a power cut after
 * the install had returned found EFI/BOOT/BOOTX64.EFI 0 bytes long
 * (tests/e2e/test_powercut.py). */
TEST(each_write_synced)
{
	struct scratch s;
	const char *p;
	int writes = 0;

	scratch_make(&s);
	s.o.part = NULL;
	s.o.no_nvram = s.o.removable = true;
	syncfs_calls = 0;
	CHECK_INT(run(&s), 0);
	for (p = s.printed; (p = strstr(p, "write:")); p++)
		writes++;
	CHECK_INT(writes, 3); /* bootmenu.efi, BOOTX64.EFI, the record */
	CHECK(syncfs_calls >= writes);
	scratch_remove(&s);
}

/* --- Secure Boot */

TEST(secure_boot_picks_signed)
{
	static const uint8_t on = 1;
	struct scratch s;

	scratch_make(&s);
	put_var(&s, SB_NAME, &on, 1);
	CHECK_INT(run(&s), 0);
	CHECK(esp_file_is(&s, "EFI/bootmenu/bootmenu.efi",
			  "bootmenu.signed.efi"));
	CHECK(printed(&s, "(signed; Secure Boot is on)\n"));
	scratch_remove(&s);

	scratch_make(&s);
	s.o.want_signed = true;
	CHECK_INT(run(&s), 0);
	CHECK(esp_file_is(&s, "EFI/bootmenu/bootmenu.efi",
			  "bootmenu.signed.efi"));
	scratch_remove(&s);
}

/* --- Refusals: each leaves the whole tree as it was */

/* A fresh tree changed by @setup, then a run that must fail with @want_rc,
 * a sentence holding @want_words and (unless NULL) @want_printed in the
 * list, and the tree byte-identical afterwards. */
static void refused(void (*setup)(struct scratch *), int want_rc,
		    const char *want_words, const char *want_printed)
{
	struct scratch s;
	char *before;

	scratch_make(&s);
	setup(&s);
	before = snapshot(&s);
	CHECK_INT(run(&s), want_rc);
	if (!strstr(s.err, want_words))
		printf("  sentence \"%s\" lacks \"%s\"\n", s.err, want_words);
	CHECK(strstr(s.err, want_words) != NULL);
	CHECK(!want_printed || printed(&s, want_printed));
	ends_as(&s, before);
}

static void set_secure_boot_unsigned(struct scratch *s)
{
	static const uint8_t on = 1;
	static char img[PATH_MAX];

	put_var(s, SB_NAME, &on, 1);
	snprintf(img, sizeof(img), "%s/bootmenu.efi", s->img);
	s->o.image = img;
}

static void set_no_image(struct scratch *s)
{
	s->dirs[0] = s->esp;
}

static void set_no_efivars(struct scratch *s)
{
	s->o.efi_dir = s->img; /* exists, but no efivars in it */
	s->o.vars = NULL;
}

static void set_no_firmware(struct scratch *s)
{
	s->o.efi_dir = "/nonexistent-firmware";
}

static void set_no_partition(struct scratch *s)
{
	s->o.part = NULL;
}

static void set_backup_in_the_way(struct scratch *s)
{
	put_fmt(s, "esp/EFI/BOOT/BOOTX64.EFI.bootmenu-old", "MZ older");
	s->o.removable = true;
}

static void set_uninstall(struct scratch *s)
{
	s->o.uninstall = true;
}

static void set_bad_record(struct scratch *s)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/EFI/bootmenu", s->esp);
	mkdirs(path);
	put_fmt(s, "esp/EFI/bootmenu/install.rec",
		"bootmenu-install 1\nnew ../../etc/passwd\n");
	s->o.uninstall = true;
}

/* A read-only ESP, and a full one: tmpfs mounts over the ESP. */
static bool mount_esp(struct scratch *s, const char *opts)
{
	int rc = mount("none", s->esp, "tmpfs", 0, opts);

	if (rc < 0)
		printf("  cannot mount a tmpfs (run as root): %s\n",
		       strerror(errno));
	return rc == 0;
}

static void set_read_only_esp(struct scratch *s)
{
	CHECK(mount_esp(s, "size=1m"));
	CHECK_INT(mount("none", s->esp, NULL, MS_REMOUNT | MS_RDONLY, NULL), 0);
}

static void set_small_esp(struct scratch *s)
{
	CHECK(mount_esp(s, "size=8k"));
}

/* BootOrder cannot be read (a directory stands in its place), with
 * --removable: the change fails halfway. */
static void set_bootorder_dir(struct scratch *s)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/BootOrder-%s", s->vars,
		 EFI_GLOBAL_GUID);
	CHECK_INT(unlink(path), 0);
	CHECK_INT(mkdir(path, 0755), 0);
	s->o.removable = true;
}

/* One refusal case: a TEST that runs refused() with these arguments. */
#define REFUSAL(name, setup, rc, words, printed)                               \
	TEST(name)                                                             \
	{                                                                      \
		refused(setup, rc, words, printed);                            \
	}

REFUSAL(refuse_unsigned_under_secure_boot, set_secure_boot_unsigned, -EPERM,
	"Secure Boot is on", NULL)
REFUSAL(refuse_no_image, set_no_image, -ENOENT, "no bootmenu.efi found", NULL)
REFUSAL(refuse_no_efivars, set_no_efivars, -EOPNOTSUPP, "efivarfs", NULL)
REFUSAL(refuse_not_uefi, set_no_firmware, -EOPNOTSUPP,
	"did not boot through UEFI", NULL)
REFUSAL(refuse_not_a_partition, set_no_partition, -ENXIO, "--no-nvram", NULL)
REFUSAL(refuse_backup_in_the_way, set_backup_in_the_way, -EEXIST,
	"BOOTX64.EFI.bootmenu-old is in the way", NULL)
REFUSAL(refuse_no_record, set_uninstall, -ENOENT, "no install record", NULL)
REFUSAL(refuse_bad_record, set_bad_record, -EINVAL, "line 2", NULL)
REFUSAL(refuse_read_only_esp, set_read_only_esp, -EROFS, "mount -o remount,rw",
	NULL)
REFUSAL(refuse_no_room, set_small_esp, -ENOSPC, "KiB free", NULL)
/* A change fails halfway: the files and Boot#### written before it are
 * taken back. */
REFUSAL(failure_halfway_rolls_back, set_bootorder_dir, -EISDIR, "BootOrder",
	"failed:   taking back what was changed\n"
	"delete:   Boot0001\n"
	"restore:  EFI/BOOT/BOOTX64.EFI from "
	"EFI/BOOT/BOOTX64.EFI.bootmenu-old\n"
	"remove:   EFI/bootmenu/bootmenu.efi\n"
	"rmdir:    EFI/bootmenu\n")

/* --- BIOS: syslinux as the first stage, on disk image files
 *
 * The scratch's "esp" directory plays --boot-dir, the disk image sits in
 * the "efi" directory (so snapshot() holds its bytes), and the firmware
 * directory does not exist (a BIOS-booted machine). mbr.bin and
 * gptmbr.bin are 440 bytes of a pattern each; extlinux is a script that
 * writes its arguments into ldlinux.sys, and ldlinux.c32. */

#define SECTOR 512
#define MBR_IMG_SECTORS 128
#define GPT_IMG_SECTORS 256
#define GPT_ENTRIES 128
#define GPT_ESIZE 128
#define OLD_CODE 0xc0 /* the old boot code: 0xc0 + i */
#define MBR_CODE 0x11 /* mbr.bin: 0x11 ^ i */
#define GPTMBR_CODE 0x22
#define FAKE_EXTLINUX                                                          \
	"#!/bin/sh\n"                                                          \
	"[ \"$1\" = --install ] || exit 2\n"                                   \
	"printf '%s\\n' \"$@\" > \"$2/ldlinux.sys\"\n"                         \
	"echo c32 > \"$2/ldlinux.c32\"\n"

struct bios {
	char disk[160], mbr_dir[160], extlinux[160];
	uint8_t before[GPT_IMG_SECTORS * SECTOR]; /* the image at the start */
	size_t len;
};

static void put_code(uint8_t *b, uint8_t base)
{
	for (size_t i = 0; i < 440; i++)
		b[i] = (uint8_t)(base ^ i);
}

static void put_mbr_entry(uint8_t *s0, int i, uint8_t flag, uint8_t type,
			  uint32_t start, uint32_t size)
{
	uint8_t *e = s0 + 446 + 16 * i;

	e[0] = flag;
	e[4] = type;
	put_le32(e, 16, 8, start);
	put_le32(e, 16, 12, size);
}

/* An old loader's code, a disk signature, partition 1 (active) and 2;
 * every other sector a pattern, so a stray write shows. */
static size_t make_mbr(uint8_t *img)
{
	size_t len = MBR_IMG_SECTORS * SECTOR;

	for (size_t i = 0; i < len; i++)
		img[i] = (uint8_t)(i * 7 + 3);
	memset(img, 0, SECTOR);
	for (size_t i = 0; i < 440; i++)
		img[i] = (uint8_t)(OLD_CODE + i);
	put_le32(img, SECTOR, 440, 0x12345678);
	put_mbr_entry(img, 0, 0x80, 0x83, 8, 40);
	put_mbr_entry(img, 1, 0x00, 0x83, 48, 64);
	img[510] = 0x55;
	img[511] = 0xaa;
	return len;
}

/* One GPT copy: the header at @lba, its entries at @entries. */
static void put_gpt_copy(uint8_t *img, uint64_t lba, uint64_t alt,
			 uint64_t entries)
{
	uint8_t *h = img + lba * SECTOR, *e = img + entries * SECTOR;
	size_t elen = GPT_ENTRIES * GPT_ESIZE;

	memcpy(e, img + 2 * SECTOR, elen);
	memset(h, 0, SECTOR);
	memcpy(h, "EFI PART", 8);
	put_le32(h, SECTOR, 8, 0x00010000);
	put_le32(h, SECTOR, 12, 92);
	put_le64(h, SECTOR, 24, lba);
	put_le64(h, SECTOR, 32, alt);
	put_le64(h, SECTOR, 40, 34);
	put_le64(h, SECTOR, 48, GPT_IMG_SECTORS - 34);
	memset(h + 56, 0x5a, 16);
	put_le64(h, SECTOR, 72, entries);
	put_le32(h, SECTOR, 80, GPT_ENTRIES);
	put_le32(h, SECTOR, 84, GPT_ESIZE);
	put_le32(h, SECTOR, 88, inflate_crc32(0, e, elen));
	put_le32(h, SECTOR, 16, inflate_crc32(0, h, 92));
}

static void put_gpt_entry(uint8_t *img, int i, uint64_t first, uint64_t last,
			  uint64_t attrs)
{
	uint8_t *e = img + 2 * SECTOR + i * GPT_ESIZE;

	memset(e, 0xa0 + i, 32); /* type and unique GUIDs */
	put_le64(e, GPT_ESIZE, 32, first);
	put_le64(e, GPT_ESIZE, 40, last);
	put_le64(e, GPT_ESIZE, 48, attrs);
}

/* A protective MBR, both GPT copies, partitions 1 and 2 (2 with a high
 * attribute bit that must stay). */
static size_t make_gpt(uint8_t *img)
{
	size_t len = GPT_IMG_SECTORS * SECTOR;

	memset(img, 0, len);
	for (size_t i = 0; i < 440; i++)
		img[i] = (uint8_t)(OLD_CODE + i);
	put_mbr_entry(img, 0, 0, 0xee, 1, GPT_IMG_SECTORS - 1);
	img[510] = 0x55;
	img[511] = 0xaa;
	put_gpt_entry(img, 0, 34, 99, 0);
	put_gpt_entry(img, 1, 100, 200, 1ull << 60);
	put_gpt_copy(img, GPT_IMG_SECTORS - 1, 1, GPT_IMG_SECTORS - 33);
	put_gpt_copy(img, 1, GPT_IMG_SECTORS - 1, 2);
	return len;
}

static void put_exec(const char *path, const char *text)
{
	put_file(path, text, strlen(text));
	chmod(path, 0755);
}

/* The scratch as a BIOS machine whose /boot (the "esp" directory) is on
 * partition @part of an MBR or GPT image. */
static void bios_make(struct scratch *s, struct bios *b, bool gpt,
		      uint32_t part)
{
	char path[PATH_MAX];
	uint8_t code[440];

	scratch_make(s);
	snprintf(b->disk, sizeof(b->disk), "%s/disk.img", s->efi);
	snprintf(b->mbr_dir, sizeof(b->mbr_dir), "%s/mbr", s->img);
	snprintf(b->extlinux, sizeof(b->extlinux), "%s/extlinux", s->img);
	b->len = gpt ? make_gpt(b->before) : make_mbr(b->before);
	put_file(b->disk, b->before, b->len);
	mkdirs(b->mbr_dir);
	put_code(code, MBR_CODE);
	snprintf(path, sizeof(path), "%s/mbr.bin", b->mbr_dir);
	put_file(path, code, sizeof(code));
	put_code(code, GPTMBR_CODE);
	snprintf(path, sizeof(path), "%s/gptmbr.bin", b->mbr_dir);
	put_file(path, code, sizeof(code));
	put_exec(b->extlinux, FAKE_EXTLINUX);
	s->o = (struct install_opts){.image_dirs = s->dirs,
				     .efi_dir = "/nonexistent-firmware",
				     .vars = &s->v,
				     .bios_disk = b->disk,
				     .boot_dir = s->esp,
				     .bios_part = part,
				     .extlinux = b->extlinux,
				     .mbr_dir = b->mbr_dir};
}

/* The image's bytes now (malloc'd), checked to be as long as before. */
static uint8_t *disk_now(struct bios *b)
{
	size_t len;
	uint8_t *now = (uint8_t *)test_slurp(b->disk, &len);

	CHECK(now && len == b->len);
	return now;
}

static bool boot_file_is(struct scratch *s, const char *rel, const char *text)
{
	char path[PATH_MAX];
	size_t len;
	char *got;
	bool yes;

	snprintf(path, sizeof(path), "%s/%s", s->esp, rel);
	got = test_slurp(path, &len);
	yes = got && len == strlen(text) && !memcmp(got, text, len);
	if (!yes)
		printf("  %s holds \"%.*s\", not \"%s\"\n", rel,
		       got ? (int)len : 0, got ? got : "", text);
	free(got);
	return yes;
}

/* Whether @b's first 440 bytes are the pattern @base. */
static bool code_is(const uint8_t *b, uint8_t base)
{
	uint8_t want[440];

	put_code(want, base);
	return !memcmp(b, want, sizeof(want));
}

/* --print on an MBR image: every change listed, none made. */
TEST(bios_print_changes_nothing)
{
	struct scratch s;
	struct bios b;
	char *before;

	bios_make(&s, &b, false, 1);
	before = snapshot(&s);
	s.o.print = true;
	CHECK_INT(run(&s), 0);
	CHECK_STR(s.err, "");
	CHECK(printed(&s, "mkdir:    bootmenu\n"));
	CHECK(printed(&s, "write:    bootmenu/bootmenu.efi (1024 bytes"));
	CHECK(printed(&s, "write:    bootmenu/extlinux.conf"));
	CHECK(printed(&s, "run:      "));
	CHECK(printed(&s, " --install "));
	CHECK(printed(&s, "bytes 0..439, the boot code"));
	CHECK(printed(&s, "write:    bootmenu/install.rec"));
	CHECK(printed(&s, "nothing was changed (--print)\n"));
	ends_as(&s, before);
}

/* An install on an MBR image writes mbr.bin's 440 bytes and nothing
 * else of the disk (partition 1 is active already); --uninstall puts
 * the image and the directory back byte for byte. */
TEST(bios_install_mbr)
{
	struct scratch s;
	struct bios b;
	char *before, want[PATH_MAX + 32];
	uint8_t *now;

	bios_make(&s, &b, false, 1);
	before = snapshot(&s);
	CHECK_INT(run(&s), 0);
	CHECK_STR(s.err, "");
	now = disk_now(&b);
	CHECK(code_is(now, MBR_CODE));
	CHECK(!memcmp(now + 440, b.before + 440, b.len - 440));
	free(now);
	CHECK(esp_file_is(&s, "bootmenu/bootmenu.efi", "bootmenu.efi"));
	CHECK(boot_file_is(&s, "bootmenu/ldlinux.c32", "c32\n"));
	snprintf(want, sizeof(want), "--install\n%s/bootmenu\n", s.esp);
	CHECK(boot_file_is(&s, "bootmenu/ldlinux.sys", want));
	CHECK(!strstr(s.printed, "flag:"));
	{
		size_t len;
		char path[PATH_MAX], *conf, *rec;

		snprintf(path, sizeof(path), "%s/bootmenu/extlinux.conf",
			 s.esp);
		conf = test_slurp(path, &len);
		CHECK(conf && strstr(conf, "DEFAULT bootmenu\n") &&
		      strstr(conf, "\tLINUX bootmenu.efi\n") &&
		      strstr(conf, "APPEND console=tty0 console=ttyS0,115200"));
		free(conf);
		snprintf(path, sizeof(path), "%s/bootmenu/install.rec", s.esp);
		rec = test_slurp(path, &len);
		snprintf(want, sizeof(want), "\ndisk %s\n", b.disk);
		CHECK(rec && strstr(rec, want) &&
		      strstr(rec, "\ncode c0c1c2") &&
		      strstr(rec, "\nnew bootmenu/ldlinux.sys\n"));
		free(rec);
	}
	uninstall_ends_as(&s, before);
}

/* /boot on partition 2 while 1 is active: 2 becomes the one active
 * partition (mbr.bin starts the active one); --uninstall gives 1 back. */
TEST(bios_active_flag)
{
	struct scratch s;
	struct bios b;
	char *before;
	uint8_t *now;

	bios_make(&s, &b, false, 2);
	before = snapshot(&s);
	CHECK_INT(run(&s), 0);
	now = disk_now(&b);
	CHECK_INT(now[446], 0x00);
	CHECK_INT(now[462], 0x80);
	CHECK(!memcmp(now + 463, b.before + 463, b.len - 463));
	free(now);
	CHECK(printed(&s, "partition 1 boot indicator, 0x80 active (was "
			  "0x80, now 0x0)\n"));
	s.o.uninstall = true;
	CHECK_INT(run(&s), 0);
	CHECK(printed(&s, "partition 2 back to 0x0\n"));
	ends_as(&s, before);
}

/* The CRC of @h's 92 bytes with its CRC field zero matches the field,
 * and its entries' CRC matches theirs; entry 2's attributes into @attrs. */
static bool gpt_copy_ok(const uint8_t *img, uint64_t lba, uint64_t *attrs)
{
	uint8_t h[92];
	uint32_t crc, ecrc;
	uint64_t entries;

	memcpy(h, img + lba * SECTOR, sizeof(h));
	get_le32(h, sizeof(h), 16, &crc);
	get_le32(h, sizeof(h), 88, &ecrc);
	get_le64(h, sizeof(h), 72, &entries);
	put_le32(h, sizeof(h), 16, 0);
	get_le64(img + entries * SECTOR, GPT_ESIZE * 2, GPT_ESIZE + 48, attrs);
	return inflate_crc32(0, h, sizeof(h)) == crc &&
	       inflate_crc32(0, img + entries * SECTOR,
			     GPT_ENTRIES * GPT_ESIZE) == ecrc;
}

/* GPT: gptmbr.bin, entry 2's legacy BIOS bootable bit in both copies
 * with their CRCs right, the protective MBR's table untouched; then
 * --uninstall restores the image byte for byte. */
TEST(bios_install_gpt)
{
	struct scratch s;
	struct bios b;
	char *before;
	uint8_t *now;
	uint64_t attrs = 0;

	bios_make(&s, &b, true, 2);
	before = snapshot(&s);
	CHECK_INT(run(&s), 0);
	CHECK_STR(s.err, "");
	now = disk_now(&b);
	CHECK(code_is(now, GPTMBR_CODE));
	CHECK(!memcmp(now + 440, b.before + 440, SECTOR - 440));
	CHECK(gpt_copy_ok(now, 1, &attrs));
	CHECK(attrs == ((1ull << 60) | 4));
	attrs = 0;
	CHECK(gpt_copy_ok(now, GPT_IMG_SECTORS - 1, &attrs));
	CHECK(attrs == ((1ull << 60) | 4));
	free(now);
	CHECK(printed(&s, "partition 2 attributes, bit 2 legacy BIOS bootable"
			  " (was 0x1000000000000000, now "
			  "0x1000000000000004)\n"));
	uninstall_ends_as(&s, before);
}

/* An install again on the BIOS scratch; --force-bios as the machine
 * running the tests may be UEFI-booted. */
static int run_again(struct scratch *s)
{
	s->o.efi_dir = s->efi;
	s->o.force_bios = true;
	return run(s);
}

/* A second install changes nothing more and one --uninstall takes all
 * back; --force-bios lets it run on a UEFI-booted machine. */
TEST(bios_install_again)
{
	struct scratch s;
	struct bios b;
	char *before;

	bios_make(&s, &b, false, 2);
	before = snapshot(&s);
	CHECK_INT(run(&s), 0);
	CHECK_INT(run_again(&s), 0);
	CHECK(printed(&s, " bytes 0..439 (the boot code an earlier install "
			  "wrote)\n"));
	CHECK(!strstr(s.printed, "the boot code (the old"));
	CHECK(!strstr(s.printed, "flag:"));
	CHECK(!strstr(s.printed, "keep:     bootmenu/bootmenu.efi"));
	uninstall_ends_as(&s, before);
}

/* Another loader wrote the boot code since: --uninstall refuses and
 * changes nothing. */
TEST(bios_uninstall_refuses_foreign_code)
{
	struct scratch s;
	struct bios b;
	char *before;
	uint8_t *now;

	bios_make(&s, &b, false, 2);
	CHECK_INT(run(&s), 0);
	now = disk_now(&b);
	memset(now, 0x90, 440);
	put_file(b.disk, now, b.len);
	free(now);
	before = snapshot(&s);
	s.o.uninstall = true;
	CHECK_INT(run(&s), -EBUSY);
	CHECK(strstr(s.err, "no longer the one bootmenu-install wrote"));
	ends_as(&s, before);
}

/* extlinux fails after writing ldlinux.sys: all of it is taken back. */
TEST(bios_extlinux_fails_rolls_back)
{
	struct scratch s;
	struct bios b;
	char *before;

	bios_make(&s, &b, false, 2);
	put_exec(b.extlinux, "#!/bin/sh\necho x > \"$2/ldlinux.sys\"\n"
			     "echo 'extlinux: no room' >&2\nexit 1\n");
	before = snapshot(&s);
	CHECK_INT(run(&s), -EIO);
	CHECK(strstr(s.err, "extlinux: no room"));
	CHECK(printed(&s, "remove:   bootmenu/ldlinux.sys\n"));
	ends_as(&s, before);
}

/* bios_make()'s MBR scratch installed, then the disk as a power cut
 * leaves it between the record (written ahead) and the boot code: the old
 * code back in the first 440 bytes. Returns the snapshot before. */
static char *installed_cut_before_code(struct scratch *s, struct bios *b)
{
	char *before;
	uint8_t *now;

	bios_make(s, b, false, 2);
	before = snapshot(s);
	CHECK_INT(run(s), 0);
	now = disk_now(b);
	for (size_t i = 0; i < 440; i++)
		now[i] = (uint8_t)(OLD_CODE + i);
	put_file(b->disk, now, b->len);
	free(now);
	return before;
}

/* The record holds the old boot code before it is overwritten; an
 * install cut between the two is taken back by --uninstall. */
TEST(bios_cut_before_code_uninstalls)
{
	struct scratch s;
	struct bios b;
	char *before = installed_cut_before_code(&s, &b);

	uninstall_ends_as(&s, before);
}

/* ... and an install again writes the boot code, keeping the old bytes
 * the record holds: --uninstall puts them back. */
TEST(bios_cut_before_code_install_again)
{
	struct scratch s;
	struct bios b;
	char *before = installed_cut_before_code(&s, &b);
	uint8_t *now;

	CHECK_INT(run_again(&s), 0);
	CHECK(printed(&s, " bytes 0..439, the boot code (the old ones kept"));
	now = disk_now(&b);
	CHECK(code_is(now, MBR_CODE));
	free(now);
	uninstall_ends_as(&s, before);
}

/* A BIOS refusal: the scratch made by bios_make(@gpt, partition 2),
 * changed by @setup. */
static void bios_refused(void (*setup)(struct scratch *, struct bios *),
			 bool gpt, int want_rc, const char *want_words)
{
	struct scratch s;
	struct bios b;
	char *before;

	bios_make(&s, &b, gpt, 2);
	setup(&s, &b);
	if (test_skips) {
		scratch_remove(&s);
		return;
	}
	before = snapshot(&s);
	CHECK_INT(run(&s), want_rc);
	if (!strstr(s.err, want_words))
		printf("  sentence \"%s\" lacks \"%s\"\n", s.err, want_words);
	CHECK(strstr(s.err, want_words) != NULL);
	ends_as(&s, before);
}

static void set_no_extlinux(struct scratch *s, struct bios *b)
{
	s->o.extlinux = "/nonexistent/extlinux";
}

static void set_no_mbr_bin(struct scratch *s, struct bios *b)
{
	s->o.mbr_dir = s->esp;
}

static void set_uefi_booted(struct scratch *s, struct bios *b)
{
	s->o.efi_dir = s->efi;
}

static void set_not_a_disk(struct scratch *s, struct bios *b)
{
	s->o.bios_disk = "/dev/null";
}

static void set_no_such_partition(struct scratch *s, struct bios *b)
{
	s->o.bios_part = 3;
}

static void set_logical_partition(struct scratch *s, struct bios *b)
{
	s->o.bios_part = 5;
}

static void set_no_table(struct scratch *s, struct bios *b)
{
	uint8_t zero[SECTOR] = {0};
	int fd = open(b->disk, O_WRONLY);

	CHECK(fd >= 0 && pwrite(fd, zero, sizeof(zero), 0) == SECTOR);
	close(fd);
}

/* The backup GPT header's CRC is wrong. */
static void set_bad_gpt(struct scratch *s, struct bios *b)
{
	uint8_t x = 0xff;
	int fd = open(b->disk, O_WRONLY);

	CHECK(fd >= 0 &&
	      pwrite(fd, &x, 1, (GPT_IMG_SECTORS - 1) * SECTOR + 60) == 1);
	close(fd);
}

static void set_bios_without_boot_dir(struct scratch *s, struct bios *b)
{
	s->o.boot_dir = NULL;
}

/* One BIOS refusal case. */
/* --boot-dir found from its mount (no partition number given) on a
 * filesystem extlinux cannot boot from (tmpfs), and on btrfs, whose
 * mount names no partition (a loop-mounted image; skipped where btrfs
 * cannot be made or mounted). */
static void set_boot_dir_tmpfs(struct scratch *s, struct bios *b)
{
	s->o.bios_part = 0;
	CHECK(mount_esp(s, "size=1m"));
}

static void set_boot_dir_btrfs(struct scratch *s, struct bios *b)
{
	char cmd[PATH_MAX * 2 + 200];

	s->o.bios_part = 0;
	/* beside the scratch tree, not in it; gone once unmounted (the loop
	 * device clears itself) */
	snprintf(cmd, sizeof(cmd),
		 "truncate -s 120M %s.btrfs && mkfs.btrfs -q %s.btrfs "
		 ">/dev/null 2>&1 && mount -o loop %s.btrfs %s 2>/dev/null; "
		 "rc=$?; rm -f %s.btrfs; exit $rc",
		 s->root, s->root, s->root, s->esp, s->root);
	if (system(cmd) != 0) {
		test_skip("no btrfs to mount here (mkfs.btrfs, loop, root)");
		return;
	}
}

#define BIOS_REFUSAL(name, setup, gpt, rc, words)                              \
	TEST(name)                                                             \
	{                                                                      \
		bios_refused(setup, gpt, rc, words);                           \
	}

BIOS_REFUSAL(bios_refuse_no_extlinux, set_no_extlinux, false, -ENOENT,
	     "install Debian's extlinux package")
BIOS_REFUSAL(bios_refuse_no_mbr_bin, set_no_mbr_bin, true, -ENOENT,
	     "gptmbr.bin")
BIOS_REFUSAL(bios_refuse_uefi_booted, set_uefi_booted, false, -EOPNOTSUPP,
	     "--force-bios")
BIOS_REFUSAL(bios_refuse_not_a_disk, set_not_a_disk, false, -ENOTBLK,
	     "is not a disk")
BIOS_REFUSAL(bios_refuse_no_such_partition, set_no_such_partition, false,
	     -ENOENT, "has no partition 3")
BIOS_REFUSAL(bios_refuse_logical_partition, set_logical_partition, false,
	     -EINVAL, "a logical one")
BIOS_REFUSAL(bios_refuse_no_table, set_no_table, false, -EINVAL,
	     "no partition table")
BIOS_REFUSAL(bios_refuse_bad_gpt, set_bad_gpt, true, -EINVAL,
	     "does not check out")
BIOS_REFUSAL(bios_refuse_half_options, set_bios_without_boot_dir, false,
	     -EINVAL, "needs both")
BIOS_REFUSAL(bios_refuse_boot_dir_tmpfs, set_boot_dir_tmpfs, false, -EOPNOTSUPP,
	     "extlinux cannot boot from")
BIOS_REFUSAL(bios_refuse_boot_dir_btrfs, set_boot_dir_btrfs, false, -EOPNOTSUPP,
	     "is on btrfs, whose partition")

/* --- Behind shim (--shim)
 *
 * The shim and its helpers are the images with a tag appended, so each
 * file's bytes are its own, in img/shim/ as Debian names them:
 * shimx64.efi.signed, mmx64.efi.signed and fbx64.efi.signed (signed),
 * and beside them an unsigned mmx64.efi, which a signed shim must not
 * get. */

#define SNAKEOIL "C=US, ST=Colorado, L=Fort Collins, O=SnakeOil"
#define SHIM_OPTION                                                            \
	"bootmenu|HD(1,GPT," PARTUUID ",0x800,0x186a0)/"                       \
	"File(\\EFI\\bootmenu\\shimx64.efi)|1"

/* img/@rel: the signed image (or, @sig false, the unsigned one), then
 * @tag. */
static void put_tagged(struct scratch *s, const char *rel, bool sig,
		       const char *tag)
{
	char path[PATH_MAX];
	size_t len, n = strlen(tag);
	char *pe, *buf;

	snprintf(path, sizeof(path), "%s/%s", s->img,
		 sig ? "bootmenu.signed.efi" : "bootmenu.efi");
	pe = test_slurp(path, &len);
	buf = malloc(len + n);
	if (!pe || !buf)
		abort();
	memcpy(buf, pe, len);
	memcpy(buf + len, tag, n);
	snprintf(path, sizeof(path), "%s/%s", s->img, rel);
	put_file(path, buf, len + n);
	free(pe);
	free(buf);
}

/* Debian's shim layout in img/shim/ on a made scratch, --shim naming its
 * shimx64.efi.signed; the hint looks where no shim is. */
static void shim_add(struct scratch *s)
{
	static char shim[PATH_MAX];
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s/shim", s->img);
	mkdirs(dir);
	put_tagged(s, "shim/shimx64.efi.signed", true, "shim");
	put_tagged(s, "shim/mmx64.efi.signed", true, "mokmanager");
	put_tagged(s, "shim/fbx64.efi.signed", true, "fallback");
	put_tagged(s, "shim/mmx64.efi", false, "unsigned mokmanager");
	snprintf(shim, sizeof(shim), "%s/shim/shimx64.efi.signed", s->img);
	s->o.shim = shim;
	s->o.shim_hint = "/nonexistent/shimx64.efi.signed";
}

static void shim_make(struct scratch *s)
{
	scratch_make(s);
	shim_add(s);
}

static bool esp_has(struct scratch *s, const char *rel)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", s->esp, rel);
	return access(path, F_OK) == 0;
}

/* The install record holds @text. */
static bool record_has(struct scratch *s, const char *text)
{
	char path[PATH_MAX];
	size_t len;
	char *rec;
	bool yes;

	snprintf(path, sizeof(path), "%s/" INSTALL_RECORD, s->esp);
	rec = test_slurp(path, &len);
	if (rec)
		rec[len] = '\0'; /* test_slurp() leaves a spare byte */
	yes = rec && strstr(rec, text);
	if (!yes)
		printf("  the record lacks \"%s\":\n%s", text, rec ? rec : "");
	free(rec);
	return yes;
}

/* @a is printed, and before @b. */
static bool printed_before(struct scratch *s, const char *a, const char *b)
{
	const char *pa = s->printed ? strstr(s->printed, a) : NULL;
	const char *pb = s->printed ? strstr(s->printed, b) : NULL;

	if (!pa || !pb || pa > pb)
		printf("  \"%s\" is not printed before \"%s\" in:\n%s", a, b,
		       s->printed ? s->printed : "");
	return pa && pb && pa < pb;
}

/* Behind shim: shimx64.efi, the signed image as grubx64.efi, the helpers
 * with the shim's suffix (not the unsigned mmx64.efi); Boot0001 starts
 * shimx64.efi and goes last; the MOK note; the record lists each file,
 * and --uninstall takes them back last first. */
TEST(shim_install)
{
	struct scratch s;
	char *before, text[512];

	shim_make(&s);
	before = snapshot(&s);
	CHECK_INT(run(&s), 0);
	CHECK_STR(s.err, "");
	CHECK(esp_file_is(&s, "EFI/bootmenu/shimx64.efi",
			  "shim/shimx64.efi.signed"));
	CHECK(
	    esp_file_is(&s, "EFI/bootmenu/grubx64.efi", "bootmenu.signed.efi"));
	CHECK(
	    esp_file_is(&s, "EFI/bootmenu/mmx64.efi", "shim/mmx64.efi.signed"));
	CHECK(
	    esp_file_is(&s, "EFI/bootmenu/fbx64.efi", "shim/fbx64.efi.signed"));
	CHECK(!esp_has(&s, "EFI/bootmenu/bootmenu.efi"));
	CHECK(!esp_has(&s, "EFI/BOOT/grubx64.efi"));
	CHECK_STR(option_text(&s, 1, text, sizeof(text)), SHIM_OPTION);
	CHECK_STR(order_text(&s, text, sizeof(text)), "0000,0001");
	CHECK(printed(&s, "/shim/shimx64.efi.signed (signed)\n"));
	CHECK(printed(&s, "/shim/mmx64.efi.signed (MokManager, beside the "
			  "shim)\n"));
	CHECK(printed(&s, "note:     shim starts bootmenu only once the key "
			  "that signed it (\"" SNAKEOIL "\") is enrolled as "
			  "a Machine Owner Key: mokutil --import KEY.der"));
	CHECK(printed(&s, "which shim shows the next time it starts "
			  "(efibootmgr --bootnext 0001 starts it once). Until "
			  "then shim refuses bootmenu"));
	CHECK(printed(&s, "so Boot0001 is not made first"));
	CHECK(!strstr(s.printed, "WARNING"));
	CHECK(record_has(&s, "\nnew EFI/bootmenu/grubx64.efi\n"
			     "new EFI/bootmenu/mmx64.efi\n"
			     "new EFI/bootmenu/fbx64.efi\n"
			     "new EFI/bootmenu/shimx64.efi\nboot 0001\n"));
	s.o.uninstall = true;
	CHECK_INT(run(&s), 0);
	CHECK(printed(&s, "delete:   Boot0001\n"
			  "remove:   EFI/bootmenu/shimx64.efi\n"
			  "remove:   EFI/bootmenu/fbx64.efi\n"
			  "remove:   EFI/bootmenu/mmx64.efi\n"
			  "remove:   EFI/bootmenu/grubx64.efi\n"));
	ends_as(&s, before);
}

/* --default behind shim: Boot0001 first and the warning instead of the
 * note; installed again without --default, the entry pointing at
 * shimx64.efi is kept and no file is recorded twice. */
TEST(shim_default_again)
{
	struct scratch s;
	char *before, text[512];

	shim_make(&s);
	before = snapshot(&s);
	s.o.set_default = true;
	CHECK_INT(run(&s), 0);
	CHECK_STR(order_text(&s, text, sizeof(text)), "0001,0000");
	CHECK(printed(&s, "WARNING:  Boot0001 (shim, then bootmenu) is FIRST "
			  "in BootOrder now (--default), and shim refuses "
			  "bootmenu until the key that signed it (\"" SNAKEOIL
			  "\") is enrolled as a Machine Owner Key. Enrol it "
			  "BEFORE this machine restarts: mokutil --import"));
	CHECK(!strstr(s.printed, "note:"));
	s.o.set_default = false;
	CHECK_INT(run(&s), 0);
	CHECK(printed(&s, "keep:     Boot0001 (it points at "
			  "EFI/bootmenu/shimx64.efi already)\n"));
	CHECK(!strstr(s.printed, "keep:     EFI/bootmenu/"));
	CHECK(printed(&s, "note:     shim starts bootmenu only once"));
	CHECK_STR(option_text(&s, 2, text, sizeof(text)), "-");
	uninstall_ends_as(&s, before);
}

/* --print behind shim with --removable and --default, another loader's
 * fallback at the fallback path: every file and variable of the layout
 * and the warning listed, the tree and the variables byte-identical. */
TEST(shim_print_changes_nothing)
{
	struct scratch s;
	char *before;

	shim_make(&s);
	put_fmt(&s, "esp/EFI/BOOT/fbx64.efi", "MZ another fallback");
	before = snapshot(&s);
	s.o.print = s.o.removable = s.o.set_default = true;
	CHECK_INT(run(&s), 0);
	CHECK_STR(s.err, "");
	CHECK(printed(&s, "write:    EFI/bootmenu/grubx64.efi ("));
	CHECK(printed(&s, "write:    EFI/bootmenu/mmx64.efi ("));
	CHECK(printed(&s, "write:    EFI/bootmenu/fbx64.efi ("));
	CHECK(printed(&s, "write:    EFI/bootmenu/shimx64.efi ("));
	CHECK(printed(&s, "write:    EFI/BOOT/grubx64.efi ("));
	CHECK(printed(&s, "write:    EFI/BOOT/mmx64.efi ("));
	CHECK(printed(&s, "keep:     EFI/BOOT/BOOTX64.EFI as "));
	CHECK(printed(&s, "write:    EFI/BOOT/BOOTX64.EFI ("));
	CHECK(printed(&s, "keep:     EFI/BOOT/fbx64.efi as "
			  "EFI/BOOT/fbx64.efi.bootmenu-old (shim started"));
	CHECK(!strstr(s.printed, "write:    EFI/BOOT/fbx64.efi"));
	CHECK(printed(&s, "variable: Boot0001 \"bootmenu\" HD(1,GPT,"));
	CHECK(printed(&s, "/File(\\EFI\\bootmenu\\shimx64.efi) (new)\n"));
	CHECK(printed(&s, "variable: BootOrder 0001,0000 (was 0000)\n"));
	CHECK(printed(&s, "write:    EFI/bootmenu/install.rec"));
	CHECK(printed(&s, "WARNING:  Boot0001 (shim, then bootmenu) is FIRST"));
	CHECK(printed(&s, "nothing was changed (--print)\n"));
	ends_as(&s, before);
}

/* --removable behind shim: BOOTX64.EFI is shim and grubx64.efi bootmenu
 * beside it, MokManager too; the files there before are kept as
 * .bootmenu-old, and another loader's fbx64.efi is kept aside (shim there
 * would start it); the first stage is written last. --uninstall gives
 * back all of it. */
TEST(shim_removable)
{
	struct scratch s;
	char *before, text[512];

	shim_make(&s);
	put_fmt(&s, "esp/EFI/BOOT/grubx64.efi", "MZ another grub");
	put_fmt(&s, "esp/EFI/BOOT/fbx64.efi", "MZ another fallback");
	before = snapshot(&s);
	s.o.removable = true;
	CHECK_INT(run(&s), 0);
	CHECK_STR(s.err, "");
	CHECK(
	    esp_file_is(&s, "EFI/BOOT/BOOTX64.EFI", "shim/shimx64.efi.signed"));
	CHECK(esp_file_is(&s, "EFI/BOOT/grubx64.efi", "bootmenu.signed.efi"));
	CHECK(esp_file_is(&s, "EFI/BOOT/mmx64.efi", "shim/mmx64.efi.signed"));
	CHECK(!esp_has(&s, "EFI/BOOT/fbx64.efi"));
	CHECK(
	    boot_file_is(&s, "EFI/BOOT/BOOTX64.EFI.bootmenu-old", OLD_LOADER));
	CHECK(boot_file_is(&s, "EFI/BOOT/grubx64.efi.bootmenu-old",
			   "MZ another grub"));
	CHECK(boot_file_is(&s, "EFI/BOOT/fbx64.efi.bootmenu-old",
			   "MZ another fallback"));
	CHECK(esp_file_is(&s, "EFI/bootmenu/shimx64.efi",
			  "shim/shimx64.efi.signed"));
	CHECK_STR(option_text(&s, 1, text, sizeof(text)), SHIM_OPTION);
	CHECK(printed(&s, "keep:     EFI/BOOT/fbx64.efi as "
			  "EFI/BOOT/fbx64.efi.bootmenu-old (shim started as "
			  "BOOTX64.EFI would start it instead of bootmenu)\n"));
	CHECK(printed_before(&s, "write:    EFI/BOOT/grubx64.efi",
			     "write:    EFI/BOOT/BOOTX64.EFI"));
	CHECK(printed_before(&s, "write:    EFI/BOOT/mmx64.efi",
			     "write:    EFI/BOOT/BOOTX64.EFI"));
	CHECK(printed_before(&s, "write:    EFI/bootmenu/grubx64.efi",
			     "write:    EFI/bootmenu/shimx64.efi"));
	CHECK(record_has(&s, "\nbackup EFI/BOOT/fbx64.efi\n"
			     "backup EFI/BOOT/grubx64.efi\n"
			     "new EFI/BOOT/mmx64.efi\n"
			     "backup EFI/BOOT/BOOTX64.EFI\n"));
	s.o.uninstall = true;
	CHECK_INT(run(&s), 0);
	CHECK(printed(&s, "restore:  EFI/BOOT/fbx64.efi from "
			  "EFI/BOOT/fbx64.efi.bootmenu-old\n"));
	ends_as(&s, before);
}

/* A shim named shimx64.efi takes only the helpers named *.efi: here
 * there is none (only mmx64.efi.signed), so none is written and the
 * missing MokManager is noted; an unsigned shim is fine without Secure
 * Boot. */
TEST(shim_unsigned_without_helpers)
{
	static char shim[PATH_MAX];
	struct scratch s;
	char *before;

	scratch_make(&s);
	snprintf(shim, sizeof(shim), "%s/bare", s.img);
	mkdirs(shim);
	put_tagged(&s, "bare/shimx64.efi", false, "bare shim");
	put_tagged(&s, "bare/mmx64.efi.signed", true, "signed mokmanager");
	strcat(shim, "/shimx64.efi");
	s.o.shim = shim;
	before = snapshot(&s);
	CHECK_INT(run(&s), 0);
	CHECK_STR(s.err, "");
	CHECK(esp_file_is(&s, "EFI/bootmenu/shimx64.efi", "bare/shimx64.efi"));
	CHECK(
	    esp_file_is(&s, "EFI/bootmenu/grubx64.efi", "bootmenu.signed.efi"));
	CHECK(!esp_has(&s, "EFI/bootmenu/mmx64.efi"));
	CHECK(!esp_has(&s, "EFI/bootmenu/fbx64.efi"));
	CHECK(printed(&s, "/bare/shimx64.efi (not signed)\n"));
	CHECK(printed(&s, "/bare/mmx64.efi is not there, so shim cannot "
			  "start MokManager"));
	uninstall_ends_as(&s, before);
}

/* Without --shim no shim is taken, even under Secure Boot with Debian's
 * signed shim installed: the plain layout, and a note naming the shim. */
TEST(shim_only_when_named)
{
	static const uint8_t on = 1;
	struct scratch s;
	char *before, want[PATH_MAX + 64];

	shim_make(&s);
	snprintf(want, sizeof(want), "(--shim %s; see bootmenu-install(8))\n",
		 s.o.shim);
	s.o.shim_hint = s.o.shim;
	s.o.shim = NULL;
	put_var(&s, SB_NAME, &on, 1);
	before = snapshot(&s);
	CHECK_INT(run(&s), 0);
	CHECK(esp_file_is(&s, "EFI/bootmenu/bootmenu.efi",
			  "bootmenu.signed.efi"));
	CHECK(!esp_has(&s, "EFI/bootmenu/shimx64.efi"));
	CHECK(!esp_has(&s, "EFI/bootmenu/grubx64.efi"));
	CHECK(printed(&s, "note:     Secure Boot is on: the firmware starts "
			  "the image only when its signing key is in the "
			  "firmware's db"));
	CHECK(printed(&s, want));
	CHECK(!strstr(s.printed, "mokutil"));
	uninstall_ends_as(&s, before);

	/* no shim where the hint looks: no note */
	scratch_make(&s);
	put_var(&s, SB_NAME, &on, 1);
	s.o.shim_hint = "/nonexistent/shimx64.efi.signed";
	CHECK_INT(run(&s), 0);
	CHECK(!strstr(s.printed, "note:"));
	scratch_remove(&s);
}

/* --- Behind shim, refused: each a REFUSAL case on the scratch with
 * shim_add()'s layout, changed */

static void set_shim_not_pe(struct scratch *s)
{
	shim_add(s);
	put_fmt(s, "img/shim/shimx64.efi.signed", "#!/bin/sh\necho shim\n");
}

/* "MZ" and e_lfanew, but no "PE\0\0" where it points. */
static void set_shim_no_pe_signature(struct scratch *s)
{
	uint8_t mz[256] = {'M', 'Z'};
	char path[PATH_MAX];

	shim_add(s);
	put_le32(mz, sizeof(mz), 0x3c, 0x80);
	memcpy(mz + 0x80, "NE\0\0", 4);
	snprintf(path, sizeof(path), "%s/shim/shimx64.efi.signed", s->img);
	put_file(path, mz, sizeof(mz));
}

static void set_shim_missing(struct scratch *s)
{
	shim_add(s);
	s->o.shim = "/nonexistent/shimx64.efi.signed";
}

static void set_shim_unsigned_secure_boot(struct scratch *s)
{
	static const uint8_t on = 1;

	shim_add(s);
	put_tagged(s, "shim/shimx64.efi.signed", false, "unsigned shim");
	put_var(s, SB_NAME, &on, 1);
}

static void set_shim_helper_not_pe(struct scratch *s)
{
	shim_add(s);
	put_fmt(s, "img/shim/mmx64.efi.signed", "not an image");
}

static void set_shim_unsigned_image(struct scratch *s)
{
	static char img[PATH_MAX];

	shim_add(s);
	snprintf(img, sizeof(img), "%s/bootmenu.efi", s->img);
	s->o.image = img;
}

/* Installed without shim, then --shim. */
static void set_shim_over_plain(struct scratch *s)
{
	CHECK_INT(run(s), 0);
	shim_add(s);
}

/* Installed behind shim, then without. */
static void set_plain_over_shim(struct scratch *s)
{
	shim_add(s);
	CHECK_INT(run(s), 0);
	s->o.shim = NULL;
}

/* --esp alone is refused with --bios already: without it, only --shim
 * is left to refuse. */
static void set_shim_with_bios(struct scratch *s)
{
	shim_add(s);
	s->o.esp = NULL;
	s->o.bios_disk = "/dev/null";
	s->o.boot_dir = s->esp;
}

static void set_shim_fallback_in_the_way(struct scratch *s)
{
	shim_add(s);
	put_fmt(s, "esp/EFI/BOOT/fbx64.efi", "MZ a fallback");
	put_fmt(s, "esp/EFI/BOOT/fbx64.efi.bootmenu-old", "MZ an older one");
	s->o.removable = true;
}

static void set_shim_bootorder_dir(struct scratch *s)
{
	shim_add(s);
	set_bootorder_dir(s);
}

REFUSAL(shim_refuse_not_pe, set_shim_not_pe, -EINVAL,
	"shimx64.efi.signed is not an EFI image (no MZ and PE header)", NULL)
REFUSAL(shim_refuse_no_pe_signature, set_shim_no_pe_signature, -EINVAL,
	"is not an EFI image", NULL)
REFUSAL(shim_refuse_missing, set_shim_missing, -ENOENT,
	"the shim /nonexistent/shimx64.efi.signed does not exist", NULL)
REFUSAL(shim_refuse_unsigned_under_secure_boot, set_shim_unsigned_secure_boot,
	-EPERM, "is not signed, and Secure Boot is on", NULL)
REFUSAL(shim_refuse_helper_not_pe, set_shim_helper_not_pe, -EINVAL,
	"mmx64.efi.signed, beside the shim, is not an EFI image", NULL)
REFUSAL(shim_refuse_unsigned_image, set_shim_unsigned_image, -EPERM,
	"shim starts only a second stage signed by a key it trusts", NULL)
REFUSAL(shim_refuse_over_plain, set_shim_over_plain, -EEXIST,
	"without shim already (its record lists EFI/bootmenu/bootmenu.efi)",
	NULL)
REFUSAL(shim_refuse_plain_over_shim, set_plain_over_shim, -EEXIST,
	"behind shim already (its record lists EFI/bootmenu/shimx64.efi)", NULL)
REFUSAL(shim_refuse_with_bios, set_shim_with_bios, -EINVAL, "--shim: those",
	NULL)
REFUSAL(shim_refuse_fallback_in_the_way, set_shim_fallback_in_the_way, -EEXIST,
	"EFI/BOOT/fbx64.efi.bootmenu-old is in the way", NULL)
/* A change fails halfway: the shim layout's files are taken back. */
REFUSAL(shim_failure_halfway_rolls_back, set_shim_bootorder_dir, -EISDIR,
	"BootOrder",
	"failed:   taking back what was changed\n"
	"delete:   Boot0001\n"
	"restore:  EFI/BOOT/BOOTX64.EFI from "
	"EFI/BOOT/BOOTX64.EFI.bootmenu-old\n"
	"remove:   EFI/BOOT/mmx64.efi\n"
	"remove:   EFI/BOOT/grubx64.efi\n"
	"remove:   EFI/bootmenu/shimx64.efi\n")

TEST_MAIN("test_install", install_default_removable, install_not_default,
	  install_reuses_option, install_again, install_empty_esp,
	  print_changes_nothing, no_nvram_plain_directory, each_write_synced,
	  secure_boot_picks_signed, refuse_unsigned_under_secure_boot,
	  refuse_no_image, refuse_no_efivars, refuse_not_uefi,
	  refuse_not_a_partition, refuse_backup_in_the_way, refuse_no_record,
	  refuse_bad_record, refuse_read_only_esp, refuse_no_room,
	  failure_halfway_rolls_back, bios_print_changes_nothing,
	  bios_install_mbr, bios_active_flag, bios_install_gpt,
	  bios_install_again, bios_cut_before_code_uninstalls,
	  bios_cut_before_code_install_again,
	  bios_uninstall_refuses_foreign_code, bios_extlinux_fails_rolls_back,
	  bios_refuse_no_extlinux, bios_refuse_no_mbr_bin,
	  bios_refuse_uefi_booted, bios_refuse_not_a_disk,
	  bios_refuse_no_such_partition, bios_refuse_logical_partition,
	  bios_refuse_no_table, bios_refuse_bad_gpt, bios_refuse_half_options,
	  bios_refuse_boot_dir_tmpfs, bios_refuse_boot_dir_btrfs, shim_install,
	  shim_default_again, shim_print_changes_nothing, shim_removable,
	  shim_unsigned_without_helpers, shim_only_when_named,
	  shim_refuse_not_pe, shim_refuse_no_pe_signature, shim_refuse_missing,
	  shim_refuse_unsigned_under_secure_boot, shim_refuse_helper_not_pe,
	  shim_refuse_unsigned_image, shim_refuse_over_plain,
	  shim_refuse_plain_over_shim, shim_refuse_with_bios,
	  shim_refuse_fallback_in_the_way, shim_failure_halfway_rolls_back)
