/* secure.h - what Secure Boot means for this boot: the firmware's
 * SecureBoot variable, the kernel's lockdown, and who signed a kernel.
 *
 * Reads only. Whether a kernel may boot is never decided here: under
 * lockdown the running kernel checks each kernel's signature itself in
 * kexec_file_load (kexec/sys.c explains its refusals); this room tells
 * the user what the state is and what a file claims.
 */
#ifndef BM_BOOT_SECURE_H
#define BM_BOOT_SECURE_H

#include <stdbool.h>
#include <stddef.h>

struct entry;
struct efi_vars;

enum secure_boot {
	SECURE_BOOT_NO_UEFI, /* not booted through UEFI (or no efivarfs) */
	SECURE_BOOT_OFF,
	SECURE_BOOT_ON,
	SECURE_BOOT_UNKNOWN, /* UEFI, but SecureBoot unreadable or odd */
};

struct secure_state {
	enum secure_boot sb;
	bool locked;	   /* the kernel's lockdown is not "none" */
	char lockdown[16]; /* its selected mode: "none", "integrity", ... */
};

/* The state of this machine. @vars: the efivarfs directory to read
 * SecureBoot from (NULL: this machine's); the lockdown mode is kexec's
 * (kexec_lockdown_mode(), which its tests' seams redirect). */
void secure_state_read(struct secure_state *out, const struct efi_vars *vars);

/* "on", "off", "off (not booted through UEFI)", "unknown". */
const char *secure_boot_name(enum secure_boot sb);

/* Who signed the kernel of @e, read from its Authenticode certificate
 * table (format/pe_sig.h: what the file claims, nothing verified). Returns
 * 1 and the first signer's subject in out[0..outlen) ("CN=..."; its
 * issuer after " / issuer "), 0 and a sentence when the file carries no
 * signature, or -errno and a sentence (unreadable, not a PE image,
 * malformed table). */
int secure_signer(const struct entry *e, char *out, size_t outlen);

#endif
