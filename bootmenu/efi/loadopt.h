/* loadopt.h - EFI_LOAD_OPTION, BootOrder, BootNext and Boot#### names
 * (UEFI 2.10 section 3.1.3 and 3.3).
 *
 * A load option (the data of a Boot#### variable) is, packed:
 *   UINT32 Attributes, UINT16 FilePathListLength,
 *   CHAR16 Description[] (NUL-terminated), the FilePathList (devpath.h,
 *   FilePathListLength bytes), UINT8 OptionalData[] (the rest).
 * BootOrder is an array of UINT16 option numbers, BootNext one UINT16,
 * all little-endian. Pure functions: bytes in, a struct in an arena or
 * the caller's buffer out.
 */
#ifndef BM_EFI_LOADOPT_H
#define BM_EFI_LOADOPT_H

#include "efi/devpath.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct arena;

#define EFI_LOAD_OPTION_ACTIVE 0x00000001
#define EFI_LOAD_OPTION_FORCE_RECONNECT 0x00000002
#define EFI_LOAD_OPTION_HIDDEN 0x00000008
#define EFI_LOAD_OPTION_CATEGORY 0x00001f00
#define EFI_LOAD_OPTION_CATEGORY_BOOT 0x00000000
#define EFI_LOAD_OPTION_CATEGORY_APP 0x00000100

#define EFI_LOADOPT_HDR 6   /* Attributes and FilePathListLength */
#define EFI_DESC_MAX 1024   /* a description as UTF-8, NUL included */
#define EFI_BOOT_NAME_LEN 9 /* "Boot####" and a NUL */

struct efi_load_option {
	uint32_t attrs;		 /* EFI_LOAD_OPTION_* */
	const char *desc;	 /* UTF-8, controls shown as '?' */
	const uint8_t *path_raw; /* the FilePathList bytes */
	size_t path_len;
	struct efi_devpath path; /* decoded */
	const uint8_t *opt;	 /* OptionalData; NULL when empty */
	size_t opt_len;
};

/* Decode the load option buf[0..len) into @out; everything it points at
 * is copied into @a (owned by @a, @buf may go away). Returns 0, or
 * -EINVAL (too short, the description has no NUL, FilePathListLength
 * past the end, a device path efi_dp_decode() refuses), -EILSEQ or
 * -ENAMETOOLONG (the description: bad UTF-16, longer than EFI_DESC_MAX),
 * -E2BIG (too many nodes). */
int efi_loadopt_decode(struct arena *a, const uint8_t *buf, size_t len,
		       struct efi_load_option *out);
/* A load option from @attrs, @desc (UTF-8), the device path list
 * path[0..path_len) (e.g. from efi_dp_encode_hd_file()) and optional
 * data opt[0..opt_len) (@opt may be NULL when @opt_len is 0) into
 * buf[0..cap); @buf may be NULL to measure. Returns its length, or
 * -EINVAL (@path_len 0 or over 65535, @desc not UTF-8), -ENOSPC. */
ssize_t efi_loadopt_encode(uint32_t attrs, const char *desc,
			   const uint8_t *path, size_t path_len,
			   const uint8_t *opt, size_t opt_len, uint8_t *buf,
			   size_t cap);

/* The BootOrder data buf[0..len) into nums[0..cap), the count in *n.
 * Returns 0, or -EINVAL (@len odd), -E2BIG (more than @cap numbers). */
int efi_boot_order_decode(const uint8_t *buf, size_t len, uint16_t *nums,
			  size_t cap, size_t *n);
/* nums[0..n) as BootOrder data into buf[0..cap). Returns the length
 * (2 * n), or -ENOSPC. */
ssize_t efi_boot_order_encode(const uint16_t *nums, size_t n, uint8_t *buf,
			      size_t cap);
/* The BootNext data buf[0..len) into *num: 0, or -EINVAL unless @len is
 * exactly 2. */
int efi_boot_next_decode(const uint8_t *buf, size_t len, uint16_t *num);
/* @num as BootNext data into out[0..2). */
void efi_boot_next_encode(uint16_t num, uint8_t out[2]);
/* "Boot%04X" (upper-case hex, as 3.1.1 requires) into @out. */
void efi_boot_name(uint16_t num, char out[EFI_BOOT_NAME_LEN]);
/* The number of a variable named "Boot####" (exactly four upper-case hex
 * digits, nothing after) into *num: 0, or -EINVAL. */
int efi_boot_name_parse(const char *name, uint16_t *num);
/* The lowest option number not among used[0..n) into *num: 0, or
 * -ENOSPC when all 65536 are taken. */
int efi_boot_free_num(const uint16_t *used, size_t n, uint16_t *num);
/* Whether option number @x is among v[0..n) (BootOrder, a list of
 * Boot#### numbers). */
bool efi_boot_num_in(const uint16_t *v, size_t n, uint16_t x);

/* A partition as the scan knows it, for matching. */
struct efi_part_ref {
	/* blkid's PARTUUID: a GPT GUID, or "xxxxxxxx-NN" (disk signature,
	 * partition number) on MBR; NULL when unknown */
	const char *partuuid;
	uint32_t num;	/* partition number; 0 when unknown */
	uint64_t start; /* first logical block; 0 when unknown */
};

/* Whether @o boots the file @file on the partition @p: the first device
 * path's HD node is that partition (a GUID signature equal to the
 * PARTUUID; an MBR signature with the same partition number and the same
 * disk signature or start, whichever @p has, at least one of them) and
 * the File nodes after it name @file (efi_path_equal()). */
bool efi_loadopt_points_at(const struct efi_load_option *o,
			   const struct efi_part_ref *p, const char *file);
/* Whether two paths on a FAT filesystem name the same file: ASCII case
 * ignored, '\' and '/' alike, runs of them as one, leading and trailing
 * ones ignored. Two empty paths are not a file: false. */
bool efi_path_equal(const char *a, const char *b);

#endif
