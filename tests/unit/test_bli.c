/* test_bli.c - systemd's Boot Loader Interface: the encodings (efi/bli.h),
 * the entry identifiers (choose/loader_id.h), the variables written and
 * read through a plain directory, and the default rule with the OS's
 * one-shot and default (choose.h). */
#include "boot/loader_vars.h"
#include "choose/choose.h"
#include "choose/loader_id.h"
#include "conf/conf.h"
#include "efi/bli.h"
#include "efi/devpath.h"
#include "efi/loadopt.h"
#include "efi/utf16.h"
#include "entry/entry.h"
#include "scan/fs.h"
#include "tchoose.h"
#include "test.h"
#include "util/arena.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* --- encodings */

TEST(encode_list_and_usec)
{
	static const char *const ids[] = {"a.conf", "b"};
	static const uint8_t want[] = {'a', 0,	 '.', 0, 'c', 0,   'o', 0, 'n',
				       0,   'f', 0,   0, 0,   'b', 0,	0, 0};
	uint8_t buf[64];
	char out[64];

	CHECK_INT(bli_encode_list(ids, 2, NULL, 0), sizeof(want));
	CHECK_INT(bli_encode_list(ids, 2, buf, sizeof(buf)), sizeof(want));
	CHECK(!memcmp(buf, want, sizeof(want)));
	CHECK_INT(bli_encode_list(ids, 2, buf, 10), -ENOSPC);
	CHECK_INT(bli_encode_usec(1234567, buf, sizeof(buf)), 16);
	CHECK_INT(bli_decode_str(buf, 16, out, sizeof(out)), 0);
	CHECK_STR(out, "1234567");
	CHECK_INT(bli_encode_usec(0, buf, sizeof(buf)), 4);
	CHECK(buf[0] == '0' && buf[1] == 0 && buf[2] == 0 && buf[3] == 0);
	CHECK_INT(bli_decode_str(buf, 3, out, sizeof(out)), -EINVAL);
	CHECK_INT(bli_decode_str(buf, 0, out, sizeof(out)), -EINVAL);
}

TEST(parse_timeout)
{
	int s = 99;

	CHECK_INT(bli_parse_timeout("10", true, &s), 0);
	CHECK_INT(s, 10);
	CHECK_INT(bli_parse_timeout("0", false, &s), 0);
	CHECK_INT(s, 0);
	/* a one-shot 0: the menu without a countdown */
	CHECK_INT(bli_parse_timeout("0", true, &s), 0);
	CHECK_INT(s, BLI_TIMEOUT_FORCE);
	CHECK_INT(bli_parse_timeout("menu-force", false, &s), 0);
	CHECK_INT(s, BLI_TIMEOUT_FORCE);
	CHECK_INT(bli_parse_timeout("menu-hidden", true, &s), 0);
	CHECK_INT(s, 0);
	CHECK_INT(bli_parse_timeout("99999999999", false, &s), 0);
	CHECK_INT(s, 65535);
	s = 7;
	CHECK_INT(bli_parse_timeout("", false, &s), -EINVAL);
	CHECK_INT(bli_parse_timeout("1x", false, &s), -EINVAL);
	CHECK_INT(bli_parse_timeout("-1", false, &s), -EINVAL);
	CHECK_INT(s, 7);
}

TEST(firmware_from_log)
{
	char t[32], i[32];

	CHECK_INT(bli_firmware_from_log("6,1,0,-;efi: EFI v2.70 by EDK II\n"
					"6,2,0,-;efi: SMBIOS=0x7f",
					t, sizeof(t), i, sizeof(i)),
		  0);
	CHECK_STR(t, "UEFI 2.70");
	CHECK_STR(i, "EDK II");
	CHECK_INT(bli_firmware_from_log("efi: EFI vX by Y\nno", t, sizeof(t), i,
					sizeof(i)),
		  -ENOENT);
}

/* --- identifiers */

static struct fs_root disk1 = {.name = "vda1", .label = "one"};
static struct fs_root disk2 = {.name = "vdb1", .partuuid = "abcd-02"};

static struct entry *add(struct entry_list *l, struct fs_root *fs,
			 enum entry_format f, const char *id, const char *title)
{
	struct entry *e = entry_new(l, f, fs);

	e->id = id;
	e->title = title;
	entry_add(l, e);
	return e;
}

static const char *id_of(const struct entry_list *l, const struct entry *e)
{
	static char out[CHOOSE_LOADER_ID_MAX];

	choose_loader_id(l, e, out);
	CHECK(bli_id_valid(out));
	return out;
}

TEST(entry_ids)
{
	struct arena a = ARENA_INIT;
	struct entry_list l;
	struct entry *bls, *grub, *gsub, *bare, *fw, *setup, *dup, *dup3, *odd;

	entry_list_init(&l, &a);
	bls = add(&l, &disk1, FMT_BLS, "Debian-6.1.0-28-amd64.conf", "Debian");
	grub = add(&l, &disk1, FMT_GRUB, "gnulinux-simple-1234-ABCD", "D");
	gsub = add(&l, &disk1, FMT_GRUB,
		   "Advanced options for Debian>Debian, with Linux 6.1 "
		   "(recovery mode)",
		   "x");
	bare = add(&l, &disk1, FMT_BARE, "bare:/boot/vmlinuz-6.1", "k");
	fw = add(&l, NULL, FMT_EFI, "Boot0001", "UEFI QEMU DVD-ROM");
	fw->method = ENTRY_FIRMWARE;
	fw->fw_option = true;
	setup = add(&l, NULL, FMT_EFI, "fwsetup", "Firmware setup");
	setup->fw_setup = true;
	dup = add(&l, &disk2, FMT_BLS, "debian-6.1.0-28-amd64.conf", "D2");
	dup3 = add(&l, &disk2, FMT_GRUB, "Debian-6.1.0-28-amd64.conf", "D3");
	odd = add(&l, &disk2, FMT_SYSLINUX, "../", NULL);
	CHECK_STR(id_of(&l, bls), "debian-6.1.0-28-amd64.conf");
	CHECK_STR(id_of(&l, grub), "gnulinux-simple-1234-abcd");
	CHECK_STR(id_of(&l, gsub), "advanced-options-for-debian-debian-with-"
				   "linux-6.1-recovery-mode");
	CHECK_STR(id_of(&l, bare), "auto-bare-boot-vmlinuz-6.1");
	CHECK_STR(id_of(&l, fw), "auto-boot0001");
	CHECK_STR(id_of(&l, setup), "auto-reboot-to-firmware-setup");
	/* the same file on a second disk: unique within the list */
	CHECK_STR(id_of(&l, dup), "debian-6.1.0-28-amd64.conf-2");
	CHECK_STR(id_of(&l, dup3), "debian-6.1.0-28-amd64.conf-3");
	CHECK_STR(id_of(&l, odd), "entry");
	/* the OS names entries as patterns, in any case */
	CHECK(choose_loader_find(&l, "DEBIAN-6.1.0-28-AMD64.CONF") == bls);
	CHECK(choose_loader_find(&l, "auto-boot*") == fw);
	CHECK(choose_loader_find(&l, "*-3") == dup3);
	CHECK(choose_loader_find(&l, "nothing") == NULL);
	CHECK(choose_loader_find(&l, "") == NULL);
	CHECK(!bli_id_valid("a b"));
	CHECK(!bli_id_valid(".."));
	CHECK(!bli_id_valid(""));
	CHECK(bli_id_valid("fedora-37+3-1.conf"));
	arena_free(&a);
}

/* --- variables in a plain directory */

static char vdir[64];

static void vdir_make(void)
{
	test_tmpdir(vdir, sizeof(vdir), "test_bli");
}

static void vdir_remove(void)
{
	test_rmtree(vdir);
}

/* Variable @name under BLI_GUID: its attributes and its text, "-" when
 * absent; each NUL unit shows as '|'. */
static const char *var_text(const char *name)
{
	static char out[512];
	char path[256];
	size_t n = 0, o;
	char *b;

	snprintf(path, sizeof(path), "%s/%s-%s", vdir, name, BLI_GUID);
	b = test_slurp(path, &n);
	if (!b || n < 4) {
		free(b);
		return "-";
	}
	o = (size_t)snprintf(out, sizeof(out), "%02x:", b[0] & 0xff);
	for (size_t i = 4; i + 1 < n && o + 1 < sizeof(out); i += 2)
		out[o++] = b[i] ? b[i] : '|';
	out[o] = '\0';
	free(b);
	return out;
}

static void put_str(const char *name, const char *guid, const char *s)
{
	struct efi_vars v = {.dir = vdir};
	uint8_t buf[256];
	ssize_t n = efi_utf8_to_utf16(s, buf, sizeof(buf));

	CHECK_INT(efi_var_write(&v, name, guid, EFI_VARIABLE_NV_BS_RT, buf,
				(size_t)n, NULL, 0),
		  0);
}

TEST(write_variables)
{
	static const char *const ids[] = {"a.conf", "grub-x"};
	struct efi_vars v = {.dir = NULL};
	struct bli_loader b = {.info = "bootmenu 1.0",
			       .fw_type = "UEFI 2.70",
			       .fw_info = "EDK II",
			       .part_uuid =
				   "0ab1c2d3-0000-4000-8000-000000000001",
			       .image = "\\EFI\\BOOT\\BOOTX64.EFI",
			       .init_us = 0,
			       .menu_us = 1500000,
			       .exec_us = 4250000,
			       .ids = ids,
			       .n_ids = 2,
			       .selected = "grub-x",
			       .timeout_s = 5,
			       .features = BLI_FEATURES};
	char err[256], path[256];
	uint8_t feat[16];
	size_t n = 0;
	char *raw;

	vdir_make();
	v.dir = vdir;
	CHECK_INT(bli_write(&v, &b, err, sizeof(err)), 0);
	CHECK_STR(err, "");
	/* non-volatile, boot service and runtime access: after
	 * ExitBootServices() only those can be set */
	CHECK_STR(var_text("LoaderInfo"), "07:bootmenu 1.0|");
	CHECK_STR(var_text("LoaderFirmwareType"), "07:UEFI 2.70|");
	CHECK_STR(var_text("LoaderFirmwareInfo"), "07:EDK II|");
	CHECK_STR(var_text("LoaderDevicePartUUID"),
		  "07:0ab1c2d3-0000-4000-8000-000000000001|");
	CHECK_STR(var_text("LoaderImageIdentifier"),
		  "07:\\EFI\\BOOT\\BOOTX64.EFI|");
	CHECK_STR(var_text("LoaderEntries"), "07:a.conf|grub-x|");
	CHECK_STR(var_text("LoaderEntrySelected"), "07:grub-x|");
	CHECK_STR(var_text("LoaderConfigTimeout"), "07:5|");
	CHECK_STR(var_text("LoaderTimeInitUSec"), "07:0|");
	CHECK_STR(var_text("LoaderTimeMenuUSec"), "07:1500000|");
	CHECK_STR(var_text("LoaderTimeExecUSec"), "07:4250000|");
	snprintf(path, sizeof(path), "%s/LoaderFeatures-%s", vdir, BLI_GUID);
	raw = test_slurp(path, &n);
	CHECK_INT(n, 12);
	if (raw && n == 12) {
		memcpy(feat, raw + 4, 8);
		/* timeout one-shot, default, one-shot: bits 1, 2, 3 */
		CHECK_INT(feat[0], 0x0e);
		CHECK(!feat[1] && !feat[2] && !feat[7]);
	}
	free(raw);
	/* the menu waits: "menu-force"; no menu time: not written */
	b.timeout_s = BLI_TIMEOUT_FORCE;
	b.menu_us = 0;
	unlink(strcat(strcpy(path, vdir), "/LoaderTimeMenuUSec-" BLI_GUID));
	CHECK_INT(bli_write(&v, &b, err, sizeof(err)), 0);
	CHECK_STR(var_text("LoaderConfigTimeout"), "07:menu-force|");
	CHECK_STR(var_text("LoaderTimeMenuUSec"), "-");
	vdir_remove();
	/* a directory that is gone: every variable fails, each is said */
	CHECK_INT(bli_write(&v, &b, err, sizeof(err)), -ENOENT);
	CHECK(strstr(err, "LoaderInfo") && strstr(err, "; "));
}

TEST(read_os_requests)
{
	struct efi_vars v = {.dir = NULL};
	struct bli_os os;
	char err[256];

	vdir_make();
	v.dir = vdir;
	CHECK_INT(bli_read_os(&v, &os, true, err, sizeof(err)), 0);
	CHECK_STR(os.oneshot, "");
	CHECK_STR(os.def, "");
	CHECK_INT(os.timeout_oneshot, BLI_TIMEOUT_UNSET);
	/* what systemctl reboot --boot-loader-entry= / --boot-loader-menu=
	 * and bootctl set-default write (non-volatile) */
	put_str("LoaderEntryOneShot", BLI_GUID, "Grub-X");
	put_str("LoaderEntryDefault", BLI_GUID, "a.conf");
	put_str("LoaderConfigTimeoutOneShot", BLI_GUID, "10");
	/* --list reads and leaves the one-shot timeout */
	CHECK_INT(bli_read_os(&v, &os, false, err, sizeof(err)), 0);
	CHECK_INT(os.timeout_oneshot, 10);
	CHECK_STR(var_text("LoaderConfigTimeoutOneShot"), "07:10|");
	CHECK_INT(bli_read_os(&v, &os, true, err, sizeof(err)), 0);
	CHECK_STR(os.oneshot, "grub-x");
	CHECK_STR(os.def, "a.conf");
	CHECK_INT(os.timeout_oneshot, 10);
	/* read once: gone; the one-shot entry waits for its boot */
	CHECK_STR(var_text("LoaderConfigTimeoutOneShot"), "-");
	CHECK_STR(var_text("LoaderEntryOneShot"), "07:Grub-X|");
	CHECK_INT(bli_clear_oneshot(&v, err, sizeof(err)), 0);
	CHECK_STR(var_text("LoaderEntryOneShot"), "-");
	CHECK_INT(bli_clear_oneshot(&v, err, sizeof(err)), 0);
	CHECK_STR(err, "");
	put_str("LoaderConfigTimeoutOneShot", BLI_GUID, "soon");
	CHECK_INT(bli_read_os(&v, &os, true, err, sizeof(err)), 0);
	CHECK_INT(os.timeout_oneshot, BLI_TIMEOUT_UNSET);
	vdir_remove();
}

TEST(boot_current_esp)
{
	struct efi_vars v = {.dir = NULL};
	struct efi_hd hd;
	uint8_t dp[256], opt[512], cur[2];
	char uuid[EFI_GUID_TEXT], image[128];
	ssize_t dn, on;

	vdir_make();
	v.dir = vdir;
	CHECK_INT(bli_boot_current(&v, uuid, image, sizeof(image)), -ENOENT);
	CHECK_INT(efi_hd_gpt(&hd, 1, 2048, 65536,
			     "0AB1C2D3-0000-4000-8000-000000000001"),
		  0);
	dn = efi_dp_encode_hd_file(&hd, "\\EFI\\bootmenu\\bootmenu.efi", dp,
				   sizeof(dp));
	CHECK(dn > 0);
	on = efi_loadopt_encode(EFI_LOAD_OPTION_ACTIVE, "bootmenu", dp,
				(size_t)dn, NULL, 0, opt, sizeof(opt));
	CHECK(on > 0);
	CHECK_INT(efi_var_write(&v, "Boot0003", EFI_GLOBAL_GUID,
				EFI_VARIABLE_NV_BS_RT, opt, (size_t)on, NULL,
				0),
		  0);
	efi_boot_next_encode(3, cur);
	CHECK_INT(efi_var_write(&v, "BootCurrent", EFI_GLOBAL_GUID, 6, cur, 2,
				NULL, 0),
		  0);
	CHECK_INT(bli_boot_current(&v, uuid, image, sizeof(image)), 0);
	CHECK_STR(uuid, "0ab1c2d3-0000-4000-8000-000000000001");
	CHECK_STR(image, "\\EFI\\bootmenu\\bootmenu.efi");
	vdir_remove();
}

/* --- the default rule */

/* vda1: a0, a1* (a grub default); vdb1: b0, b1* */
static void fill(struct entry_list *l, struct arena *a)
{
	entry_list_init(l, a);
	add(l, &disk1, FMT_GRUB, "a0", "A0");
	add(l, &disk1, FMT_GRUB, "a1", "A1")->is_default = true;
	add(l, &disk2, FMT_BLS, "b0.conf", "B0");
	add(l, &disk2, FMT_BLS, "b1.conf", "B1")->is_default = true;
}

TEST(rule_with_loader_variables)
{
	struct arena a = ARENA_INIT;
	struct entry_list l;
	struct conf cf;
	struct choose c;
	char note[256];

	fill(&l, &a);
	conf_init(&cf);
	choose_init(&c, &cf, "", -2);
	CHECK_STR(tchoose_order(&c, &l), "a1 b1.conf a0 b0.conf");
	CHECK(!choose_loader_note(&c, &l, note, sizeof(note)));
	/* LoaderEntryDefault above the configs' own and bootmenu.conf's */
	snprintf(c.loader_default, sizeof(c.loader_default), "b0.conf");
	snprintf(cf.default_pat, sizeof(cf.default_pat), "A0");
	CHECK_STR(tchoose_order(&c, &l), "b0.conf a0 a1 b1.conf");
	/* the saved default above LoaderEntryDefault */
	snprintf(c.saved_id, sizeof(c.saved_id), "b1.conf");
	CHECK_STR(tchoose_order(&c, &l), "b1.conf b0.conf a0 a1");
	/* the one-shot above everything; a pattern, in any case */
	snprintf(c.loader_oneshot, sizeof(c.loader_oneshot), "a*");
	CHECK_STR(tchoose_order(&c, &l), "a0 b1.conf b0.conf a1");
	snprintf(c.loader_oneshot, sizeof(c.loader_oneshot), "a1");
	CHECK_STR(tchoose_order(&c, &l), "a1 b1.conf b0.conf a0");
	/* naming nothing: passed over, and said */
	snprintf(c.loader_oneshot, sizeof(c.loader_oneshot), "gone");
	CHECK_STR(tchoose_order(&c, &l), "b1.conf b0.conf a0 a1");
	CHECK(choose_loader_note(&c, &l, note, sizeof(note)));
	CHECK_STR(
	    note,
	    "LoaderEntryOneShot \"gone\" names no entry: the default boots");
	snprintf(c.loader_default, sizeof(c.loader_default), "lost");
	CHECK(choose_loader_note(&c, &l, note, sizeof(note)));
	CHECK_STR(note,
		  "LoaderEntryOneShot \"gone\" names no entry: the default "
		  "boots; LoaderEntryDefault \"lost\" names no entry: the "
		  "default boots");
	c.loader_oneshot[0] = '\0';
	CHECK(choose_loader_note(&c, &l, note, sizeof(note)));
	CHECK_STR(
	    note,
	    "LoaderEntryDefault \"lost\" names no entry: the default boots");
	arena_free(&a);
}

TEST(timeout_one_shot)
{
	struct arena a = ARENA_INIT;
	struct entry_list l;
	struct conf cf;
	struct choose c;

	fill(&l, &a);
	conf_init(&cf);
	choose_init(&c, &cf, "bootmenu.timeout=2", -2);
	CHECK(choose_timeout(&c, &l) == 2);
	/* systemctl reboot --boot-loader-menu=10 */
	c.loader_timeout_s = 10;
	CHECK(choose_timeout(&c, &l) == 10);
	CHECK(choose_user_timeout(&c) == 10);
	c.loader_timeout_s = BLI_TIMEOUT_FORCE;
	CHECK(choose_timeout(&c, &l) == -1);
	/* --timeout still wins: it is this very run's */
	choose_init(&c, &cf, "bootmenu.timeout=2", 3);
	c.loader_timeout_s = 10;
	CHECK(choose_timeout(&c, &l) == 3);
	arena_free(&a);
}

/* The transaction's step: every entry's id, the one booted, LoaderEntry-
 * OneShot consumed only when the OS had set one. */
TEST(loader_vars_step)
{
	struct arena a = ARENA_INIT;
	struct boot_loader_vars lv;
	struct entry_list l;
	struct conf cf;
	struct choose c;
	struct entry *u;
	char err[256];

	fill(&l, &a);
	/* a locked LUKS volume's line (issue #33) is no boot entry */
	u = entry_new(&l, FMT_BARE, NULL);
	u->method = ENTRY_UNLOCK;
	u->id = u->title = "luks-1234";
	u->unlock_dev = "vda3";
	entry_add(&l, u);
	conf_init(&cf);
	choose_init(&c, &cf,
		    "bootmenu.from=PARTUUID=0AB1C2D3-0000-4000-8000-"
		    "000000000001",
		    -2);
	vdir_make();
	boot_loader_vars_init(&lv, vdir, "efi: EFI v2.70 by EDK II\n",
			      c.boot_device, &l, &c);
	CHECK_STR(lv.fw_type, "UEFI 2.70");
	CHECK_STR(lv.part_uuid, "0AB1C2D3-0000-4000-8000-000000000001");
	CHECK_INT(
	    boot_loader_vars_write(&lv, l.head->next->next, err, sizeof(err)),
	    0);
	CHECK_STR(var_text("LoaderEntries"), "07:a0|a1|b0.conf|b1.conf|");
	CHECK_STR(var_text("LoaderEntrySelected"), "07:b0.conf|");
	CHECK_STR(var_text("LoaderInfo"), "07:bootmenu " BOOTMENU_VERSION "|");
	CHECK_STR(var_text("LoaderConfigTimeout"), "07:5|");
	CHECK_STR(var_text("LoaderTimeMenuUSec"), "-");
	CHECK(strcmp(var_text("LoaderTimeExecUSec"), "07:0|"));
	put_str("LoaderEntryOneShot", BLI_GUID, "b0.conf");
	CHECK_INT(boot_loader_vars_clear_once(&lv, err, sizeof(err)), 0);
	CHECK_STR(var_text("LoaderEntryOneShot"), "07:b0.conf|");
	snprintf(c.loader_oneshot, sizeof(c.loader_oneshot), "b0.conf");
	CHECK_INT(boot_loader_vars_clear_once(&lv, err, sizeof(err)), 0);
	CHECK_STR(var_text("LoaderEntryOneShot"), "-");
	vdir_remove();
	arena_free(&a);
}

TEST_MAIN("test_bli", encode_list_and_usec, parse_timeout, firmware_from_log,
	  entry_ids, write_variables, read_os_requests, boot_current_esp,
	  rule_with_loader_variables, timeout_one_shot, loader_vars_step)
