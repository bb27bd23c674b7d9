/* test_efi_boot.c - EFI loaders on an ESP as entries (cfg/efi_loaders.c),
 * what the firmware offers (efi/fwstate.c) and the firmware boot method
 * (boot/firmware.c) on a scratch efivarfs directory: which Boot#### is
 * reused, which one is made, BootNext, the dry run's bytes,
 * OsIndications, and a refused BootNext that leaves every variable as it
 * was; then the whole boot transaction (boot_run()) with a fake
 * front-end and session. Never this machine's /sys/firmware/efi, and
 * never the real jump (the kexec double's calls stand in for reboot(2),
 * tests/double/): the tests run as root. */
#include "boot/boot.h"
#include "boot/transaction.h"
#include "boot/firmware.h"
#include "cfg/resolve.h"
#include "kexec_double.h"
#include "efi/bootopts.h"
#include "efi/devpath.h"
#include "efi/efivar.h"
#include "efi/fwstate.h"
#include "efi/guid.h"
#include "efi/loadopt.h"
#include "source/source.h"
#include "test.h"
#include "tfs.h"
#include "util/le.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdint.h>
#include <sys/statvfs.h>

#define PARTUUID "0e7a8d5c-3b51-4c0e-9f2a-6d1b8e4f7a21"
#define WIN "/EFI/Microsoft/Boot/bootmgfw.efi"
#define FALLBACK "/EFI/BOOT/BOOTX64.EFI"

/* --- a fake ESP */

struct fw_dir;
/* The entries a firmware (below) adds after @t's own, as the session asks
 * its source (source.h); true when they depend on the whole set. */
static bool fw_listed(struct tfs *t, struct fw_dir *d, bool ui);

static void esp_init(struct tfs *t)
{
	tfs_init(t);
	t->fs.esp = true;
	t->fs.casefold = true;
	t->fs.name = "esp";
	t->fs.partuuid = PARTUUID;
	t->fs.partno = 1;
	t->fs.part_start = 2048;
	t->fs.part_size = 100000;
}

static void esp_fill(struct tfs *t)
{
	tfs_write(t, WIN, "MZ windows");
	tfs_write(t, "/EFI/Microsoft/Boot/memtest.efi", "MZ win memtest");
	tfs_write(t, "/EFI/debian/shimx64.efi", "MZ shim");
	tfs_write(t, "/EFI/debian/grubx64.efi", "MZ grub");
	tfs_write(t, "/EFI/debian/mmx64.efi", "MZ mok");
	tfs_write(t, FALLBACK, "MZ some fallback");
	tfs_write(t, "/EFI/memtest86/memtest86+x64.efi", "MZ memtest");
	tfs_write(t, "/EFI/tools/shellx64.efi", "MZ shell");
	tfs_write(t, "/EFI/refind/refind_x64.efi", "MZ refind");
	tfs_write(t, "/EFI/refind/drivers_x64/ext4_x64.efi", "MZ driver");
	tfs_write(t, "/EFI/Linux/not-a-uki.efi", "MZ");
	tfs_write(t, "/EFI/shimonly/fbx64.efi", "MZ fallback helper");
	tfs_write(t, "/EFI/zz/b.efi", "MZ b");
	tfs_write(t, "/EFI/zz/a.EFI", "MZ a");
	/* Xen's EFI loader beside a distribution's shim, and alone */
	tfs_write(t, "/EFI/debian/xen-4.17-amd64.efi", "MZ xen");
	tfs_write(t, "/EFI/debian/xen-4.17-amd64.cfg", "[global]");
	tfs_write(t, "/EFI/xen/xen.efi", "MZ xen alone");
}

static struct entry *by_title(struct tfs *t, const char *title)
{
	for (struct entry *e = t->out.head; e; e = e->next)
		if (!strcmp(e->title, title))
			return e;
	return NULL;
}

/* "title=path|..." of every entry, in order. */
static const char *list(struct tfs *t, char *out, size_t len)
{
	size_t o = 0;

	out[0] = '\0';
	for (struct entry *e = t->out.head; e && o < len; e = e->next) {
		o += (size_t)snprintf(out + o, len - o, "%s=%s|", e->title,
				      e->kernel.path ? e->kernel.path : "-");
		CHECK_INT(e->format, FMT_EFI);
		CHECK_INT(e->method, ENTRY_FIRMWARE);
		CHECK(e->fs == &t->fs);
	}
	return out;
}

TEST(esp_entries)
{
	struct tfs t;
	char got[2048];

	esp_init(&t);
	esp_fill(&t);
	CHECK_INT(efi_loaders_parse_fs(&t.ctx), 0);
	CHECK_STR(list(&t, got, sizeof(got)),
		  "Windows Boot Manager=" WIN "|"
		  "debian (EFI loader)=/EFI/debian/shimx64.efi|"
		  "refind (EFI loader)=/EFI/refind/refind_x64.efi|"
		  "zz (EFI loader)=/EFI/zz/a.EFI|"
		  "EFI fallback loader (BOOTX64.EFI)=" FALLBACK "|"
		  "Xen (xen-4.17-amd64.efi)=/EFI/debian/xen-4.17-amd64.efi|"
		  "Memory test (memtest86+x64.efi)="
		  "/EFI/memtest86/memtest86+x64.efi|"
		  "UEFI Shell (shellx64.efi)=/EFI/tools/shellx64.efi|"
		  "Xen (xen.efi)=/EFI/xen/xen.efi|");
	CHECK_INT(n_warn(&t), 0);
	CHECK(nth(&t, 0) == by_title(&t, "Windows Boot Manager"));
	CHECK(!t.ctx.all_deps);
	tfs_done(&t);
}

/* Not an ESP: nothing, even with the same files. */
TEST(esp_only)
{
	struct tfs t;

	tfs_init(&t);
	esp_fill(&t);
	CHECK_INT(efi_loaders_parse_fs(&t.ctx), 0);
	fw_listed(&t, NULL, true);
	CHECK_INT(t.out.count, 0);
	tfs_done(&t);
}

/* FAT ignores case: names as spelled on the disk; grubx64.efi when
 * there is no shim; a memtest in \EFI itself. */
TEST(esp_case_and_preference)
{
	struct tfs t;
	char got[1024];

	esp_init(&t);
	tfs_write(&t, "/efi/microsoft/boot/BOOTMGFW.EFI", "MZ");
	tfs_write(&t, "/efi/Fedora/GRUBX64.EFI", "MZ");
	tfs_write(&t, "/efi/Fedora/systemd-bootx64.efi", "MZ");
	tfs_write(&t, "/efi/Memtest64.efi", "MZ");
	tfs_write(&t, "/efi/boot/bootx64.efi", "MZ other");
	CHECK_INT(efi_loaders_parse_fs(&t.ctx), 0);
	CHECK_STR(list(&t, got, sizeof(got)),
		  "Windows Boot Manager=/efi/microsoft/boot/BOOTMGFW.EFI|"
		  "Fedora (EFI loader)=/efi/Fedora/GRUBX64.EFI|"
		  "EFI fallback loader (BOOTX64.EFI)=/efi/boot/bootx64.efi|"
		  "Memory test (Memtest64.efi)=/efi/Memtest64.efi|");
	tfs_done(&t);
}

/* A bzImage whose setup header's kernel_version says @release. */
static void write_bzimage(struct tfs *t, const char *path, const char *release)
{
	char img[0x1000] = {0}, full[512];
	FILE *f;

	img[0] = 'M', img[1] = 'Z';
	put_le32(img, sizeof(img), 0x202, 0x53726448); /* "HdrS" */
	put_le16(img, sizeof(img), 0x206, 0x020f);
	put_le16(img, sizeof(img), 0x20e, 0x0800 - 0x200);
	snprintf(img + 0x800, 0x100, "%s (root@vm) #4 SMP", release);
	snprintf(full, sizeof(full), "%s%s", t->dir, path);
	tfs_mkdirs(full);
	f = fopen(full, "wb");
	CHECK(f && fwrite(img, 1, sizeof(img), f) == sizeof(img));
	if (f)
		fclose(f);
}

/* The fallback loader is left out when it is bootmenu (its kernel
 * release names it) or a copy of a loader already listed. */
TEST(esp_fallback_not_listed)
{
	struct tfs t;

	esp_init(&t);
	write_bzimage(&t, FALLBACK, "6.1.192-bootmenu");
	CHECK_INT(efi_loaders_parse_fs(&t.ctx), 0);
	CHECK_INT(t.out.count, 0);
	tfs_done(&t);

	esp_init(&t);
	write_bzimage(&t, FALLBACK, "6.1.0-13-amd64");
	CHECK_INT(efi_loaders_parse_fs(&t.ctx), 0);
	CHECK_INT(t.out.count, 1);
	CHECK(by_title(&t, "EFI fallback loader (BOOTX64.EFI)") != NULL);
	tfs_done(&t);

	esp_init(&t);
	tfs_write(&t, "/EFI/debian/shimx64.efi", "MZ the same shim");
	tfs_write(&t, FALLBACK, "MZ the same shim");
	tfs_write(&t, "/EFI/BOOT/fbx64.efi", "MZ fb");
	CHECK_INT(efi_loaders_parse_fs(&t.ctx), 0);
	CHECK_INT(t.out.count, 1);
	CHECK(by_title(&t, "debian (EFI loader)") != NULL);
	tfs_done(&t);
}

/* A file an entry of another format here boots already (kernelstub's
 * vmlinuz.efi named by a BLS entry) is not listed again. */
TEST(esp_named_elsewhere)
{
	struct tfs t;
	struct entry *e;

	esp_init(&t);
	tfs_write(&t, "/EFI/Pop_OS-1234/vmlinuz.efi", "MZ kernel");
	e = entry_new(&t.out, FMT_BLS, &t.fs);
	e->id = e->title = "Pop!_OS";
	e->kernel.path = "/EFI/Pop_OS-1234/vmlinuz.efi";
	entry_add(&t.out, e);
	CHECK_INT(efi_loaders_parse_fs(&t.ctx), 0);
	CHECK_INT(t.out.count, 1);
	tfs_done(&t);
}

/* "UEFI Firmware Settings": once, on the first ESP of the set, only
 * when the firmware offers it; its place depends on the whole set. */
TEST(esp_fw_ui)
{
	struct tfs t;
	struct fs_root other = {.esp = true, .name = "other"}, plain = {0};
	const struct fs_root *all[3] = {&plain, &other, NULL};
	struct entry *e;

	esp_init(&t);
	all[2] = &t.fs;
	t.ctx.all = all;
	t.ctx.n_all = 3;
	CHECK_INT(efi_loaders_parse_fs(&t.ctx), 0);
	CHECK(fw_listed(&t, NULL, true));
	CHECK_INT(t.out.count, 0); /* "other" comes first */
	all[1] = &t.fs, all[2] = &other;
	CHECK_INT(efi_loaders_parse_fs(&t.ctx), 0);
	fw_listed(&t, NULL, true);
	CHECK_INT(t.out.count, 1);
	e = by_title(&t, "UEFI Firmware Settings");
	CHECK(e && e->fw_setup && e->method == ENTRY_FIRMWARE &&
	      e->format == FMT_EFI && !e->kernel.path);
	tfs_done(&t);
	esp_init(&t);
	CHECK_INT(efi_loaders_parse_fs(&t.ctx), 0);
	CHECK(!fw_listed(&t, NULL, false));
	CHECK_INT(t.out.count, 0);
	CHECK(!t.ctx.all_deps);
	tfs_done(&t);
}

/* --- a fake firmware: <dir>/efivars */

struct fw_dir {
	char efi[64];	     /* plays /sys/firmware/efi */
	char vars[PATH_MAX]; /* plays /sys/firmware/efi/efivars */
	struct efi_vars v;
	struct boot_opts bo;
	struct boot_loaded l; /* what the last load() left */
};

static void fw_dir_make(struct fw_dir *d)
{
	char real[PATH_MAX];

	memset(d, 0, sizeof(*d));
	snprintf(d->efi, sizeof(d->efi), "/tmp/test_efi_boot.XXXXXX");
	if (!mkdtemp(d->efi))
		abort();
	snprintf(d->vars, sizeof(d->vars), "%s/efivars", d->efi);
	if (mkdir(d->vars, 0755) < 0 || !realpath(d->vars, real))
		abort();
	/* never the machine's own variables */
	if (!strncmp(real, "/sys/", 5) ||
	    strstr(real, "firmware/efi/efivars")) {
		printf("  refusing to run on %s\n", real);
		exit(1);
	}
	d->v.dir = d->vars;
	d->bo.efi_dir = d->efi;
	d->bo.efi_vars = &d->v;
}

static void fw_dir_remove(struct fw_dir *d)
{
	test_rmtree(d->efi);
}

/* Variable @name made by hand: the attributes, then the data. */
static void put_var(struct fw_dir *d, const char *name, uint32_t attrs,
		    const uint8_t *data, size_t len)
{
	char path[PATH_MAX + 64];
	uint8_t hdr[4];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s-%s", d->vars, name,
		 EFI_GLOBAL_GUID);
	put_le32(hdr, 4, 0, attrs);
	f = fopen(path, "wb");
	if (!f || fwrite(hdr, 1, 4, f) != 4 || fwrite(data, 1, len, f) != len)
		abort();
	fclose(f);
}

/* A load option for @file on the ESP's partition, by the efi room. */
static size_t make_option(uint32_t attrs, const char *desc, const char *file,
			  uint8_t *out, size_t cap)
{
	struct efi_hd hd;
	uint8_t dp[512];
	ssize_t n;

	CHECK_INT(efi_hd_gpt(&hd, 1, 2048, 100000, PARTUUID), 0);
	n = efi_dp_encode_hd_file(&hd, file, dp, sizeof(dp));
	CHECK(n > 0);
	n = efi_loadopt_encode(attrs, desc, dp, (size_t)n, NULL, 0, out, cap);
	CHECK(n > 0);
	return n > 0 ? (size_t)n : 0;
}

static void put_option(struct fw_dir *d, uint16_t num, uint32_t attrs,
		       const char *desc, const char *file)
{
	uint8_t opt[1024];
	char name[EFI_BOOT_NAME_LEN];
	size_t n = make_option(attrs, desc, file, opt, sizeof(opt));

	efi_boot_name(num, name);
	put_var(d, name, EFI_VARIABLE_NV_BS_RT, opt, n);
}

/* The entries the firmware of @d (NULL: a scratch one with no variable)
 * adds after @t's own: its source (source.h) asked as the session asks
 * it, with OsIndicationsSupported offering the setup screen when @ui.
 * True when they depend on the whole set. */
static bool fw_listed(struct tfs *t, struct fw_dir *d, bool ui)
{
	static const uint8_t sup[8] = {0x01};
	struct fw_dir none;
	struct fw_dir *fd = d ? d : &none;
	struct source_entries x = {.fs = &t->fs,
				   .all = t->ctx.all,
				   .n_all = t->ctx.n_all,
				   .out = &t->out};
	struct efi_fw w = {fd->efi, &fd->v};
	struct source *src;
	const char *off = "x";

	if (!d)
		fw_dir_make(&none);
	if (ui)
		put_var(fd, "OsIndicationsSupported", 6, sup, sizeof(sup));
	src = source_firmware_new(&w, &off);
	CHECK(src && !off);
	if (src) {
		src->ops->entries(src, &x);
		src->ops->free(src);
	}
	if (!d)
		fw_dir_remove(&none);
	return x.all_deps;
}

/* Boot0000 debian's shim, Boot0002 Windows (BootOrder's first), Boot0003
 * Windows again (not in BootOrder), Boot0004 the fallback but inactive. */
static void fw_fill(struct fw_dir *d)
{
	static const uint8_t order[] = {0x02, 0x00, 0x00, 0x00};

	put_option(d, 0, EFI_LOAD_OPTION_ACTIVE, "debian",
		   "\\EFI\\debian\\shimx64.efi");
	put_option(d, 2, EFI_LOAD_OPTION_ACTIVE, "Windows Boot Manager",
		   "\\EFI\\Microsoft\\Boot\\bootmgfw.efi");
	put_option(d, 3, EFI_LOAD_OPTION_ACTIVE, "Windows again",
		   "\\EFI\\Microsoft\\Boot\\bootmgfw.efi");
	put_option(d, 4, 0, "inactive fallback", "\\EFI\\BOOT\\BOOTX64.EFI");
	put_var(d, "BootOrder", EFI_VARIABLE_NV_BS_RT, order, sizeof(order));
}

static int name_cmp(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* Every file of the variables directory: "name=hex;..." (malloc'd). */
static char *snapshot(struct fw_dir *d)
{
	struct dirent **de;
	int n = scandir(d->vars, &de, NULL, name_cmp);
	size_t cap = 1 << 16, o = 0;
	char *s = calloc(1, cap), path[PATH_MAX + 300];

	for (int i = 0; i < n; i++) {
		size_t len = 0;
		char *b;

		snprintf(path, sizeof(path), "%s/%s", d->vars, de[i]->d_name);
		b = de[i]->d_name[0] == '.' ? NULL : test_slurp(path, &len);
		if (b)
			o += (size_t)snprintf(s + o, cap - o,
					      "%s=", de[i]->d_name);
		for (size_t k = 0; b && k < len && o + 4 < cap; k++)
			o += (size_t)snprintf(s + o, cap - o, "%02x",
					      (uint8_t)b[k]);
		if (b)
			o += (size_t)snprintf(s + o, cap - o, ";");
		free(b);
		free(de[i]);
	}
	free(de);
	return s;
}

/* Variable @name's file as "<attrs>:<hex data>", "-" when absent. */
static const char *var_hex(struct fw_dir *d, const char *name, char *out,
			   size_t len)
{
	char path[PATH_MAX + 64];
	size_t n = 0, o = 0;
	char *b;

	snprintf(path, sizeof(path), "%s/%s-%s", d->vars, name,
		 EFI_GLOBAL_GUID);
	b = test_slurp(path, &n);
	snprintf(out, len, "-");
	for (size_t i = 0; b && i < n && o + 4 < len; i++)
		o += (size_t)snprintf(out + o, len - o, "%02x%s", (uint8_t)b[i],
				      i == 3 ? ":" : "");
	free(b);
	return out;
}

/* The ESP's entries (parsed and finished as a scan does). */
static void esp_parsed(struct tfs *t)
{
	esp_init(t);
	esp_fill(t);
	efi_loaders_parse_fs(&t->ctx);
	cfg_finish(&t->out, t->all, 1);
}

static int load(struct fw_dir *d, const struct entry *e, bool dry,
		char **printed, char *err, size_t errlen)
{
	size_t len;
	int rc;

	d->bo.dry_run = dry;
	d->bo.plan_out = printed ? open_memstream(printed, &len) : NULL;
	rc = boot_load_entry(e, &d->bo, &d->l, err, errlen);
	if (d->bo.plan_out)
		fclose(d->bo.plan_out);
	d->bo.plan_out = NULL;
	return rc;
}

/* Windows has a Boot#### already (BootOrder's first of two): the dry run
 * prints BootNext alone, and writes nothing. */
TEST(boot_windows_dry_run)
{
	struct tfs t;
	struct fw_dir d;
	char err[256], *out = NULL, *before, *after;

	esp_parsed(&t);
	fw_dir_make(&d);
	fw_fill(&d);
	before = snapshot(&d);
	CHECK_INT(load(&d, by_title(&t, "Windows Boot Manager"), true, &out,
		       err, sizeof(err)),
		  0);
	CHECK_STR(out, "entry:    Windows Boot Manager (efi, through the "
		       "firmware)\n"
		       "loader:   " WIN
		       " on esp, partition 1, PARTUUID " PARTUUID "\n"
		       "option:   Boot0002 \"Windows Boot Manager\" points at "
		       "it\n"
		       "write:    BootNext-" EFI_GLOBAL_GUID
		       " attributes 0x00000007, 2 bytes\n"
		       "          02 00\n"
		       "then:     restart; the firmware boots Boot0002 once, "
		       "BootOrder stays as it is\n");
	after = snapshot(&d);
	CHECK_STR(after, before);
	CHECK(!d.l.ready && !d.l.syscall); /* nothing to jump to */
	free(out), free(before), free(after);
	fw_dir_remove(&d);
	tfs_done(&t);
}

/* The same for real: BootNext = 0x0002, nothing else changes. */
TEST(boot_windows_reuses_option)
{
	struct tfs t;
	struct fw_dir d;
	struct firmware_opts fo = {0};
	struct firmware_undo u;
	char err[256], h[128], order[64], *before, *after;

	esp_parsed(&t);
	fw_dir_make(&d);
	fw_fill(&d);
	var_hex(&d, "BootOrder", order, sizeof(order));
	before = snapshot(&d);
	fo.efi_dir = d.efi;
	CHECK_INT(firmware_load(by_title(&t, "Windows Boot Manager"), &fo, &u,
				err, sizeof(err)),
		  0);
	CHECK_STR(err, "");
	CHECK_STR(var_hex(&d, "BootNext", h, sizeof(h)), "07000000:0200");
	CHECK_STR(var_hex(&d, "BootOrder", h, sizeof(h)), order);
	CHECK(u.active && !u.created && !u.had_old);
	/* taken back: exactly as before */
	CHECK_INT(firmware_undo(&u, err, sizeof(err)), 0);
	after = snapshot(&d);
	CHECK_STR(after, before);
	free(before), free(after);
	fw_dir_remove(&d);
	tfs_done(&t);
}

#define FALLBACK_DESC "EFI fallback loader (BOOTX64.EFI) (bootmenu)"

/* What the new option for the fallback loader must hold: "<attrs>:<hex>"
 * into @hex, and as the dry run's lines (16 bytes each) into @lines. */
static void fallback_option(char *hex, size_t hexlen, char *lines,
			    size_t linelen)
{
	uint8_t want[1024];
	size_t n = make_option(EFI_LOAD_OPTION_ACTIVE, FALLBACK_DESC,
			       "\\EFI\\BOOT\\BOOTX64.EFI", want, sizeof(want));
	size_t o = (size_t)snprintf(hex, hexlen, "07000000:"), l = 0;

	for (size_t i = 0; i < n; i++) {
		o += (size_t)snprintf(hex + o, hexlen - o, "%02x", want[i]);
		l += (size_t)snprintf(lines + l, linelen - l, "%s%02x%s",
				      i % 16 ? " " : "          ", want[i],
				      i % 16 == 15 || i + 1 == n ? "\n" : "");
	}
	CHECK_INT(n, 6 + 45 * 2 + 42 + 48 + 4); /* 190 */
}

/* No active option points at the fallback loader: the dry run shows the
 * Boot0001 (the lowest free number) it would make and BootNext, byte
 * for byte, and writes nothing. */
TEST(boot_fallback_dry_run)
{
	struct tfs t;
	struct fw_dir d;
	char err[256], hex[512], lines[1024], want[2048];
	char *out = NULL, *before, *after;

	esp_parsed(&t);
	fw_dir_make(&d);
	fw_fill(&d);
	fallback_option(hex, sizeof(hex), lines, sizeof(lines));
	snprintf(want, sizeof(want),
		 "entry:    EFI fallback loader (BOOTX64.EFI) (efi, through "
		 "the firmware)\n"
		 "loader:   " FALLBACK
		 " on esp, partition 1, PARTUUID " PARTUUID "\n"
		 "option:   none points at it: Boot0001 is made\n"
		 "write:    Boot0001-" EFI_GLOBAL_GUID
		 " attributes 0x00000007, 190 bytes\n%s"
		 "write:    BootNext-" EFI_GLOBAL_GUID
		 " attributes 0x00000007, 2 bytes\n"
		 "          01 00\n"
		 "then:     restart; the firmware boots Boot0001 once, "
		 "BootOrder stays as it is\n",
		 lines);
	before = snapshot(&d);
	CHECK_INT(load(&d, by_title(&t, "EFI fallback loader (BOOTX64.EFI)"),
		       true, &out, err, sizeof(err)),
		  0);
	CHECK_STR(out, want);
	after = snapshot(&d);
	CHECK_STR(after, before);
	free(out), free(before), free(after);
	fw_dir_remove(&d);
	tfs_done(&t);
}

/* For real: Boot0001 is made, then BootNext points at it; BootOrder
 * stays; the next time the option made is the one. */
TEST(boot_fallback_makes_option)
{
	struct tfs t;
	struct fw_dir d;
	struct firmware_opts fo = {0};
	const struct entry *e;
	char err[256], h[2048], hex[512], lines[1024], order[64];

	esp_parsed(&t);
	fw_dir_make(&d);
	fw_fill(&d);
	e = by_title(&t, "EFI fallback loader (BOOTX64.EFI)");
	fallback_option(hex, sizeof(hex), lines, sizeof(lines));
	var_hex(&d, "BootOrder", order, sizeof(order));
	fo.efi_dir = d.efi;
	CHECK_INT(firmware_load(e, &fo, NULL, err, sizeof(err)), 0);
	CHECK_STR(var_hex(&d, "Boot0001", h, sizeof(h)), hex);
	CHECK_STR(var_hex(&d, "BootNext", h, sizeof(h)), "07000000:0100");
	CHECK_STR(var_hex(&d, "BootOrder", h, sizeof(h)), order);
	CHECK_INT(firmware_load(e, &fo, NULL, err, sizeof(err)), 0);
	CHECK_STR(var_hex(&d, "Boot0005", h, sizeof(h)), "-");
	CHECK_STR(var_hex(&d, "BootNext", h, sizeof(h)), "07000000:0100");
	fw_dir_remove(&d);
	tfs_done(&t);
}

/* The seam: BootNext exists and is immutable, and the flag cannot be
 * cleared: its write fails. */
static int refuse_bootnext(int fd, unsigned long req, int *flags, void *ctx)
{
	char link[64], target[PATH_MAX];
	ssize_t n;

	(void)ctx;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, target, sizeof(target) - 1);
	target[n > 0 ? n : 0] = '\0';
	if (!strstr(target, "/BootNext-")) {
		if (req == FS_IOC_GETFLAGS)
			*flags = 0;
		return 0;
	}
	if (req == FS_IOC_GETFLAGS) {
		*flags = FS_IMMUTABLE_FL;
		return 0;
	}
	return -EPERM;
}

/* A BootNext that cannot be written: the Boot#### just made is deleted,
 * every file is as it was, the sentence names BootNext. */
TEST(boot_bootnext_refused)
{
	static const uint8_t next[] = {0x00, 0x00};
	struct tfs t;
	struct fw_dir d;
	char err[256], *before, *after;

	esp_parsed(&t);
	fw_dir_make(&d);
	fw_fill(&d);
	put_var(&d, "BootNext", EFI_VARIABLE_NV_BS_RT, next, sizeof(next));
	d.v.flags_ioctl = refuse_bootnext;
	before = snapshot(&d);
	CHECK_INT(load(&d, by_title(&t, "EFI fallback loader (BOOTX64.EFI)"),
		       false, NULL, err, sizeof(err)),
		  -EPERM);
	CHECK_STR(
	    err, "cannot write EFI variable BootNext: Operation not permitted");
	after = snapshot(&d);
	CHECK_STR(after, before);
	free(before), free(after);
	fw_dir_remove(&d);
	tfs_done(&t);
}

/* Through boot_load_entry(): what a load wrote travels in its struct
 * boot_loaded, and boot_unload() puts it back when no jump follows; a
 * load that fails leaves the variables as they were, and nothing to put
 * back. */
TEST(boot_loads_take_back)
{
	struct tfs t;
	struct fw_dir d;
	struct entry setup = {.method = ENTRY_FIRMWARE,
			      .fw_setup = true,
			      .title = "UEFI Firmware Settings"};
	char err[256], h[128], *before, *after;

	esp_parsed(&t);
	fw_dir_make(&d);
	fw_fill(&d);
	before = snapshot(&d);
	CHECK_INT(load(&d, by_title(&t, "Windows Boot Manager"), false, NULL,
		       err, sizeof(err)),
		  0);
	CHECK(d.l.ready && d.l.method == ENTRY_FIRMWARE);
	CHECK_STR(d.l.syscall, "BootNext");
	CHECK_STR(var_hex(&d, "BootNext", h, sizeof(h)), "07000000:0200");
	boot_unload(&d.l);
	CHECK(!d.l.ready);
	after = snapshot(&d);
	CHECK_STR(after, before);
	free(after);
	CHECK_INT(load(&d, by_title(&t, "EFI fallback loader (BOOTX64.EFI)"),
		       false, NULL, err, sizeof(err)),
		  0);
	CHECK_STR(var_hex(&d, "BootNext", h, sizeof(h)), "07000000:0100");
	CHECK(strcmp(var_hex(&d, "Boot0001", h, sizeof(h)), "-") != 0);
	boot_unload(&d.l); /* the Boot0001 it made goes too */
	after = snapshot(&d);
	CHECK_STR(after, before);
	free(after);
	/* no OsIndicationsSupported: refused, nothing written */
	CHECK_INT(load(&d, &setup, false, NULL, err, sizeof(err)), -EOPNOTSUPP);
	CHECK_STR(err, "the firmware does not offer its setup screen "
		       "(OsIndicationsSupported)");
	CHECK(!d.l.ready && !d.l.fw.active);
	after = snapshot(&d);
	CHECK_STR(after, before);
	free(before), free(after);
	fw_dir_remove(&d);
	tfs_done(&t);
}

/* Under BIOS (no /sys/firmware/efi) the entries cannot boot. */
TEST(boot_not_uefi)
{
	struct entry setup = {.method = ENTRY_FIRMWARE,
			      .fw_setup = true,
			      .title = "UEFI Firmware Settings"};
	struct tfs t;
	struct fw_dir d;
	char err[256];

	esp_parsed(&t);
	fw_dir_make(&d);
	d.bo.efi_dir = "/nonexistent/firmware/efi";
	CHECK_INT(load(&d, by_title(&t, "Windows Boot Manager"), true, NULL,
		       err, sizeof(err)),
		  -EOPNOTSUPP);
	CHECK_STR(err, "this machine did not boot through UEFI: EFI loaders "
		       "boot only from the firmware");
	CHECK_INT(efi_fw_ready(&(struct efi_fw){d.bo.efi_dir, &d.v}, err,
			       sizeof(err)),
		  -EOPNOTSUPP);
	CHECK_STR(err, "this machine did not boot through UEFI: EFI loaders "
		       "boot only from the firmware");
	CHECK(!efi_fw_setup_offered(&(struct efi_fw){d.bo.efi_dir, &d.v}));
	CHECK_INT(load(&d, &setup, true, NULL, err, sizeof(err)), -EOPNOTSUPP);
	CHECK_STR(err, "this machine did not boot through UEFI: there is no "
		       "firmware setup to restart into");
	fw_dir_remove(&d);
	tfs_done(&t);
}

/* Booted through UEFI but efivarfs not mounted (a kernel without it, or
 * /init's mount failed): said so, nothing written. */
TEST(boot_no_efivarfs)
{
	struct tfs t;
	struct fw_dir d;
	char err[256], want[PATH_MAX + 128];

	esp_parsed(&t);
	fw_dir_make(&d);
	if (rmdir(d.vars) < 0)
		abort();
	d.bo.efi_vars = NULL; /* <efi_dir>/efivars, as on a machine */
	CHECK_INT(load(&d, by_title(&t, "Windows Boot Manager"), false, NULL,
		       err, sizeof(err)),
		  -EOPNOTSUPP);
	snprintf(want, sizeof(want),
		 "the firmware's variables cannot be reached: efivarfs is not "
		 "mounted at %s",
		 d.vars);
	CHECK_STR(err, want);
	CHECK_INT(
	    efi_fw_ready(&(struct efi_fw){.efi_dir = d.efi}, err, sizeof(err)),
	    -EOPNOTSUPP);
	CHECK_STR(err, want);
	CHECK(access(d.vars, F_OK) < 0);
	fw_dir_remove(&d);
	tfs_done(&t);
}

/* A partition whose number, start and size are not known (--root): an
 * existing option still works, none can be made. */
TEST(boot_partition_unknown)
{
	struct tfs t;
	struct fw_dir d;
	struct firmware_opts fo = {0};
	char err[256], h[64], *before, *after;

	esp_parsed(&t);
	t.fs.partno = 0;
	t.fs.part_size = 0;
	t.fs.part_start = 0;
	fw_dir_make(&d);
	fw_fill(&d);
	fo.efi_dir = d.efi;
	before = snapshot(&d);
	CHECK_INT(
	    firmware_load(by_title(&t, "EFI fallback loader (BOOTX64.EFI)"),
			  &fo, NULL, err, sizeof(err)),
	    -ENXIO);
	CHECK(strstr(err, "esp is not known well enough") != NULL);
	after = snapshot(&d);
	CHECK_STR(after, before);
	CHECK_INT(firmware_load(by_title(&t, "Windows Boot Manager"), &fo, NULL,
				err, sizeof(err)),
		  0);
	CHECK_STR(var_hex(&d, "BootNext", h, sizeof(h)), "07000000:0200");
	free(before), free(after);
	fw_dir_remove(&d);
	tfs_done(&t);
}

/* OsIndications: created with NV+BS+RT, or its other bits and attributes
 * kept; the dry run prints it. */
TEST(boot_fw_setup)
{
	static const uint8_t sup[8] = {0x41}, old[8] = {0x04};
	struct fw_dir d;
	struct entry setup = {.method = ENTRY_FIRMWARE,
			      .fw_setup = true,
			      .title = "UEFI Firmware Settings"};
	struct firmware_opts fo = {0};
	char err[256], h[128], *out = NULL;

	fw_dir_make(&d);
	put_var(&d, "OsIndicationsSupported", 6, sup, sizeof(sup));
	CHECK_INT(load(&d, &setup, true, &out, err, sizeof(err)), 0);
	CHECK_STR(out, "entry:    UEFI Firmware Settings (firmware setup)\n"
		       "write:    OsIndications-" EFI_GLOBAL_GUID
		       " attributes 0x00000007, 8 bytes\n"
		       "          01 00 00 00 00 00 00 00\n"
		       "then:     restart into the firmware's setup screen\n");
	CHECK_STR(var_hex(&d, "OsIndications", h, sizeof(h)), "-");
	fo.efi_dir = d.efi;
	CHECK_INT(firmware_load(&setup, &fo, NULL, err, sizeof(err)), 0);
	CHECK_STR(var_hex(&d, "OsIndications", h, sizeof(h)),
		  "07000000:0100000000000000");
	put_var(&d, "OsIndications", 3, old, sizeof(old));
	CHECK_INT(firmware_load(&setup, &fo, NULL, err, sizeof(err)), 0);
	CHECK_STR(var_hex(&d, "OsIndications", h, sizeof(h)),
		  "03000000:0500000000000000");
	CHECK(efi_fw_setup_offered(&(struct efi_fw){.efi_dir = d.efi}));
	/* not offered */
	put_var(&d, "OsIndicationsSupported", 6, old, sizeof(old));
	CHECK(!efi_fw_setup_offered(&(struct efi_fw){.efi_dir = d.efi}));
	CHECK_INT(firmware_load(&setup, &fo, NULL, err, sizeof(err)),
		  -EOPNOTSUPP);
	free(out);
	fw_dir_remove(&d);
}

/* --- the firmware's own boot options */

/* An option whose device path is no file on a partition: a network
 * card (PCI node, then End), as a firmware's PXE entry is. */
static void put_pxe(struct fw_dir *d, uint16_t num, uint32_t attrs,
		    const char *desc)
{
	static const uint8_t dp[] = {0x01, 0x01, 0x06, 0x00, 0x00,
				     0x03, 0x7f, 0xff, 0x04, 0x00};
	uint8_t opt[256];
	char name[EFI_BOOT_NAME_LEN];
	ssize_t n = efi_loadopt_encode(attrs, desc, dp, sizeof(dp), NULL, 0,
				       opt, sizeof(opt));

	CHECK(n > 0);
	efi_boot_name(num, name);
	put_var(d, name, EFI_VARIABLE_NV_BS_RT, opt, n > 0 ? (size_t)n : 0);
}

/* fw_fill()'s options and more: Boot0005 the network, Boot0006 bootmenu
 * itself, Boot0007 hidden, Boot0008 an application (a setup screen),
 * Boot0009 a loader on a partition bootmenu does not see, Boot0001
 * debian's grubx64.efi (the ESP lists its shim instead), outside
 * BootOrder as Boot0003 is. */
static void fw_fill_more(struct fw_dir *d)
{
	static const uint8_t order[] = {2, 0, 0, 0, 5, 0, 6,
					0, 7, 0, 8, 0, 9, 0};
	uint8_t opt[1024];
	struct efi_hd hd;
	uint8_t dp[512];
	ssize_t n;

	fw_fill(d);
	put_pxe(d, 5, EFI_LOAD_OPTION_ACTIVE, "UEFI PXEv4 (MAC:525400123456)");
	put_option(d, 6, EFI_LOAD_OPTION_ACTIVE, "bootmenu",
		   "\\EFI\\bootmenu\\bootmenu.efi");
	put_pxe(d, 7, EFI_LOAD_OPTION_ACTIVE | EFI_LOAD_OPTION_HIDDEN, "hid");
	put_pxe(d, 8, EFI_LOAD_OPTION_ACTIVE | EFI_LOAD_OPTION_CATEGORY_APP,
		"UiApp");
	CHECK_INT(efi_hd_gpt(&hd, 2, 4096, 1000,
			     "11111111-2222-4333-8444-555555555555"),
		  0);
	n = efi_dp_encode_hd_file(&hd, "\\EFI\\fedora\\shimx64.efi", dp,
				  sizeof(dp));
	n = efi_loadopt_encode(EFI_LOAD_OPTION_ACTIVE, "Fedora", dp,
			       n > 0 ? (size_t)n : 0, NULL, 0, opt,
			       sizeof(opt));
	CHECK(n > 0);
	put_var(d, "Boot0009", EFI_VARIABLE_NV_BS_RT, opt,
		n > 0 ? (size_t)n : 0);
	put_option(d, 1, EFI_LOAD_OPTION_ACTIVE, "debian grub",
		   "\\EFI\\debian\\\\grubx64.efi\\");
	put_var(d, "BootOrder", EFI_VARIABLE_NV_BS_RT, order, sizeof(order));
}

/* Read in BootOrder's order, then the rest by number; inactive, hidden
 * and application options left out; a file's path with '/'. */
TEST(fw_options_read)
{
	struct fw_dir d;
	struct arena a = ARENA_INIT;
	struct efi_boot_option *o;
	char err[256], got[1024];
	size_t n, k = 0;

	fw_dir_make(&d);
	fw_fill_more(&d);
	CHECK_INT(efi_boot_options(&d.v, &a, &o, &n, err, sizeof(err)), 0);
	for (size_t i = 0; i < n; i++)
		k += (size_t)snprintf(got + k, sizeof(got) - k,
				      "%04X %s %s %s|", o[i].num, o[i].desc,
				      o[i].partuuid ? o[i].partuuid : "-",
				      o[i].file ? o[i].file : "-");
	CHECK_STR(got, "0002 Windows Boot Manager " PARTUUID " " WIN "|"
		       "0000 debian " PARTUUID " /EFI/debian/shimx64.efi|"
		       "0005 UEFI PXEv4 (MAC:525400123456) - -|"
		       "0006 bootmenu " PARTUUID " /EFI/bootmenu/bootmenu.efi|"
		       "0009 Fedora 11111111-2222-4333-8444-555555555555 "
		       "/EFI/fedora/shimx64.efi|"
		       "0001 debian grub " PARTUUID " /EFI/debian/grubx64.efi|"
		       "0003 Windows again " PARTUUID " " WIN "|");
	arena_free(&a);
	fw_dir_remove(&d);
	d.v.dir = "/nonexistent/efivars";
	CHECK(efi_boot_options(&d.v, &a, &o, &n, err, sizeof(err)) < 0);
	CHECK(strstr(err, "cannot list the firmware's Boot#### variables"));
	arena_free(&a);
}

/* Listed with the ESP's loaders: once each (an option for a file the ESP
 * lists already is left out), never bootmenu itself, with
 * "UEFI Firmware Settings" last. */
TEST(fw_options_listed)
{
	struct tfs t;
	struct fw_dir d;
	char got[2048];
	size_t k = 0;
	struct entry *e;

	fw_dir_make(&d);
	fw_fill_more(&d);
	esp_init(&t);
	esp_fill(&t);
	write_bzimage(&t, "/EFI/bootmenu/bootmenu.efi", "6.1.0-bootmenu");
	CHECK_INT(efi_loaders_parse_fs(&t.ctx), 0);
	CHECK(fw_listed(&t, &d, true));
	cfg_finish(&t.out, t.all, 1);
	for (e = t.out.head; e; e = e->next)
		if (e->fw_option || e->fw_setup)
			k += (size_t)snprintf(
			    got + k, sizeof(got) - k, "%s=%s=%s|", e->id,
			    e->title, e->kernel.path ? e->kernel.path : "-");
	CHECK_STR(got, "Boot0005=UEFI PXEv4 (MAC:525400123456)=-|"
		       "Boot0009=Fedora=-|"
		       "Boot0001=debian grub=/EFI/debian/grubx64.efi|"
		       "fwsetup=UEFI Firmware Settings=-|");
	CHECK(by_title(&t, "bootmenu (EFI loader)") == NULL);
	CHECK_INT(n_warn(&t), 0);
	e = by_title(&t, "Fedora");
	CHECK(e && e->method == ENTRY_FIRMWARE && e->fw_num == 9 &&
	      !e->disabled);
	tfs_done(&t);
	fw_dir_remove(&d);
}

/* Booting one: BootNext names it, nothing else is written; the dry run
 * prints that; an option gone since the scan is said so, nothing
 * written. */
TEST(fw_option_boots_by_bootnext)
{
	struct fw_dir d;
	struct entry e = {.method = ENTRY_FIRMWARE,
			  .format = FMT_EFI,
			  .title = "UEFI PXEv4",
			  .fw_option = true,
			  .fw_num = 5};
	char err[256], h[64], *out = NULL, *before, *after;

	fw_dir_make(&d);
	fw_fill_more(&d);
	before = snapshot(&d);
	CHECK_INT(load(&d, &e, true, &out, err, sizeof(err)), 0);
	CHECK_STR(out, "entry:    UEFI PXEv4 (the firmware's Boot0005)\n"
		       "write:    BootNext-" EFI_GLOBAL_GUID
		       " attributes 0x00000007, 2 bytes\n"
		       "          05 00\n"
		       "then:     restart; the firmware boots Boot0005 once, "
		       "BootOrder stays as it is\n");
	after = snapshot(&d);
	CHECK_STR(after, before);
	free(after);
	e.fw_num = 0x0A;
	CHECK_INT(load(&d, &e, false, NULL, err, sizeof(err)), -ENOENT);
	CHECK_STR(err, "the firmware's boot option Boot000A (\"UEFI PXEv4\") "
		       "is gone");
	after = snapshot(&d);
	CHECK_STR(after, before);
	e.fw_num = 5;
	CHECK_INT(load(&d, &e, false, NULL, err, sizeof(err)), 0);
	CHECK_STR(var_hex(&d, "BootNext", h, sizeof(h)), "07000000:0500");
	CHECK_STR(var_hex(&d, "Boot000A", h, sizeof(h)), "-");
	free(out), free(before), free(after);
	fw_dir_remove(&d);
}

/* --- the boot transaction (boot_run()), with firmware entries: their
 * load writes only the scratch variables, so it can be real here, and the
 * jump is a stand-in that fails (the tests run as root) */

/* A front-end, a session and a jump that write down every call. */
struct fake {
	char log[256];	  /* "loading clear starting suspend ..." */
	char said[600];	  /* the last sentence */
	int clear_rc;	  /* what clearing next_entry returns */
	const char *why;  /* and its sentence */
	struct fw_dir *d; /* the variables, seen at the jump */
	char *at_jump;
};

static void fake_log(struct fake *f, const char *what)
{
	size_t n = strlen(f->log);

	snprintf(f->log + n, sizeof(f->log) - n, "%s ", what);
}

static void fake_say(void *ctx, enum boot_say what, const char *text)
{
	struct fake *f = ctx;

	fake_log(f, what == BOOT_SAY_LOADING ? "loading" : "starting");
	snprintf(f->said, sizeof(f->said), "%s", text);
}

static void fake_suspend(void *ctx)
{
	fake_log(ctx, "suspend");
}

static void fake_resume(void *ctx)
{
	fake_log(ctx, "resume");
}

static int fake_clear(void *session, char *err, size_t len)
{
	struct fake *f = session;

	fake_log(f, "clear");
	snprintf(err, len, "%s", f->why ? f->why : "");
	return f->clear_rc;
}

static void fake_unmount(void *session)
{
	fake_log(session, "unmount");
}

/* The jump's last calls, through the kexec double (kexec_double.h):
 * logged, with the variables as they stand, and failed. */
static struct fake *jumping;

static int fake_leave(const char *what)
{
	fake_log(jumping, what);
	free(jumping->at_jump);
	jumping->at_jump = snapshot(jumping->d);
	return -EIO;
}

static int fake_power(bool off)
{
	return fake_leave(off ? "power-off" : "restart");
}

static int fake_reboot(void)
{
	return fake_leave("kexec");
}

static const struct kexec_sys_ops fake_ops = {.reboot_kexec = fake_reboot,
					      .power = fake_power};

static const struct boot_front fake_front = {
    .say = fake_say, .suspend = fake_suspend, .resume = fake_resume};

/* boot_run() of @e with the fake front-end, session and jump. */
static int run_txn(struct fw_dir *d, struct fake *f, const struct entry *e,
		   char *err, size_t len)
{
	struct boot_front front = fake_front;
	int rc;

	front.ctx = f;
	f->d = d;
	d->bo.clear_once = fake_clear;
	d->bo.unmount = fake_unmount;
	d->bo.session = f;
	jumping = f;
	err[0] = '\0';
	kexec_sys_set_ops(&fake_ops);
	rc = boot_run(e, &d->bo, &front, err, len);
	kexec_sys_set_ops(NULL);
	return rc;
}

/* A real boot: the steps in their order, next_entry cleared after the
 * load and before "Starting"; BootNext written when the jump comes; the
 * jump fails and every variable is put back. */
TEST(txn_order_and_failed_jump)
{
	struct tfs t;
	struct fw_dir d;
	struct fake f = {0};
	char err[256], h[64], *before, *after;

	esp_parsed(&t);
	fw_dir_make(&d);
	fw_fill(&d);
	before = snapshot(&d);
	CHECK_INT(run_txn(&d, &f, by_title(&t, "Windows Boot Manager"), err,
			  sizeof(err)),
		  -EIO);
	CHECK_STR(f.log,
		  "loading clear starting suspend unmount restart resume ");
	CHECK_STR(f.said,
		  "Starting Windows Boot Manager (loaded with BootNext)");
	CHECK_STR(err, "the jump failed: Input/output error");
	CHECK(f.at_jump &&
	      strstr(f.at_jump, "BootNext-" EFI_GLOBAL_GUID "=070000000200;"));
	CHECK_STR(var_hex(&d, "BootNext", h, sizeof(h)), "-");
	after = snapshot(&d);
	CHECK_STR(after, before);
	free(f.at_jump), free(before), free(after);
	fw_dir_remove(&d);
	tfs_done(&t);
}

/* next_entry that cannot be cleared does not stop the boot: "Starting"
 * says why (the reason given, else the errno's words). */
TEST(txn_clear_failure_said)
{
	struct tfs t;
	struct fw_dir d;
	struct fake f = {.clear_rc = -EROFS,
			 .why = "vgsys/boot is a logical volume"};
	char err[256];

	esp_parsed(&t);
	fw_dir_make(&d);
	fw_fill(&d);
	CHECK_INT(run_txn(&d, &f, by_title(&t, "Windows Boot Manager"), err,
			  sizeof(err)),
		  -EIO);
	CHECK_STR(f.said, "Starting Windows Boot Manager (loaded with "
			  "BootNext); next_entry not cleared: vgsys/boot is a "
			  "logical volume");
	free(f.at_jump);
	f = (struct fake){.clear_rc = -EIO};
	CHECK_INT(run_txn(&d, &f, by_title(&t, "Windows Boot Manager"), err,
			  sizeof(err)),
		  -EIO);
	CHECK_STR(f.said, "Starting Windows Boot Manager (loaded with "
			  "BootNext); next_entry not cleared: Input/output "
			  "error");
	free(f.at_jump);
	fw_dir_remove(&d);
	tfs_done(&t);
}

/* A load that fails consumes nothing: no next_entry cleared, no
 * "Starting", no jump, the variables as they were. A disabled entry is
 * refused before anything is said. */
TEST(txn_failed_load)
{
	struct fw_dir d;
	struct fake f = {0};
	struct entry setup = {.method = ENTRY_FIRMWARE,
			      .format = FMT_EFI,
			      .fw_setup = true,
			      .title = "UEFI Firmware Settings"};
	char err[256], *before, *after;

	fw_dir_make(&d);
	before = snapshot(&d);
	CHECK_INT(run_txn(&d, &f, &setup, err, sizeof(err)), -EOPNOTSUPP);
	CHECK_STR(err, "the firmware does not offer its setup screen "
		       "(OsIndicationsSupported)");
	CHECK_STR(f.log, "loading ");
	CHECK_STR(f.said, "loading \"UEFI Firmware Settings\"");
	after = snapshot(&d);
	CHECK_STR(after, before);
	f = (struct fake){0};
	setup.disabled = "the firmware's setup screen is not offered here";
	CHECK_INT(run_txn(&d, &f, &setup, err, sizeof(err)), -EINVAL);
	CHECK_STR(err, "the firmware's setup screen is not offered here");
	CHECK_STR(f.log, "");
	free(before), free(after);
	fw_dir_remove(&d);
}

/* A dry run: the plan under its "would boot" line once the front-end
 * gave the terminal up; nothing written, cleared or jumped to. */
TEST(txn_dry_run)
{
	static const uint8_t sup[8] = {0x01};
	struct fw_dir d;
	struct fake f = {0};
	struct entry setup = {.method = ENTRY_FIRMWARE,
			      .format = FMT_EFI,
			      .fw_setup = true,
			      .title = "UEFI Firmware Settings"};
	char err[256], *out = NULL, *before, *after;
	size_t len;

	fw_dir_make(&d);
	put_var(&d, "OsIndicationsSupported", 6, sup, sizeof(sup));
	before = snapshot(&d);
	d.bo.dry_run = true;
	d.bo.plan_out = open_memstream(&out, &len);
	CHECK_INT(run_txn(&d, &f, &setup, err, sizeof(err)), 0);
	fclose(d.bo.plan_out);
	CHECK_STR(f.log, "loading suspend ");
	CHECK_STR(out, "bootmenu: would boot \"UEFI Firmware Settings\"\n"
		       "entry:    UEFI Firmware Settings (firmware setup)\n"
		       "write:    OsIndications-" EFI_GLOBAL_GUID
		       " attributes 0x00000007, 8 bytes\n"
		       "          01 00 00 00 00 00 00 00\n"
		       "then:     restart into the firmware's setup screen\n");
	after = snapshot(&d);
	CHECK_STR(after, before);
	/* for real, the jump fails: OsIndications goes as it came */
	d.bo.dry_run = false;
	d.bo.plan_out = NULL;
	f = (struct fake){0};
	CHECK_INT(run_txn(&d, &f, &setup, err, sizeof(err)), -EIO);
	CHECK_STR(f.log, "loading clear starting suspend unmount restart "
			 "resume ");
	CHECK(f.at_jump && strstr(f.at_jump, "OsIndications-"));
	free(after);
	after = snapshot(&d);
	CHECK_STR(after, before);
	free(f.at_jump), free(out), free(before), free(after);
	fw_dir_remove(&d);
}

/* A loader larger than its filesystem (a FAT chain that loops: issue
 * #37) is listed disabled with the sizes, and the fallback loader is
 * then not compared with the vendor's (the kernel would read the loop's
 * clusters again up to the size); a loader that fits is left alone. */
TEST(esp_loader_larger_than_fs)
{
	struct tfs t;
	struct statvfs v;
	struct entry *e;
	char path[256];
	off_t big;

	esp_init(&t);
	tfs_write(&t, "/EFI/debian/grubx64.efi", "MZ grub");
	tfs_write(&t, FALLBACK, "MZ fallback");
	snprintf(path, sizeof(path), "%s" FALLBACK, t.dir);
	CHECK_INT(statvfs(t.dir, &v), 0);
	big = (off_t)(v.f_blocks * v.f_frsize + 4096);
	if (truncate(path, big) < 0) {
		test_skip("cannot make a sparse file of %lld bytes in %s: %s",
			  (long long)big, t.dir, strerror(errno));
		tfs_done(&t);
		return;
	}
	CHECK_INT(efi_loaders_parse_fs(&t.ctx), 0);
	CHECK_INT(t.out.count, 2);
	e = by_title(&t, "debian (EFI loader)");
	CHECK(e != NULL && e->disabled == NULL);
	e = by_title(&t, "EFI fallback loader (BOOTX64.EFI)");
	CHECK(e != NULL && e->disabled != NULL);
	if (e && e->disabled) {
		char want[256];

		snprintf(want, sizeof(want),
			 "/EFI/BOOT/BOOTX64.EFI is %lld bytes, more than its "
			 "filesystem holds (%llu): its cluster chain loops or "
			 "ends before the file does",
			 (long long)big,
			 (unsigned long long)(v.f_blocks * v.f_frsize));
		CHECK_STR(e->disabled, want);
	}
	tfs_done(&t);
}

TEST_MAIN("test_efi_boot", esp_entries, esp_only, esp_case_and_preference,
	  esp_fallback_not_listed, esp_loader_larger_than_fs,
	  esp_named_elsewhere, esp_fw_ui, boot_windows_dry_run,
	  boot_windows_reuses_option, boot_fallback_dry_run,
	  boot_fallback_makes_option, boot_bootnext_refused,
	  boot_loads_take_back, boot_not_uefi, boot_no_efivarfs,
	  boot_partition_unknown, boot_fw_setup, fw_options_read,
	  fw_options_listed, fw_option_boots_by_bootnext,
	  txn_order_and_failed_jump, txn_clear_failure_said, txn_failed_load,
	  txn_dry_run)
