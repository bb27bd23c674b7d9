/* test_multiboot.c - the multiboot2 and multiboot loader (kexec/
 * multiboot.h): headers (Debian's Xen and hand-made ones), each refusal
 * with its sentence, the boot information byte by byte (both versions),
 * and the plan: segments, modules, the purgatory's 32-bit entry fields. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "kexec_double.h"
#include "kexec/load.h"
#include "kexec/machine.h"
#include "kexec/multiboot.h"
#include "kexec/plan.h"
#include "kexec/purgatory.h"
#include "kexec/unpack.h"
#include "test.h"
#include "util/le.h"

#define FIX "tests/fixtures/memmap/"
#define XEN_GZ "build/debxen/xen.gz"
#define HDR 0x40 /* where mk_mb2() puts the header */

static uint8_t img[16384];

/* A multiboot2 kernel: the header at HDR with an information request
 * (4, 6), the address tag (loaded at 0x200000 from offset 0, zeros to
 * 0x210000), the entry tag (0x200100), module alignment, then @extra
 * (whole tags) and the end tag. Returns the image's length. */
static size_t mk_mb2(const uint8_t *extra, size_t nextra)
{
	size_t at = HDR + 16, len;

	memset(img, 0x90, sizeof(img));
	put_le16(img, sizeof(img), at, 1);
	put_le16(img, sizeof(img), at + 2, 0);
	put_le32(img, sizeof(img), at + 4, 16);
	put_le32(img, sizeof(img), at + 8, 4);
	put_le32(img, sizeof(img), at + 12, 6);
	at += 16;
	put_le32(img, sizeof(img), at, 2);
	put_le32(img, sizeof(img), at + 4, 24);
	put_le32(img, sizeof(img), at + 8, 0x200000 + HDR);
	put_le32(img, sizeof(img), at + 12, 0x200000);
	put_le32(img, sizeof(img), at + 16, 0);
	put_le32(img, sizeof(img), at + 20, 0x210000);
	at += 24;
	put_le32(img, sizeof(img), at, 3);
	put_le32(img, sizeof(img), at + 4, 12);
	put_le32(img, sizeof(img), at + 8, 0x200100);
	at += 16;
	put_le32(img, sizeof(img), at, 6);
	put_le32(img, sizeof(img), at + 4, 8);
	at += 8;
	if (nextra)
		memcpy(img + at, extra, nextra);
	at += nextra;
	put_le32(img, sizeof(img), at, 0);
	put_le32(img, sizeof(img), at + 4, 8);
	len = at + 8 - HDR;
	put_le32(img, sizeof(img), HDR, MB2_HEADER_MAGIC);
	put_le32(img, sizeof(img), HDR + 4, 0);
	put_le32(img, sizeof(img), HDR + 8, (uint32_t)len);
	put_le32(img, sizeof(img), HDR + 12,
		 (uint32_t)(0u - MB2_HEADER_MAGIC - (uint32_t)len));
	return 8192;
}

TEST(xen_headers)
{
	size_t glen = 0;
	char *gz = test_slurp(XEN_GZ, &glen), err[256] = "";
	struct kexec_blob in = {gz, glen}, out;
	struct kexec_mb_header h;
	struct kexec_elf el;
	uint8_t *owned = NULL;

	if (!gz) {
		test_skip("%s absent (scripts/debian-xen.sh build)", XEN_GZ);
		return;
	}
	CHECK_INT(kexec_unpack(&in, &out, &owned, NULL, err, sizeof(err)), 0);
	/* Debian 12's xen-4.17-amd64.gz: multiboot2 header at 0x98 asking
	 * for meminfo (4) and mmap (6), page-aligned modules */
	CHECK_INT(
	    kexec_mb_header_parse(out.buf, out.len, 0, &h, err, sizeof(err)),
	    0);
	CHECK_INT(h.version, 2);
	CHECK_INT(h.off, 0x98);
	CHECK(h.mod_align);
	CHECK_INT(h.want, 1u << 4 | 1u << 6);
	CHECK_INT(h.ask, 1u << 4 | 1u << 6);
	CHECK(h.efi_entry); /* its optional EFI64 entry */
	CHECK(!h.have_addr);
	CHECK_INT(kexec_mb_image(out.buf, out.len, &h, &el, err, sizeof(err)),
		  0);
	CHECK_INT(el.n_load, 1);
	CHECK_INT(el.load[0].paddr, 0x200000);
	CHECK_INT(el.load[0].off, 0x80);
	CHECK_INT(el.entry, 0x200000);
	/* the multiboot (v1) header beside it: flags 3 */
	CHECK_INT(
	    kexec_mb_header_parse(out.buf, out.len, 1, &h, err, sizeof(err)),
	    0);
	CHECK_INT(h.version, 1);
	CHECK_INT(h.off, 0x88);
	CHECK_INT(h.flags, 3);
	free(owned);
	free(gz);
}

TEST(hand_made_header_and_image)
{
	size_t len = mk_mb2(NULL, 0);
	struct kexec_mb_header h;
	struct kexec_elf el;
	char err[256] = "";

	CHECK_INT(kexec_mb_header_parse(img, len, 0, &h, err, sizeof(err)), 0);
	CHECK_INT(h.version, 2);
	CHECK_INT(h.off, HDR);
	CHECK(h.have_addr && h.have_entry && h.mod_align);
	CHECK_INT(kexec_mb_image(img, len, &h, &el, err, sizeof(err)), 0);
	CHECK_INT(el.n_load, 1);
	CHECK_INT(el.load[0].paddr, 0x200000);
	CHECK_INT(el.load[0].off, 0);
	CHECK_INT(el.load[0].filesz, len);
	CHECK_INT(el.load[0].memsz, 0x10000);
	CHECK_INT(el.entry, 0x200100);
	/* asked for the other version: none */
	CHECK_INT(kexec_mb_header_parse(img, len, 1, &h, err, sizeof(err)),
		  -ENOENT);
	CHECK_STR(err, "the kernel has no multiboot header in its first 8 KiB");
}

/* One optional-or-required tag of @type with @flags, @size bytes. */
static size_t tag8(uint8_t *t, uint16_t type, uint16_t flags, uint32_t size,
		   uint32_t v)
{
	memset(t, 0, 24);
	put_le16(t, 24, 0, type);
	put_le16(t, 24, 2, flags);
	put_le32(t, 24, 4, size);
	put_le32(t, 24, 8, v);
	return (size + 7) & ~7u;
}

static void refuse_tag(uint16_t type, uint16_t flags, uint32_t size, uint32_t v,
		       int want_rc, const char *want)
{
	uint8_t t[24];
	size_t n = tag8(t, type, flags, size, v), len = mk_mb2(t, n);
	struct kexec_mb_header h;
	char err[256] = "";

	CHECK_INT(kexec_mb_header_parse(img, len, 0, &h, err, sizeof(err)),
		  want_rc);
	if (want)
		CHECK_STR(err, want);
}

TEST(header_refusals)
{
	size_t len = mk_mb2(NULL, 0);
	struct kexec_mb_header h;
	struct kexec_elf el;
	char err[256] = "";

	refuse_tag(MB2_HT_EFI_BS, 0, 8, 0, -ENOEXEC,
		   "the multiboot2 kernel requires EFI boot services, which "
		   "are gone after a kexec");
	refuse_tag(MB2_HT_EFI_BS, 1, 8, 0, 0, NULL); /* optional: fine */
	/* a required graphics mode is the plan's question (the screen) */
	refuse_tag(MB2_HT_FRAMEBUFFER, 0, 20, 0, 0, NULL);
	refuse_tag(MB2_HT_FRAMEBUFFER, 1, 20, 0, 0, NULL);
	refuse_tag(MB2_HT_ENTRY_EFI64, 0, 12, 0, -ENOEXEC,
		   "the multiboot2 kernel requires an EFI entry, which needs "
		   "EFI boot services");
	refuse_tag(77, 0, 8, 0, -ENOEXEC,
		   "the multiboot2 kernel requires header tag 77, which "
		   "bootmenu does not know");
	refuse_tag(77, 1, 8, 0, 0, NULL);
	/* ELF symbols (9) required: not given */
	refuse_tag(MB2_HT_INFO_REQ, 0, 12, 9, -ENOEXEC,
		   "the multiboot2 kernel requires boot information of type "
		   "9, which bootmenu does not give");
	refuse_tag(MB2_HT_INFO_REQ, 1, 12, 9, 0, NULL);
	refuse_tag(MB2_HT_ENTRY, 0, 8, 0, -ENOEXEC,
		   "the multiboot2 header's tag 3 is too short (8 bytes)");
	refuse_tag(MB2_HT_CONSOLE, 0, 4, 0, -ENOEXEC,
		   "the multiboot2 header's tags are malformed or have no "
		   "end tag");
	/* a bad checksum is no header at all */
	put_le32(img, sizeof(img), HDR + 12, 0);
	CHECK_INT(kexec_mb_header_parse(img, len, 2, &h, err, sizeof(err)),
		  -ENOENT);
	CHECK_STR(err, "the kernel has no multiboot2 header in its first "
		       "32 KiB");
	/* the header's length past the file */
	len = mk_mb2(NULL, 0);
	CHECK_INT(kexec_mb_header_parse(img, HDR + 40, 0, &h, err, sizeof(err)),
		  -ENOEXEC);
	CHECK(strstr(err, "truncated"));
	/* an address tag whose load address is after the header's */
	CHECK_INT(kexec_mb_header_parse(img, len, 0, &h, err, sizeof(err)), 0);
	h.load_addr = h.header_addr + 4;
	CHECK_INT(kexec_mb_image(img, len, &h, &el, err, sizeof(err)),
		  -ENOEXEC);
	CHECK_STR(err, "the multiboot header's load address is after the "
		       "header itself");
	/* load end past the file */
	h.load_addr = 0x200000;
	h.load_end_addr = 0x200000 + (uint32_t)len + 1;
	CHECK_INT(kexec_mb_image(img, len, &h, &el, err, sizeof(err)),
		  -ENOEXEC);
	CHECK(strstr(err, "truncated"));
	/* neither ELF nor an address tag */
	h.have_addr = false;
	CHECK_INT(kexec_mb_image(img, len, &h, &el, err, sizeof(err)),
		  -ENOEXEC);
	CHECK_STR(err, "the multiboot kernel is not an ELF file and its "
		       "header gives no load address");
}

TEST(mb1_header_flags)
{
	struct kexec_mb_header h;
	char err[256] = "";

	memset(img, 0, sizeof(img));
	put_le32(img, sizeof(img), 0x20, MB1_HEADER_MAGIC);
	put_le32(img, sizeof(img), 0x24, 0x10003);
	put_le32(img, sizeof(img), 0x28, 0u - MB1_HEADER_MAGIC - 0x10003);
	put_le32(img, sizeof(img), 0x2c, 0x100020); /* header_addr */
	put_le32(img, sizeof(img), 0x30, 0x100000); /* load_addr */
	put_le32(img, sizeof(img), 0x34, 0);
	put_le32(img, sizeof(img), 0x38, 0);
	put_le32(img, sizeof(img), 0x3c, 0x100040); /* entry */
	CHECK_INT(kexec_mb_header_parse(img, 4096, 0, &h, err, sizeof(err)), 0);
	CHECK_INT(h.version, 1);
	CHECK(h.have_addr && h.have_entry);
	CHECK_INT(h.entry_addr, 0x100040);
	/* bit 3 (unknown requirement) */
	put_le32(img, sizeof(img), 0x24, 0x10008);
	put_le32(img, sizeof(img), 0x28, 0u - MB1_HEADER_MAGIC - 0x10008);
	CHECK_INT(kexec_mb_header_parse(img, 4096, 1, &h, err, sizeof(err)),
		  -ENOEXEC);
	CHECK_STR(err, "the multiboot kernel requires features bootmenu "
		       "does not know (flags 0x10008)");
}

static const struct kexec_range test_mm[] = {
    {0, 0x9fc00, E820_RAM},
    {0xf0000, 0x100000, E820_RESERVED},
    {0x100000, 0x1ffe0000, E820_RAM},
    {0xfeffc000, 0xff000000, E820_PMEM},
};
static const struct kexec_mb_mod test_mods[] = {
    {0x300000, 0x300123, "vmlinuz x"},
    {0x400000, 0x400010, ""},
};
static uint8_t test_rsdp[36];

static void info_in(struct kexec_mb_info_in *in, int version)
{
	memset(test_rsdp, 0xa5, sizeof(test_rsdp));
	memcpy(test_rsdp, "RSD PTR ", 8);
	test_rsdp[15] = 2;
	*in = (struct kexec_mb_info_in){
	    .version = version,
	    .cmdline = "xen a",
	    .mods = test_mods,
	    .n_mods = 2,
	    .mm = test_mm,
	    .n_mm = 4,
	    .load_base = 0x200000,
	    .efi_systab = 0x7f001018,
	    .rsdp = test_rsdp,
	    .rsdp_len = 36,
	};
}

static void want_tag(uint8_t *w, size_t at, uint32_t type, uint32_t size)
{
	put_le32(w, 352, at, type);
	put_le32(w, 352, at + 4, size);
}

/* multiboot2 spec 3.6: every tag at its offset, 8-aligned, zero padding */
TEST(mb2_info_bytes)
{
	struct kexec_mb_info_in in;
	static uint8_t got[512], w[352];
	static const uint32_t types[] = {1, 2, 1, 1, 1, 1, 1, 2};

	info_in(&in, 2);
	CHECK_INT(kexec_mb_info(&in, 0x1000, NULL, 0), 352);
	CHECK_INT(kexec_mb_info(&in, 0x1000, got, sizeof(got)), 352);
	memset(w, 0, sizeof(w));
	put_le32(w, 352, 0, 352);
	want_tag(w, 8, 1, 14);
	memcpy(w + 16, "xen a", 6);
	want_tag(w, 24, 2, 17);
	memcpy(w + 32, "bootmenu", 9);
	want_tag(w, 48, 3, 26);
	put_le32(w, 352, 56, 0x300000);
	put_le32(w, 352, 60, 0x300123);
	memcpy(w + 64, "vmlinuz x", 10);
	want_tag(w, 80, 3, 17);
	put_le32(w, 352, 88, 0x400000);
	put_le32(w, 352, 92, 0x400010);
	want_tag(w, 104, 4, 16);
	put_le32(w, 352, 112, 639); /* 0x9fc00 / 1024 */
	put_le32(w, 352, 116, (0x1ffe0000 - 0x100000) / 1024);
	want_tag(w, 120, 6, 16 + 4 * 24);
	put_le32(w, 352, 128, 24);
	for (size_t i = 0; i < 4; i++) {
		put_le64(w, 352, 136 + 24 * i, test_mm[i].start);
		put_le64(w, 352, 144 + 24 * i,
			 test_mm[i].end - test_mm[i].start);
		put_le32(w, 352, 152 + 24 * i, i == 3 ? 2 : types[i]);
	}
	want_tag(w, 232, 21, 12);
	put_le32(w, 352, 240, 0x200000);
	want_tag(w, 248, 12, 16);
	put_le64(w, 352, 256, 0x7f001018);
	want_tag(w, 264, 14, 28);
	memcpy(w + 272, test_rsdp, 20);
	want_tag(w, 296, 15, 44);
	memcpy(w + 304, test_rsdp, 36);
	want_tag(w, 344, 0, 8);
	for (size_t i = 0; i < sizeof(w); i++)
		if (got[i] != w[i]) {
			printf("  byte %zu is 0x%02x, want 0x%02x\n", i, got[i],
			       w[i]);
			test_failures++;
			break;
		}
	/* an ACPI 1.0 RSDP: the old tag only; no EFI: no EFI64 tag */
	test_rsdp[15] = 0;
	in.efi_systab = 0;
	CHECK_INT(kexec_mb_info(&in, 0x1000, got, sizeof(got)), 352 - 48 - 16);
	/* past 4 GiB: refused */
	CHECK_INT(kexec_mb_info(&in, 0xffffff00ull, NULL, 0), -E2BIG);
}

/* multiboot spec 3.3: the info structure, its module list, memory map
 * and strings, every pointer physical (here at 0x10000). */
TEST(mb1_info_bytes)
{
	struct kexec_mb_info_in in;
	static uint8_t got[512];
	const uint32_t a = 0x10000;
	uint32_t v = 0;
	uint64_t q = 0;

	info_in(&in, 1);
	CHECK_INT(kexec_mb_info(&in, a, got, sizeof(got)), 280);
#define U32(off, want)                                                         \
	do {                                                                   \
		get_le32(got, sizeof(got), off, &v);                           \
		CHECK_INT(v, want);                                            \
	} while (0)
	U32(0, 0x24d); /* mem, cmdline, mods, mmap, loader name */
	U32(4, 639);
	U32(8, (0x1ffe0000 - 0x100000) / 1024);
	U32(12, 0);
	U32(16, a + 248);
	U32(20, 2);
	U32(24, a + 120);
	U32(44, 96);
	U32(48, a + 152);
	U32(64, a + 254);
	U32(120, 0x300000);
	U32(124, 0x300123);
	U32(128, a + 263);
	U32(136, 0x400000);
	U32(140, 0x400010);
	U32(144, a + 273);
	for (size_t i = 0; i < 4; i++) {
		U32(152 + 24 * i, 20);
		get_le64(got, sizeof(got), 156 + 24 * i, &q);
		CHECK_INT(q, test_mm[i].start);
		get_le64(got, sizeof(got), 164 + 24 * i, &q);
		CHECK_INT(q, test_mm[i].end - test_mm[i].start);
		U32(172 + 24 * i, i == 3 ? 2 : test_mm[i].type);
	}
#undef U32
	CHECK_STR((char *)got + 248, "xen a");
	CHECK_STR((char *)got + 254, "bootmenu");
	CHECK_STR((char *)got + 263, "vmlinuz x");
	CHECK_STR((char *)got + 273, "");
	CHECK_INT(got[274] | got[279], 0);
}

/* boot_params' screen_info (the Linux boot protocol's): a VESA or EFI
 * linear framebuffer, VGA text (colour and monochrome), or nothing. */
TEST(screen_from_boot_params)
{
	static uint8_t bp[4096];
	struct kexec_mb_fb fb;

	memset(bp, 0, sizeof(bp));
	kexec_mb_screen(bp, sizeof(bp), &fb);
	CHECK_INT(fb.type, 0);
	/* SeaBIOS's text mode 3 */
	bp[0x06] = 3, bp[0x07] = 80, bp[0x0e] = 25, bp[0x0f] = 1;
	kexec_mb_screen(bp, sizeof(bp), &fb);
	CHECK_INT(fb.type, MB_FB_TEXT);
	CHECK_INT(fb.addr, 0xb8000);
	CHECK_INT(fb.width, 80);
	CHECK_INT(fb.height, 25);
	CHECK_INT(fb.pitch, 160);
	CHECK_INT(fb.bpp, 16);
	bp[0x06] = 7;
	kexec_mb_screen(bp, sizeof(bp), &fb);
	CHECK_INT(fb.addr, 0xb0000);
	/* OVMF's GOP: 1280x800x32 at 0x80000000, BGRX */
	memset(bp, 0, 64);
	bp[0x0f] = 0x70;
	put_le16(bp, sizeof(bp), 0x12, 1280);
	put_le16(bp, sizeof(bp), 0x14, 800);
	put_le16(bp, sizeof(bp), 0x16, 32);
	put_le32(bp, sizeof(bp), 0x18, 0x80000000u);
	put_le16(bp, sizeof(bp), 0x24, 5120);
	memcpy(bp + 0x26, "\x08\x10\x08\x08\x08\x00\x08\x18", 8);
	kexec_mb_screen(bp, sizeof(bp), &fb);
	CHECK_INT(fb.type, MB_FB_RGB);
	CHECK_INT(fb.addr, 0x80000000u);
	CHECK_INT(fb.pitch, 5120);
	CHECK_INT(fb.width * 1000 + fb.height, 1280800);
	CHECK_INT(fb.bpp, 32);
	CHECK_INT(fb.red_pos * 100 + fb.green_pos * 10 + fb.blue_pos,
		  16 * 100 + 8 * 10 + 0);
	CHECK_INT(fb.red_size + fb.green_size + fb.blue_size, 24);
	/* a 64-bit base only when the capability says so */
	put_le32(bp, sizeof(bp), 0x3a, 0x40);
	kexec_mb_screen(bp, sizeof(bp), &fb);
	CHECK_INT(fb.addr, 0x80000000u);
	put_le32(bp, sizeof(bp), 0x36, 2);
	kexec_mb_screen(bp, sizeof(bp), &fb);
	CHECK_INT(fb.addr, 0x4080000000ull);
	/* half a framebuffer is none; so are too few bytes */
	put_le16(bp, sizeof(bp), 0x24, 0);
	kexec_mb_screen(bp, sizeof(bp), &fb);
	CHECK_INT(fb.type, 0);
	kexec_mb_screen(bp, 0x20, &fb);
	CHECK_INT(fb.type, 0);
}

/* 3.6.12 (with GRUB's two reserved bytes) and multiboot 3.3's
 * framebuffer fields, after everything else. */
TEST(framebuffer_info_bytes)
{
	/* OVMF's GOP: 1280x800x32 at 0x80000000, BGRX */
	static const struct kexec_mb_fb gop = {.addr = 0x80000000u,
					       .pitch = 5120,
					       .width = 1280,
					       .height = 800,
					       .bpp = 32,
					       .type = MB_FB_RGB,
					       .red_pos = 16,
					       .red_size = 8,
					       .green_pos = 8,
					       .green_size = 8,
					       .blue_pos = 0,
					       .blue_size = 8};
	struct kexec_mb_info_in in;
	static uint8_t got[512];
	uint64_t q = 0;
	uint32_t v = 0;

	info_in(&in, 2);
	in.fb = gop;
	/* after the 344 bytes of mb2_info_bytes: one tag of 38 (40) */
	CHECK_INT(kexec_mb_info(&in, 0x1000, got, sizeof(got)), 352 + 40);
	get_le32(got, sizeof(got), 344, &v);
	CHECK_INT(v, 8);
	get_le32(got, sizeof(got), 348, &v);
	CHECK_INT(v, 38);
	get_le64(got, sizeof(got), 352, &q);
	CHECK_INT(q, 0x80000000u);
	get_le32(got, sizeof(got), 360, &v);
	CHECK_INT(v, 5120);
	get_le32(got, sizeof(got), 364, &v);
	CHECK_INT(v, 1280);
	get_le32(got, sizeof(got), 368, &v);
	CHECK_INT(v, 800);
	CHECK(
	    !memcmp(got + 372, "\x20\x01\x00\x00\x10\x08\x08\x08\x00\x08", 10));
	get_le32(got, sizeof(got), 384, &v);
	CHECK_INT(v, 0); /* the end tag */
	/* text: no colour fields */
	in.fb = (struct kexec_mb_fb){.addr = 0xb8000,
				     .pitch = 160,
				     .width = 80,
				     .height = 25,
				     .bpp = 16,
				     .type = MB_FB_TEXT};
	CHECK_INT(kexec_mb_info(&in, 0x1000, got, sizeof(got)), 352 + 32);
	get_le32(got, sizeof(got), 348, &v);
	CHECK_INT(v, 32);
	CHECK(!memcmp(got + 372, "\x10\x02\x00\x00", 4));
	/* v1: flag 12 and the fields at 88 */
	info_in(&in, 1);
	in.fb = gop;
	CHECK_INT(kexec_mb_info(&in, 0x10000, got, sizeof(got)), 280);
	get_le32(got, sizeof(got), 0, &v);
	CHECK_INT(v, 0x24d | 1u << 12);
	get_le64(got, sizeof(got), 88, &q);
	CHECK_INT(q, 0x80000000u);
	get_le32(got, sizeof(got), 104, &v);
	CHECK_INT(v, 800);
	CHECK(!memcmp(got + 108, "\x20\x01\x10\x08", 4));
}

/* The offset of the @nth (0-based) info tag of @type, or 0. */
static size_t info_tag(const struct kexec_plan *p, uint32_t type, int nth)
{
	uint32_t t = 0, size = 0;

	for (size_t at = 8; at + 8 <= p->params_len; at += (size + 7) & ~7u) {
		get_le32(p->params, p->params_len, at, &t);
		get_le32(p->params, p->params_len, at + 4, &size);
		if (size < 8)
			return 0;
		if (t == type && nth-- == 0)
			return at;
	}
	return 0;
}

static int machine(struct kexec_machine *m)
{
	struct kexec_machine_paths p = {FIX "bios-small", NULL, FIX "absent",
					FIX "absent",	  NULL, FIX "absent"};
	char err[256] = "";

	return kexec_machine_read(m, &p, err, sizeof(err));
}

static const struct kexec_seg *seg_at(const struct kexec_plan *p, uint64_t a)
{
	for (size_t i = 0; i < p->n_seg; i++)
		if (p->seg[i].mem == a)
			return &p->seg[i];
	return NULL;
}

TEST(plan_places_and_enters_32bit)
{
	static uint8_t m1[5000], m2[100];
	struct kexec_mb_module mods[2] = {{{m1, sizeof(m1)}, "vmlinuz ro"},
					  {{m2, sizeof(m2)}, ""}};
	struct kexec_machine m;
	struct kexec_plan p;
	struct kexec_mb_plan_in in = {.cmdline = "placeholder console=com1",
				      .mods = mods,
				      .n_mods = 2,
				      .m = &m,
				      .sha256 = true};
	char err[256] = "";
	uint64_t v = 0, a0, a1;
	uint32_t w = 0;
	size_t t0, t1;

	CHECK_INT(machine(&m), 0);
	in.image = (struct kexec_blob){img, mk_mb2(NULL, 0)};
	CHECK_INT(kexec_mb_plan_build(&in, &p, err, sizeof(err)), 0);
	if (test_failures) {
		printf("  %s\n", err);
		kexec_machine_free(&m);
		return;
	}
	CHECK_INT(p.multiboot, 2);
	CHECK_INT(p.n_seg, 5); /* kernel, 2 modules, info, purgatory */
	CHECK(seg_at(&p, 0x200000) && seg_at(&p, 0x200000)->memsz == 0x10000);
	/* the info tells where the modules are: page-aligned, in segments
	 * of their own bytes, above the kernel */
	t0 = info_tag(&p, MB2_TAG_MODULE, 0);
	t1 = info_tag(&p, MB2_TAG_MODULE, 1);
	CHECK(t0 && t1);
	get_le32(p.params, p.params_len, t0 + 8, &w);
	a0 = w;
	get_le32(p.params, p.params_len, t0 + 12, &w);
	CHECK_INT(w, a0 + sizeof(m1));
	CHECK_INT(a0 % KEXEC_PAGE, 0);
	CHECK(a0 >= 0x210000);
	CHECK(seg_at(&p, a0) && seg_at(&p, a0)->buf == m1);
	CHECK_STR((char *)p.params + t0 + 16, "vmlinuz ro");
	CHECK_STR((char *)p.params + info_tag(&p, MB2_TAG_CMDLINE, 0) + 8,
		  "placeholder console=com1");
	get_le32(p.params, p.params_len, info_tag(&p, MB2_TAG_LOAD_BASE, 0) + 8,
		 &w);
	CHECK_INT(w, 0x200000);
	get_le32(p.params, p.params_len, t1 + 8, &w);
	a1 = w;
	CHECK(seg_at(&p, a1) && seg_at(&p, a1)->buf == m2 && a1 % 4096 == 0);
	CHECK(seg_at(&p, p.params_addr) &&
	      seg_at(&p, p.params_addr)->buf == p.params);
	/* the purgatory: the info in %ebx, the entry, the multiboot2 magic,
	 * a flat 32-bit code segment at 0x08 */
	get_le64(p.purg, p.purg_len, PURG_RSI, &v);
	CHECK_INT(v, p.params_addr);
	get_le64(p.purg, p.purg_len, PURG_RIP, &v);
	CHECK_INT(v, 0x200100);
	get_le32(p.purg, p.purg_len, PURG_MAGIC, &w);
	CHECK_INT(w, MB2_BOOT_MAGIC);
	get_le64(p.purg, p.purg_len, PURG_GDT + PURG_CS32, &v);
	CHECK_INT(v, 0x00cf9a000000ffffull);
	get_le32(p.purg, p.purg_len, PURG_SHA_ON, &w);
	CHECK_INT(w, 1);
	get_le32(p.purg, p.purg_len, PURG_NREGIONS, &w);
	CHECK_INT(w, 4);
	kexec_plan_free(&p);
	kexec_machine_free(&m);
}

/* Under EFI the EFI64 tag (the running kernel's efi_systab) goes only to
 * a kernel that asks for it: Xen's 32-bit entry halts on one. */
TEST(plan_efi_tag_only_when_asked)
{
	struct kexec_machine m;
	struct kexec_machine_paths paths = {
	    FIX "efi-server-64g",     NULL, FIX "efi-server-64g.boot_params",
	    FIX "efi-server-64g.efi", NULL, FIX "absent"};
	struct kexec_plan p;
	struct kexec_mb_plan_in in = {.cmdline = "", .m = &m};
	char err[256] = "";
	uint8_t t[24];
	uint64_t v = 0;
	size_t at;

	if (kexec_machine_read(&m, &paths, err, sizeof(err))) {
		printf("  %s\n", err);
		test_failures++;
		return;
	}
	CHECK(m.efi);
	in.image = (struct kexec_blob){img, mk_mb2(NULL, 0)};
	CHECK_INT(kexec_mb_plan_build(&in, &p, err, sizeof(err)), 0);
	CHECK_INT(info_tag(&p, MB2_TAG_EFI64, 0), 0);
	kexec_plan_free(&p);
	in.image = (struct kexec_blob){
	    img, mk_mb2(t, tag8(t, MB2_HT_INFO_REQ, 1, 12, MB2_TAG_EFI64))};
	CHECK_INT(kexec_mb_plan_build(&in, &p, err, sizeof(err)), 0);
	at = info_tag(&p, MB2_TAG_EFI64, 0);
	CHECK(at != 0);
	get_le64(p.params, p.params_len, at + 8, &v);
	CHECK(v != 0);
	CHECK_INT(v, m.params[BP_EFI_SYSTAB] |
			 (uint64_t)m.params[BP_EFI_SYSTAB + 1] << 8 |
			 (uint64_t)m.params[BP_EFI_SYSTAB + 2] << 16 |
			 (uint64_t)m.params[BP_EFI_SYSTAB + 3] << 24 |
			 (uint64_t)m.params[BP_EFI_SYSTAB_HI] << 32 |
			 (uint64_t)m.params[BP_EFI_SYSTAB_HI + 1] << 40);
	kexec_plan_free(&p);
	/* a kernel with an EFI entry (Xen) on an EFI machine: refused */
	in.image = (struct kexec_blob){
	    img, mk_mb2(t, tag8(t, MB2_HT_ENTRY_EFI64, 1, 12, 0x200200))};
	CHECK_INT(kexec_mb_plan_build(&in, &p, err, sizeof(err)), -EOPNOTSUPP);
	CHECK(strstr(err, "boot its xen.efi through the firmware instead"));
	kexec_machine_free(&m);
	/* the same on a BIOS machine: planned */
	CHECK_INT(machine(&m), 0);
	CHECK_INT(kexec_mb_plan_build(&in, &p, err, sizeof(err)), 0);
	kexec_plan_free(&p);
	kexec_machine_free(&m);
}

TEST(plan_refusals)
{
	struct kexec_machine m;
	struct kexec_plan p;
	struct kexec_mb_plan_in in = {.cmdline = "", .m = &m};
	static uint8_t big[1];
	struct kexec_mb_module mods[KEXEC_MB_MODULES_MAX + 1];
	char err[256] = "";
	size_t len;

	CHECK_INT(machine(&m), 0);
	len = mk_mb2(NULL, 0);
	/* loaded over the firmware (0xfeffc000 is reserved) */
	put_le32(img, sizeof(img), HDR + 32 + 8, 0xfeffc000 + HDR);
	put_le32(img, sizeof(img), HDR + 32 + 12, 0xfeffc000);
	put_le32(img, sizeof(img), HDR + 32 + 20, 0);
	in.image = (struct kexec_blob){img, len};
	CHECK_INT(kexec_mb_plan_build(&in, &p, err, sizeof(err)),
		  -EADDRNOTAVAIL);
	CHECK_STR(err, "the multiboot kernel wants 0xfeffc000-0xfeffdfff, "
		       "which is not RAM here");
	/* not page-aligned */
	len = mk_mb2(NULL, 0);
	put_le32(img, sizeof(img), HDR + 32 + 8, 0x200010 + HDR);
	put_le32(img, sizeof(img), HDR + 32 + 12, 0x200010);
	in.image = (struct kexec_blob){img, len};
	CHECK_INT(kexec_mb_plan_build(&in, &p, err, sizeof(err)), -ENOEXEC);
	CHECK(strstr(err, "does not start on a page"));
	/* a module larger than the RAM below 4 GiB */
	len = mk_mb2(NULL, 0);
	in.image = (struct kexec_blob){img, len};
	mods[0] = (struct kexec_mb_module){{big, 1ull << 31}, ""};
	in.mods = mods;
	in.n_mods = 1;
	CHECK_INT(kexec_mb_plan_build(&in, &p, err, sizeof(err)), -ENOSPC);
	CHECK_STR(err, "module 1 (2147483648 bytes) does not fit in the RAM "
		       "below 4 GiB");
	/* too many modules */
	for (size_t i = 0; i <= KEXEC_MB_MODULES_MAX; i++)
		mods[i] = (struct kexec_mb_module){{big, 1}, ""};
	in.n_mods = KEXEC_MB_MODULES_MAX + 1;
	CHECK_INT(kexec_mb_plan_build(&in, &p, err, sizeof(err)), -E2BIG);
	CHECK_STR(err, "17 modules: at most 16 are supported");
	/* a truncated image: no header */
	in.n_mods = 0;
	in.image = (struct kexec_blob){img, HDR + 8};
	CHECK_INT(kexec_mb_plan_build(&in, &p, err, sizeof(err)), -ENOENT);
	/* ACPI required, and not known here */
	{
		uint8_t t[24];
		size_t n = tag8(t, MB2_HT_INFO_REQ, 0, 12, MB2_TAG_ACPI_NEW);

		in.image = (struct kexec_blob){img, mk_mb2(t, n)};
		CHECK_INT(kexec_mb_plan_build(&in, &p, err, sizeof(err)),
			  -ENOEXEC);
		CHECK_STR(err, "the multiboot2 kernel requires the ACPI RSDP, "
			       "which bootmenu could not read here");
	}
	/* a graphics mode required; this machine's screen is unknown */
	{
		uint8_t t[24];
		size_t n = tag8(t, MB2_HT_FRAMEBUFFER, 0, 20, 0);

		in.image = (struct kexec_blob){img, mk_mb2(t, n)};
		CHECK_INT(kexec_mb_plan_build(&in, &p, err, sizeof(err)),
			  -ENOEXEC);
		CHECK_STR(err, "the multiboot2 kernel requires a graphics "
			       "mode, and the screen is not a linear "
			       "framebuffer here (bootmenu sets no mode)");
		n = tag8(t, MB2_HT_INFO_REQ, 0, 12, MB2_TAG_FRAMEBUFFER);
		in.image = (struct kexec_blob){img, mk_mb2(t, n)};
		CHECK_INT(kexec_mb_plan_build(&in, &p, err, sizeof(err)),
			  -ENOEXEC);
		CHECK_STR(err, "the multiboot2 kernel requires the "
			       "framebuffer's description, which bootmenu "
			       "could not read here");
	}
	kexec_machine_free(&m);
}

static int loads, load_nr;
static uint64_t load_entry;
static size_t load_bufsz[KEXEC_SEGMENT_MAX];

static int rec_load(uint64_t entry, unsigned long nr,
		    const struct kexec_sys_segment *segs, unsigned long flags)
{
	(void)flags;
	for (unsigned long i = 0; i < nr && i < KEXEC_SEGMENT_MAX; i++)
		load_bufsz[i] = segs[i].bufsz;
	loads++;
	load_nr = (int)nr;
	load_entry = entry;
	return 0;
}

static int rec_file(int kfd, int ifd, unsigned long len, const char *cmdline,
		    unsigned long flags)
{
	(void)kfd, (void)ifd, (void)len, (void)cmdline, (void)flags;
	loads += 100; /* never expected */
	return -ENOEXEC;
}

/* kexec_load_request() with a multiboot kernel: kexec_load with the
 * plan's segments, entered at the purgatory; under lockdown refused
 * before any syscall with the reason. */
TEST(load_request_and_lockdown)
{
	struct kexec_sys_ops ops = {.load = rec_load,
				    .file_load = rec_file,
				    .lockdown_path = FIX "lockdown-none"};
	struct kexec_machine_paths paths = {
	    FIX "bios-small", NULL, FIX "absent",
	    FIX "absent",     NULL, FIX "absent"};
	static uint8_t m1[3000];
	struct kexec_mb_module mods[1] = {{{m1, sizeof(m1)}, "vmlinuz"}};
	struct kexec_request rq = {.cmdline = "placeholder",
				   .syscall = KEXEC_SYSCALL_LOAD,
				   .paths = &paths,
				   .multiboot = 2,
				   .mods = mods,
				   .n_mods = 1};
	enum kexec_syscall used;
	char err[256] = "";

	rq.kernel = (struct kexec_blob){img, mk_mb2(NULL, 0)};
	kexec_sys_set_ops(&ops);
	loads = 0;
	CHECK_INT(kexec_load_request(&rq, &used, err, sizeof(err)), 0);
	CHECK_INT(loads, 1);
	CHECK_INT(load_nr, 4); /* kernel, module, info, purgatory */
	CHECK(load_entry >= 0x100000 && load_entry % KEXEC_PAGE == 0);
	CHECK_INT(used, KEXEC_SYSCALL_LOAD);
	ops.lockdown_path = FIX "lockdown-integrity";
	kexec_sys_set_ops(&ops);
	loads = 0;
	rq.syscall = KEXEC_SYSCALL_AUTO;
	CHECK_INT(kexec_load_request(&rq, &used, err, sizeof(err)), -EPERM);
	CHECK_INT(loads, 0);
	CHECK_STR(err, "the kernel is locked down (Secure Boot): only "
		       "kexec_file_load runs, and it has no multiboot loader, "
		       "so Xen and other multiboot kernels cannot boot from "
		       "bootmenu here");
	kexec_sys_set_ops(NULL);
}

/* GRUB's module2 unpacks a gzip module unless --nounzip: the gzip'd
 * target initrd goes in inflated, or as it is with nounzip. */
TEST(gzip_modules_unpacked_unless_nounzip)
{
	struct kexec_sys_ops ops = {.load = rec_load,
				    .file_load = rec_file,
				    .lockdown_path = FIX "lockdown-none"};
	struct kexec_machine_paths paths = {
	    FIX "bios-small", NULL, FIX "absent",
	    FIX "absent",     NULL, FIX "absent"};
	size_t glen = 0;
	char *gz = test_slurp("build/target-initrd.cpio.gz", &glen), err[256];
	struct kexec_mb_module mods[1];
	bool nounzip[1] = {false};
	struct kexec_request rq = {.cmdline = "",
				   .syscall = KEXEC_SYSCALL_LOAD,
				   .paths = &paths,
				   .multiboot = 2,
				   .mods = mods,
				   .nounzip = nounzip,
				   .n_mods = 1};
	struct kexec_blob in, out;
	uint8_t *owned = NULL;

	if (!gz) {
		test_skip("build/target-initrd.cpio.gz absent (run make)");
		return;
	}
	in = (struct kexec_blob){gz, glen};
	CHECK_INT(kexec_unpack(&in, &out, &owned, NULL, err, sizeof(err)), 0);
	mods[0] = (struct kexec_mb_module){in, ""};
	rq.kernel = (struct kexec_blob){img, mk_mb2(NULL, 0)};
	kexec_sys_set_ops(&ops);
	/* segments by address: kernel 0x200000, then the module above it */
	CHECK_INT(kexec_load_request(&rq, NULL, err, sizeof(err)), 0);
	CHECK_INT(load_bufsz[2], out.len);
	nounzip[0] = true;
	CHECK_INT(kexec_load_request(&rq, NULL, err, sizeof(err)), 0);
	CHECK_INT(load_bufsz[2], glen);
	kexec_sys_set_ops(NULL);
	free(owned);
	free(gz);
}

TEST_MAIN("test_multiboot", screen_from_boot_params, framebuffer_info_bytes,
	  xen_headers, hand_made_header_and_image, header_refusals,
	  mb1_header_flags, mb2_info_bytes, mb1_info_bytes,
	  plan_places_and_enters_32bit, plan_efi_tag_only_when_asked,
	  plan_refusals, load_request_and_lockdown,
	  gzip_modules_unpacked_unless_nounzip)
