/* loader_vars.h - the boot transaction's Boot Loader Interface step: what
 * bootmenu tells the OS it boots (systemd's variables, efi/bli.h), and
 * the OS's one-shot entry consumed.
 *
 * The face gathers once what does not change (struct boot_loader_vars,
 * boot_loader_vars_init()) and hands it to boot_run() in boot_opts; under
 * BIOS, or without efivarfs, it hands nothing and nothing is written.
 * Times are CLOCK_BOOTTIME in microseconds: under kexec bootmenu's clock
 * starts with its own kernel, after the firmware's work, so
 * LoaderTimeInitUSec is 0 (the firmware's share is not known) and
 * LoaderTimeMenuUSec / LoaderTimeExecUSec count from bootmenu's kernel's
 * start: systemd-analyze shows that as the loader's time.
 */
#ifndef BM_BOOT_LOADER_VARS_H
#define BM_BOOT_LOADER_VARS_H

#include "efi/efivar.h"
#include "efi/guid.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct choose;
struct entry;
struct entry_list;

struct boot_loader_vars {
	struct efi_vars vars;		/* where the variables are */
	char dir[256];			/* vars.dir points here */
	const struct entry_list *list;	/* every entry: LoaderEntries */
	const struct choose *choose;	/* the timeout in use */
	char fw_type[64], fw_info[128]; /* "UEFI 2.70", "EDK II"; "": later */
	char part_uuid[EFI_GUID_TEXT];	/* the ESP's partition GUID; "" */
	char image[512];		/* bootmenu.efi's path on it; "" */
	uint64_t menu_us; /* when the menu came up (boot_loader_vars_now()) */
};

/* Fill @b for the firmware variables at @dir (efivarfs): the firmware's
 * name and revision from the kernel's log @log (NULL: /dev/kmsg is read
 * by boot_loader_vars_write(), so that nothing is read before the menu),
 * the ESP from BootCurrent's load option, else from @boot_device
 * ("PARTUUID=..." of bootmenu.from=; may be ""). @list and @choose are
 * kept as pointers. */
void boot_loader_vars_init(struct boot_loader_vars *b, const char *dir,
			   const char *log, const char *boot_device,
			   const struct entry_list *list,
			   const struct choose *choose);

/* CLOCK_BOOTTIME in microseconds. */
uint64_t boot_loader_vars_now(void);

/* Write the variables for booting @e (efi/bli.h bli_write()), with
 * LoaderTimeExecUSec now. Returns 0, or -errno with what failed in
 * err[0..len). */
int boot_loader_vars_write(const struct boot_loader_vars *b,
			   const struct entry *e, char *err, size_t len);

/* Delete LoaderEntryOneShot when the OS had set one (the boot that
 * consumes grub's next_entry consumes it too, choose_consumes_once()).
 * Returns 0, or -errno with a sentence in err[0..len). */
int boot_loader_vars_clear_once(const struct boot_loader_vars *b, char *err,
				size_t len);

#endif
