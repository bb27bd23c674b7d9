/* plan.h - the pure half of a kexec load: where every byte goes.
 *
 * kexec_plan_build() parses a bzImage (or an ELF vmlinux), places the kernel,
 * the initrd, boot_params (with setup_data and the command line) and the
 * purgatory in the machine's RAM, and fills boot_params. It makes no syscall
 * and reads no file, so it runs on any host and in the tests. The plan owns the
 * buffers it makes (boot_params, purgatory); its segments also point into the
 * caller's kernel and initrd buffers, which must outlive it.
 */
#ifndef BM_KEXEC_PLAN_H
#define BM_KEXEC_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "kexec/bzimage.h"
#include "kexec/machine.h"
#include "kexec/memmap.h"

#define KEXEC_SEGMENT_MAX 16
#define KEXEC_PAGE 4096u
#define BOOT_PARAMS_SIZE 4096u

/* boot_params (the zero page) offsets past the setup header, boot.rst
 * and zero-page.rst */
#define BP_EXT_MEM_K 0x002
#define BP_APM_BIOS_INFO 0x040
#define BP_TBOOT_ADDR 0x058
#define BP_HD_INFO 0x080
#define BP_ACPI_RSDP 0x070
#define BP_EXT_RAMDISK_IMAGE 0x0c0
#define BP_EXT_RAMDISK_SIZE 0x0c4
#define BP_EXT_CMD_LINE_PTR 0x0c8
#define BP_EFI_INFO 0x1c0   /* 32 bytes: signature, systab, memdesc_size, */
#define BP_EFI_SYSTAB 0x1c4 /* memdesc_version, memmap, memmap_size, */
#define BP_EFI_MEMDESC_SIZE 0x1c8 /* systab_hi, memmap_hi */
#define BP_EFI_MEMDESC_VERSION 0x1cc
#define BP_EFI_MEMMAP 0x1d0
#define BP_EFI_MEMMAP_SIZE 0x1d4
#define BP_EFI_SYSTAB_HI 0x1d8
#define BP_EFI_MEMMAP_HI 0x1dc
#define BP_ALT_MEM_K 0x1e0
#define BP_E820_ENTRIES 0x1e8
#define BP_SENTINEL 0x1ef
#define BP_HARDWARE_SUBARCH 0x23c
#define BP_E820_TABLE 0x2d0
#define BP_E820_MAX 128
#define KEXEC_E820_ZEROPAGE BP_E820_MAX
#define E820_ENTRY_SIZE 20

#define SETUP_E820_EXT 1
#define SETUP_EFI 4
#define SETUP_HDR 16	  /* u64 next, u32 type, u32 len */
#define EFI_SETUP_SIZE 96 /* fw_vendor, unused, tables, smbios, 8 reserved */
#define EFI_DESC_MIN 40	  /* type, pad, phys, virt, pages, attribute */

struct kexec_blob {
	const void *buf;
	size_t len;
};

struct kexec_plan_in {
	struct kexec_blob kernel;
	struct kexec_blob initrd; /* all initrds, concatenated; may be empty */
	const char *cmdline;	  /* NULL means "" */
	const struct kexec_machine *m; /* memory map, base boot_params, EFI */
	bool crash;  /* panic kernel: place only in m->crash */
	bool sha256; /* purgatory checks the segments */
};

struct kexec_seg {
	const void *buf;
	size_t bufsz;
	uint64_t mem, memsz; /* page-aligned */
	const char *what; /* "kernel", "initrd", "boot_params+cmdline", ... */
};

struct kexec_plan {
	struct kexec_bzimage bz; /* for an ELF vmlinux: what we give it */
	bool elf; /* the image is an ELF vmlinux, not a bzImage */
	struct kexec_seg seg[KEXEC_SEGMENT_MAX]; /* sorted by mem */
	size_t n_seg;
	bool crash; /* load with KEXEC_ON_CRASH */
	/* the caller's inputs, for kexec_file_load and the printout */
	const void *kernel, *initrd;
	size_t kernel_len, initrd_len;
	size_t initrd_secret; /* the initrd's last bytes that are a secret */
	const char *cmdline;
	uint64_t entry; /* kexec_load's entry: the purgatory */
	uint64_t kernel_addr, kernel_entry;
	uint64_t params_addr, cmdline_addr;
	uint64_t initrd_addr, initrd_size;
	size_t e820_entries; /* entries given to the new kernel */
	bool efi;	     /* efi_info + runtime map + SETUP_EFI passed */
	bool sha256;
	uint8_t digest[32]; /* what the purgatory checks, when sha256 */
	uint8_t *params;    /* owned: the boot_params segment's bytes */
	size_t params_len;
	uint8_t *purg; /* owned: the patched purgatory */
	size_t purg_len;
	uint64_t kernel_room; /* init_size room kept free at kernel_addr */
	const void *kernel_seg_buf; /* the bzImage kernel segment's buf */
	bool lean;	    /* that segment is only the file's pages; the
			     * purgatory brings its own page tables */
	uint64_t mem_total; /* the machine's MemTotal, 0: unknown */
	int multiboot;	    /* 1 or 2: a multiboot kernel (kexec/multiboot.h),
			     * params is its boot information; 0: Linux */
	size_t n_mods;	    /* multiboot modules */
};

/* Build @p from @in. Returns 0, or -errno with a sentence in err:
 * -ENOEXEC (not a bzImage nor an x86_64 ELF vmlinux, truncated, protocol
 * too old, 32-bit only),
 * -E2BIG (command line longer than cmdline_size), -ENOSPC (no room in RAM
 * for the kernel, initrd too large), -EADDRNOTAVAIL (panic load without a
 * crashkernel= reservation), -ENOMEM. On failure nothing needs
 * freeing; on success kexec_plan_free() frees what the plan owns. */
int kexec_plan_build(const struct kexec_plan_in *in, struct kexec_plan *p,
		     char *err, size_t errlen);
void kexec_plan_free(struct kexec_plan *p);

/* The running kernel refuses segments over half of its memory (MemTotal,
 * read with the machine). Returns 0 (also when MemTotal is unknown), or
 * -EFBIG with a sentence. @file_syscall: kexec_file_load's kernel segment
 * spans init_size, not our lean one. */
int kexec_plan_fits(const struct kexec_plan *p, bool file_syscall, char *err,
		    size_t errlen);

/* Print the plan for --dry-run: image, cmdline, initrd, e820, EFI, the
 * syscall named @syscall, the entry point, the digest, and each segment's
 * physical range, size and contents. */
void kexec_plan_print(const struct kexec_plan *p, const char *syscall,
		      FILE *out);

/* @p emptied, then given the files: @kernel and @initrd (borrowed, not
 * copied), @cmdline (NULL: ""), @crash. */
void kexec_plan_files(struct kexec_plan *p, const struct kexec_blob *kernel,
		      const struct kexec_blob *initrd, const char *cmdline,
		      bool crash);

#endif
