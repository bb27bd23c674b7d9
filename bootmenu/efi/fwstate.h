/* fwstate.h - what the firmware offers here, asked before anything is
 * listed or written: whether this machine booted through UEFI with its
 * variables within reach (else no EFI loader can be booted through the
 * firmware), and whether the firmware offers to restart into its setup
 * screen (UEFI 2.10 section 8.5.4, OsIndicationsSupported). Reads only.
 */
#ifndef BM_EFI_FWSTATE_H
#define BM_EFI_FWSTATE_H

#include "efi/efivar.h"

#include <stdbool.h>
#include <stddef.h>

/* Where the kernel shows a machine booted through UEFI. */
#define EFI_FW_DIR "/sys/firmware/efi"
/* OsIndications / OsIndicationsSupported (UEFI 2.10 section 8.5.4). */
#define EFI_OS_INDICATIONS_BOOT_TO_FW_UI 0x0000000000000001ull

/* Which firmware is asked: this machine's, or a test's directories. */
struct efi_fw {
	/* The firmware's sysfs directory; NULL: EFI_FW_DIR. When it is
	 * absent the machine did not boot through UEFI. */
	const char *efi_dir;
	/* The variables; NULL: <efi_dir>/efivars through ioctl(2). */
	const struct efi_vars *vars;
};

/* The variables of @w (NULL: this machine's firmware), once the machine
 * is known to run UEFI: *v gets w->vars (or the defaults) with v->dir
 * pointing at dir[0..dirlen), where their directory is written. Returns
 * 0, or -EOPNOTSUPP with a sentence in why[0..whylen): "this machine did
 * not boot through UEFI: <@unable>" (@unable NULL: "EFI loaders boot
 * only from the firmware"), or "the firmware's variables cannot be
 * reached: efivarfs is not mounted at <dir>". */
int efi_fw_vars(const struct efi_fw *w, const char *unable, struct efi_vars *v,
		char *dir, size_t dirlen, char *why, size_t whylen);

/* Whether an EFI loader can be booted through the firmware of @w (NULL:
 * this machine's): 0, or -EOPNOTSUPP with the sentence that says why not
 * in why[0..whylen), as efi_fw_vars() with @unable NULL. */
int efi_fw_ready(const struct efi_fw *w, char *why, size_t whylen);

/* Whether the firmware whose variables are @v offers its setup screen:
 * OsIndicationsSupported has EFI_OS_INDICATIONS_BOOT_TO_FW_UI. Returns
 * 0; -EOPNOTSUPP with "the firmware does not offer its setup screen
 * (OsIndicationsSupported)" in why[0..whylen) when the variable is
 * missing, empty or without the bit; or the read's -errno and sentence
 * (efi_var_read()). @why may be NULL. */
int efi_fw_setup_supported(const struct efi_vars *v, char *why, size_t whylen);

/* Whether the firmware of @w (NULL: this machine's) offers to restart
 * into its setup screen: efi_fw_vars() and efi_fw_setup_supported() both
 * say yes. False without UEFI or the variable. */
bool efi_fw_setup_offered(const struct efi_fw *w);

#endif
