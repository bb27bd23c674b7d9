/* multiboot.h - multiboot2 and multiboot (v1) kernels: Xen and its kin.
 *
 * Three pure steps, each on the caller's bytes (read with get_le*()):
 * kexec_mb_header_parse() finds and checks the header a kernel carries in
 * its first 32 KiB (multiboot2) or 8 KiB (multiboot); kexec_mb_image()
 * says where its bytes go (an ELF32/ELF64 file's PT_LOAD segments, or the
 * header's address fields); kexec_mb_info() writes the boot information
 * the kernel finds in %ebx. kexec_mb_plan_build() puts them together
 * with the modules into a kexec plan whose purgatory enters the kernel
 * in 32-bit protected mode, paging off (multiboot2 spec 3.3, "I386
 * machine state"; multiboot spec 3.2).
 */
#ifndef BM_KEXEC_MULTIBOOT_H
#define BM_KEXEC_MULTIBOOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kexec/elf.h"
#include "kexec/machine.h"
#include "kexec/plan.h"

#define MB1_HEADER_MAGIC 0x1BADB002u
#define MB1_BOOT_MAGIC 0x2BADB002u
#define MB2_HEADER_MAGIC 0xE85250D6u
#define MB2_BOOT_MAGIC 0x36d76289u
#define MB1_SEARCH 8192u
#define MB2_SEARCH 32768u

/* multiboot2 spec 3.1.3-3.1.13: header tag types */
#define MB2_HT_END 0
#define MB2_HT_INFO_REQ 1
#define MB2_HT_ADDRESS 2
#define MB2_HT_ENTRY 3
#define MB2_HT_CONSOLE 4
#define MB2_HT_FRAMEBUFFER 5
#define MB2_HT_MODALIGN 6
#define MB2_HT_EFI_BS 7
#define MB2_HT_ENTRY_EFI32 8
#define MB2_HT_ENTRY_EFI64 9
#define MB2_HT_RELOCATABLE 10

/* multiboot2 spec 3.6: boot information tag types */
#define MB2_TAG_END 0
#define MB2_TAG_CMDLINE 1
#define MB2_TAG_LOADER 2
#define MB2_TAG_MODULE 3
#define MB2_TAG_MEMINFO 4
#define MB2_TAG_MMAP 6
#define MB2_TAG_FRAMEBUFFER 8
#define MB2_TAG_EFI64 12
#define MB2_TAG_ACPI_OLD 14
#define MB2_TAG_ACPI_NEW 15
#define MB2_TAG_LOAD_BASE 21

/* multiboot spec 3.3: info flags */
#define MB1_INFO_MEM (1u << 0)
#define MB1_INFO_CMDLINE (1u << 2)
#define MB1_INFO_MODS (1u << 3)
#define MB1_INFO_MMAP (1u << 6)
#define MB1_INFO_LOADER (1u << 9)
#define MB1_INFO_FB (1u << 12)
#define MB1_INFO_SIZE 120 /* through the framebuffer fields, padded */

#define KEXEC_MB_LOADER_NAME "bootmenu"
#define KEXEC_MB_MODULES_MAX 16

struct kexec_mb_header {
	int version;	/* 1 or 2 */
	size_t off;	/* file offset of the header */
	uint32_t flags; /* multiboot v1 flags */
	bool have_addr; /* address tag (v2) or flags bit 16 (v1) */
	uint32_t header_addr, load_addr, load_end_addr, bss_end_addr;
	bool have_entry; /* entry address tag (v2), or v1 with bit 16 */
	uint32_t entry_addr;
	bool mod_align; /* v2 module alignment tag */
	uint32_t want;	/* v2: bit N set when info tag N is required */
	uint32_t ask;	/* v2: bit N set when info tag N is asked for */
	bool efi_entry; /* v2: an EFI32/EFI64 entry tag, even optional */
	bool want_fb;	/* v2: a required framebuffer (graphics) tag */
};

/* Find and check the multiboot2 header of @buf (a kernel unpacked), or,
 * without one, the multiboot header; @want 2 or 1 takes that one only
 * (GRUB's multiboot2 and multiboot commands), 0 either. Returns 0,
 * -ENOENT when there is none (not such a kernel; a sentence too), or -ENOEXEC
 * with a sentence: a bad checksum, a truncated or malformed tag, a required tag
 * or flag bootmenu cannot honour (EFI boot services, an info tag it
 * does not give, an unknown one). A required framebuffer tag is noted
 * (want_fb): the plan honours it when the screen already is a linear
 * framebuffer, since bootmenu sets no mode. */
int kexec_mb_header_parse(const void *buf, size_t len, int want,
			  struct kexec_mb_header *h, char *err, size_t errlen);

/* Where the image's bytes go: el->load[] (file offset, length, address,
 * memory size) and el->entry, from the header's address fields when it
 * has them, else from the ELF program headers (ELF32 i386 or ELF64
 * x86_64). Every byte must land below 4 GiB. Returns 0 or -ENOEXEC with
 * a sentence. */
int kexec_mb_image(const void *buf, size_t len, const struct kexec_mb_header *h,
		   struct kexec_elf *el, char *err, size_t errlen);

/* One module as the info lists it. */
struct kexec_mb_mod {
	uint32_t start, end; /* [start, end) physical */
	const char *string;  /* its command line: the path, then its args */
};

/* The screen as the running kernel found it (multiboot2 spec 3.6.12's
 * framebuffer fields): @type MB_FB_RGB (a linear framebuffer: VESA or
 * EFI GOP), MB_FB_TEXT (VGA text: @width and @height in characters,
 * @bpp 16), or 0 when unknown (no tag is given). */
#define MB_FB_RGB 1
#define MB_FB_TEXT 2
struct kexec_mb_fb {
	uint64_t addr;
	uint32_t pitch, width, height;
	uint8_t bpp, type;
	uint8_t red_pos, red_size, green_pos, green_size, blue_pos, blue_size;
};

/* What @params (a boot_params image, @len bytes) say of the screen:
 * screen_info's linear framebuffer (VESA, EFI) or VGA text mode. @fb is
 * zeroed (type 0) when they say neither. */
void kexec_mb_screen(const uint8_t *params, size_t len, struct kexec_mb_fb *fb);

/* What the boot information tells, every address physical and below
 * 4 GiB where the format is 32-bit. */
struct kexec_mb_info_in {
	int version; /* 1 or 2 */
	const char *cmdline;
	const struct kexec_mb_mod *mods;
	size_t n_mods;
	const struct kexec_range *mm; /* the firmware's memory map */
	size_t n_mm;
	uint32_t load_base;    /* v2: where the image's first byte is */
	uint64_t efi_systab;   /* v2: 0 when not EFI */
	const uint8_t *rsdp;   /* v2: the RSDP's bytes, or NULL */
	size_t rsdp_len;       /* 20 (ACPI 1.0) or its length field */
	struct kexec_mb_fb fb; /* the screen; type 0: not told */
};

/* Write the boot information for @in into @out[0..cap) as it will sit
 * at physical @addr (v1's pointers are absolute). Returns the bytes it
 * takes, also when more than @cap (then nothing past cap is written: call
 * it with cap 0 to size a buffer), or -E2BIG when it passes 4 GiB. */
long kexec_mb_info(const struct kexec_mb_info_in *in, uint64_t addr,
		   uint8_t *out, size_t cap);

/* The mem_lower and mem_upper values (KiB) of @mm: RAM from 0 up to at
 * most 640 KiB, and the RAM range holding 1 MiB, from 1 MiB. */
void kexec_mb_meminfo(const struct kexec_range *mm, size_t n, uint32_t *lower,
		      uint32_t *upper);

/* A module file as the caller read it. */
struct kexec_mb_module {
	struct kexec_blob blob;
	const char *string; /* path and arguments, "" when none */
};

struct kexec_mb_plan_in {
	struct kexec_blob image; /* unpacked */
	int version;		 /* 1, 2, or 0: whichever header it has */
	const char *cmdline;	 /* the image's path, then its arguments */
	const struct kexec_mb_module *mods;
	size_t n_mods;
	const struct kexec_machine *m;
	const uint8_t *rsdp; /* the RSDP's bytes, or NULL */
	size_t rsdp_len;
	bool sha256;
};

/* Build @p for a multiboot kernel: the image's segments where it wants
 * them (inside RAM, or refused), each module page-aligned below 4 GiB
 * where nothing else is, the boot information and the purgatory (told to
 * enter 32-bit protected mode with the magic in %eax, the information in
 * %ebx). Returns 0 (kexec_plan_free() frees what @p owns) or -errno with
 * a sentence: -ENOENT not multiboot, -ENOEXEC a bad header or image,
 * -EADDRNOTAVAIL an image outside RAM, -ENOSPC no room, -E2BIG too many
 * modules or segments, -EOPNOTSUPP a kernel with an EFI entry (Xen) on a
 * machine booted by EFI, -ENOMEM. */
int kexec_mb_plan_build(const struct kexec_mb_plan_in *in, struct kexec_plan *p,
			char *err, size_t errlen);

#endif
