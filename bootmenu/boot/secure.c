/* secure.c - the Secure Boot state and a kernel's signer (secure.h). */
#include "boot/secure.h"

#include "efi/efivar.h"
#include "efi/guid.h"
#include "entry/entry.h"
#include "kexec/sys.h"
#include "scan/fs.h"
#include "util/file.h"
#include "format/pe.h"
#include "format/pe_sig.h"
#include "util/say.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void secure_state_read(struct secure_state *out, const struct efi_vars *vars)
{
	struct efi_vars mine = {0};
	uint8_t val[8];
	uint32_t attrs;
	size_t len;
	int rc;

	memset(out, 0, sizeof(*out));
	if (vars)
		mine = *vars;
	/* UEFI 2.10 section 3.3: SecureBoot, one byte, 1 when enforcing; a
	 * firmware without Secure Boot has no such variable */
	rc = efi_var_read(&mine, "SecureBoot", EFI_GLOBAL_GUID, &attrs, val,
			  sizeof(val), &len, NULL, 0);
	if (access(mine.dir ? mine.dir : EFI_VARS_DIR, F_OK) < 0)
		out->sb = SECURE_BOOT_NO_UEFI;
	else if (rc == -ENOENT)
		out->sb = SECURE_BOOT_OFF;
	else if (rc == 0 && len == 1 && val[0] <= 1)
		out->sb = val[0] ? SECURE_BOOT_ON : SECURE_BOOT_OFF;
	else
		out->sb = SECURE_BOOT_UNKNOWN;
	kexec_lockdown_mode(out->lockdown, sizeof(out->lockdown));
	out->locked = out->lockdown[0] && strcmp(out->lockdown, "none") != 0;
}

const char *secure_boot_name(enum secure_boot sb)
{
	switch (sb) {
	case SECURE_BOOT_ON:
		return "on";
	case SECURE_BOOT_OFF:
		return "off";
	case SECURE_BOOT_NO_UEFI:
		return "off (not booted through UEFI)";
	case SECURE_BOOT_UNKNOWN:
		break;
	}
	return "unknown";
}

int secure_signer(const struct entry *e, char *out, size_t outlen)
{
	const struct entry_file *k = &e->kernel;
	struct pe_sig_info info;
	uint8_t *hdr = NULL, *tab = NULL;
	size_t off, size;
	ssize_t n;
	int fd, rc;

	if (!k->fs || !k->path)
		return say(out, outlen, -ENOENT, "%s",
			   "the kernel file was not found");
	fd = fs_open(k->fs, k->path, false);
	if (fd < 0)
		return say(out, outlen, fd, "cannot read %s", k->path);
	hdr = malloc(PE_HEADERS_READ);
	n = hdr ? util_read_full(fd, hdr, PE_HEADERS_READ) : -ENOMEM;
	rc = n < 0 ? (int)n : pe_sig_locate(hdr, (size_t)n, &off, &size);
	if (rc == -ENOEXEC)
		rc = say(out, outlen, 0, "%s",
			 "none: not a PE image (no place for a "
			 "signature)");
	else if (rc == -ENOENT)
		rc = say(out, outlen, 0, "%s", "none: not signed");
	else if (rc < 0)
		rc = say(out, outlen, rc, "cannot read %s", k->path);
	else if (size > PE_SIG_TABLE_MAX || !(tab = malloc(size)) ||
		 pread(fd, tab, size, (off_t)off) != (ssize_t)size)
		rc = say(out, outlen, -EINVAL, "%s",
			 "unreadable: the signature table lies past the "
			 "end of the file or is too large");
	else if (pe_sig_parse_table(tab, size, &info, out, outlen) < 0)
		rc = -EINVAL;
	else if (!info.count)
		rc = say(out, outlen, 0, "%s", "none: not signed");
	else {
		snprintf(out, outlen, "%s / issuer %s",
			 info.signer[0].subject[0] ? info.signer[0].subject
						   : "(no certificate)",
			 info.signer[0].issuer);
		rc = 1;
	}
	free(tab);
	free(hdr);
	close(fd);
	return rc;
}
