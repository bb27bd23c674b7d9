/* firmware.h - the firmware boot method (ENTRY_FIRMWARE): an EFI loader
 * on an ESP booted once by the firmware, or the firmware's setup screen.
 *
 * Loading writes EFI variables through the efi room, nothing else:
 * for a loader, the Boot#### already pointing at that file on that
 * partition (an active one, BootOrder's first, else the lowest number)
 * or a new one ("<title> (bootmenu)", LOAD_OPTION_ACTIVE,
 * HD(partition)/File(path)/End) under the lowest free number, then
 * BootNext; for the setup screen, EFI_OS_INDICATIONS_BOOT_TO_FW_UI in
 * OsIndications. BootOrder and every other variable are left alone. A
 * failed load leaves every variable as it was. The restart that follows
 * is the kexec room's (boot_jump()). Whether the firmware can boot an EFI
 * loader here at all, and whether it offers its setup screen, are the
 * efi room's questions (efi/fwstate.h): the firmware source asks them
 * once to list the entries, and a load checks them again.
 */
#ifndef BM_BOOT_FIRMWARE_H
#define BM_BOOT_FIRMWARE_H

#include "efi/efivar.h"

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct entry;

struct firmware_opts {
	/* The firmware's sysfs directory; NULL: EFI_FW_DIR (efi/fwstate.h).
	 * When it is absent the machine did not boot through UEFI. */
	const char *efi_dir;
	/* The variables; NULL: <efi_dir>/efivars through ioctl(2). */
	const struct efi_vars *vars;
	bool dry_run; /* print what would be written to @out; write nothing */
	FILE *out;    /* NULL: stdout */
};

/* What a load wrote, to take back when the restart fails or another
 * entry is loaded instead. Kept by the caller; no memory is owned. */
struct firmware_undo {
	bool active;
	char dir[PATH_MAX]; /* the efivarfs directory written */
	struct efi_vars vars;
	char name[EFI_VAR_NAME_MAX + 1]; /* "BootNext" or "OsIndications" */
	bool had_old;			 /* the variable existed before */
	uint32_t old_attrs;
	uint8_t old[8]; /* its data: 2 bytes (BootNext), 8 (OsIndications) */
	size_t old_len;
	bool created; /* a Boot#### made by the load */
	uint16_t num; /* its number */
};

/* Prepare entry @e (ENTRY_FIRMWARE) for a restart: write its Boot####
 * when none points at its file yet, then BootNext (for e->fw_setup: set
 * the bit in OsIndications, creating it with NV+BS+RT when absent).
 * With o->dry_run each variable it would write is printed (name,
 * attributes, data in hex) and nothing is written. @u (may be NULL) is
 * filled with what was written. Returns 0, or -errno with a sentence for
 * the user naming the variable in err[0..errlen): -EOPNOTSUPP (not booted
 * through UEFI; no setup screen offered), -ENXIO (the partition is not
 * known well enough to name it to the firmware), a read or write error. */
int firmware_load(const struct entry *e, const struct firmware_opts *o,
		  struct firmware_undo *u, char *err, size_t errlen);

/* Take back what the load behind @u wrote: the variable it set goes back
 * to its old value (or is deleted when it had none), then the Boot####
 * it made is deleted. @u is inactive afterwards. Returns 0, or the first
 * -errno with a sentence in err[0..errlen) (@err may be NULL). */
int firmware_undo(struct firmware_undo *u, char *err, size_t errlen);

#endif
