/* pe.c - PE/COFF section lookup (pe.h). Field offsets from the
 * Microsoft PE format document: e_lfanew at 0x3c, "PE\0\0", a 20-byte
 * COFF header, the optional header, then 40-byte section headers. */
#include "format/pe.h"
#include "util/le.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

#define PE_DOS_LFANEW 0x3c
#define PE_COFF_SIZE 20
#define PE_SECT_SIZE 40
#define PE_NAME_LEN 8
#define PE_DIR_SIZE 8
#define PE_OPT_MAGIC32 0x10b
#define PE_OPT_MAGIC64 0x20b

/* The optional header's offset and size, and the section count, after
 * the DOS stub, signature and COFF header checks. */
static int pe_headers(const uint8_t *p, size_t len, size_t *opt,
		      uint16_t *optsz, uint16_t *nsect)
{
	uint32_t lfanew, sig;
	uint16_t mz;

	if (get_le16(p, len, 0, &mz) || mz != 0x5a4d)
		return -ENOEXEC;
	if (get_le32(p, len, PE_DOS_LFANEW, &lfanew))
		return -ENOEXEC;
	if (get_le32(p, len, lfanew, &sig) || sig != 0x00004550)
		return -ENOEXEC;
	if (get_le16(p, len, (size_t)lfanew + 4 + 2, nsect) ||
	    get_le16(p, len, (size_t)lfanew + 4 + 16, optsz))
		return -ENOEXEC;
	*opt = (size_t)lfanew + 4 + PE_COFF_SIZE;
	return 0;
}

/* Where the section table starts and how many entries it has. */
static int pe_sections(const uint8_t *p, size_t len, size_t *tab, uint16_t *n)
{
	size_t opt;
	uint16_t nsect, optsz;

	if (pe_headers(p, len, &opt, &optsz, &nsect))
		return -ENOEXEC;
	if (nsect > PE_SECTIONS_MAX)
		return -ENOEXEC;
	*tab = opt + optsz;
	if (!le_in(len, *tab, (size_t)nsect * PE_SECT_SIZE))
		return -ENOEXEC;
	*n = nsect;
	return 0;
}

/* A section name is 8 bytes, NUL-padded when shorter. */
static int pe_name_is(const uint8_t *raw, const char *name)
{
	size_t n = strlen(name);

	if (n > PE_NAME_LEN || memcmp(raw, name, n))
		return 0;
	return n == PE_NAME_LEN || raw[n] == '\0';
}

int pe_locate_section(const void *hdr, size_t len, const char *name,
		      size_t *off, size_t *size)
{
	const uint8_t *p = hdr;
	size_t tab;
	uint16_t n;
	int rc;

	if (!hdr || !name)
		return -ENOEXEC;
	rc = pe_sections(p, len, &tab, &n);
	if (rc < 0)
		return rc;
	for (uint16_t i = 0; i < n; i++) {
		size_t h = tab + (size_t)i * PE_SECT_SIZE;
		uint32_t vsize = 0, rsize = 0, roff = 0, sz;

		if (!pe_name_is(p + h, name))
			continue;
		get_le32(p, len, h + 8, &vsize);
		get_le32(p, len, h + 16, &rsize);
		get_le32(p, len, h + 20, &roff);
		sz = vsize && vsize <= rsize ? vsize : rsize;
		*off = roff;
		*size = sz;
		return 0;
	}
	return -ENOENT;
}

int pe_find_section(const void *buf, size_t len, const char *name, size_t *off,
		    size_t *size)
{
	size_t o, n;
	int rc = pe_locate_section(buf, len, name, &o, &n);

	if (rc < 0)
		return rc;
	if (!le_in(len, o, n))
		return -ERANGE;
	*off = o;
	*size = n;
	return 0;
}

/* PE format, "Optional Header Data Directories": NumberOfRvaAndSizes and
 * the directories sit at offset 92/96 of a PE32 optional header, 108/112
 * of a PE32+ one; each directory is a 32-bit address and a 32-bit size. */
int pe_data_dir(const void *hdr, size_t len, unsigned idx, uint32_t *addr,
		uint32_t *size)
{
	const uint8_t *p = hdr;
	size_t opt, dirs;
	uint16_t optsz, nsect, magic;
	uint32_t ndir;

	if (!hdr || pe_headers(p, len, &opt, &optsz, &nsect) ||
	    get_le16(p, len, opt, &magic))
		return -ENOEXEC;
	if (magic != PE_OPT_MAGIC32 && magic != PE_OPT_MAGIC64)
		return -ENOEXEC;
	dirs = magic == PE_OPT_MAGIC32 ? 96 : 112;
	if (optsz < dirs)
		return -ENOENT;
	if (get_le32(p, len, opt + dirs - 4, &ndir))
		return -ENOEXEC;
	if (idx >= ndir || (size_t)idx >= (optsz - dirs) / PE_DIR_SIZE)
		return -ENOENT;
	if (get_le32(p, len, opt + dirs + (size_t)idx * PE_DIR_SIZE, addr) ||
	    get_le32(p, len, opt + dirs + (size_t)idx * PE_DIR_SIZE + 4, size))
		return -ENOEXEC;
	return 0;
}
