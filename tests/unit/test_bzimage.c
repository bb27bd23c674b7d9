/* test_bzimage.c - a bzImage's kernel_version string (format/bzimage.c):
 * the starts of two real kernels (tests/fixtures/bzimage/README.md), the
 * same cut short, and hand-made setup headers at each bound. */
#include "format/bzimage.h"
#include "test.h"
#include "util/le.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#define FIX "tests/fixtures/bzimage/"
#define BOOTMENU_HEAD                                                          \
	"6.1.192-bootmenu (root@vm) #16 Sun Dec  6 17:27:23 UTC 2026"
#define DEBIAN_HEAD                                                            \
	"6.1.0-57-amd64 (debian-kernel@lists.debian.org) #1 SMP "              \
	"PREEMPT_DYNAMIC Debian 6.1.192-3 (2026-11-26)"
#define STR_AT 0x800 /* the hand-made headers' string */

/* A setup header: "HdrS", protocol 2.15, kernel_version at STR_AT, whose
 * string is @s (NUL-terminated when it fits). */
static void mk_hdr(uint8_t *b, size_t cap, const char *s)
{
	memset(b, 0, cap);
	b[0] = 'M', b[1] = 'Z';
	put_le32(b, cap, 0x202, 0x53726448);
	put_le16(b, cap, 0x206, 0x020f);
	put_le16(b, cap, 0x20e, STR_AT - 0x200);
	memcpy(b + STR_AT, s, strnlen(s, cap - STR_AT));
}

/* The version of buf[0..n) as a string, or NULL when there is none. */
static char *version(const uint8_t *b, size_t n)
{
	static char out[256];
	const char *v;
	size_t len;

	if (bzimage_kernel_version(b, n, &v, &len) < 0 || len >= sizeof(out))
		return NULL;
	memcpy(out, v, len);
	out[len] = '\0';
	return out;
}

TEST(real_kernels)
{
	size_t nb = 0, nd = 0;
	uint8_t *b = (uint8_t *)test_slurp(FIX "bootmenu-head.bin", &nb);
	uint8_t *d = (uint8_t *)test_slurp(FIX "debian-head.bin", &nd);

	CHECK(b && d);
	if (!b || !d)
		goto out;
	CHECK_STR(version(b, nb), BOOTMENU_HEAD);
	CHECK(bzimage_is_bootmenu(b, nb));
	CHECK_STR(version(d, nd), DEBIAN_HEAD);
	CHECK(!bzimage_is_bootmenu(d, nd));
out:
	free(b);
	free(d);
}

/* bootmenu's start, cut inside the marker, at the string, inside the
 * kernel_version field, before "HdrS". */
TEST(real_kernel_cut_short)
{
	size_t n = 0;
	uint8_t *b = (uint8_t *)test_slurp(FIX "bootmenu-head.bin", &n);
	const size_t at = 0x3ac0; /* its kernel_version + 0x200 */
	const char *v;
	size_t len;

	CHECK(b != NULL);
	if (!b)
		return;
	CHECK_STR(version(b, at + 10), "6.1.192-bo");
	CHECK(!bzimage_is_bootmenu(b, at + 10));
	CHECK(bzimage_is_bootmenu(b, at + 16));
	CHECK_INT(bzimage_kernel_version(b, at, &v, &len), -ENOENT);
	CHECK_INT(bzimage_kernel_version(b, 0x20f, &v, &len), -ENOEXEC);
	CHECK_INT(bzimage_kernel_version(b, 0x205, &v, &len), -ENOEXEC);
	CHECK_INT(bzimage_kernel_version(b, 0, &v, &len), -ENOEXEC);
	CHECK(!bzimage_is_bootmenu(NULL, 0));
	free(b);
}

TEST(header_fields)
{
	uint8_t b[0x1000];
	const char *v;
	size_t len;

	mk_hdr(b, sizeof(b), "6.1.0-bootmenu-rc1 #2");
	CHECK_STR(version(b, sizeof(b)), "6.1.0-bootmenu-rc1 #2");
	CHECK(bzimage_is_bootmenu(b, sizeof(b)));
	/* not "HdrS" */
	b[0x205] = 'T';
	CHECK_INT(bzimage_kernel_version(b, sizeof(b), &v, &len), -ENOEXEC);
	CHECK(!bzimage_is_bootmenu(b, sizeof(b)));
	/* protocol 1.x: no kernel_version field */
	mk_hdr(b, sizeof(b), "6.1.0-bootmenu");
	put_le16(b, sizeof(b), 0x206, 0x01ff);
	CHECK_INT(bzimage_kernel_version(b, sizeof(b), &v, &len), -ENOEXEC);
	put_le16(b, sizeof(b), 0x206, 0x0200);
	CHECK_STR(version(b, sizeof(b)), "6.1.0-bootmenu");
	/* kernel_version 0: no string */
	put_le16(b, sizeof(b), 0x20e, 0);
	CHECK_INT(bzimage_kernel_version(b, sizeof(b), &v, &len), -ENOENT);
	/* beyond the buffer, at its last byte, and the largest offset */
	put_le16(b, sizeof(b), 0x20e, sizeof(b) - 0x200);
	CHECK_INT(bzimage_kernel_version(b, sizeof(b), &v, &len), -ENOENT);
	put_le16(b, sizeof(b), 0x20e, sizeof(b) - 0x200 - 1);
	b[sizeof(b) - 1] = 'x';
	CHECK_STR(version(b, sizeof(b)), "x");
	put_le16(b, sizeof(b), 0x20e, 0xffff);
	CHECK_INT(bzimage_kernel_version(b, sizeof(b), &v, &len), -ENOENT);
}

/* The marker counts inside the string only: not after its NUL, not
 * without the dash; a string running to the end is read to the end. */
TEST(marker_in_the_string_only)
{
	uint8_t b[0x1000];

	mk_hdr(b, sizeof(b), "6.1.0-13-amd64 (debian) #1");
	memcpy(b + 0x900, "-bootmenu", 9);
	CHECK(!bzimage_is_bootmenu(b, sizeof(b)));
	mk_hdr(b, sizeof(b), "6.1.0 bootmenu");
	CHECK(!bzimage_is_bootmenu(b, sizeof(b)));
	mk_hdr(b, sizeof(b), "6.1.0-bootmenu");
	CHECK(bzimage_is_bootmenu(b, STR_AT + 14)); /* no NUL: to the end */
	CHECK(!bzimage_is_bootmenu(b, STR_AT + 13));
}

TEST_MAIN("test_bzimage", real_kernels, real_kernel_cut_short, header_fields,
	  marker_in_the_string_only)
