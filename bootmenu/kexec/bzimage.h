/* bzimage.h - the x86 boot protocol's setup header of a bzImage.
 *
 * Documentation/arch/x86/boot.rst. Only reads the caller's buffer, every
 * field through get_le*(); nothing is allocated.
 */
#ifndef BM_KEXEC_BZIMAGE_H
#define BM_KEXEC_BZIMAGE_H

#include <stddef.h>
#include <stdint.h>

/* boot.rst: offsets of the setup header (same in the file and in
 * boot_params, the "zero page"). */
#define BZ_SETUP_SECTS 0x1f1
#define BZ_SYSSIZE 0x1f4
#define BZ_BOOT_FLAG 0x1fe
#define BZ_JUMP 0x200
#define BZ_HEADER 0x202
#define BZ_VERSION 0x206
#define BZ_TYPE_OF_LOADER 0x210
#define BZ_LOADFLAGS 0x211
#define BZ_CODE32_START 0x214
#define BZ_RAMDISK_IMAGE 0x218
#define BZ_RAMDISK_SIZE 0x21c
#define BZ_EXT_LOADER_VER 0x226
#define BZ_CMD_LINE_PTR 0x228
#define BZ_INITRD_ADDR_MAX 0x22c
#define BZ_KERNEL_ALIGNMENT 0x230
#define BZ_RELOCATABLE 0x234
#define BZ_XLOADFLAGS 0x236
#define BZ_CMDLINE_SIZE 0x238
#define BZ_SETUP_DATA 0x250
#define BZ_PREF_ADDRESS 0x258
#define BZ_INIT_SIZE 0x260
/* struct boot_params ends its setup_header region here */
#define BZ_HDR_LIMIT 0x290

#define BZ_MIN_VERSION 0x020c /* 2.12: xloadflags */

#define XLF_KERNEL_64 (1u << 0)
#define XLF_CAN_BE_LOADED_ABOVE_4G (1u << 1)
#define XLF_EFI_HANDOVER_32 (1u << 2)
#define XLF_EFI_HANDOVER_64 (1u << 3)
#define XLF_EFI_KEXEC (1u << 4)

#define LOADED_HIGH (1u << 0)

struct kexec_bzimage {
	uint16_t version; /* 0x020f for 2.15 */
	uint8_t loadflags;
	uint16_t xloadflags;
	uint8_t relocatable;
	uint32_t kernel_alignment;
	uint32_t init_size;
	uint32_t cmdline_size;	  /* longest command line, NUL excluded */
	uint32_t initrd_addr_max; /* highest byte an initrd may occupy */
	uint64_t pref_address;
	size_t hdr_end;		/* setup header is [0x1f1, hdr_end) */
	size_t pm_off, pm_size; /* protected-mode kernel in the file */
};

/* Parse the setup header of buf[0..len). Returns 0, or -ENOEXEC with a
 * sentence in err: not a bzImage, truncated, protocol too old, 32-bit
 * only. */
int kexec_bzimage_parse(const void *buf, size_t len, struct kexec_bzimage *bz,
			char *err, size_t errlen);

#endif
