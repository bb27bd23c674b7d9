/* fwstate.c - what the firmware offers here (fwstate.h).
 *
 * The kernel makes /sys/firmware/efi only when it was started through
 * UEFI with runtime services (Documentation/ABI/testing/sysfs-firmware-
 * efi); efivarfs is mounted on its efivars/ by /init or the distribution.
 * UEFI 2.10 section 8.5.4: bit 0 of OsIndicationsSupported says the
 * firmware can stop in its setup screen when OsIndications asks.
 */
#include "efi/fwstate.h"
#include "efi/guid.h"
#include "util/say.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

static bool fw_is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int efi_fw_vars(const struct efi_fw *w, const char *unable, struct efi_vars *v,
		char *dir, size_t dirlen, char *why, size_t whylen)
{
	const char *efi = w && w->efi_dir ? w->efi_dir : EFI_FW_DIR;

	if (!fw_is_dir(efi))
		return say(why, whylen, -EOPNOTSUPP,
			   "this machine did not boot through UEFI: %s",
			   unable ? unable
				  : "EFI loaders boot only from the firmware");
	*v = w && w->vars ? *w->vars : (struct efi_vars){0};
	if (v->dir)
		snprintf(dir, dirlen, "%s", v->dir);
	else
		snprintf(dir, dirlen, "%s/efivars", efi);
	v->dir = dir;
	if (!fw_is_dir(dir))
		return say(why, whylen, -EOPNOTSUPP,
			   "the firmware's variables cannot be reached: "
			   "efivarfs is not mounted at %s",
			   dir);
	return 0;
}

int efi_fw_ready(const struct efi_fw *w, char *why, size_t whylen)
{
	struct efi_vars v;
	char dir[PATH_MAX];

	return efi_fw_vars(w, NULL, &v, dir, sizeof(dir), why, whylen);
}

int efi_fw_setup_supported(const struct efi_vars *v, char *why, size_t whylen)
{
	/* room for any variable: a longer one is read, not refused */
	uint8_t *buf = malloc(EFI_VAR_DATA_MAX);
	uint32_t attrs;
	size_t len = 0;
	bool yes;
	int rc;

	if (!buf)
		return say(why, whylen, -ENOMEM,
			   "out of memory for the EFI variables");
	rc = efi_var_read(v, "OsIndicationsSupported", EFI_GLOBAL_GUID, &attrs,
			  buf, EFI_VAR_DATA_MAX, &len, why, whylen);
	yes = rc == 0 && len && (buf[0] & EFI_OS_INDICATIONS_BOOT_TO_FW_UI);
	free(buf);
	if (yes)
		return 0;
	if (rc < 0 && rc != -ENOENT)
		return rc;
	return say(why, whylen, -EOPNOTSUPP,
		   "the firmware does not offer its setup screen "
		   "(OsIndicationsSupported)");
}

bool efi_fw_setup_offered(const struct efi_fw *w)
{
	struct efi_vars v;
	char dir[PATH_MAX];

	return efi_fw_vars(w, NULL, &v, dir, sizeof(dir), NULL, 0) == 0 &&
	       efi_fw_setup_supported(&v, NULL, 0) == 0;
}
