/* test_hand_on.c - the boot's hand-on step (boot/hand_on.h, issue #33
 * "Type it once"): which volumes' keys go, the archive's bytes (names,
 * modes, the key exactly as typed), the cryptopts= for Debian's
 * initramfs-tools, the dry run's lines (never a key's bytes), and off:
 * nothing at all. */
#include "boot/hand_on.h"
#include "entry/entry.h"
#include "kexec/plan.h"
#include "test.h"
#include "tfs.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define UUID "0d9f6a2c-95a1-4bd2-8f0e-3c1b7a6e5d40"
#define VOL "luks-" UUID
#define PASS "correct horse"
#define KEYS "etc/cryptsetup-keys.d/"
#define CRYPTROOT "usr/share/initramfs-tools/scripts/local-top/cryptroot"

static int key_calls;

/* The session's answer: VOL holds itself and the LVM volume vg-root; a
 * volume "bad" comes back with a name no file may have. */
static size_t keys_of(void *ctx, const char *fs_name, struct boot_key *out,
		      size_t max)
{
	CHECK(ctx == &key_calls);
	key_calls++;
	if (!max)
		return 0;
	if (!strcmp(fs_name, "bad"))
		snprintf(out[0].volume, sizeof(out[0].volume), "luks-../x");
	else if (!strcmp(fs_name, VOL) || !strcmp(fs_name, "vg-root"))
		snprintf(out[0].volume, sizeof(out[0].volume), "%s", VOL);
	else
		return 0;
	out[0].key = PASS;
	out[0].len = strlen(PASS);
	return 1;
}

/* One member of a newc archive (buffer-format.rst). */
struct member {
	char name[128];
	unsigned mode;
	const char *data;
	size_t len;
};

static unsigned hex8(const char *p)
{
	char b[9];

	memcpy(b, p, 8);
	b[8] = '\0';
	return (unsigned)strtoul(b, NULL, 16);
}

/* The members of @buf[0..len) up to the trailer; -1 when malformed. */
static int members(const char *buf, size_t len, struct member *m, int max)
{
	size_t off = 0;
	int n = 0;

	while (off + 110 <= len && n < max) {
		unsigned namesize, filesize;

		if (memcmp(buf + off, "070701", 6))
			return -1;
		m[n].mode = hex8(buf + off + 14);
		filesize = hex8(buf + off + 54);
		namesize = hex8(buf + off + 94);
		if (namesize > sizeof(m[n].name) || off + 110 + namesize > len)
			return -1;
		memcpy(m[n].name, buf + off + 110, namesize);
		off = (off + 110 + namesize + 3) & ~(size_t)3;
		m[n].data = buf + off;
		m[n].len = filesize;
		off = (off + filesize + 3) & ~(size_t)3;
		if (!strcmp(m[n].name, "TRAILER!!!"))
			return off == len ? n : -1;
		n++;
	}
	return -1;
}

struct run {
	struct boot_hand_on h;
	struct kexec_blob archive;
	char add[512];
	char err[256];
	struct member m[8];
	int n;
};

static int step(struct run *r, const char *pattern, const struct entry *e,
		FILE *dry)
{
	int rc;

	r->h.pattern = pattern;
	r->h.keys_of = keys_of;
	r->h.ctx = &key_calls;
	rc = boot_hand_on_step(&r->h, e, dry, &r->archive, r->add,
			       sizeof(r->add), r->err, sizeof(r->err));
	r->n = r->archive.len ? members(r->archive.buf, r->archive.len, r->m, 8)
			      : 0;
	return rc;
}

static struct entry entry_on(struct tfs *t, const char *cmdline)
{
	t->fs.name = VOL; /* the scan's name of the volume it unlocked */
	return (struct entry){.id = "debian",
			      .title = "Debian GNU/Linux",
			      .fs = &t->fs,
			      .kernel = {NULL, "/boot/vmlinuz", &t->fs},
			      .cmdline = (char *)cmdline};
}

TEST(off_nothing_added)
{
	struct tfs t;
	struct run r = {0};
	struct entry e;

	tfs_init(&t);
	e = entry_on(&t, "root=/dev/mapper/vda2_crypt");
	key_calls = 0;
	CHECK_INT(step(&r, "", &e, NULL), 0);
	CHECK_INT(r.archive.len, 0);
	CHECK_STR(r.add, "");
	CHECK_INT(key_calls, 0); /* not even asked */
	/* patterns that do not name the entry */
	CHECK_INT(step(&r, "Windows* other", &e, NULL), 0);
	CHECK_INT(r.archive.len, 0);
	CHECK_INT(key_calls, 0);
	boot_hand_on_free(&r.h);
	tfs_done(&t);
}

TEST(only_volumes_we_unlocked)
{
	struct tfs t;
	struct run r = {0};
	struct entry e;

	tfs_init(&t);
	e = entry_on(&t, "");
	t.fs.name = "vda1"; /* not a volume bootmenu unlocked */
	CHECK_INT(step(&r, "*", &e, NULL), 0);
	CHECK_INT(r.archive.len, 0);
	t.fs.name = "luks-11111111-2222-3333-4444-555555555555"; /* no key */
	CHECK_INT(step(&r, "*", &e, NULL), 0);
	CHECK_INT(r.archive.len, 0);
	CHECK_STR(r.add, "");
	t.fs.name = "bad"; /* a volume name that is no file name */
	CHECK_INT(step(&r, "*", &e, NULL), 0);
	CHECK_INT(r.archive.len, 0);
	/* an LVM volume on the LUKS volume: its key goes */
	t.fs.name = "vg-root";
	CHECK_INT(step(&r, "*", &e, NULL), 0);
	CHECK_INT(r.n, 3);
	CHECK_STR(r.m[2].name, KEYS VOL ".key");
	boot_hand_on_free(&r.h);
	tfs_done(&t);
}

/* A systemd initramfs: luks-<uuid>.key alone, nothing on the line. */
TEST(systemd_target_archive)
{
	struct tfs t;
	struct run r = {0};
	struct entry e;

	tfs_init(&t);
	e = entry_on(&t, "rd.luks.uuid=" UUID " root=/dev/mapper/" VOL);
	CHECK_INT(step(&r, "Debian*", &e, NULL), 0);
	CHECK_STR(r.add, "");
	CHECK_INT(r.n, 3);
	CHECK_STR(r.m[0].name, "etc");
	CHECK_INT(r.m[0].mode, 040755);
	CHECK_STR(r.m[1].name, "etc/cryptsetup-keys.d");
	CHECK_INT(r.m[1].mode, 040700);
	CHECK_STR(r.m[2].name, KEYS VOL ".key");
	CHECK_INT(r.m[2].mode, 0100400);
	CHECK_INT(r.m[2].len, strlen(PASS)); /* no newline */
	CHECK(r.m[2].len == strlen(PASS) &&
	      !memcmp(r.m[2].data, PASS, strlen(PASS)));
	CHECK_INT(r.h.handed, 1);
	boot_hand_on_free(&r.h);
	CHECK(r.h.cpio.buf == NULL);
	tfs_done(&t);
}

/* Debian's initramfs-tools: the crypttab name's key too, and cryptopts=
 * with the line's options that may pass. */
TEST(debian_target_cryptopts)
{
	struct tfs t;
	struct run r = {0};
	struct entry e;

	tfs_init(&t);
	tfs_write(&t, "/etc/crypttab",
		  "# <target name> <source device> <key file> <options>\n"
		  "vda2_crypt UUID=" UUID " none luks,initramfs,tries=2\n");
	tfs_write(&t, "/" CRYPTROOT, "#!/bin/sh\n");
	e = entry_on(&t, "root=/dev/mapper/vda2_crypt ro quiet");
	CHECK_INT(step(&r, "*", &e, NULL), 0);
	CHECK_STR(r.add, "cryptopts=target=vda2_crypt,source=UUID=" UUID
			 ",key=/etc/cryptsetup-keys.d/vda2_crypt.key,luks,"
			 "initramfs");
	CHECK_INT(r.n, 4);
	CHECK_STR(r.m[2].name, KEYS VOL ".key");
	CHECK_STR(r.m[3].name, KEYS "vda2_crypt.key");
	CHECK_INT(r.m[3].mode, 0100400);
	CHECK(r.m[3].len == strlen(PASS) &&
	      !memcmp(r.m[3].data, PASS, strlen(PASS)));
	/* the user's own cryptopts= wins: the files go, the line stays */
	e.cmdline = "root=/dev/mapper/vda2_crypt cryptopts=target=x";
	CHECK_INT(step(&r, "*", &e, NULL), 0);
	CHECK_STR(r.add, "");
	CHECK_INT(r.n, 4);
	boot_hand_on_free(&r.h);
	tfs_done(&t);
}

/* A crypttab without the cryptroot script (a systemd initramfs): the
 * name's key goes, the line gets nothing; a name that is no file name
 * is not used. */
TEST(crypttab_without_debian)
{
	struct tfs t;
	struct run r = {0};
	struct entry e;

	tfs_init(&t);
	tfs_write(&t, "/etc/crypttab", "cr_root /dev/disk/by-uuid/" UUID "\n");
	e = entry_on(&t, "");
	CHECK_INT(step(&r, "*", &e, NULL), 0);
	CHECK_STR(r.add, "");
	CHECK_INT(r.n, 4);
	CHECK_STR(r.m[3].name, KEYS "cr_root.key");
	tfs_write(&t, "/etc/crypttab", "../evil UUID=" UUID "\n");
	tfs_write(&t, "/" CRYPTROOT, "#!/bin/sh\n");
	CHECK_INT(step(&r, "*", &e, NULL), 0);
	CHECK_INT(r.n, 3);
	CHECK_STR(r.add, "");
	boot_hand_on_free(&r.h);
	tfs_done(&t);
}

/* --dry-run: the names and the words, never the key. */
TEST(dry_run_lines)
{
	struct tfs t;
	struct run r = {0};
	struct entry e;
	char out[1024] = "";
	FILE *f = fmemopen(out, sizeof(out), "w");

	tfs_init(&t);
	tfs_write(&t, "/etc/crypttab", "vda2_crypt UUID=" UUID " none luks\n");
	tfs_write(&t, "/" CRYPTROOT, "#!/bin/sh\n");
	e = entry_on(&t, "root=/dev/mapper/vda2_crypt");
	CHECK_INT(step(&r, "*", &e, f), 0);
	fclose(f);
	CHECK_STR(out,
		  "hand on:  the key of " VOL " as /" KEYS VOL ".key and /" KEYS
		  "vda2_crypt.key (crypttab names it)\n"
		  "hand on:  cmdline += \"cryptopts=target=vda2_crypt,"
		  "source=UUID=" UUID ",key=/" KEYS "vda2_crypt.key,luks\"\n");
	CHECK(!strstr(out, PASS));
	boot_hand_on_free(&r.h);
	tfs_done(&t);
}

/* tfs.h's helpers for the parsers' tests, not used here */
static void __attribute__((unused)) unused(struct tfs *t)
{
	(void)nth(t, 0);
	(void)n_warn(t);
}

TEST_MAIN("test_hand_on", off_nothing_added, only_volumes_we_unlocked,
	  systemd_target_archive, debian_target_cryptopts,
	  crypttab_without_debian, dry_run_lines)
