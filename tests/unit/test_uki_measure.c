/* test_uki_measure.c - systemd-stub 252's PCR 11 and 12 events.
 *
 * PCR 11 is checked against systemd's own prediction: a UKI made from
 * Debian's linuxx64.efi.stub by tests/fixtures/uki-measure/mkuki.sh, its
 * events replayed from zero, must give what `systemd-measure calculate`
 * printed for the same files (pcr11.txt, and again live when
 * systemd-measure is installed). The refusals and the PCR 12 forms run on
 * images and lines made here.
 */
#include "test.h"
#include "tpm/measure.h"
#include "tpm/uki_measure.h"
#include "util/arena.h"
#include "util/le.h"

#include <errno.h>
#include <stdbool.h>
#include <ftw.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define FIX "tests/fixtures/uki-measure/"
#define ALL_BANKS MEASURE_BANKS_ALL

/* --- the real UKI, built once */

static char fix_dir[64];
static int fix_rc = -1; /* -1 not built yet, 0 built, 77 skip, else fail */

static void fix_cleanup(void)
{
	if (fix_dir[0])
		test_rmtree(fix_dir);
}

/* The directory mkuki.sh built the UKI and its section files in, or
 * NULL (and the test skipped or failed) when it could not. */
static const char *fixture(void)
{
	char cmd[256];
	int st;

	if (fix_rc < 0) {
		snprintf(fix_dir, sizeof(fix_dir),
			 "/tmp/bm-uki-measure.XXXXXX");
		if (!mkdtemp(fix_dir)) {
			fix_dir[0] = '\0';
			fix_rc = 1;
		} else {
			atexit(fix_cleanup);
			snprintf(cmd, sizeof(cmd), "bash %smkuki.sh %s", FIX,
				 fix_dir);
			st = system(cmd);
			fix_rc = WIFEXITED(st) ? WEXITSTATUS(st) : 1;
		}
	}
	if (fix_rc == 77)
		test_skip("no objcopy or linuxx64.efi.stub (systemd-boot-efi)");
	else if (fix_rc)
		CHECK_INT(fix_rc, 0);
	return fix_rc ? NULL : fix_dir;
}

static char *fix_file(const char *name, size_t *len)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/%s", fix_dir, name);
	return test_slurp(path, len);
}

/* The fixture's UKI, read whole into memory (free it), or NULL when the
 * fixture could not be made (skipped or failed, said). */
static char *fix_uki(size_t *len)
{
	char *uki;

	if (!fixture())
		return NULL;
	uki = fix_file("uki.efi", len);
	CHECK(uki != NULL);
	return uki;
}

/* --- PCR arithmetic */

/* Extend: new = H(old || digest). */
static void extend(unsigned bank, uint8_t *pcr, const uint8_t *digest)
{
	struct measure_digests d;
	size_t n = measure_bank_size(bank);
	uint8_t buf[2 * MEASURE_DIGEST_MAX];

	memcpy(buf, pcr, n);
	memcpy(buf + n, digest, n);
	measure_digests_of(bank, buf, 2 * n, &d);
	memcpy(pcr, measure_digest(&d, bank), n);
}

/* The PCR @l's events leave in @bank, from zero. */
static void replay(const struct measure_list *l, unsigned bank, unsigned pcr,
		   uint8_t *out)
{
	memset(out, 0, MEASURE_DIGEST_MAX);
	for (size_t i = 0; i < l->n; i++)
		if (l->ev[i].pcr == pcr)
			extend(bank, out, measure_digest(&l->ev[i].d, bank));
}

static void to_hex(const uint8_t *b, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
}

/* The value "11:<bank>=<hex>" in file @path gives, or NULL. */
static char *pcr_line(const char *path, unsigned bank, char *out, size_t cap)
{
	char key[16];
	size_t len;
	char *txt = test_slurp(path, &len), *p;

	if (!txt)
		return NULL;
	txt[len] = '\0';
	snprintf(key, sizeof(key), "11:%s=", measure_bank_name(bank));
	p = strstr(txt, key);
	if (p) {
		p += strlen(key);
		snprintf(out, cap, "%.*s", (int)strcspn(p, "\n"), p);
	}
	free(txt);
	return p ? out : NULL;
}

/* The replayed PCR 11 of every bank equals what @path says. */
static void check_against(const struct measure_list *l, const char *path)
{
	for (unsigned bank = 1; bank <= MEASURE_BANK_SHA512; bank <<= 1) {
		uint8_t pcr[MEASURE_DIGEST_MAX];
		char got[2 * MEASURE_DIGEST_MAX + 1], want[160];

		replay(l, bank, 11, pcr);
		to_hex(pcr, measure_bank_size(bank), got);
		if (!pcr_line(path, bank, want, sizeof(want))) {
			printf("  %s has no %s line\n", path,
			       measure_bank_name(bank));
			test_failures++;
			continue;
		}
		printf("  %s %s: %s\n", path, measure_bank_name(bank), got);
		CHECK_STR(got, want);
	}
}

TEST(pcr11_equals_systemd_measure)
{
	struct arena a = ARENA_INIT;
	struct measure_list l;
	char live[128];
	size_t len;
	char *uki;

	uki = fix_uki(&len);
	if (!uki)
		return;
	measure_list_init(&l, &a, ALL_BANKS);
	CHECK_INT(uki_measure_pcr11(&l, uki, len), 0);
	/* .linux .osrel .cmdline .initrd .splash .dtb .pcrpkey, two each */
	CHECK_INT(l.n, 14);
	check_against(&l, FIX "pcr11.txt");
	snprintf(live, sizeof(live), "%s/pcr11-live.txt", fix_dir);
	if (access(live, R_OK) == 0)
		check_against(&l, live);
	else
		printf("  no systemd-measure here: pcr11.txt only\n");
	free(uki);
	arena_free(&a);
}

/* The section files, in systemd-stub 252's order (objcopy laid them out
 * by VMA: .osrel first, .linux and .initrd last). */
static const struct {
	const char *name, *file;
} order[] = {
    {".linux", "linux.bin"},
    {".osrel", "os-release.txt"},
    {".cmdline", "cmdline.txt"},
    {".initrd", "initrd.cpio"},
    {".splash", "splash.bmp"},
    {".dtb", "devicetree.dtb"},
    {".pcrpkey", "tpm2-pcr-public-key.pem"},
};

static void check_pair(const struct measure_event *ev, const char *name,
		       const char *file)
{
	struct measure_digests d;
	uint8_t name16[18] = {0};
	size_t len, n = strlen(name) + 1;
	char *data = fix_file(file, &len);

	for (size_t i = 0; i < n; i++)
		name16[2 * i] = (uint8_t)name[i];
	for (int k = 0; k < 2; k++) {
		CHECK_INT(ev[k].pcr, 11);
		CHECK_INT(ev[k].type, TCG_EV_IPL);
		CHECK_INT(ev[k].log_len, 2 * n);
		CHECK(ev[k].log_len == 2 * n &&
		      memcmp(ev[k].log, name16, 2 * n) == 0);
	}
	measure_digests_of(MEASURE_BANK_SHA256, name, n, &d);
	CHECK(memcmp(ev[0].d.sha256, d.sha256, 32) == 0);
	CHECK(data != NULL);
	if (data) {
		/* the file's own bytes: VirtualSize, not the padded
		 * SizeOfRawData */
		measure_digests_of(MEASURE_BANK_SHA256, data, len, &d);
		CHECK(memcmp(ev[1].d.sha256, d.sha256, 32) == 0);
	}
	free(data);
}

TEST(pcr11_events)
{
	static const uint8_t linux_name_sha256[] = {
	    0x0d, 0xa2, 0x93, 0xe3, 0x7a, 0xd5, 0x51, 0x1c, 0x59, 0xbe, 0x47,
	    0x99, 0x37, 0x69, 0xaa, 0xcb, 0x91, 0xb2, 0x43, 0xf7, 0xd0, 0x10,
	    0x28, 0x8e, 0x11, 0x8d, 0xc9, 0x0e, 0x95, 0xaa, 0xef, 0x5a};
	struct arena a = ARENA_INIT;
	struct measure_list l;
	size_t len;
	char *uki;

	uki = fix_uki(&len);
	if (!uki)
		return;
	measure_list_init(&l, &a, MEASURE_BANK_SHA256);
	CHECK_INT(uki_stub_version(uki, len), 252);
	CHECK_INT(uki_measure_pcr11(&l, uki, len), 0);
	CHECK_INT(l.n, 2 * (sizeof(order) / sizeof(order[0])));
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]) && 2 * i < l.n;
	     i++)
		check_pair(&l.ev[2 * i], order[i].name, order[i].file);
	/* sha256(".linux\0"), as systemd-measure hashes the name */
	CHECK(l.n && memcmp(l.ev[0].d.sha256, linux_name_sha256, 32) == 0);
	CHECK_STR(l.n ? l.ev[1].what : NULL, "UKI section .linux");
	free(uki);
	arena_free(&a);
}

/* --- made-up images */

struct sect {
	const char *name;
	const char *data;
	uint32_t vsize; /* 0: strlen(data) (unless vs0) */
	uint32_t rsize; /* 0: strlen(data) rounded up to 0x200 */
	uint32_t roff;	/* 0: the next free spot */
	bool vs0;	/* VirtualSize 0 */
};

#define MAGIC252 "#### LoaderInfo: systemd-stub 252.39-1~deb12u2 ####"

/* An x86-64 PE32+ image with .sdmagic @magic (NULL: none) and then
 * sections @s, their data from 0x400 on; returns its length. */
static size_t mk_pe(uint8_t *b, size_t cap, const char *magic,
		    const struct sect *s, unsigned n)
{
	struct sect all[16];
	size_t tab = 0x40 + 24 + 0xf0, data = 0x400;
	unsigned k = 0;

	if (magic)
		all[k++] = (struct sect){.name = ".sdmagic", .data = magic};
	for (unsigned i = 0; i < n && k < 16; i++)
		all[k++] = s[i];
	memset(b, 0, cap);
	put_le16(b, cap, 0, 0x5a4d);
	put_le32(b, cap, 0x3c, 0x40);
	put_le32(b, cap, 0x40, 0x00004550);
	put_le16(b, cap, 0x44, 0x8664);
	put_le16(b, cap, 0x46, (uint16_t)k);
	put_le16(b, cap, 0x54, 0xf0);
	put_le16(b, cap, 0x58, 0x20b);
	for (unsigned i = 0; i < k; i++) {
		size_t h = tab + 40 * i, len = strlen(all[i].data);
		uint32_t rs = all[i].rsize ? all[i].rsize
					   : (uint32_t)((len + 511) & ~511u);
		uint32_t off = all[i].roff ? all[i].roff : (uint32_t)data;

		memcpy(b + h, all[i].name, strlen(all[i].name));
		put_le32(b, cap, h + 8,
			 all[i].vs0	? 0
			 : all[i].vsize ? all[i].vsize
					: (uint32_t)len);
		put_le32(b, cap, h + 16, rs);
		put_le32(b, cap, h + 20, off);
		if (off + len <= cap)
			memcpy(b + off, all[i].data, len);
		if (!all[i].roff)
			data += rs;
	}
	return data;
}

/* uki_measure_pcr11() on @s with .sdmagic @magic: its result, and no
 * event appended unless it is 0. */
static int try_pcr11(const char *magic, const struct sect *s, unsigned n,
		     size_t *events)
{
	static uint8_t b[16384];
	struct arena a = ARENA_INIT;
	struct measure_list l;
	size_t len = mk_pe(b, sizeof(b), magic, s, n);
	int rc;

	measure_list_init(&l, &a, MEASURE_BANK_SHA256);
	rc = uki_measure_pcr11(&l, b, len);
	if (rc)
		CHECK_INT(l.n, 0);
	if (events)
		*events = l.n;
	arena_free(&a);
	return rc;
}

TEST(pcr11_refuses_what_the_stub_reads_otherwise)
{
	const struct sect k = {.name = ".linux", .data = "kernel"};
	size_t n = 99;

	CHECK_INT(try_pcr11(MAGIC252, &k, 1, &n), 0);
	CHECK_INT(n, 2);
	/* no .linux: the stub does not boot */
	CHECK_INT(try_pcr11(MAGIC252,
			    (struct sect[]){{.name = ".osrel", .data = "ID=x"}},
			    1, NULL),
		  -ENOEXEC);
	/* two .linux: the stub takes the last, format/pe.c the first */
	CHECK_INT(try_pcr11(MAGIC252,
			    (struct sect[]){
				k, {.name = ".linux", .data = "evil kernel"}},
			    2, NULL),
		  -ENOEXEC);
	/* ".initrdX" is .initrd to the stub's memcmp(), nothing to pe.c */
	CHECK_INT(
	    try_pcr11(MAGIC252,
		      (struct sect[]){k, {.name = ".initrdX", .data = "rd"}}, 2,
		      NULL),
	    -ENOEXEC);
	/* VirtualSize 0 over file data: the stub skips what pe.c boots */
	CHECK_INT(
	    try_pcr11(MAGIC252,
		      (struct sect[]){
			  k, {.name = ".initrd", .data = "rd", .vs0 = true}},
		      2, NULL),
	    -ENOEXEC);
	/* both sizes 0: absent to the stub, empty to pe.c */
	CHECK_INT(
	    try_pcr11(MAGIC252,
		      (struct sect[]){
			  k, {.name = ".initrd", .data = "", .vs0 = true}},
		      2, &n),
	    0);
	CHECK_INT(n, 2);
	/* data past the end of the file */
	CHECK_INT(
	    try_pcr11(MAGIC252,
		      (struct sect[]){
			  {.name = ".linux", .data = "k", .roff = 0x7ff0}},
		      1, NULL),
	    -ERANGE);
	/* UKI_MEASURE_ZERO_TAIL_MAX zeroes past the data, then one more */
	CHECK_INT(try_pcr11(MAGIC252,
			    (struct sect[]){
				k,
				{.name = ".osrel",
				 .data = "x",
				 .vsize = 0x200 + UKI_MEASURE_ZERO_TAIL_MAX,
				 .rsize = 0x200}},
			    2, NULL),
		  0);
	CHECK_INT(try_pcr11(MAGIC252,
			    (struct sect[]){
				k,
				{.name = ".osrel",
				 .data = "x",
				 .vsize = 0x200 + UKI_MEASURE_ZERO_TAIL_MAX + 1,
				 .rsize = 0x200}},
			    2, NULL),
		  -EFBIG);
	/* .pcrsig is neither measured nor checked */
	CHECK_INT(try_pcr11(MAGIC252,
			    (struct sect[]){k,
					    {.name = ".pcrsig", .data = "{}"},
					    {.name = ".pcrsig", .data = "{}"}},
			    3, &n),
		  0);
	CHECK_INT(n, 2);
	/* another stub release measures other sections */
	CHECK_INT(try_pcr11("#### LoaderInfo: systemd-stub 255.4-1 ####", &k, 1,
			    NULL),
		  -EOPNOTSUPP);
	CHECK_INT(try_pcr11(NULL, &k, 1, NULL), -ENOENT);
	CHECK_INT(try_pcr11("#### LoaderInfo: grub ####", &k, 1, NULL),
		  -EBADMSG);
}

TEST(pcr11_zero_tail_and_bad_headers)
{
	static uint8_t b[16384];
	struct arena a = ARENA_INIT;
	struct measure_list l;
	struct measure_digests d;
	const struct sect k = {
	    .name = ".linux", .data = "kernel", .vsize = 0x300, .rsize = 0x200};
	size_t len = mk_pe(b, sizeof(b), MAGIC252, &k, 1);
	uint8_t want[0x300] = "kernel";

	/* VirtualSize past SizeOfRawData: the loader's zeroes count */
	measure_list_init(&l, &a, MEASURE_BANK_SHA256 | MEASURE_BANK_SHA1);
	CHECK_INT(uki_measure_pcr11(&l, b, len), 0);
	measure_digests_of(MEASURE_BANK_SHA256 | MEASURE_BANK_SHA1, want,
			   sizeof(want), &d);
	CHECK(l.n == 2 && memcmp(l.ev[1].d.sha256, d.sha256, 32) == 0);
	CHECK(l.n == 2 && memcmp(l.ev[1].d.sha1, d.sha1, 20) == 0);
	/* not an image the stub runs */
	measure_list_init(&l, &a, MEASURE_BANK_SHA256);
	CHECK_INT(uki_measure_pcr11(&l, b, 0x3f), -ENOEXEC);  /* no PE header */
	CHECK_INT(uki_measure_pcr11(&l, b, 0x160), -ENOEXEC); /* table cut */
	put_le16(b, sizeof(b), 0x44, 0x014c);		      /* i386 */
	CHECK_INT(uki_measure_pcr11(&l, b, len), -ENOEXEC);
	put_le16(b, sizeof(b), 0x44, 0x8664);
	put_le16(b, sizeof(b), 0x58, 0x107); /* ROM image magic */
	CHECK_INT(uki_measure_pcr11(&l, b, len), -ENOEXEC);
	put_le16(b, sizeof(b), 0x58, 0x20b);
	put_le16(b, sizeof(b), 0x46, 0);
	CHECK_INT(uki_measure_pcr11(&l, b, len), -ENOEXEC);
	put_le16(b, sizeof(b), 0x46, 97); /* more than the stub's 96 */
	CHECK_INT(uki_measure_pcr11(&l, b, len), -ENOEXEC);
	b[0] = 'X';
	CHECK_INT(uki_measure_pcr11(&l, b, len), -ENOEXEC);
	CHECK_INT(uki_measure_pcr11(&l, NULL, len), -EINVAL);
	CHECK_INT(l.n, 0);
	arena_free(&a);
}

/* --- PCR 12 */

/* uki_measure_pcr12(@line) makes one event whose data and digested bytes
 * are the UTF-16LE units @u (with their NUL, @n units in all). */
static void check_pcr12(const char *line, const uint16_t *u, size_t n)
{
	struct arena a = ARENA_INIT;
	struct measure_list l;
	struct measure_digests d;
	uint8_t want[64];

	for (size_t i = 0; i < n && 2 * i + 1 < sizeof(want); i++) {
		want[2 * i] = (uint8_t)(u[i] & 0xff);
		want[2 * i + 1] = (uint8_t)(u[i] >> 8);
	}
	measure_list_init(&l, &a, MEASURE_BANK_SHA256);
	CHECK_INT(uki_measure_pcr12(&l, line), 0);
	CHECK_INT(l.n, 1);
	if (l.n == 1) {
		CHECK_INT(l.ev[0].pcr, 12);
		CHECK_INT(l.ev[0].type, TCG_EV_IPL);
		CHECK_INT(l.ev[0].log_len, 2 * n);
		CHECK(l.ev[0].log_len == 2 * n &&
		      memcmp(l.ev[0].log, want, 2 * n) == 0);
		measure_digests_of(MEASURE_BANK_SHA256, want, 2 * n, &d);
		CHECK(memcmp(l.ev[0].d.sha256, d.sha256, 32) == 0);
	}
	arena_free(&a);
}

#define U16(...)                                                               \
	(const uint16_t[]){__VA_ARGS__}, sizeof((uint16_t[]){__VA_ARGS__}) / 2

TEST(pcr12_forms)
{
	/* sha256/sha1 of "quiet splash" in UTF-16LE with its NUL (26 bytes,
	 * python3: (s + '\0').encode('utf-16-le')) */
	static const char sha256[] =
	    "242a355a70b676e3e1723a7cb65a0dff8953c6def43ecc4df51f79fe9c04948d";
	static const char sha1[] = "0f48a08c10fbe460dd26d2ffe9e5558ce0af7139";
	struct arena a = ARENA_INIT;
	struct measure_list l;
	char got[65];

	measure_list_init(&l, &a, MEASURE_BANK_SHA256 | MEASURE_BANK_SHA1);
	CHECK_INT(uki_measure_pcr12(&l, "quiet splash"), 0);
	CHECK_INT(l.n, 1);
	CHECK_STR(l.n ? l.ev[0].what : NULL, "cmdline (UTF-16, systemd-stub)");
	to_hex(l.ev[0].d.sha256, 32, got);
	CHECK_STR(got, sha256);
	to_hex(l.ev[0].d.sha1, 20, got);
	CHECK_STR(got, sha1);
	arena_free(&a);

	check_pcr12("ro", U16('r', 'o', 0));
	/* controls become spaces, trailing spaces go, leading ones stay */
	check_pcr12(" a\tb\n \r", U16(' ', 'a', ' ', 'b', 0));
	check_pcr12("   ", U16(0));
	/* UTF-8 as systemd-boot's xstrn8_to_16() reads it */
	check_pcr12("\xc3\xa9t\xc3\xa9", U16(0xe9, 't', 0xe9, 0));
	check_pcr12("\xe2\x82\xac", U16(0x20ac, 0));
	check_pcr12("a\xf0\x9f\x98\x80z", U16('a', 'z', 0)); /* > U+FFFF */
	check_pcr12("a\xed\xa0\x80z", U16('a', 'z', 0));     /* surrogate */
	check_pcr12("a\xffz", U16('a', 'z', 0));	     /* not UTF-8 */
	check_pcr12("a\xe2\x82z", U16('a', 0)); /* cut: z is skipped with it */
	check_pcr12("a\xc3", U16('a', 0));	/* short at the end */
	check_pcr12("a\xc0\x80z", U16('a', 0)); /* overlong NUL ends it */
}

TEST(pcr12_not_measured)
{
	struct arena a = ARENA_INIT;
	struct measure_list l;

	/* use_load_options(): empty options, or a first unit <= 0x1F */
	measure_list_init(&l, &a, MEASURE_BANK_SHA256);
	CHECK_INT(uki_measure_pcr12(&l, ""), 0);
	CHECK_INT(uki_measure_pcr12(&l, "\tquiet"), 0);
	CHECK_INT(uki_measure_pcr12(&l, "\x1f"), 0);
	CHECK_INT(uki_measure_pcr12(&l, "\xff\xfe"), 0); /* nothing left */
	CHECK_INT(uki_measure_pcr12(&l, "\xc0\x80quiet"), 0);
	CHECK_INT(l.n, 0);
	CHECK_INT(uki_measure_pcr12(&l, NULL), -EINVAL);
	CHECK_INT(uki_measure_pcr12(NULL, "quiet"), -EINVAL);
	arena_free(&a);
}

TEST_MAIN("test_uki_measure", pcr11_equals_systemd_measure, pcr11_events,
	  pcr11_refuses_what_the_stub_reads_otherwise,
	  pcr11_zero_tail_and_bad_headers, pcr12_forms, pcr12_not_measured)
