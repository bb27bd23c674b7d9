/* listing.h - the --list output, as text and as JSON. */
#ifndef BM_SESSION_LISTING_H
#define BM_SESSION_LISTING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct entry;
struct entry_list;

/* One line per entry: "N* title [format] device:kernel initrds -- cmdline",
 * '*' marking @def (the policy's default, choose.h; may be NULL), then the
 * warnings. A locked LUKS volume's line (ENTRY_UNLOCK) is "N  title [luks]
 * vda3": its device, no files. On btrfs the device is "name[subvolume]" when
 * the kernel is in a subvolume, its path then from the subvolume's root; a file
 * elsewhere is "name:path" or "name[subvolume]:path". */
void listing_text(FILE *f, const struct entry_list *l, const struct entry *def);
/* What --list --json says beside the configs' entries; every field may
 * be NULL (left out). */
struct listing_extra {
	const char *secure_boot; /* "on", "off", ... (boot/secure.h) */
	const char *lockdown;	 /* the kernel's lockdown mode, "" none */
	/* Who signed @e's kernel: 1 and the signer in buf[0..n), 0 (a
	 * sentence: not signed), -errno (a sentence: unreadable). */
	int (*signer)(const struct entry *e, char *buf, size_t n);
	/* Prints ,"tpm":{...} for @e, or nothing (may be NULL). */
	void (*measure)(const struct entry *e, FILE *f, void *ctx);
	void *measure_ctx;
};

/* One JSON object: "secure_boot" ({"state", "lockdown"}, when @x gives
 * them), "entries", an array of entry objects (see README: id, loader_id
 * (choose/loader_id.h), title, format, kernel, initrds, cmdline, device,
 * source, default, disabled, kernel_file and initrd_files (path, device,
 * subvolume, spec), and, for kernels booted by kexec when @x->signer is set,
 * "signed" (true, false or null: unreadable) and "signer"), and "warnings"
 * (device, file, line, message, count). A locked LUKS volume's entry has
 * "method": "unlock", "format": "luks", "device": the locked device
 * ("vda3") and no loader_id (null). @x may be NULL. */
void listing_json(FILE *f, const struct entry_list *l, const struct entry *def,
		  const struct listing_extra *x);

#endif
