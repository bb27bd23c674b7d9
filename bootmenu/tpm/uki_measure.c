/* uki_measure.c - systemd-stub 252's PCR 11 and PCR 12 events (header
 * says where each rule comes from). The PE headers are read with
 * util/le.h's checked readers; the section lookup is the stub's own, not
 * format/pe.c's, and where the two would pick different bytes the UKI is
 * refused rather than measured as something bootmenu does not boot.
 */
#include "tpm/uki_measure.h"
#include "format/pe.h"
#include "tpm/measure.h"
#include "util/le.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* src/fundamental/tpm-pcr.c, unified_sections[]: PLEASE DO NOT REORDER */
static const char *const uki_sections[] = {
    ".linux",  ".osrel", ".cmdline", ".initrd",
    ".splash", ".dtb",	 ".pcrsig",  ".pcrpkey",
};
#define UKI_N_SECT (sizeof(uki_sections) / sizeof(uki_sections[0]))
#define UKI_LINUX 0
#define UKI_PCRSIG 6

#define PE_SECT_SIZE 40
#define PE_NAME_LEN 8

/* src/boot/efi/pe.c, verify_pe(): the stub runs only on its own machine */
#if defined(__x86_64__)
#define UKI_MACHINE 0x8664
#elif defined(__aarch64__)
#define UKI_MACHINE 0xAA64
#elif defined(__i386__)
#define UKI_MACHINE 0x014C
#else
#define UKI_MACHINE 0
#endif

struct uki_sect {
	unsigned hits;	/* table entries whose name starts with ours */
	bool exact;	/* the last of them is exactly ours */
	uint32_t vsize; /* VirtualSize */
	uint32_t rsize; /* SizeOfRawData */
	uint32_t roff;	/* PointerToRawData */
};

/* pe.c, verify_pe() and section_table_offset(): where the section table
 * is and how many entries it has, or -ENOEXEC where the stub would
 * return EFI_LOAD_ERROR. */
static int uki_table(const uint8_t *p, size_t len, size_t *tab, uint16_t *n)
{
	uint32_t lfanew, sig;
	uint16_t mz, machine, nsect, optsz, magic;

	if (get_le16(p, len, 0, &mz) || mz != 0x5a4d ||
	    get_le32(p, len, 0x3c, &lfanew) || get_le32(p, len, lfanew, &sig) ||
	    sig != 0x00004550)
		return -ENOEXEC;
	if (get_le16(p, len, (size_t)lfanew + 4, &machine) ||
	    get_le16(p, len, (size_t)lfanew + 6, &nsect) ||
	    get_le16(p, len, (size_t)lfanew + 20, &optsz) ||
	    get_le16(p, len, (size_t)lfanew + 24, &magic))
		return -ENOEXEC;
	if (UKI_MACHINE && machine != UKI_MACHINE)
		return -ENOEXEC;
	if (nsect == 0 || nsect > PE_SECTIONS_MAX ||
	    (magic != 0x10b && magic != 0x20b))
		return -ENOEXEC;
	*tab = (size_t)lfanew + 24 + optsz;
	if (!le_in(len, *tab, (size_t)nsect * PE_SECT_SIZE))
		return -ENOEXEC;
	*n = nsect;
	return 0;
}

/* pe.c, locate_sections(): memcmp(sect->Name, name, strlen(name)), so
 * ".linux" also matches ".linuxAB"; a later entry overrides an earlier
 * one. Records every hit so that uki_check() can refuse the ambiguous. */
static void uki_locate(const uint8_t *p, size_t len, size_t tab, uint16_t n,
		       struct uki_sect s[UKI_N_SECT])
{
	memset(s, 0, UKI_N_SECT * sizeof(*s));
	for (uint16_t i = 0; i < n; i++) {
		size_t h = tab + (size_t)i * PE_SECT_SIZE;

		for (size_t j = 0; j < UKI_N_SECT; j++) {
			size_t k = strlen(uki_sections[j]);

			if (memcmp(p + h, uki_sections[j], k))
				continue;
			s[j].hits++;
			s[j].exact = k == PE_NAME_LEN || p[h + k] == '\0';
			get_le32(p, len, h + 8, &s[j].vsize);
			get_le32(p, len, h + 16, &s[j].rsize);
			get_le32(p, len, h + 20, &s[j].roff);
		}
	}
}

/* Whether the stub would measure section @s: it skips a size of 0. */
static bool uki_present(const struct uki_sect *s)
{
	return s->hits && s->vsize;
}

/* 0 when the stub's choice for @s is the one format/pe.c's
 * pe_find_section() boots (first exact name; VirtualSize, or
 * SizeOfRawData when that is 0 or smaller) and its bytes are in the
 * file; else why not. */
static int uki_check(const struct uki_sect *s, size_t len)
{
	uint32_t data;

	if (!s->hits)
		return 0;
	if (s->hits > 1 || !s->exact)
		return -ENOEXEC;
	if (!s->vsize)
		return s->rsize ? -ENOEXEC : 0;
	data = s->vsize < s->rsize ? s->vsize : s->rsize;
	if (!le_in(len, s->roff, data))
		return -ERANGE;
	if (s->vsize - data > UKI_MEASURE_ZERO_TAIL_MAX)
		return -EFBIG;
	return 0;
}

/* The name as the event data: tpm_log_event_ascii() widens it to UTF-16
 * and logs it with its NUL. Returns the byte count. */
static size_t uki_name16(const char *name, uint8_t out[2 * (PE_NAME_LEN + 1)])
{
	size_t n = strlen(name) + 1;

	for (size_t i = 0; i < n; i++) {
		out[2 * i] = (uint8_t)name[i];
		out[2 * i + 1] = 0;
	}
	return 2 * n;
}

/* The section as the firmware loaded it: its file data, then zeroes up
 * to VirtualSize. */
static void uki_digest(const struct measure_list *l, const uint8_t *p,
		       const struct uki_sect *s, struct measure_digests *d)
{
	static const uint8_t zero[4096];
	uint32_t data = s->vsize < s->rsize ? s->vsize : s->rsize;
	size_t tail = s->vsize - data;
	struct measure_hash h;

	measure_hash_init(&h, l->banks);
	measure_hash_update(&h, p + s->roff, data);
	for (size_t n; tail; tail -= n) {
		n = tail < sizeof(zero) ? tail : sizeof(zero);
		measure_hash_update(&h, zero, n);
	}
	measure_hash_final(&h, d);
}

/* stub.c, efi_main(): first the name with its NUL, then the contents. */
static void uki_measure_one(struct measure_list *l, const char *name,
			    const uint8_t *p, const struct uki_sect *s)
{
	uint8_t name16[2 * (PE_NAME_LEN + 1)];
	size_t n16 = uki_name16(name, name16);
	struct measure_digests d;
	char what[48];

	snprintf(what, sizeof(what), "UKI section name %s", name);
	measure_add(l, UKI_MEASURE_PCR_SECTIONS, TCG_EV_IPL, name,
		    strlen(name) + 1, name16, n16, what);
	uki_digest(l, p, s, &d);
	snprintf(what, sizeof(what), "UKI section %s", name);
	measure_add_digests(l, UKI_MEASURE_PCR_SECTIONS, TCG_EV_IPL, &d, name16,
			    n16, what);
}

int uki_stub_version(const void *pe, size_t len)
{
	static const char magic[] = "#### LoaderInfo: systemd-stub ";
	const char *p;
	size_t off, size, i;
	int v = 0;
	int rc = pe_find_section(pe, len, ".sdmagic", &off, &size);

	if (rc == -ERANGE)
		return -EBADMSG;
	if (rc < 0)
		return rc;
	p = (const char *)pe + off;
	if (size <= sizeof(magic) - 1 || memcmp(p, magic, sizeof(magic) - 1))
		return -EBADMSG;
	for (i = sizeof(magic) - 1; i < size && p[i] >= '0' && p[i] <= '9';
	     i++) {
		if (v > 99999)
			return -EBADMSG;
		v = v * 10 + (p[i] - '0');
	}
	return v > 0 ? v : -EBADMSG;
}

int uki_measure_pcr11(struct measure_list *l, const void *pe, size_t len)
{
	const uint8_t *p = pe;
	struct uki_sect s[UKI_N_SECT];
	size_t tab;
	uint16_t n;
	int rc;

	if (!l || !pe)
		return -EINVAL;
	rc = uki_table(p, len, &tab, &n);
	if (rc < 0)
		return rc;
	rc = uki_stub_version(pe, len);
	if (rc < 0)
		return rc;
	if (rc != UKI_MEASURE_STUB_VERSION)
		return -EOPNOTSUPP;
	uki_locate(p, len, tab, n, s);
	/* stub.c: "Unable to locate embedded .linux section" */
	if (!uki_present(&s[UKI_LINUX]))
		return -ENOEXEC;
	for (size_t j = 0; j < UKI_N_SECT; j++)
		if (j != UKI_PCRSIG && (rc = uki_check(&s[j], len)) < 0)
			return rc;
	for (size_t j = 0; j < UKI_N_SECT; j++)
		if (j != UKI_PCRSIG && uki_present(&s[j]))
			uki_measure_one(l, uki_sections[j], p, &s[j]);
	return 0;
}

/* efi-string.c, utf8_to_unichar(): one character from s[0..n), n > 0;
 * returns the bytes it spans, *c UINT32_MAX when they are not UTF-8.
 * Like systemd it takes 5- and 6-byte forms and overlong ones. */
static size_t uki_utf8(const uint8_t *s, size_t n, uint32_t *c)
{
	static const uint8_t mask[] = {0xe0, 0xf0, 0xf8, 0xfc, 0xfe};
	size_t k;

	*c = UINT32_MAX;
	if (!(s[0] & 0x80)) {
		*c = s[0];
		return 1;
	}
	for (k = 0;
	     k < sizeof(mask) && (s[0] & mask[k]) != (uint8_t)(mask[k] << 1);
	     k++)
		;
	if (k == sizeof(mask))
		return 1;
	if (k + 2 > n)
		return k + 2;
	uint32_t v = s[0] & (uint8_t)~mask[k];
	for (size_t i = 1; i < k + 2; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return k + 2;
		v = v << 6 | (s[i] & 0x3f);
	}
	*c = v;
	return k + 2;
}

/* efi-string.c, xstrn8_to_16(): UTF-8 to UCS-2, dropping what does not
 * fit one unit. Writes at most strlen(s) units and a 0; returns the
 * units before the first 0 (an overlong NUL ends the line there too). */
static size_t uki_ucs2(const char *s, uint16_t *out)
{
	const uint8_t *p = (const uint8_t *)s;
	size_t n = strlen(s), i = 0;

	while (n > 0) {
		uint32_t c;
		size_t k = uki_utf8(p, n, &c);

		p += k;
		n = k < n ? n - k : 0;
		if (c <= 0xd7ff || (c >= 0xe000 && c <= 0xffff))
			out[i++] = (uint16_t)c;
	}
	out[i] = 0;
	for (size_t j = 0; j < i; j++)
		if (!out[j])
			return j;
	return i;
}

/* util.c, mangle_stub_cmdline() as Debian's 252.39 stub does it: each
 * unit <= 0x1F becomes a space, then trailing spaces go. Returns the
 * new length. */
static size_t uki_mangle(uint16_t *u, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (u[i] <= 0x1f)
			u[i] = ' ';
	while (n > 0 && u[n - 1] == ' ')
		u[--n] = 0;
	return n;
}

int uki_measure_pcr12(struct measure_list *l, const char *cmdline)
{
	uint16_t *u;
	uint8_t *b;
	size_t n;

	if (!l || !cmdline)
		return -EINVAL;
	u = malloc((strlen(cmdline) + 1) * sizeof(*u));
	if (!u)
		return -ENOMEM;
	n = uki_ucs2(cmdline, u);
	/* stub.c, use_load_options(): "superficial check whether first
	 * character of passed command line is printable" */
	if (n == 0 || u[0] <= 0x1f) {
		free(u);
		return 0;
	}
	n = uki_mangle(u, n);
	b = malloc(2 * (n + 1));
	if (!b) {
		free(u);
		return -ENOMEM;
	}
	for (size_t i = 0; i <= n; i++) {
		b[2 * i] = (uint8_t)(u[i] & 0xff);
		b[2 * i + 1] = (uint8_t)(u[i] >> 8);
	}
	/* measure.c, tpm_log_load_options(): strsize16(), the NUL counted */
	measure_add(l, UKI_MEASURE_PCR_CMDLINE, TCG_EV_IPL, b, 2 * (n + 1), b,
		    2 * (n + 1), "cmdline (UTF-16, systemd-stub)");
	free(b);
	free(u);
	return 0;
}
