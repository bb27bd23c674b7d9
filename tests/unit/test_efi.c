/* test_efi.c - the EFI room without firmware: GUID text, UTF-16, device
 * path nodes and load options against byte strings made by Debian's
 * libefiboot (the code efibootmgr runs) and built by hand from the UEFI
 * 2.10 spec, hostile inputs, BootOrder/BootNext/Boot####, matching a
 * Boot#### to a file on a partition, and efivarfs I/O on a temporary
 * directory with the immutable-flag dance watched through the seam. */
#include "efi/devpath.h"
#include "efi/efivar.h"
#include "efi/guid.h"
#include "efi/loadopt.h"
#include "efi/utf16.h"
#include "test.h"
#include "util/arena.h"
#include "util/le.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <linux/fs.h>
#include <signal.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#define C16(c) (c), 0x00 /* one ASCII character as CHAR16 */

/* What `efibootmgr -c -d /dev/loop0 -p 1 -L debian -l
 * '\EFI\debian\shimx64.efi'` writes as Boot####, made without firmware:
 * a 64 MiB GPT image (partition 1 at LBA 2048, 100000 sectors, PARTUUID
 * 0e7a8d5c-3b51-4c0e-9f2a-6d1b8e4f7a21) on a loop device, passed to
 * Debian 12's libefiboot 37 as efibootmgr 17 does:
 * efi_generate_file_device_path_from_esp(.., "/dev/loop0", 1,
 * "\EFI\debian\shimx64.efi", EFIBOOT_ABBREV_HD) then efi_loadopt_create(..,
 * LOAD_OPTION_ACTIVE, dp, .., "debian", NULL, 0), printed in hex by a
 * throwaway program (not kept). libefivar prints its device path as
 * HD(1,GPT,0e7a8d5c-3b51-4c0e-9f2a-6d1b8e4f7a21,0x800,0x186a0)/
 * File(\EFI\debian\shimx64.efi). */
static const uint8_t efibootmgr_debian[] = {
    0x01, 0x00, 0x00, 0x00, /* Attributes: LOAD_OPTION_ACTIVE */
    0x62, 0x00,		    /* FilePathListLength: 98 */
    /* Description: "debian" and a NUL unit */
    C16('d'), C16('e'), C16('b'), C16('i'), C16('a'), C16('n'), 0x00, 0x00,
    /* HD: type 4 (Media), subtype 1, length 42 */
    0x04, 0x01, 0x2a, 0x00, 0x01, 0x00, 0x00, 0x00, /* PartitionNumber 1 */
    0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* PartitionStart */
    0xa0, 0x86, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, /* PartitionSize */
    /* PartitionSignature: the GUID, Data1..3 little-endian */
    0x5c, 0x8d, 0x7a, 0x0e, 0x51, 0x3b, 0x0e, 0x4c, 0x9f, 0x2a, 0x6d, 0x1b,
    0x8e, 0x4f, 0x7a, 0x21, 0x02, /* PartitionFormat: GPT */
    0x02,			  /* SignatureType: GUID */
    /* File: type 4, subtype 4, length 52: "\EFI\debian\shimx64.efi" */
    0x04, 0x04, 0x34, 0x00, C16('\\'), C16('E'), C16('F'), C16('I'), C16('\\'),
    C16('d'), C16('e'), C16('b'), C16('i'), C16('a'), C16('n'), C16('\\'),
    C16('s'), C16('h'), C16('i'), C16('m'), C16('x'), C16('6'), C16('4'),
    C16('.'), C16('e'), C16('f'), C16('i'), 0x00, 0x00,
    /* End of the whole device path */
    0x7f, 0xff, 0x04, 0x00,
    /* no OptionalData */
};
#define DEBIAN_PARTUUID "0e7a8d5c-3b51-4c0e-9f2a-6d1b8e4f7a21"
#define DEBIAN_PATH_OFF 20 /* 4 + 2 + 14 bytes of description */

/* libefiboot's efidp_make_hd(.., 2, 63, 204800, sig, EFIDP_HD_FORMAT_PCAT,
 * EFIDP_HD_SIGNATURE_MBR), efidp_make_file(.., "\EFI\BOOT\BOOTX64.EFI"),
 * efidp_make_end_entire() and efi_loadopt_create(.., 1, .., "Fallback é",
 * "W\0I\0", 4), from the same throwaway program. */
static const uint8_t libefiboot_mbr[] = {
    0x01, 0x00, 0x00, 0x00, /* Attributes: LOAD_OPTION_ACTIVE */
    0x5e, 0x00,		    /* FilePathListLength: 94 */
    /* "Fallback é": U+00E9 is one CHAR16 */
    C16('F'), C16('a'), C16('l'), C16('l'), C16('b'), C16('a'), C16('c'),
    C16('k'), C16(' '), 0xe9, 0x00, 0x00, 0x00, 0x04, 0x01, 0x2a,
    0x00,					    /* HD, length 42 */
    0x02, 0x00, 0x00, 0x00,			    /* partition 2 */
    0x3f, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* start 63 */
    0x00, 0x20, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, /* size 204800 */
    /* MBR disk signature 0x1234abcd in the first 4 bytes, then zeros */
    0xcd, 0xab, 0x34, 0x12, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x01, /* PartitionFormat: PC-AT MBR */
    0x01,			  /* SignatureType: MBR */
    0x04, 0x04, 0x30, 0x00,	  /* File, length 48 */
    C16('\\'), C16('E'), C16('F'), C16('I'), C16('\\'), C16('B'), C16('O'),
    C16('O'), C16('T'), C16('\\'), C16('B'), C16('O'), C16('O'), C16('T'),
    C16('X'), C16('6'), C16('4'), C16('.'), C16('E'), C16('F'), C16('I'), 0x00,
    0x00, 0x7f, 0xff, 0x04, 0x00, /* End */
    0x57, 0x00, 0x49, 0x00,	  /* OptionalData: 4 bytes */
};

/* Built by hand from UEFI 2.10 (3.1.3, 10.3.2.1, 10.3.3.1, 10.3.5.1,
 * 10.3.5.4): a load option as firmware writes one for Windows, with the
 * full path from the PCI root, and optional data after the path. */
static const uint8_t windows_opt[] = {
    0x01,
    0x00,
    0x00,
    0x00, /* Attributes: LOAD_OPTION_ACTIVE */
    0x86,
    0x00, /* FilePathListLength: 12+6+42+70+4 = 134 */
    C16('W'),
    C16('i'),
    C16('n'),
    C16('d'),
    C16('o'),
    C16('w'),
    C16('s'),
    C16(' '),
    C16('B'),
    C16('o'),
    C16('o'),
    C16('t'),
    C16(' '),
    C16('M'),
    C16('a'),
    C16('n'),
    C16('a'),
    C16('g'),
    C16('e'),
    C16('r'),
    0x00,
    0x00,
    /* ACPI (type 2, subtype 1, length 12): _HID PNP0A03 as the EISA id
     * 0x0a0341d0, _UID 0 - PciRoot(0x0) */
    0x02,
    0x01,
    0x0c,
    0x00,
    0xd0,
    0x41,
    0x03,
    0x0a,
    0x00,
    0x00,
    0x00,
    0x00,
    /* PCI (type 1, subtype 1, length 6): Function 1, Device 2 */
    0x01,
    0x01,
    0x06,
    0x00,
    0x01,
    0x02,
    /* HD, length 42: partition 1, start 0x800, size 0x32000 */
    0x04,
    0x01,
    0x2a,
    0x00,
    0x01,
    0x00,
    0x00,
    0x00,
    0x00,
    0x08,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x20,
    0x03,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    /* signature 6a5c2e1f-9b3d-4e7a-8c21-0f4d3b2a1e90 */
    0x1f,
    0x2e,
    0x5c,
    0x6a,
    0x3d,
    0x9b,
    0x7a,
    0x4e,
    0x8c,
    0x21,
    0x0f,
    0x4d,
    0x3b,
    0x2a,
    0x1e,
    0x90,
    0x02,
    0x02, /* GPT, GUID */
    /* File, length 4 + 33 * 2 = 70: "\EFI\Microsoft\Boot\bootmgfw.efi" */
    0x04,
    0x04,
    0x46,
    0x00,
    C16('\\'),
    C16('E'),
    C16('F'),
    C16('I'),
    C16('\\'),
    C16('M'),
    C16('i'),
    C16('c'),
    C16('r'),
    C16('o'),
    C16('s'),
    C16('o'),
    C16('f'),
    C16('t'),
    C16('\\'),
    C16('B'),
    C16('o'),
    C16('o'),
    C16('t'),
    C16('\\'),
    C16('b'),
    C16('o'),
    C16('o'),
    C16('t'),
    C16('m'),
    C16('g'),
    C16('f'),
    C16('w'),
    C16('.'),
    C16('e'),
    C16('f'),
    C16('i'),
    0x00,
    0x00,
    0x7f,
    0xff,
    0x04,
    0x00, /* End */
    /* OptionalData: bootmgfw's "WINDOWS\0" and a version, cut short */
    'W',
    'I',
    'N',
    'D',
    'O',
    'W',
    'S',
    0x00,
    0x01,
    0x00,
    0x00,
    0x00,
};
#define WINDOWS_PARTUUID "6a5c2e1f-9b3d-4e7a-8c21-0f4d3b2a1e90"

TEST(guid_text)
{
	static const uint8_t g[16] = {0x5c, 0x8d, 0x7a, 0x0e, 0x51, 0x3b,
				      0x0e, 0x4c, 0x9f, 0x2a, 0x6d, 0x1b,
				      0x8e, 0x4f, 0x7a, 0x21};
	uint8_t back[16] = {0};
	char s[EFI_GUID_TEXT];

	efi_guid_format(g, s);
	CHECK_STR(s, DEBIAN_PARTUUID);
	CHECK_INT(efi_guid_parse("0E7A8D5C-3B51-4C0E-9F2A-6D1B8E4F7A21", back),
		  0);
	CHECK(!memcmp(back, g, 16));
	CHECK_INT(efi_guid_parse("0e7a8d5c-3b51-4c0e-9f2a-6d1b8e4f7a2", back),
		  -EINVAL);
	CHECK_INT(efi_guid_parse(DEBIAN_PARTUUID "0", back), -EINVAL);
	CHECK_INT(efi_guid_parse("0e7a8d5c+3b51-4c0e-9f2a-6d1b8e4f7a21", back),
		  -EINVAL);
	CHECK_INT(efi_guid_parse("0e7a8d5c-3b51-4c0e-9f2a-6d1b8e4f7ag1", back),
		  -EINVAL);
	CHECK_INT(efi_guid_parse(NULL, back), -EINVAL);
}

TEST(utf16_round_trip)
{
	/* "a", U+00E9, U+20AC, U+1F600 (a surrogate pair) */
	static const char *s = "a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80";
	static const uint8_t want[] = {0x61, 0x00, 0xe9, 0x00, 0xac, 0x20,
				       0x3d, 0xd8, 0x00, 0xde, 0x00, 0x00};
	uint8_t u[32];
	char back[32];

	CHECK_INT(efi_utf8_to_utf16(s, NULL, 0), sizeof(want));
	CHECK_INT(efi_utf8_to_utf16(s, u, sizeof(u)), sizeof(want));
	CHECK(!memcmp(u, want, sizeof(want)));
	CHECK_INT(efi_utf8_to_utf16(s, u, sizeof(want) - 1), -ENOSPC);
	CHECK_INT(efi_utf16_to_utf8(want, sizeof(want), back, sizeof(back)),
		  strlen(s));
	CHECK_STR(back, s);
	/* without the NUL unit: the end of the buffer ends the string */
	CHECK_INT(efi_utf16_to_utf8(want, 2, back, sizeof(back)), 1);
	CHECK_STR(back, "a");
	/* 11 bytes of UTF-8 and a NUL need 12 */
	CHECK_INT(efi_utf16_to_utf8(want, sizeof(want), back, strlen(s)),
		  -ENAMETOOLONG);
	CHECK_STR(back, "");
}

TEST(utf16_rejects)
{
	static const uint8_t lone_hi[] = {0x3d, 0xd8, 0x41, 0x00};
	static const uint8_t lone_lo[] = {0x00, 0xde, 0x41, 0x00};
	static const uint8_t hi_at_end[] = {0x41, 0x00, 0x3d, 0xd8};
	static const uint8_t ctl[] = {0x41, 0x00, 0x1b, 0x00,
				      0x9b, 0x00, 0x7f, 0x00};
	char out[16];

	CHECK_INT(efi_utf16_to_utf8(lone_hi, 4, out, sizeof(out)), -EILSEQ);
	CHECK_INT(efi_utf16_to_utf8(lone_lo, 4, out, sizeof(out)), -EILSEQ);
	CHECK_INT(efi_utf16_to_utf8(hi_at_end, 4, out, sizeof(out)), -EILSEQ);
	CHECK_INT(efi_utf16_to_utf8(lone_hi, 3, out, sizeof(out)), -EINVAL);
	/* ESC, CSI and DEL never reach a terminal */
	CHECK_INT(efi_utf16_to_utf8(ctl, sizeof(ctl), out, sizeof(out)), 4);
	CHECK_STR(out, "A???");
	CHECK_INT(efi_utf8_to_utf16("\xc0\x80", NULL, 0),
		  -EILSEQ); /* overlong */
	CHECK_INT(efi_utf8_to_utf16("\xed\xa0\x80", NULL, 0), -EILSEQ);
	CHECK_INT(efi_utf8_to_utf16("\xf4\x90\x80\x80", NULL, 0), -EILSEQ);
	CHECK_INT(efi_utf8_to_utf16("\xe2\x82", NULL, 0), -EILSEQ);
	CHECK_INT(efi_utf8_to_utf16("\x80", NULL, 0), -EILSEQ);
	CHECK_INT(efi_utf8_to_utf16("\xf8\x88\x80\x80\x80", NULL, 0), -EILSEQ);
	CHECK_INT(efi_utf8_to_utf16("", NULL, 0), 2);
}

TEST(loadopt_efibootmgr)
{
	struct arena a = ARENA_INIT;
	struct efi_load_option o;
	const struct efi_dp_node *n;
	char text[256];

	CHECK_INT(efi_loadopt_decode(&a, efibootmgr_debian,
				     sizeof(efibootmgr_debian), &o),
		  0);
	CHECK_INT(o.attrs, EFI_LOAD_OPTION_ACTIVE);
	CHECK_STR(o.desc, "debian");
	CHECK_INT(o.path_len, 98);
	CHECK(o.opt == NULL && o.opt_len == 0);
	CHECK_INT(o.path.n, 3);
	n = &o.path.nodes[0];
	CHECK_INT(n->kind, EFI_DP_HD);
	CHECK_INT(n->hd.part, 1);
	CHECK_INT(n->hd.start, 2048);
	CHECK_INT(n->hd.size, 100000);
	CHECK_INT(n->hd.format, EFI_HD_FORMAT_GPT);
	CHECK_INT(n->hd.sig_type, EFI_HD_SIG_GUID);
	CHECK_INT(o.path.nodes[1].kind, EFI_DP_FILE);
	CHECK_STR(o.path.nodes[1].file, "\\EFI\\debian\\shimx64.efi");
	CHECK_INT(o.path.nodes[2].kind, EFI_DP_END_PATH);
	CHECK_INT(efi_dp_format(&o.path, text, sizeof(text)), 0);
	/* libefivar's efidp_format_device_path() prints the same */
	CHECK_STR(text, "HD(1,GPT," DEBIAN_PARTUUID
			",0x800,0x186a0)/File(\\EFI\\debian\\shimx64.efi)");
	CHECK(!memcmp(o.path_raw, efibootmgr_debian + DEBIAN_PATH_OFF, 98));
	arena_free(&a);
}

/* The same bytes built from the parts, with '/' in the path. */
TEST(loadopt_encode_as_efibootmgr)
{
	uint8_t path[256], opt[512];
	struct efi_hd hd;
	ssize_t plen, olen;

	CHECK_INT(efi_hd_gpt(&hd, 1, 2048, 100000,
			     "0E7A8D5C-3B51-4C0E-9F2A-6D1B8E4F7A21"),
		  0);
	plen = efi_dp_encode_hd_file(&hd, "EFI/debian/shimx64.efi", path,
				     sizeof(path));
	CHECK_INT(plen, 98);
	CHECK_INT(
	    efi_dp_encode_hd_file(&hd, "/EFI/debian/shimx64.efi", NULL, 0), 98);
	olen = efi_loadopt_encode(EFI_LOAD_OPTION_ACTIVE, "debian", path,
				  (size_t)plen, NULL, 0, opt, sizeof(opt));
	CHECK_INT(olen, sizeof(efibootmgr_debian));
	CHECK(olen == sizeof(efibootmgr_debian) &&
	      !memcmp(opt, efibootmgr_debian, sizeof(efibootmgr_debian)));
	CHECK_INT(efi_loadopt_encode(EFI_LOAD_OPTION_ACTIVE, "debian", path,
				     (size_t)plen, NULL, 0, NULL, 0),
		  sizeof(efibootmgr_debian));
	CHECK_INT(efi_loadopt_encode(1, "debian", path, (size_t)plen, NULL, 0,
				     opt, sizeof(efibootmgr_debian) - 1),
		  -ENOSPC);
	CHECK_INT(efi_dp_encode_hd_file(&hd, "EFI/x.efi", path, 60), -ENOSPC);
	CHECK_INT(efi_dp_encode_hd_file(&hd, "", path, sizeof(path)), -EINVAL);
	CHECK_INT(efi_dp_encode_hd_file(&hd, "\xff", path, sizeof(path)),
		  -EINVAL);
	CHECK_INT(efi_loadopt_encode(1, "\xff", path, (size_t)plen, NULL, 0,
				     opt, sizeof(opt)),
		  -EINVAL);
	CHECK_INT(
	    efi_loadopt_encode(1, "x", path, 0, NULL, 0, opt, sizeof(opt)),
	    -EINVAL);
	CHECK_INT(efi_hd_gpt(&hd, 1, 2048, 100000, "nope"), -EINVAL);
}

TEST(loadopt_mbr_with_optional_data)
{
	struct arena a = ARENA_INIT;
	struct efi_load_option o;
	uint8_t back[256];
	char text[256];

	CHECK_INT(
	    efi_loadopt_decode(&a, libefiboot_mbr, sizeof(libefiboot_mbr), &o),
	    0);
	CHECK_STR(o.desc, "Fallback \xc3\xa9");
	CHECK_INT(o.opt_len, 4);
	CHECK(o.opt && !memcmp(o.opt, "W\0I\0", 4));
	CHECK_INT(efi_dp_format(&o.path, text, sizeof(text)), 0);
	/* libefivar prints the same */
	CHECK_STR(text, "HD(2,MBR,0x1234abcd,0x3f,0x32000)/"
			"File(\\EFI\\BOOT\\BOOTX64.EFI)");
	CHECK_INT(efi_loadopt_encode(o.attrs, o.desc, o.path_raw, o.path_len,
				     o.opt, o.opt_len, back, sizeof(back)),
		  sizeof(libefiboot_mbr));
	CHECK(!memcmp(back, libefiboot_mbr, sizeof(libefiboot_mbr)));
	/* cut inside the optional data: still a load option, less data */
	CHECK_INT(efi_loadopt_decode(&a, libefiboot_mbr,
				     sizeof(libefiboot_mbr) - 3, &o),
		  0);
	CHECK_INT(o.opt_len, 1);
	arena_free(&a);
}

TEST(loadopt_windows_by_hand)
{
	struct arena a = ARENA_INIT;
	struct efi_load_option o;
	uint8_t back[512];
	char text[512], file[128];
	const struct efi_hd *hd;

	CHECK_INT(efi_loadopt_decode(&a, windows_opt, sizeof(windows_opt), &o),
		  0);
	CHECK_STR(o.desc, "Windows Boot Manager");
	CHECK_INT(o.path.n, 5);
	CHECK_INT(o.path.nodes[0].kind, EFI_DP_OPAQUE);
	CHECK_INT(o.path.nodes[0].len, 8);
	CHECK_INT(efi_dp_format(&o.path, text, sizeof(text)), 0);
	CHECK_STR(text, "Path(2,1,d041030a00000000)/Path(1,1,0102)/"
			"HD(1,GPT," WINDOWS_PARTUUID ",0x800,0x32000)/"
			"File(\\EFI\\Microsoft\\Boot\\bootmgfw.efi)");
	hd = efi_dp_target(&o.path, file, sizeof(file));
	CHECK(hd == &o.path.nodes[2].hd);
	CHECK_STR(file, "\\EFI\\Microsoft\\Boot\\bootmgfw.efi");
	CHECK_INT(o.opt_len, 12);
	CHECK(o.opt && !memcmp(o.opt, "WINDOWS\0\1\0\0\0", 12));
	CHECK_INT(efi_loadopt_encode(o.attrs, o.desc, o.path_raw, o.path_len,
				     o.opt, o.opt_len, back, sizeof(back)),
		  sizeof(windows_opt));
	CHECK(!memcmp(back, windows_opt, sizeof(windows_opt)));
	/* the text is cut to fit, and says so */
	CHECK_INT(efi_dp_format(&o.path, text, 20), -ENOSPC);
	CHECK_INT(strlen(text), 19);
	arena_free(&a);
}

/* Every shorter prefix of an option without optional data fails. */
TEST(loadopt_truncated)
{
	struct arena a = ARENA_INIT;
	struct efi_load_option o;
	int bad = 0;

	for (size_t n = 0; n < sizeof(efibootmgr_debian); n++) {
		uint8_t *copy = malloc(n ? n : 1);

		memcpy(copy, efibootmgr_debian, n);
		if (efi_loadopt_decode(&a, copy, n, &o) >= 0)
			bad++;
		free(copy);
	}
	CHECK_INT(bad, 0);
	CHECK_INT(efi_loadopt_decode(&a, NULL, 0, &o), -EINVAL);
	arena_free(&a);
}

TEST(loadopt_hostile)
{
	struct arena a = ARENA_INIT;
	struct efi_load_option o;
	uint8_t b[sizeof(efibootmgr_debian)];

	/* FilePathListLength one past the end */
	memcpy(b, efibootmgr_debian, sizeof(b));
	put_le16(b, sizeof(b), 4, 99);
	CHECK_INT(efi_loadopt_decode(&a, b, sizeof(b), &o), -EINVAL);
	/* one short: the End node is cut */
	put_le16(b, sizeof(b), 4, 97);
	CHECK_INT(efi_loadopt_decode(&a, b, sizeof(b), &o), -EINVAL);
	/* a description with no NUL unit */
	memcpy(b, efibootmgr_debian, sizeof(b));
	for (size_t i = 6; i < sizeof(b); i++)
		b[i] = 'x';
	CHECK_INT(efi_loadopt_decode(&a, b, sizeof(b), &o), -EINVAL);
	/* an unpaired surrogate in the description */
	memcpy(b, efibootmgr_debian, sizeof(b));
	put_le16(b, sizeof(b), 8, 0xdc00);
	CHECK_INT(efi_loadopt_decode(&a, b, sizeof(b), &o), -EILSEQ);
	/* the HD node claims length 0, then 2 */
	memcpy(b, efibootmgr_debian, sizeof(b));
	put_le16(b, sizeof(b), DEBIAN_PATH_OFF + 2, 0);
	CHECK_INT(efi_loadopt_decode(&a, b, sizeof(b), &o), -EINVAL);
	put_le16(b, sizeof(b), DEBIAN_PATH_OFF + 2, 2);
	CHECK_INT(efi_loadopt_decode(&a, b, sizeof(b), &o), -EINVAL);
	arena_free(&a);
}

TEST(devpath_hostile)
{
	/* a node reaching past the end; a path with no End node */
	static const uint8_t past[] = {0x04, 0x04, 0x10, 0x00, 0x41, 0x00};
	static const uint8_t no_end[] = {0x01, 0x01, 0x06, 0x00, 0x01, 0x02};
	/* End Instance then nothing: not the end of the whole path */
	static const uint8_t inst[] = {0x7f, 0x01, 0x04, 0x00};
	/* an odd-length File node (5 bytes of name) and an HD node of 40
	 * bytes: both kept opaque */
	static const uint8_t odd[] = {0x04, 0x04, 0x09, 0x00, 0x41, 0x00, 0x42,
				      0x00, 0x43, 0x7f, 0xff, 0x04, 0x00};
	uint8_t hd40[44] = {0x04, 0x01, 0x28, 0x00};
	uint8_t many[4 * (EFI_DP_NODES_MAX + 1)];
	struct arena a = ARENA_INIT;
	struct efi_devpath dp;
	char text[64], file[16];

	CHECK_INT(efi_dp_decode(&a, past, sizeof(past), &dp), -EINVAL);
	CHECK_INT(efi_dp_decode(&a, no_end, sizeof(no_end), &dp), -EINVAL);
	CHECK_INT(efi_dp_decode(&a, inst, sizeof(inst), &dp), -EINVAL);
	CHECK_INT(efi_dp_decode(&a, past, 0, &dp), -EINVAL);
	CHECK_INT(efi_dp_decode(&a, odd, sizeof(odd), &dp), 0);
	CHECK_INT(dp.n, 2);
	CHECK_INT(dp.nodes[0].kind, EFI_DP_OPAQUE);
	CHECK_INT(efi_dp_format(&dp, text, sizeof(text)), 0);
	CHECK_STR(text, "Path(4,4,4100420043)");
	CHECK(efi_dp_target(&dp, file, sizeof(file)) == NULL);
	memcpy(hd40 + 40, "\x7f\xff\x04\x00", 4);
	CHECK_INT(efi_dp_decode(&a, hd40, sizeof(hd40), &dp), 0);
	CHECK_INT(dp.nodes[0].kind, EFI_DP_OPAQUE);
	for (size_t i = 0; i < sizeof(many); i += 4)
		memcpy(many + i, "\x01\x01\x04\x00", 4);
	memcpy(many + sizeof(many) - 4, "\x7f\xff\x04\x00", 4);
	CHECK_INT(efi_dp_decode(&a, many, sizeof(many), &dp), -E2BIG);
	CHECK_INT(efi_dp_decode(&a, many + 4, sizeof(many) - 4, &dp), 0);
	CHECK_INT(dp.n, EFI_DP_NODES_MAX);
	arena_free(&a);
}

/* Two device paths in one list, instances, and a file split over two
 * File nodes (the second without a leading '\'). */
TEST(devpath_multi)
{
	static const uint8_t two[] = {
	    0x04,     0x04, 0x0c, 0x00, C16('\\'), C16('E'), C16('F'), C16('I'),
	    0x04,     0x04, 0x0e, 0x00, C16('x'),  C16('.'), C16('e'), C16('f'),
	    C16('i'), 0x7f, 0x01, 0x04, 0x00,	   0x01,     0x01,     0x04,
	    0x00,     0x7f, 0xff, 0x04, 0x00,	   0x03,     0x0b,     0x04,
	    0x00,     0x7f, 0xff, 0x04, 0x00};
	uint8_t buf[128];
	struct arena a = ARENA_INIT;
	struct efi_devpath dp;
	struct efi_hd hd = {.part = 3, .start = 34, .size = 1000};
	char text[128], file[64];
	size_t off = 0;

	CHECK_INT(efi_dp_decode(&a, two, sizeof(two), &dp), 0);
	CHECK_INT(efi_dp_format(&dp, text, sizeof(text)), 0);
	CHECK_STR(text, "File(\\EFI)/File(x.efi),Path(1,1)|Path(3,11)");
	/* no HD node: nothing to point at */
	CHECK(efi_dp_target(&dp, file, sizeof(file)) == NULL);
	/* HD/File(\EFI)/File(\debian\shimx64.efi) from the put functions */
	CHECK_INT(efi_dp_put_hd(buf, sizeof(buf), &off, &hd), 0);
	CHECK_INT(efi_dp_put_file(buf, sizeof(buf), &off, "\\EFI"), 0);
	CHECK_INT(efi_dp_put_file(buf, sizeof(buf), &off, "debian/shimx64.efi"),
		  0);
	CHECK_INT(efi_dp_put_end(buf, sizeof(buf), &off, EFI_DP_END_ENTIRE), 0);
	CHECK_INT(efi_dp_put_end(buf, sizeof(buf), &off, 0x42), -EINVAL);
	CHECK_INT(efi_dp_decode(&a, buf, off, &dp), 0);
	CHECK(efi_dp_target(&dp, file, sizeof(file)) == &dp.nodes[0].hd);
	CHECK_STR(file, "\\EFI\\debian\\shimx64.efi");
	CHECK(efi_dp_target(&dp, file, 10) == NULL);
	/* HD/File(\EFI)/File(x.efi): a '\' goes between */
	memcpy(buf + EFI_DP_HD_LEN, two, 26);
	memcpy(buf + EFI_DP_HD_LEN + 26, "\x7f\xff\x04\x00", 4);
	CHECK_INT(efi_dp_decode(&a, buf, EFI_DP_HD_LEN + 30, &dp), 0);
	CHECK(efi_dp_target(&dp, file, sizeof(file)) == &dp.nodes[0].hd);
	CHECK_STR(file, "\\EFI\\x.efi");
	arena_free(&a);
}

TEST(boot_order_next)
{
	static const uint8_t order[] = {0x03, 0x00, 0x01, 0x00, 0xab, 0x00};
	uint16_t nums[4], one = 0;
	uint8_t out[8];
	size_t n = 0;

	CHECK_INT(efi_boot_order_decode(order, sizeof(order), nums, 4, &n), 0);
	CHECK_INT(n, 3);
	CHECK(nums[0] == 3 && nums[1] == 1 && nums[2] == 0xab);
	CHECK_INT(efi_boot_order_decode(order, 5, nums, 4, &n), -EINVAL);
	CHECK_INT(efi_boot_order_decode(order, 6, nums, 2, &n), -E2BIG);
	CHECK_INT(efi_boot_order_encode(nums, 3, out, sizeof(out)), 6);
	CHECK(!memcmp(out, order, 6));
	CHECK_INT(efi_boot_order_encode(nums, 3, out, 5), -ENOSPC);
	efi_boot_next_encode(0x1a2b, out);
	CHECK(out[0] == 0x2b && out[1] == 0x1a);
	CHECK_INT(efi_boot_next_decode(out, 2, &one), 0);
	CHECK_INT(one, 0x1a2b);
	CHECK_INT(efi_boot_next_decode(out, 3, &one), -EINVAL);
}

TEST(boot_names)
{
	uint16_t nums[4] = {3, 1, 0xab, 0}, one = 0, *all;
	char name[EFI_BOOT_NAME_LEN];

	efi_boot_name(0xab, name);
	CHECK_STR(name, "Boot00AB");
	CHECK_INT(efi_boot_name_parse("Boot00AB", &one), 0);
	CHECK_INT(one, 0xab);
	CHECK_INT(efi_boot_name_parse("Boot00ab", &one), -EINVAL);
	CHECK_INT(efi_boot_name_parse("boot0001", &one), -EINVAL);
	CHECK_INT(efi_boot_name_parse("Boot001", &one), -EINVAL);
	CHECK_INT(efi_boot_name_parse("Boot00010", &one), -EINVAL);
	CHECK_INT(efi_boot_name_parse("BootOrder", &one), -EINVAL);
	CHECK_INT(efi_boot_free_num(nums, 3, &one), 0);
	CHECK_INT(one, 0);
	CHECK_INT(efi_boot_free_num(nums, 4, &one), 0);
	CHECK_INT(one, 2);
	all = malloc(65536 * sizeof(*all));
	for (unsigned i = 0; i < 65536; i++)
		all[i] = (uint16_t)(65535 - i);
	CHECK_INT(efi_boot_free_num(all, 65536, &one), -ENOSPC);
	CHECK_INT(efi_boot_free_num(all, 65535, &one), 0);
	CHECK_INT(one, 0);
	free(all);
}

TEST(path_equal)
{
	CHECK(efi_path_equal("\\EFI\\debian\\shimx64.efi",
			     "/efi/DEBIAN/ShimX64.EFI"));
	CHECK(efi_path_equal("EFI//BOOT\\\\BOOTX64.EFI",
			     "\\EFI\\BOOT\\BOOTX64.EFI\\"));
	CHECK(!efi_path_equal("\\EFI\\BOOT\\BOOTX64.EFI",
			      "\\EFI\\BOOT\\BOOTX64.EF"));
	CHECK(!efi_path_equal("\\EFI\\BOOT", "\\EFI\\BOOT\\BOOTX64.EFI"));
	CHECK(!efi_path_equal("\\EFIBOOT", "\\EFI\\BOOT"));
	CHECK(!efi_path_equal("\\", "/"));
	CHECK(!efi_path_equal("", ""));
	CHECK(!efi_path_equal(NULL, "x"));
	/* only ASCII folds: U+00E9 and U+00C9 differ */
	CHECK(!efi_path_equal("\xc3\xa9", "\xc3\x89"));
}

TEST(points_at_gpt)
{
	struct arena a = ARENA_INIT;
	struct efi_load_option deb, win;
	struct efi_part_ref p = {DEBIAN_PARTUUID, 0, 0};
	const char *shim = "/EFI/debian/shimx64.efi";

	CHECK_INT(efi_loadopt_decode(&a, efibootmgr_debian,
				     sizeof(efibootmgr_debian), &deb),
		  0);
	CHECK_INT(
	    efi_loadopt_decode(&a, windows_opt, sizeof(windows_opt), &win), 0);
	CHECK(efi_loadopt_points_at(&deb, &p, shim));
	CHECK(efi_loadopt_points_at(&deb, &p, "\\efi\\DEBIAN\\SHIMX64.EFI"));
	CHECK(!efi_loadopt_points_at(&deb, &p, "/EFI/debian/grubx64.efi"));
	p.partuuid = "0E7A8D5C-3B51-4C0E-9F2A-6D1B8E4F7A21";
	CHECK(efi_loadopt_points_at(&deb, &p, shim));
	p.partuuid = WINDOWS_PARTUUID;
	CHECK(!efi_loadopt_points_at(&deb, &p, shim));
	CHECK(efi_loadopt_points_at(&win, &p,
				    "/EFI/Microsoft/Boot/bootmgfw.efi"));
	p.partuuid = NULL;
	CHECK(!efi_loadopt_points_at(&deb, &p, shim));
	arena_free(&a);
}

TEST(points_at_mbr)
{
	struct arena a = ARENA_INIT;
	struct efi_load_option mbr;
	struct efi_part_ref p;

	CHECK_INT(efi_loadopt_decode(&a, libefiboot_mbr, sizeof(libefiboot_mbr),
				     &mbr),
		  0);
	/* MBR: by blkid's PARTUUID (disk signature, partition number) */
	p = (struct efi_part_ref){"1234abcd-02", 0, 0};
	CHECK(efi_loadopt_points_at(&mbr, &p, "/efi/boot/bootx64.efi"));
	p.partuuid = "1234abcd-01";
	CHECK(!efi_loadopt_points_at(&mbr, &p, "/efi/boot/bootx64.efi"));
	p.partuuid = "1234abce-02";
	CHECK(!efi_loadopt_points_at(&mbr, &p, "/efi/boot/bootx64.efi"));
	/* ... or by partition number and start */
	p = (struct efi_part_ref){NULL, 2, 63};
	CHECK(efi_loadopt_points_at(&mbr, &p, "/efi/boot/bootx64.efi"));
	p.start = 64;
	CHECK(!efi_loadopt_points_at(&mbr, &p, "/efi/boot/bootx64.efi"));
	p = (struct efi_part_ref){"1234abcd-02", 2, 64};
	CHECK(!efi_loadopt_points_at(&mbr, &p, "/efi/boot/bootx64.efi"));
	/* the number alone is not enough */
	p = (struct efi_part_ref){NULL, 2, 0};
	CHECK(!efi_loadopt_points_at(&mbr, &p, "/efi/boot/bootx64.efi"));
	arena_free(&a);
}

/* --- efivarfs on a temporary directory */

static char vdir[64];

static void vdir_make(void)
{
	test_tmpdir(vdir, sizeof(vdir), "test_efi");
}

static void vdir_remove(void)
{
	test_rmtree(vdir);
}

/* The file's bytes as text, "<attrs hex>:<data>" ("-" when absent). */
static const char *file_text(const char *name, char *out, size_t len)
{
	char path[256];
	struct stat st;
	size_t n = 0;
	char *b;

	snprintf(path, sizeof(path), "%s/%s-%s", vdir, name, EFI_GLOBAL_GUID);
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return "dir";
	b = test_slurp(path, &n);
	if (!b || n < 4)
		snprintf(out, len, "%s", b ? "short" : "-");
	else
		snprintf(out, len, "%02x%02x%02x%02x:%.*s", b[0] & 0xff,
			 b[1] & 0xff, b[2] & 0xff, b[3] & 0xff, (int)n - 4,
			 b + 4);
	free(b);
	return out;
}

TEST(vars_read_write)
{
	struct efi_vars v = {.dir = NULL};
	uint8_t buf[16];
	uint32_t attrs = 0;
	size_t len = 1;
	char err[200], t[64];

	vdir_make();
	v.dir = vdir;
	CHECK_INT(efi_var_write(
		      &v, "BootNext", EFI_GLOBAL_GUID, EFI_VARIABLE_NV_BS_RT,
		      (const uint8_t *)"\x05\x00", 2, err, sizeof(err)),
		  0);
	CHECK_STR(err, "");
	CHECK_STR(file_text("BootNext", t, sizeof(t)), "07000000:\x05");
	CHECK_INT(efi_var_read(&v, "BootNext",
			       "8BE4DF61-93CA-11D2-AA0D-00E098032B8C", &attrs,
			       buf, sizeof(buf), &len, err, sizeof(err)),
		  0);
	CHECK_INT(attrs, 7);
	CHECK_INT(len, 2);
	CHECK(buf[0] == 5 && buf[1] == 0);
	/* a longer value, then a shorter one: the file is cut */
	CHECK_INT(efi_var_write(&v, "Test", EFI_GLOBAL_GUID, 6,
				(const uint8_t *)"longer", 6, err, sizeof(err)),
		  0);
	CHECK_INT(efi_var_write(&v, "Test", EFI_GLOBAL_GUID, 7,
				(const uint8_t *)"ab", 2, err, sizeof(err)),
		  0);
	CHECK_STR(file_text("Test", t, sizeof(t)), "07000000:ab");
	CHECK_INT(efi_var_read(&v, "Test", EFI_GLOBAL_GUID, &attrs, buf, 1,
			       &len, err, sizeof(err)),
		  -EFBIG);
	CHECK(strstr(err, "Test") != NULL);
	/* no data: refused, the variable stays */
	CHECK_INT(efi_var_write(&v, "Test", EFI_GLOBAL_GUID, 7, buf, 0, err,
				sizeof(err)),
		  -EINVAL);
	CHECK_STR(file_text("Test", t, sizeof(t)), "07000000:ab");
	vdir_remove();
}

TEST(vars_refusals)
{
	struct efi_vars v = {.dir = NULL};
	uint8_t buf[16] = {0};
	uint32_t attrs = 0;
	size_t len = 1;
	char err[200], t[64];

	vdir_make();
	v.dir = vdir;
	CHECK_INT(efi_var_write(&v, "Test", EFI_GLOBAL_GUID, 7,
				(const uint8_t *)"ab", 2, err, sizeof(err)),
		  0);
	CHECK_INT(efi_var_read(&v, "Nope", EFI_GLOBAL_GUID, &attrs, buf,
			       sizeof(buf), &len, err, sizeof(err)),
		  -ENOENT);
	CHECK_STR(err,
		  "cannot read EFI variable Nope: No such file or directory");
	CHECK_INT(efi_var_write(&v, "a/b", EFI_GLOBAL_GUID, 7, buf, 1, err,
				sizeof(err)),
		  -EINVAL);
	CHECK_STR(err, "\"a/b\" is not an EFI variable name");
	CHECK_INT(efi_var_write(&v, "Caf\xc3\xa9", EFI_GLOBAL_GUID, 7, buf, 1,
				err, sizeof(err)),
		  -EINVAL);
	CHECK_INT(efi_var_write(&v, "Test", "not-a-guid", 7, buf, 1, err,
				sizeof(err)),
		  -EINVAL);
	CHECK_INT(efi_var_write(&v, "Test", EFI_GLOBAL_GUID, 7, buf,
				EFI_VAR_DATA_MAX + 1, err, sizeof(err)),
		  -EFBIG);
	CHECK_INT(efi_var_delete(&v, "Test", EFI_GLOBAL_GUID, err, sizeof(err)),
		  0);
	CHECK_STR(file_text("Test", t, sizeof(t)), "-");
	CHECK_INT(efi_var_delete(&v, "Test", EFI_GLOBAL_GUID, err, sizeof(err)),
		  -ENOENT);
	vdir_remove();
}

TEST(vars_boot_nums)
{
	static const char *const names[] = {
	    "Boot0003-" EFI_GLOBAL_GUID,  "Boot0001-" EFI_GLOBAL_GUID,
	    "BootOrder-" EFI_GLOBAL_GUID, "Boot00a1-" EFI_GLOBAL_GUID,
	    "Boot0002-" DEBIAN_PARTUUID,  "Boot0004-" EFI_GLOBAL_GUID "x"};
	struct efi_vars v = {.dir = NULL};
	uint16_t nums[4];
	size_t n = 9;
	char path[256];

	vdir_make();
	v.dir = vdir;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", vdir, names[i]);
		close(open(path, O_WRONLY | O_CREAT, 0644));
	}
	CHECK_INT(efi_var_boot_nums(&v, nums, 4, &n), 0);
	CHECK_INT(n, 2);
	CHECK(nums[0] == 1 && nums[1] == 3);
	CHECK_INT(efi_var_boot_nums(&v, nums, 1, &n), -E2BIG);
	vdir_remove();
	CHECK_INT(efi_var_boot_nums(&v, nums, 4, &n), -ENOENT);
}

/* The seam: a fake immutable flag that logs each call with what the
 * file held at that moment. */
struct fake {
	int immutable;
	int get_rc, set_rc;
	const char *name;
	char log[256];
};

static int fake_ioctl(int fd, unsigned long req, int *flags, void *ctx)
{
	struct fake *f = ctx;
	char t[64];
	size_t o = strlen(f->log);

	(void)fd;
	if (req == FS_IOC_GETFLAGS) {
		snprintf(f->log + o, sizeof(f->log) - o, "get ");
		*flags = f->immutable ? FS_IMMUTABLE_FL : 0;
		return f->get_rc;
	}
	snprintf(f->log + o, sizeof(f->log) - o, "set%d[%s] ",
		 !!(*flags & FS_IMMUTABLE_FL),
		 file_text(f->name, t, sizeof(t)));
	if (f->set_rc)
		return f->set_rc;
	f->immutable = !!(*flags & FS_IMMUTABLE_FL);
	return 0;
}

static int put(struct efi_vars *v, const char *name, const char *data,
	       char *err)
{
	return efi_var_write(v, name, EFI_GLOBAL_GUID, 7, (const uint8_t *)data,
			     strlen(data), err, 200);
}

TEST(vars_immutable_dance)
{
	struct fake f = {1, 0, 0, "Var", ""};
	struct efi_vars v = {NULL, fake_ioctl, &f};
	char err[200], t[64];

	vdir_make();
	v.dir = vdir;
	/* a new variable: nothing to clear */
	f.immutable = 0;
	CHECK_INT(put(&v, "Var", "old", err), 0);
	CHECK_STR(f.log, "");
	/* cleared before the write, restored after it */
	f.immutable = 1;
	CHECK_INT(put(&v, "Var", "new", err), 0);
	CHECK_STR(f.log, "get set0[07000000:old] set1[07000000:new] ");
	CHECK_INT(f.immutable, 1);
	/* not supported: nothing to clear, the write goes on */
	f = (struct fake){0, -ENOTTY, 0, "Var", ""};
	CHECK_INT(put(&v, "Var", "v3", err), 0);
	CHECK_STR(f.log, "get ");
	CHECK_STR(file_text("Var", t, sizeof(t)), "07000000:v3");
	/* the flag cannot be cleared: nothing is written */
	f = (struct fake){1, 0, -EPERM, "Var", ""};
	CHECK_INT(put(&v, "Var", "v4", err), -EPERM);
	CHECK_STR(f.log, "get set0[07000000:v3] ");
	CHECK_STR(err,
		  "cannot write EFI variable Var: Operation not permitted");
	CHECK_STR(file_text("Var", t, sizeof(t)), "07000000:v3");
	/* delete: cleared, then gone, nothing restored */
	f = (struct fake){1, 0, 0, "Var", ""};
	CHECK_INT(efi_var_delete(&v, "Var", EFI_GLOBAL_GUID, err, sizeof(err)),
		  0);
	CHECK_STR(f.log, "get set0[07000000:v3] ");
	vdir_remove();
}

/* A write that fails (RLIMIT_FSIZE 0: write(2) says EFBIG, the file is
 * untouched) still puts the flag back; a new file is removed again. */
TEST(vars_immutable_failed_write)
{
	struct fake f = {0, 0, 0, "Var", ""};
	struct efi_vars v = {NULL, fake_ioctl, &f};
	struct rlimit old, zero;
	char err[200], t[64], path[256];
	int rc, rc_new;

	vdir_make();
	v.dir = vdir;
	CHECK_INT(put(&v, "Var", "old", err), 0);
	f.immutable = 1;
	getrlimit(RLIMIT_FSIZE, &old);
	zero = (struct rlimit){0, old.rlim_max};
	signal(SIGXFSZ, SIG_IGN);
	setrlimit(RLIMIT_FSIZE, &zero);
	rc = put(&v, "Var", "new", err);
	rc_new = put(&v, "Fresh", "x", err);
	setrlimit(RLIMIT_FSIZE, &old);
	signal(SIGXFSZ, SIG_DFL);
	CHECK_INT(rc, -EFBIG);
	CHECK_STR(f.log, "get set0[07000000:old] set1[07000000:old] ");
	CHECK_INT(f.immutable, 1);
	CHECK_STR(file_text("Var", t, sizeof(t)), "07000000:old");
	CHECK_INT(rc_new, -EFBIG);
	CHECK_STR(err, "cannot write EFI variable Fresh: File too large");
	snprintf(path, sizeof(path), "%s/Fresh-%s", vdir, EFI_GLOBAL_GUID);
	CHECK(access(path, F_OK) != 0);
	/* a delete that fails (a directory of that name) restores the flag */
	snprintf(path, sizeof(path), "%s/Dir-%s", vdir, EFI_GLOBAL_GUID);
	CHECK(mkdir(path, 0755) == 0);
	f = (struct fake){1, 0, 0, "Dir", ""};
	CHECK(efi_var_delete(&v, "Dir", EFI_GLOBAL_GUID, err, sizeof(err)) < 0);
	CHECK_INT(f.immutable, 1);
	CHECK_STR(f.log, "get set0[dir] set1[dir] ");
	vdir_remove();
}

/* The real ioctls, where this filesystem and user allow chattr +i (root
 * on ext4 or tmpfs): the write gets through and the flag stays set. */
TEST(vars_immutable_real)
{
	struct efi_vars v = {.dir = NULL};
	char err[200], t[64], path[256];
	int fd, flags = 0;

	vdir_make();
	v.dir = vdir;
	CHECK_INT(put(&v, "Real", "old", err), 0);
	snprintf(path, sizeof(path), "%s/Real-%s", vdir, EFI_GLOBAL_GUID);
	fd = open(path, O_RDONLY);
	CHECK(fd >= 0);
	if (ioctl(fd, FS_IOC_GETFLAGS, &flags) < 0 ||
	    (flags |= FS_IMMUTABLE_FL,
	     ioctl(fd, FS_IOC_SETFLAGS, &flags) < 0)) {
		test_skip("no chattr +i here (%s): only the plain write",
			  strerror(errno));
		CHECK_INT(put(&v, "Real", "new", err), 0);
	} else {
		CHECK(open(path, O_WRONLY) < 0 && errno == EPERM);
		CHECK_INT(put(&v, "Real", "new", err), 0);
		flags = 0;
		CHECK(ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0);
		CHECK(flags & FS_IMMUTABLE_FL);
		flags &= ~FS_IMMUTABLE_FL;
		ioctl(fd, FS_IOC_SETFLAGS, &flags);
	}
	CHECK_STR(file_text("Real", t, sizeof(t)), "07000000:new");
	close(fd);
	vdir_remove();
}

TEST_MAIN("test_efi", guid_text, utf16_round_trip, utf16_rejects,
	  loadopt_efibootmgr, loadopt_encode_as_efibootmgr,
	  loadopt_mbr_with_optional_data, loadopt_windows_by_hand,
	  loadopt_truncated, loadopt_hostile, devpath_hostile, devpath_multi,
	  boot_order_next, boot_names, path_equal, points_at_gpt, points_at_mbr,
	  vars_read_write, vars_refusals, vars_boot_nums, vars_immutable_dance,
	  vars_immutable_failed_write, vars_immutable_real)
