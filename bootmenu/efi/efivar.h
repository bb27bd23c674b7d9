/* efivar.h - EFI variables through efivarfs: read, write, delete, list.
 *
 * Each variable is a file "Name-GUID" (the GUID in lower case) in the
 * efivarfs directory; its contents are the 4-byte little-endian
 * attributes, then the data (kernel: Documentation/filesystems/
 * efivarfs.rst). A write of one variable is one write(2) of attributes
 * and data together: efivarfs hands each write(2) to SetVariable() as a
 * whole variable, so a write in two pieces would first set it to the
 * attributes alone. efivarfs marks variables that are not well-known
 * immutable; writing or deleting one clears FS_IMMUTABLE_FL first and puts
 * it back on every way out (after a write; after a delete that failed).
 *
 * The directory is a parameter: the tests use a plain one. There,
 * FS_IOC_GETFLAGS may be unsupported, which counts as "nothing to clear",
 * and a write that replaces a longer file cuts it to the new length
 * (efivarfs needs no such step). Only this room writes EFI variables.
 */
#ifndef BM_EFI_EFIVAR_H
#define BM_EFI_EFIVAR_H

#include <stddef.h>
#include <stdint.h>

#define EFI_VARS_DIR "/sys/firmware/efi/efivars"

/* Attributes (UEFI 2.10 section 8.2, SetVariable()). */
#define EFI_VARIABLE_NON_VOLATILE 0x00000001
#define EFI_VARIABLE_BOOTSERVICE_ACCESS 0x00000002
#define EFI_VARIABLE_RUNTIME_ACCESS 0x00000004
#define EFI_VARIABLE_APPEND_WRITE 0x00000040
/* what BootNext, BootOrder and Boot#### have */
#define EFI_VARIABLE_NV_BS_RT 0x00000007

#define EFI_VAR_ATTR_SIZE 4
#define EFI_VAR_NAME_MAX 128   /* a variable name, without the GUID */
#define EFI_VAR_DATA_MAX 65536 /* the largest data read or written */

struct efi_vars {
	const char *dir; /* the efivarfs directory; NULL: EFI_VARS_DIR */
	/* The seam for FS_IOC_GETFLAGS/FS_IOC_SETFLAGS on @fd, the tests'
	 * way to watch the immutable flag: 0 or -errno. NULL: ioctl(2). */
	int (*flags_ioctl)(int fd, unsigned long req, int *flags, void *ctx);
	void *ctx; /* passed to flags_ioctl */
};

/* The file of variable @name (e.g. "BootNext") with vendor @guid (text,
 * either case; EFI_GLOBAL_GUID for the Boot variables) into out[0..len):
 * "<dir>/<name>-<guid in lower case>". Returns 0, or -EINVAL (a name
 * empty or with other than printable ASCII, or '/'; not a GUID),
 * -ENAMETOOLONG. */
int efi_var_file(const struct efi_vars *v, const char *name, const char *guid,
		 char *out, size_t len);

/* Read variable @name-@guid: its attributes into *attrs, its data into
 * buf[0..cap) (at most EFI_VAR_DATA_MAX bytes are read), the data's
 * length into *len. Returns 0, or -ENOENT (no such variable, or one
 * created and never written), -EFBIG (more than @cap bytes), -EIO (under
 * 4 bytes), another -errno; with a sentence for the user in
 * err[0..errlen) ("" on success). */
int efi_var_read(const struct efi_vars *v, const char *name, const char *guid,
		 uint32_t *attrs, uint8_t *buf, size_t cap, size_t *len,
		 char *err, size_t errlen);

/* Set variable @name-@guid to @attrs and data[0..len): creates it when
 * missing, else replaces it, in one write(2) (see above); the immutable
 * flag is cleared before and restored after, whatever happened. A new
 * file is removed again when the write fails. Returns 0, or -EINVAL (a
 * bad name, no data: an empty write would delete the variable), -EFBIG
 * (over EFI_VAR_DATA_MAX), -EPERM (the flag could not be cleared),
 * the write's -errno (-EIO for a short write); with a sentence in
 * err[0..errlen) ("" on success). */
int efi_var_write(const struct efi_vars *v, const char *name, const char *guid,
		  uint32_t attrs, const uint8_t *data, size_t len, char *err,
		  size_t errlen);

/* Delete variable @name-@guid (clearing the immutable flag first, and
 * restoring it when the delete fails). Returns 0, or -ENOENT, another
 * -errno; with a sentence in err[0..errlen) ("" on success). */
int efi_var_delete(const struct efi_vars *v, const char *name, const char *guid,
		   char *err, size_t errlen);

/* The numbers of every Boot#### variable (EFI_GLOBAL_GUID) in the
 * directory, ascending, into nums[0..cap), the count into *n. Returns 0,
 * or -E2BIG (more than @cap), the directory's -errno. */
int efi_var_boot_nums(const struct efi_vars *v, uint16_t *nums, size_t cap,
		      size_t *n);

#endif
