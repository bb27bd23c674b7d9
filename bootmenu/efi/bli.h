/* bli.h - systemd's Boot Loader Interface: the EFI variables a boot
 * loader leaves for the OS it starts, and the ones the OS leaves for the
 * next boot.
 *
 * systemd's docs/BOOT_LOADER_INTERFACE.md (as of systemd 252, the one
 * Debian 12 ships) names them; all live under the vendor GUID BLI_GUID.
 * Strings are UTF-16LE ending in a NUL unit; LoaderEntries is a run of
 * such strings; times are decimal microseconds as a string; LoaderFeatures
 * is a 64-bit little-endian bitmask. systemd-boot writes its variables
 * volatile, before ExitBootServices(); bootmenu runs after it, when
 * SetVariable() sets only non-volatile variables (UEFI 2.10 section 8.2:
 * volatile runtime variables are read-only once boot services are gone),
 * so they are non-volatile here and outlive the boot. Each is written
 * only when its value changed (the flash is not worn by equal writes),
 * and a boot by bootmenu writes them all again. A kexec keeps the
 * runtime services, so the kernel booted next reads them.
 *
 * The encoders and decoders are pure; bli_write(), bli_read_os() and
 * bli_clear_oneshot() go through efivar.h (a plain directory in tests).
 */
#ifndef BM_EFI_BLI_H
#define BM_EFI_BLI_H

#include "efi/efivar.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define BLI_GUID "4a67b082-0a4c-41cf-b6c7-440b29bb8c4f"

/* "LoaderFeatures" bits (systemd 252 src/fundamental/efivars-
 * fundamental.h); bootmenu sets only the ones it honours. */
#define BLI_FEATURE_CONFIG_TIMEOUT (UINT64_C(1) << 0)
#define BLI_FEATURE_CONFIG_TIMEOUT_ONE_SHOT (UINT64_C(1) << 1)
#define BLI_FEATURE_ENTRY_DEFAULT (UINT64_C(1) << 2)
#define BLI_FEATURE_ENTRY_ONESHOT (UINT64_C(1) << 3)
#define BLI_FEATURES                                                           \
	(BLI_FEATURE_CONFIG_TIMEOUT_ONE_SHOT | BLI_FEATURE_ENTRY_DEFAULT |     \
	 BLI_FEATURE_ENTRY_ONESHOT)

#define BLI_ID_MAX 256	     /* an entry identifier, NUL included */
#define BLI_TIMEOUT_UNSET -2 /* no such variable */
#define BLI_TIMEOUT_FORCE -1 /* "menu-force" (or a one-shot "0"): wait */
/* what a loader variable is given (non-volatile: see above) */
#define BLI_ATTRS EFI_VARIABLE_NV_BS_RT

/* Whether @s is an identifier systemd 252 accepts in LoaderEntries and
 * its other entry variables (efi_loader_entry_name_valid()): 1 to 255
 * characters of A-Z a-z 0-9 '+' '-' '_' '.', not "." or "..". */
bool bli_id_valid(const char *s);

/* The UTF-8 strings ids[0..n) as LoaderEntries wants them (each UTF-16LE
 * with its NUL unit, one after the other) into out[0..cap); @out may be
 * NULL to measure. Returns the length, or -EILSEQ, -ENOSPC. */
ssize_t bli_encode_list(const char *const *ids, size_t n, uint8_t *out,
			size_t cap);

/* @us as the decimal UTF-16LE string of the Loader*USec variables into
 * out[0..cap). Returns the length (NUL unit included), or -ENOSPC. */
ssize_t bli_encode_usec(uint64_t us, uint8_t *out, size_t cap);

/* A string variable's data buf[0..len) as UTF-8 into out[0..cap) (up to
 * its NUL unit). Returns 0, or -EINVAL (odd length, empty), -EILSEQ,
 * -ENAMETOOLONG. */
int bli_decode_str(const uint8_t *buf, size_t len, char *out, size_t cap);

/* A LoaderConfigTimeout(OneShot) text @s as seconds into *secs: "menu-
 * force" BLI_TIMEOUT_FORCE, "menu-hidden" 0, decimal digits their value
 * (capped at 65535). With @one_shot, "0" is BLI_TIMEOUT_FORCE (the
 * document: "If set to 0 the boot menu timeout is turned off"). Returns
 * 0, or -EINVAL. */
int bli_parse_timeout(const char *s, bool one_shot, int *secs);

/* What bootmenu tells the OS it boots (section "The Boot Loader
 * Interface" of the document, and systemd-boot's own LoaderInfo,
 * LoaderFirmwareInfo, LoaderFirmwareType, LoaderImageIdentifier,
 * LoaderTimeMenuUSec). NULL or "" strings are not written. */
struct bli_loader {
	const char *info;		    /* "bootmenu <version>" */
	const char *fw_info;		    /* "<vendor> <revision>" */
	const char *fw_type;		    /* "UEFI 2.70" */
	const char *part_uuid;		    /* the ESP's partition GUID */
	const char *image;		    /* bootmenu.efi's path on it, '\' */
	uint64_t init_us, menu_us, exec_us; /* 0 menu_us: not written */
	const char *const *ids; /* every entry's identifier, menu order */
	size_t n_ids;
	const char *selected; /* the identifier of the entry booted */
	int timeout_s;	      /* BLI_TIMEOUT_FORCE, or seconds */
	uint64_t features;    /* BLI_FEATURE_* */
};

/* Write every variable of @b under BLI_GUID with BLI_ATTRS through @v,
 * each only when it does not hold that value already. A variable that
 * fails does not stop the others. Returns 0, or the first
 * failure's -errno with "<Name>: <why>" for each failure, joined with
 * "; ", in err[0..len). */
int bli_write(const struct efi_vars *v, const struct bli_loader *b, char *err,
	      size_t len);

/* What the OS asked of this boot. */
struct bli_os {
	char oneshot[BLI_ID_MAX]; /* LoaderEntryOneShot, lower case; "" */
	char def[BLI_ID_MAX];	  /* LoaderEntryDefault, lower case; "" */
	int timeout_oneshot;	  /* LoaderConfigTimeoutOneShot, or UNSET */
};

/* Read LoaderEntryOneShot, LoaderEntryDefault and LoaderConfigTimeoutOneShot
 * through @v into *o; with @consume the last is deleted once read ("It is
 * removed automatically after being read by the boot loader"): the menu
 * shows for that long once. LoaderEntryOneShot is left for bli_clear_oneshot()
 * (bootmenu consumes it with the boot that takes it). Variables missing
 * or unreadable are "" / UNSET. Returns 0, or -errno of a failed delete
 * with a sentence in err[0..len). */
int bli_read_os(const struct efi_vars *v, struct bli_os *o, bool consume,
		char *err, size_t len);

/* Delete LoaderEntryOneShot through @v. Returns 0 (also when there was
 * none), or -errno with a sentence in err[0..len). */
int bli_clear_oneshot(const struct efi_vars *v, char *err, size_t len);

/* The ESP this boot came from, as the firmware recorded it: BootCurrent's
 * Boot#### load option, its HD node's partition GUID into
 * uuid[EFI_GUID_TEXT] and its file path into image[0..len). Returns 0, or
 * -ENOENT (no BootCurrent, no such option, no GPT HD node), -errno. */
int bli_boot_current(const struct efi_vars *v, char *uuid, char *image,
		     size_t len);

/* The firmware's "EFI vX.Y by <vendor>" line as the kernel logged it
 * (efi_systab_report_header()) in @log: "UEFI X.Y" into type[0..tlen),
 * "<vendor>" into info[0..ilen). Returns 0, or -ENOENT (no such line). */
int bli_firmware_from_log(const char *log, char *type, size_t tlen, char *info,
			  size_t ilen);

#endif
