/* loader_id.h - every entry's identifier for systemd's Boot Loader
 * Interface (LoaderEntries, LoaderEntrySelected, LoaderEntryOneShot,
 * LoaderEntryDefault; efi/bli.h), stable from boot to boot and unique in
 * a list. Pure.
 *
 * The identifier is the entry's own id (entry.h) made into one systemd
 * 252 accepts (1 to 255 of A-Z a-z 0-9 "+-_."), in lower case as
 * systemd-boot 252 folds its ids:
 *   BLS type #1   the drop-in's file name, ".conf" kept and the boot
 *                 counter dropped (systemd-boot 252 and bootctl keep
 *                 ".conf"): "debian-6.1.0-28-amd64.conf"
 *   UKI (type #2) the file name with ".efi", counter dropped
 *   grub          the menuentry's --id when it has one, else its titles
 *                 (submenu>title): "gnulinux-simple-<uuid>",
 *                 "advanced-options-for-debian-debian-...-recovery-mode"
 *   syslinux      its LABEL; lilo its label; iPXE <file>:<line>...
 *   found without a config (bare kernels, EFI loaders on an ESP, the
 *                 firmware's Boot#### options): "auto-" and their id
 *                 ("auto-boot0001"); the firmware's setup screen
 *                 "auto-reboot-to-firmware-setup" (the document's
 *                 section "Boot Loader Entry Identifiers", rules 2, 6)
 * Each character outside the set, or run of them, becomes one '-'. When
 * an earlier entry of the list has the same identifier, "-2", "-3", ...
 * is added (the list's order: the disks' order, then the configs').
 */
#ifndef BM_CHOOSE_LOADER_ID_H
#define BM_CHOOSE_LOADER_ID_H

#include <stdbool.h>
#include <stddef.h>

struct entry;
struct entry_list;

#define CHOOSE_LOADER_ID_MAX 256 /* 255 characters and a NUL */

/* The identifier of @e alone (no suffix for a duplicate) into
 * out[0..CHOOSE_LOADER_ID_MAX). */
void choose_loader_id_base(const struct entry *e,
			   char out[CHOOSE_LOADER_ID_MAX]);

/* The identifier of @e within @l (which holds it), its suffix included,
 * into out[0..CHOOSE_LOADER_ID_MAX). */
void choose_loader_id(const struct entry_list *l, const struct entry *e,
		      char out[CHOOSE_LOADER_ID_MAX]);

/* @prefix (NULL or "") then @s as an identifier into
 * out[0..CHOOSE_LOADER_ID_MAX): lower case, each run of characters
 * outside the set one '-', none at the end; "entry" when nothing is
 * left. */
void choose_loader_id_make(const char *prefix, const char *s,
			   char out[CHOOSE_LOADER_ID_MAX]);

/* The first entry of @l whose identifier matches @pattern (a shell
 * pattern, fnmatch(3), compared in lower case as systemd-boot 252's
 * config_entry_find() does), never a locked volume's line (ENTRY_UNLOCK);
 * NULL when none does or @pattern is "". */
const struct entry *choose_loader_find(const struct entry_list *l,
				       const char *pattern);

#endif
