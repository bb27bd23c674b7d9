/* test_pe_sig.c - Authenticode signers from PE certificate tables: images
 * signed with Debian's sbsign (tests/fixtures/pe_sig/README.md says how),
 * cases derived from them in memory, and hand-built DER names. */
#include "test.h"
#include "util/le.h"
#include "format/pe.h"
#include "format/pe_sig.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#define FIX "tests/fixtures/pe_sig/"

static const char snakeoil[] = "C=US, ST=Colorado, L=Fort Collins, O=SnakeOil";
static const char signer[] =
    "CN=bootmenu test signer, O=bootmenu tests, OU=kexec, L=Z\xc3\xbcrich, "
    "ST=ZH, C=CH, emailAddress=signer@example.org, 2.5.4.5=42";
static const char test_ca[] = "C=DE, O=bootmenu tests, CN=bootmenu test CA";

static uint8_t *load(const char *name, size_t *len)
{
	char path[128];
	uint8_t *b;

	snprintf(path, sizeof(path), FIX "%s", name);
	b = (uint8_t *)test_slurp(path, len);
	if (!b)
		printf("  cannot read %s\n", path);
	CHECK(b != NULL);
	return b;
}

/* The certificate table of a loaded image, via the headers. */
static uint8_t *table_of(uint8_t *img, size_t len, size_t *size)
{
	size_t off = 0;

	*size = 0;
	CHECK_INT(pe_sig_locate(img, len, &off, size), 0);
	CHECK(off <= len && *size <= len - off);
	return img + off;
}

static int read_file(const char *name, struct pe_sig_info *info, char *err,
		     size_t errlen)
{
	size_t len;
	uint8_t *b = load(name, &len);
	int rc = b ? pe_sig_read(b, len, info, err, errlen) : -EIO;

	free(b);
	return rc;
}

TEST(unsigned_image_has_no_table)
{
	struct pe_sig_info info;
	char err[160];

	CHECK_INT(read_file("unsigned.efi", &info, err, sizeof(err)), -ENOENT);
	CHECK_INT(info.count, 0);
	CHECK_STR(err, "");
}

TEST(snakeoil_signer)
{
	struct pe_sig_info info;
	char err[160];

	CHECK_INT(read_file("snakeoil.efi", &info, err, sizeof(err)), 0);
	CHECK_INT(info.count, 1);
	CHECK_STR(info.signer[0].subject, snakeoil);
	CHECK_STR(info.signer[0].issuer, snakeoil);
}

TEST(second_signature_is_counted)
{
	struct pe_sig_info info;

	CHECK_INT(read_file("twice.efi", &info, NULL, 0), 0);
	CHECK_INT(info.count, 2);
	CHECK_STR(info.signer[0].subject, snakeoil);
	CHECK_STR(info.signer[1].subject, signer);
	CHECK_STR(info.signer[1].issuer, test_ca);
}

TEST(signer_not_ca_from_chain)
{
	struct pe_sig_info info;

	CHECK_INT(read_file("chain.efi", &info, NULL, 0), 0);
	CHECK_INT(info.count, 1);
	CHECK_STR(info.signer[0].subject, signer);
	CHECK_STR(info.signer[0].issuer, test_ca);
}

/* The last "INTEGER 0x2002" in the table is SignerInfo's serial. */
static uint8_t *signer_serial(uint8_t *t, size_t n)
{
	static const uint8_t ser[] = {0x02, 0x02, 0x20, 0x02};

	for (size_t i = n - sizeof(ser) + 1; i-- > 0;)
		if (memcmp(t + i, ser, sizeof(ser)) == 0)
			return t + i + 2;
	return NULL;
}

TEST(serial_picks_the_certificate)
{
	struct pe_sig_info info;
	size_t len, size;
	uint8_t *img = load("chain.efi", &len), *t, *ser;

	if (!img)
		return;
	t = table_of(img, len, &size);
	ser = signer_serial(t, size);
	CHECK(ser != NULL);
	if (ser) {
		/* the self-signed CA has the same issuer, serial 0x1001:
		 * the second certificate must be found */
		ser[0] = 0x10, ser[1] = 0x01;
		CHECK_INT(pe_sig_read(img, len, &info, NULL, 0), 0);
		CHECK_STR(info.signer[0].subject, test_ca);
		/* no certificate has 0x3003: issuer only */
		ser[0] = 0x30, ser[1] = 0x03;
		CHECK_INT(pe_sig_read(img, len, &info, NULL, 0), 0);
		CHECK_INT(info.count, 1);
		CHECK_STR(info.signer[0].subject, "");
		CHECK_STR(info.signer[0].issuer, test_ca);
	}
	free(img);
}

TEST(table_past_the_end)
{
	struct pe_sig_info info;
	char err[160];

	CHECK_INT(read_file("past-end.efi", &info, err, sizeof(err)), -EINVAL);
	CHECK_STR(err, "certificate table: 1704 bytes at byte 1024 run past "
		       "the end of the 2000-byte file");
}

TEST(table_shorter_than_its_entry)
{
	struct pe_sig_info info;
	char err[160];

	CHECK_INT(read_file("truncated-table.efi", &info, err, sizeof(err)),
		  -EINVAL);
	CHECK_STR(err, "certificate table entry 1: dwLength 1701 does not fit "
		       "the table (table byte 0)");
	/* a table that ends inside a WIN_CERTIFICATE header */
	CHECK_INT(
	    pe_sig_parse_table("\x10\0\0\0\0\x02", 6, &info, err, sizeof(err)),
	    -EINVAL);
	CHECK(strstr(err, "header cut short") != NULL);
}

TEST(locate_from_headers_only)
{
	struct pe_sig_info info;
	size_t len, off = 0, size = 0;
	uint8_t *img = load("snakeoil.efi", &len);

	if (!img)
		return;
	/* 512 bytes hold the headers; the table's place is what they say */
	CHECK_INT(pe_sig_locate(img, 512, &off, &size), 0);
	CHECK_INT(off, 1024);
	CHECK_INT(size, 1704);
	CHECK_INT(pe_sig_parse_table(img + off, size, &info, NULL, 0), 0);
	CHECK_STR(info.signer[0].subject, snakeoil);
	free(img);
}

TEST(not_a_pe_image)
{
	struct pe_sig_info info;
	uint8_t mz[256] = {'M', 'Z'};

	CHECK_INT(pe_sig_read("hello", 5, &info, NULL, 0), -ENOEXEC);
	CHECK_INT(pe_sig_read(mz, sizeof(mz), &info, NULL, 0), -ENOEXEC);
	CHECK_INT(pe_sig_read(NULL, 0, &info, NULL, 0), -ENOEXEC);
}

/* One byte of the snakeoil table changed at @at: checks rc and the
 * sentence, returns the count of signatures. */
static unsigned mutate(size_t at, uint8_t v, int want, const char *why)
{
	struct pe_sig_info info = {0};
	char err[160];
	size_t len, size;
	uint8_t *img = load("snakeoil.efi", &len), *t;

	if (!img)
		return 0;
	t = table_of(img, len, &size);
	t[at] = v;
	CHECK_INT(pe_sig_read(img, len, &info, err, sizeof(err)), want);
	if (!strstr(err, why))
		printf("  err \"%s\" lacks \"%s\"\n", err, why);
	CHECK(strstr(err, why) != NULL);
	free(img);
	return info.count;
}

TEST(der_lengths_refused)
{
	/* the ContentInfo's "30 82 hi lo" at table byte 8 */
	mutate(9, 0x80, -EINVAL, "indefinite DER length");
	mutate(9, 0x85, -EINVAL, "DER length of 5 bytes");
	mutate(9, 0x83, -EINVAL, "runs past its container");
	mutate(8, 0x1f, -EINVAL, "high tag number");
}

TEST(win_certificate_fields)
{
	/* ContentInfo's OID 1.2.840.113549.1.7.2 ends at table byte 22 */
	mutate(22, 0x01, -EINVAL, "entry 1: not PKCS#7 signedData");
	mutate(5, 0x01, -EINVAL, "wRevision 0x0100");
	/* WIN_CERT_TYPE_X509: skipped, not counted */
	CHECK_INT(mutate(6, 0x01, 0, ""), 0);
	CHECK_INT(mutate(6, 0x02, 0, ""), 1);
}

/* @n copies of the snakeoil entry, and an EFI_GUID one (skipped) first. */
static uint8_t *repeat_entry(unsigned n, size_t *out)
{
	size_t len, size, e;
	uint8_t *img = load("snakeoil.efi", &len), *t, *tab;
	uint32_t dw = 0;

	if (!img)
		return NULL;
	t = table_of(img, len, &size);
	get_le32(t, size, 0, &dw);
	e = (dw + 7u) & ~7u;
	tab = calloc(1, 16 + n * e);
	put_le32(tab, 16, 0, 16);
	put_le16(tab, 16, 4, 0x0200);
	put_le16(tab, 16, 6, 0x0ef1); /* WIN_CERT_TYPE_EFI_GUID */
	for (unsigned i = 0; i < n; i++)
		memcpy(tab + 16 + i * e, t, dw);
	*out = 16 + n * e;
	free(img);
	return tab;
}

TEST(more_signatures_than_reported)
{
	struct pe_sig_info info;
	size_t n;
	uint8_t *tab = repeat_entry(PE_SIG_MAX + 1, &n);

	if (!tab)
		return;
	CHECK_INT(pe_sig_parse_table(tab, n, &info, NULL, 0), 0);
	CHECK_INT(info.count, PE_SIG_MAX + 1);
	CHECK_STR(info.signer[PE_SIG_MAX - 1].subject, snakeoil);
	free(tab);
	CHECK_INT(pe_sig_parse_table("", 0, &info, NULL, 0), 0);
	CHECK_INT(info.count, 0);
	CHECK_INT(pe_sig_parse_table("", PE_SIG_TABLE_MAX + 1, &info, NULL, 0),
		  -EINVAL);
}

/* A small DER writer for hand-made signatures: db_open() and db_close()
 * bracket a constructed value (always a 2-byte long-form length). */
struct db {
	uint8_t b[4096];
	size_t n, open[16];
	unsigned depth;
};

static void db_put(struct db *d, const void *p, size_t n)
{
	if (n > sizeof(d->b) - d->n)
		abort();
	memcpy(d->b + d->n, p, n);
	d->n += n;
}

static void db_prim(struct db *d, uint8_t tag, const void *p, size_t n)
{
	uint8_t h[4] = {tag, (uint8_t)n, 0, 0};

	if (n >= 128)
		h[1] = 0x82, h[2] = (uint8_t)(n >> 8), h[3] = (uint8_t)n;
	db_put(d, h, n >= 128 ? 4 : 2);
	db_put(d, p, n);
}

static void db_open(struct db *d, uint8_t tag)
{
	uint8_t h[4] = {tag, 0x82, 0, 0};

	db_put(d, h, 4);
	d->open[d->depth++] = d->n - 2;
}

static void db_close(struct db *d)
{
	size_t at = d->open[--d->depth], n = d->n - at - 2;

	d->b[at] = (uint8_t)(n >> 8);
	d->b[at + 1] = (uint8_t)n;
}

/* One RDN with one attribute: SET { SEQUENCE { OID, value } }. */
static void db_rdn(struct db *d, const char *oid, uint8_t tag, const char *v,
		   size_t n)
{
	db_open(d, 0x31);
	db_open(d, 0x30);
	db_prim(d, 0x06, oid, strlen(oid));
	db_prim(d, tag, v, n);
	db_close(d);
	db_close(d);
}

static void db_issuer(struct db *d)
{
	db_open(d, 0x30);
	db_rdn(d, "\x55\x04\x03", 0x0c, "Test CA", 7);
	db_close(d);
}

/* A certificate (serial 7) with @subject (a whole Name) in a SignedData
 * whose SignerInfo names it, or a subjectKeyIdentifier when @ski; no
 * certificates when @subject is NULL. The WIN_CERTIFICATE, in *d. */
static void db_entry(struct db *d, const struct db *subject, int ski)
{
	*d = (struct db){.n = 8};
	db_open(d, 0x30); /* ContentInfo */
	db_prim(d, 0x06, "\x2a\x86\x48\x86\xf7\x0d\x01\x07\x02", 9);
	db_open(d, 0xa0);
	db_open(d, 0x30); /* SignedData */
	db_prim(d, 0x02, "\x01", 1);
	db_prim(d, 0x31, "", 0);
	db_prim(d, 0x30, "", 0);
	if (subject) {
		db_open(d, 0xa0);
		db_open(d, 0x30); /* Certificate */
		db_open(d, 0x30); /* tbsCertificate */
		db_prim(d, 0xa0, "\x02\x01\x02", 3);
		db_prim(d, 0x02, "\x07", 1);
		db_prim(d, 0x30, "", 0);
		db_issuer(d);
		db_prim(d, 0x30, "", 0);
		db_put(d, subject->b, subject->n);
		db_close(d), db_close(d), db_close(d);
	}
	db_open(d, 0x31);
	db_open(d, 0x30); /* SignerInfo */
	db_prim(d, 0x02, "\x01", 1);
	if (ski) {
		db_prim(d, 0x80, "\x01\x02", 2);
	} else {
		db_open(d, 0x30);
		db_issuer(d);
		db_prim(d, 0x02, "\x07", 1);
		db_close(d);
	}
	db_close(d), db_close(d), db_close(d), db_close(d), db_close(d);
	put_le32(d->b, 8, 0, (uint32_t)d->n);
	put_le16(d->b, 8, 4, 0x0200);
	put_le16(d->b, 8, 6, 0x0002);
}

TEST(name_text_forms)
{
	struct pe_sig_info info;
	struct db name = {0}, e;

	db_open(&name, 0x30);
	db_rdn(&name, "\x55\x04\x03", 0x1e, "\0Z\0\xfc", 4); /* BMPString */
	db_open(&name, 0x31); /* a multi-valued RDN, in its order */
	db_open(&name, 0x30);
	db_prim(&name, 0x06, "\x55\x04\x0a", 3);
	db_prim(&name, 0x0c,
		"a\x01"
		"b\xff",
		4); /* control, bad UTF-8 */
	db_close(&name);
	db_open(&name, 0x30);
	db_prim(&name, 0x06, "\x2a\x03\x04", 3);
	db_prim(&name, 0x04, "\xab", 1); /* not a string: RFC 4514 hex */
	db_close(&name);
	db_close(&name);
	db_rdn(&name, "\x88\x37\x01", 0x13, "x", 1); /* joint-iso-itu-t */
	db_close(&name);
	db_entry(&e, &name, 0);
	CHECK_INT(pe_sig_parse_table(e.b, e.n, &info, NULL, 0), 0);
	CHECK_INT(info.count, 1);
	CHECK_STR(info.signer[0].subject,
		  "CN=Z\xc3\xbc, O=a?b?, 1.2.3.4=#0401ab, 2.999.1=x");
	CHECK_STR(info.signer[0].issuer, "CN=Test CA");
}

TEST(long_name_cut_at_a_character)
{
	struct pe_sig_info info;
	struct db name = {0}, e;
	char v[1 + 2 * 200] = "x";

	for (int i = 0; i < 200; i++)
		memcpy(v + 1 + 2 * i, "\xc3\xbc", 2);
	db_open(&name, 0x30);
	db_rdn(&name, "\x55\x04\x03", 0x0c, v, sizeof(v));
	db_close(&name);
	db_entry(&e, &name, 0);
	CHECK_INT(pe_sig_parse_table(e.b, e.n, &info, NULL, 0), 0);
	/* "CN=x" and 125 two-byte characters; the 126th would leave no NUL */
	CHECK_INT(strlen(info.signer[0].subject), 4 + 2 * 125);
	CHECK(memcmp(info.signer[0].subject, "CN=x\xc3\xbc", 6) == 0);
}

TEST(signer_without_certificates_or_by_key_id)
{
	struct pe_sig_info info;
	struct db name = {0}, e;
	char err[160];

	db_entry(&e, NULL, 0);
	CHECK_INT(pe_sig_parse_table(e.b, e.n, &info, NULL, 0), 0);
	CHECK_STR(info.signer[0].subject, "");
	CHECK_STR(info.signer[0].issuer, "CN=Test CA");
	db_open(&name, 0x30);
	db_close(&name);
	db_entry(&e, &name, 1);
	CHECK_INT(pe_sig_parse_table(e.b, e.n, &info, err, sizeof(err)),
		  -EINVAL);
	CHECK_STR(err, "certificate table entry 1: issuerAndSerialNumber: "
		       "tag 0x80, want 0x30 (table byte 103)");
}

TEST(data_directories)
{
	uint8_t b[512] = {'M', 'Z'};
	const size_t opt = 0x40 + 4 + 20;
	uint32_t addr = 0, size = 0;

	/* a PE32 optional header: 5 directories from offset 96 */
	put_le32(b, sizeof(b), 0x3c, 0x40);
	put_le32(b, sizeof(b), 0x40, 0x00004550);
	put_le16(b, sizeof(b), 0x40 + 4 + 16, 96 + 5 * 8);
	put_le16(b, sizeof(b), opt, 0x10b);
	put_le32(b, sizeof(b), opt + 92, 5);
	put_le32(b, sizeof(b), opt + 96 + 4 * 8, 0x1234);
	put_le32(b, sizeof(b), opt + 96 + 4 * 8 + 4, 0x40);
	CHECK_INT(pe_data_dir(b, sizeof(b), PE_DIR_SECURITY, &addr, &size), 0);
	CHECK_INT(addr, 0x1234);
	CHECK_INT(size, 0x40);
	/* NumberOfRvaAndSizes, then the optional header's size, bound it */
	put_le32(b, sizeof(b), opt + 92, 4);
	CHECK_INT(pe_data_dir(b, sizeof(b), 4, &addr, &size), -ENOENT);
	put_le32(b, sizeof(b), opt + 92, 16);
	put_le16(b, sizeof(b), 0x40 + 4 + 16, 96 + 4 * 8);
	CHECK_INT(pe_data_dir(b, sizeof(b), 4, &addr, &size), -ENOENT);
	put_le16(b, sizeof(b), opt, 0x107); /* ROM image: no directories */
	CHECK_INT(pe_data_dir(b, sizeof(b), 4, &addr, &size), -ENOEXEC);
	CHECK_INT(pe_data_dir(b, opt + 1, 4, &addr, &size), -ENOEXEC);
}

/* A real signed kernel: PE_SIG_KERNEL (README.md), else Debian's; its
 * expected signer in PE_SIG_KERNEL_SUBJECT, if given. */
TEST(real_kernel_when_given)
{
	const char *path = getenv("PE_SIG_KERNEL");
	const char *want = getenv("PE_SIG_KERNEL_SUBJECT");
	struct pe_sig_info info;
	char err[160];
	size_t len;
	char *b;

	/* Debian's signed kernel, which the build fetches, by default */
	if (!path) {
		path = "build/debkernel/vmlinuz";
		want = "Debian Secure Boot Signer";
	}
	if (access(path, R_OK) != 0) {
		test_skip("%s cannot be read (run make, or name a kernel in "
			  "PE_SIG_KERNEL)",
			  path);
		return;
	}
	b = test_slurp(path, &len);
	CHECK(b != NULL);
	if (!b)
		return;
	CHECK_INT(pe_sig_read(b, len, &info, err, sizeof(err)), 0);
	CHECK(info.count >= 1);
	printf("  %s: %u signature(s); signer \"%s\", issuer \"%s\"\n", path,
	       info.count, info.signer[0].subject, info.signer[0].issuer);
	CHECK(info.signer[0].subject[0] != '\0');
	if (want && !strstr(info.signer[0].subject, want))
		CHECK_STR(info.signer[0].subject, want);
	free(b);
}

TEST_MAIN("test_pe_sig", unsigned_image_has_no_table, snakeoil_signer,
	  second_signature_is_counted, signer_not_ca_from_chain,
	  serial_picks_the_certificate, table_past_the_end,
	  table_shorter_than_its_entry, locate_from_headers_only,
	  not_a_pe_image, der_lengths_refused, win_certificate_fields,
	  more_signatures_than_reported, name_text_forms,
	  long_name_cut_at_a_character,
	  signer_without_certificates_or_by_key_id, data_directories,
	  real_kernel_when_given)
