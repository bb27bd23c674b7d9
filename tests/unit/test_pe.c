/* test_pe.c - the PE/COFF section reader's bounds. */
#include "test.h"
#include "util/le.h"
#include "format/pe.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#define LFANEW 0x40
#define TAB (LFANEW + 4 + 20) /* optional header size 0 */

/* A minimal image: DOS header, signature, COFF header, @n sections named
 * ".s0".. each 16 bytes of data at 0x200 + 16 * i. */
static size_t mk_pe(uint8_t *b, size_t cap, unsigned n)
{
	memset(b, 0, cap);
	put_le16(b, cap, 0, 0x5a4d);
	put_le32(b, cap, 0x3c, LFANEW);
	put_le32(b, cap, LFANEW, 0x00004550);
	put_le16(b, cap, LFANEW + 4 + 2, (uint16_t)n);
	put_le16(b, cap, LFANEW + 4 + 16, 0);
	for (unsigned i = 0; i < n && TAB + 40 * (i + 1) <= cap; i++) {
		size_t h = TAB + 40 * i;

		b[h] = '.', b[h + 1] = 's', b[h + 2] = (uint8_t)('0' + i % 10);
		put_le32(b, cap, h + 8, 16);		  /* VirtualSize */
		put_le32(b, cap, h + 16, 32);		  /* SizeOfRawData */
		put_le32(b, cap, h + 20, 0x200 + 16 * i); /* PointerToRawData */
	}
	return cap;
}

TEST(finds_section)
{
	uint8_t b[1024];
	size_t len = mk_pe(b, sizeof(b), 3), off = 0, size = 0;

	CHECK_INT(pe_find_section(b, len, ".s1", &off, &size), 0);
	CHECK_INT(off, 0x210);
	CHECK_INT(size, 16); /* VirtualSize, smaller than the raw size */
	CHECK_INT(pe_find_section(b, len, ".s9", &off, &size), -ENOENT);
	CHECK_INT(pe_find_section(b, len, ".s", &off, &size), -ENOENT);
}

TEST(raw_size_when_virtual_is_zero_or_larger)
{
	uint8_t b[1024];
	size_t len = mk_pe(b, sizeof(b), 2), off, size;

	put_le32(b, len, TAB + 8, 0);
	CHECK_INT(pe_find_section(b, len, ".s0", &off, &size), 0);
	CHECK_INT(size, 32);
	put_le32(b, len, TAB + 8, 4096);
	CHECK_INT(pe_find_section(b, len, ".s0", &off, &size), 0);
	CHECK_INT(size, 32);
}

TEST(eight_byte_name)
{
	uint8_t b[1024];
	size_t len = mk_pe(b, sizeof(b), 1), off, size;

	memcpy(b + TAB, ".abcdefg", 8);
	CHECK_INT(pe_find_section(b, len, ".abcdefg", &off, &size), 0);
	CHECK_INT(pe_find_section(b, len, ".abcdefgh", &off, &size), -ENOENT);
	CHECK_INT(pe_find_section(b, len, ".abcdef", &off, &size), -ENOENT);
}

TEST(truncated_headers)
{
	uint8_t b[1024];
	size_t len = mk_pe(b, sizeof(b), 2), off, size;

	CHECK_INT(pe_find_section(b, 1, ".s0", &off, &size), -ENOEXEC);
	CHECK_INT(pe_find_section(b, 0x3e, ".s0", &off, &size), -ENOEXEC);
	CHECK_INT(pe_find_section(b, LFANEW + 2, ".s0", &off, &size), -ENOEXEC);
	CHECK_INT(pe_find_section(b, TAB + 40, ".s0", &off, &size), -ENOEXEC);
	CHECK_INT(pe_find_section(NULL, len, ".s0", &off, &size), -ENOEXEC);
	b[0] = 'X';
	CHECK_INT(pe_find_section(b, len, ".s0", &off, &size), -ENOEXEC);
}

TEST(lfanew_beyond_file)
{
	uint8_t b[1024];
	size_t len = mk_pe(b, sizeof(b), 1), off, size;

	put_le32(b, len, 0x3c, 0xfffffff0u);
	CHECK_INT(pe_find_section(b, len, ".s0", &off, &size), -ENOEXEC);
}

TEST(section_beyond_file)
{
	uint8_t b[1024];
	size_t len = mk_pe(b, sizeof(b), 1), off = 7, size = 7;

	put_le32(b, len, TAB + 20, 0xfffffff0u);
	CHECK_INT(pe_find_section(b, len, ".s0", &off, &size), -ERANGE);
	CHECK_INT(off, 7); /* untouched on failure */
	/* the header-only lookup reports it for the caller to check */
	CHECK_INT(pe_locate_section(b, len, ".s0", &off, &size), 0);
	CHECK_INT(off, 0xfffffff0u);
	put_le32(b, len, TAB + 20, 1010); /* 1010 + 16 > 1024 */
	CHECK_INT(pe_find_section(b, len, ".s0", &off, &size), -ERANGE);
}

TEST(too_many_sections)
{
	size_t cap = TAB + 40 * (PE_SECTIONS_MAX + 2);
	uint8_t *b = malloc(cap);
	size_t off, size;

	mk_pe(b, cap, PE_SECTIONS_MAX);
	CHECK_INT(pe_locate_section(b, cap, ".s0", &off, &size), 0);
	put_le16(b, cap, LFANEW + 4 + 2, PE_SECTIONS_MAX + 1);
	CHECK_INT(pe_locate_section(b, cap, ".s0", &off, &size), -ENOEXEC);
	put_le16(b, cap, LFANEW + 4 + 2, 0xffff);
	CHECK_INT(pe_locate_section(b, cap, ".s0", &off, &size), -ENOEXEC);
	free(b);
}

TEST(optional_header_size_counts)
{
	uint8_t b[1024];
	size_t len = mk_pe(b, sizeof(b), 1), off, size;

	/* SizeOfOptionalHeader moves the table past the end */
	put_le16(b, len, LFANEW + 4 + 16, 0xfff0);
	CHECK_INT(pe_find_section(b, len, ".s0", &off, &size), -ENOEXEC);
}

TEST_MAIN("test_pe", finds_section, raw_size_when_virtual_is_zero_or_larger,
	  eight_byte_name, truncated_headers, lfanew_beyond_file,
	  section_beyond_file, too_many_sections, optional_header_size_counts)
