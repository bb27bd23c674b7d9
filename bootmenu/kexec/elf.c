/* elf.c - program headers of an x86_64 vmlinux (System V gABI, ELF64). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kexec/elf.h"
#include "util/le.h"
#include "util/say.h"

#define EHDR_SIZE 64
#define PHDR_SIZE 56
#define PT_LOAD 1
#define KEXEC_ELF_SEG_MAX (1ull << 30) /* 1 GiB */
#define EM_X86_64 62
#define EM_386 3
#define EHDR32_SIZE 52
#define PHDR32_SIZE 32
#define ET_EXEC 2

int kexec_elf_is(const void *buf, size_t len)
{
	return len >= 4 && memcmp(buf, "\177ELF", 4) == 0;
}

/* Virtual e_entry (0xffffffff81000000) to physical via its segment. */
static int elf_entry(struct kexec_elf *el, uint64_t entry,
		     const uint64_t *vaddr)
{
	for (size_t i = 0; i < el->n_load; i++) {
		const struct kexec_elf_load *l = &el->load[i];

		if (entry >= l->paddr && entry - l->paddr < l->memsz) {
			el->entry = entry;
			return 0;
		}
		if (entry >= vaddr[i] && entry - vaddr[i] < l->memsz) {
			el->entry = l->paddr + (entry - vaddr[i]);
			return 0;
		}
	}
	return -ENOEXEC;
}

static int elf_phdr(const void *buf, size_t len, size_t at,
		    struct kexec_elf *el, uint64_t *vaddr)
{
	uint32_t type = 0;
	uint64_t off, va, pa, filesz, memsz;
	struct kexec_elf_load *l;

	if (get_le32(buf, len, at, &type) || type != PT_LOAD)
		return 0;
	if (get_le64(buf, len, at + 8, &off) ||
	    get_le64(buf, len, at + 16, &va) ||
	    get_le64(buf, len, at + 24, &pa) ||
	    get_le64(buf, len, at + 32, &filesz) ||
	    get_le64(buf, len, at + 40, &memsz))
		return -ENOEXEC;
	/* A segment past KEXEC_ELF_SEG_MAX is no kernel, and keeps the page
	 * rounding of paddr + memsz from wrapping around. */
	if (el->n_load == KEXEC_ELF_LOAD_MAX || filesz > memsz || off > len ||
	    filesz > len - off || memsz > KEXEC_ELF_SEG_MAX ||
	    pa > UINT64_MAX - KEXEC_ELF_SEG_MAX)
		return -ENOEXEC;
	if (memsz == 0)
		return 0;
	vaddr[el->n_load] = va;
	l = &el->load[el->n_load++];
	*l = (struct kexec_elf_load){pa, memsz, (size_t)off, (size_t)filesz};
	return 0;
}

int kexec_elf_parse(const void *buf, size_t len, struct kexec_elf *el,
		    char *err, size_t errlen)
{
	const uint8_t *p = buf;
	uint64_t entry = 0, phoff = 0, vaddr[KEXEC_ELF_LOAD_MAX];
	uint16_t type = 0, machine = 0, phentsize = 0, phnum = 0;

	memset(el, 0, sizeof(*el));
	if (!kexec_elf_is(buf, len) || len < EHDR_SIZE || p[4] != 2 ||
	    p[5] != 1) {
		snprintf(err, errlen,
			 "not an x86_64 ELF kernel (ELF64, "
			 "little-endian)");
		return -ENOEXEC;
	}
	get_le16(buf, len, 16, &type);
	get_le16(buf, len, 18, &machine);
	get_le64(buf, len, 24, &entry);
	get_le64(buf, len, 32, &phoff);
	get_le16(buf, len, 54, &phentsize);
	get_le16(buf, len, 56, &phnum);
	if (type != ET_EXEC || machine != EM_X86_64 || phentsize != PHDR_SIZE) {
		snprintf(err, errlen,
			 "not an x86_64 ELF kernel (type %u, "
			 "machine %u)",
			 type, machine);
		return -ENOEXEC;
	}
	for (size_t i = 0; i < phnum; i++) {
		if (phoff > len || i * PHDR_SIZE > len - phoff ||
		    elf_phdr(buf, len, (size_t)phoff + i * PHDR_SIZE, el,
			     vaddr)) {
			snprintf(err, errlen,
				 "the ELF kernel is truncated or "
				 "its program headers are malformed");
			return -ENOEXEC;
		}
	}
	if (el->n_load == 0 || elf_entry(el, entry, vaddr)) {
		snprintf(err, errlen,
			 "the ELF kernel's entry point 0x%llx is "
			 "in none of its %zu segments",
			 (unsigned long long)entry, el->n_load);
		return -ENOEXEC;
	}
	return 0;
}

/* System V gABI, ELF32: p_offset 4, p_vaddr 8, p_paddr 12, p_filesz 16,
 * p_memsz 20. */
static int elf32_phdr(const void *buf, size_t len, size_t at,
		      struct kexec_elf *el, uint64_t *vaddr)
{
	uint32_t type = 0, off, va, pa, filesz, memsz;

	if (get_le32(buf, len, at, &type) || type != PT_LOAD)
		return 0;
	if (get_le32(buf, len, at + 4, &off) ||
	    get_le32(buf, len, at + 8, &va) ||
	    get_le32(buf, len, at + 12, &pa) ||
	    get_le32(buf, len, at + 16, &filesz) ||
	    get_le32(buf, len, at + 20, &memsz))
		return -ENOEXEC;
	if (el->n_load == KEXEC_ELF_LOAD_MAX || filesz > memsz || off > len ||
	    filesz > len - off || memsz > KEXEC_ELF_SEG_MAX)
		return -ENOEXEC;
	if (memsz == 0)
		return 0;
	vaddr[el->n_load] = va;
	el->load[el->n_load++] =
	    (struct kexec_elf_load){pa, memsz, (size_t)off, (size_t)filesz};
	return 0;
}

int kexec_elf32_parse(const void *buf, size_t len, struct kexec_elf *el,
		      char *err, size_t errlen)
{
	const uint8_t *p = buf;
	uint32_t entry = 0, phoff = 0;
	uint64_t vaddr[KEXEC_ELF_LOAD_MAX];
	uint16_t type = 0, machine = 0, phentsize = 0, phnum = 0;

	memset(el, 0, sizeof(*el));
	if (!kexec_elf_is(buf, len) || len < EHDR32_SIZE || p[4] != 1 ||
	    p[5] != 1)
		return say(err, errlen, -ENOEXEC, "%s",
			   "not an i386 ELF32 little-endian file");
	get_le16(buf, len, 16, &type);
	get_le16(buf, len, 18, &machine);
	get_le32(buf, len, 24, &entry);
	get_le32(buf, len, 28, &phoff);
	get_le16(buf, len, 42, &phentsize);
	get_le16(buf, len, 44, &phnum);
	if (type != ET_EXEC || machine != EM_386 || phentsize != PHDR32_SIZE)
		return say(err, errlen, -ENOEXEC,
			   "not an i386 ELF executable (type %u, machine %u)",
			   type, machine);
	for (size_t i = 0; i < phnum; i++)
		if (phoff > len || i * PHDR32_SIZE > len - phoff ||
		    elf32_phdr(buf, len, (size_t)phoff + i * PHDR32_SIZE, el,
			       vaddr))
			return say(err, errlen, -ENOEXEC, "%s",
				   "the ELF file is truncated or its program "
				   "headers are malformed");
	if (el->n_load == 0 || elf_entry(el, entry, vaddr))
		return say(err, errlen, -ENOEXEC,
			   "the ELF file's entry point 0x%x is in none of its "
			   "%zu segments",
			   entry, el->n_load);
	return 0;
}
