/* elf.h - an x86_64 ELF vmlinux as a kexec image.
 *
 * Only reads the caller's buffer (every field through get_le*()); the
 * program headers' PT_LOAD entries are copied out. A vmlinux is not
 * relocated by us, so it runs where it is linked: each segment at its
 * p_paddr, entered at the physical address of e_entry in 64-bit mode.
 */
#ifndef BM_KEXEC_ELF_H
#define BM_KEXEC_ELF_H

#include <stddef.h>
#include <stdint.h>

/* Most PT_LOAD segments taken (a vmlinux has 3 to 5). */
#define KEXEC_ELF_LOAD_MAX 8

struct kexec_elf_load {
	uint64_t paddr, memsz;
	size_t off, filesz; /* bytes of the file, filesz <= memsz */
};

struct kexec_elf {
	uint64_t entry; /* physical */
	struct kexec_elf_load load[KEXEC_ELF_LOAD_MAX];
	size_t n_load;
};

/* True when buf starts with the ELF magic. */
int kexec_elf_is(const void *buf, size_t len);

/* Parse an ELF64 little-endian x86_64 executable. Returns 0, or -ENOEXEC
 * with a sentence in err (not 64-bit x86, truncated, no segments, entry
 * outside them, too many segments). */
int kexec_elf_parse(const void *buf, size_t len, struct kexec_elf *el,
		    char *err, size_t errlen);

/* The same for an ELF32 little-endian i386 executable (a multiboot
 * kernel such as Xen): each PT_LOAD at its p_paddr. */
int kexec_elf32_parse(const void *buf, size_t len, struct kexec_elf *el,
		      char *err, size_t errlen);

#endif
