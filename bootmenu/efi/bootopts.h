/* bootopts.h - the firmware's own boot options, as its boot menu shows
 * them.
 *
 * BootOrder's options in its order, then every other Boot#### in number
 * order; an option that is not active, is hidden, is an application
 * rather than a boot option (LOAD_OPTION_CATEGORY_APP: OVMF's UiApp), or
 * cannot be decoded is left out, and so is a BootOrder number twice. Each
 * keeps its number and description and, when its first device path is a
 * file on a partition, that partition's PARTUUID as blkid prints it and
 * the file's path with '/' (what bootmenu needs to match it with a file
 * on an ESP it reads). Reads only.
 */
#ifndef BM_EFI_BOOTOPTS_H
#define BM_EFI_BOOTOPTS_H

#include "efi/efivar.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct arena;

/* The most options read: as many as Boot#### numbers a firmware makes in
 * practice, with room to spare. */
#define EFI_BOOT_OPTIONS_MAX 256

struct efi_boot_option {
	uint16_t num;
	const char *desc;     /* UTF-8, controls shown as '?' */
	const char *partuuid; /* lower case; NULL: not a file on a partition */
	const char *file;     /* "/EFI/x/y.efi"; NULL with @partuuid */
};

/* The options of @v (NULL: this machine's efivarfs) into *out[0..*n), in
 * @a. Returns 0 (none is an empty list), or -errno with a sentence for
 * the user in err[0..errlen): the directory cannot be listed. */
int efi_boot_options(const struct efi_vars *v, struct arena *a,
		     struct efi_boot_option **out, size_t *n, char *err,
		     size_t errlen);

struct efi_part_ref;

/* Whether Boot@num of @v exists, is active and boots @file on @p
 * (efi_loadopt_points_at()); its description then goes into
 * desc[0..desclen) when @desc is given. @buf holds EFI_VAR_DATA_MAX bytes
 * of scratch. */
bool efi_boot_points_at(const struct efi_vars *v, uint16_t num,
			const struct efi_part_ref *p, const char *file,
			uint8_t *buf, char *desc, size_t desclen);

#endif
