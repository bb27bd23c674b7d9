/* boot.h - turn a boot entry into a loaded kexec image, then jump.
 *
 * The menu's one door to the kexec room. boot_load_entry() reads the
 * entry's kernel and initrds through fs_open() (nothing else touches the
 * boot disk), plans the load and hands it to the running kernel; nothing
 * stays loaded when it fails. boot_jump() does not return on success.
 * Buffers read here belong to the load and are freed before returning.
 */
#ifndef BM_BOOT_H
#define BM_BOOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct entry;
struct efi_vars;

struct boot_opts {
	bool dry_run;	    /* plan and print to @plan_out; load nothing */
	bool file_syscall;  /* use kexec_file_load only (kexload -s) */
	bool kexec_syscall; /* use kexec_load only (kexload -c) */
	FILE *plan_out;	    /* where dry_run prints; NULL: stdout */
	/* Called as bytes of kernel and initrds are read; @total is the sum
	 * of their sizes, known before the first call. May be NULL. */
	void (*progress)(void *data, unsigned long long done,
			 unsigned long long total);
	void *progress_data;
	/* Called while a file of a network root is fetched, before it is
	 * read (fs_prefetch()), with @progress_data; @total is 0 while not
	 * known. Returning nonzero cancels the load. May be NULL. */
	int (*fetch)(void *data, const char *path, unsigned long long done,
		     unsigned long long total);
	/* When not NULL, set to the syscall the load used ("kexec_load",
	 * "kexec_file_load") after a successful load. */
	const char **syscall_used;
	/* The firmware method (boot/firmware.h): the firmware's sysfs
	 * directory (NULL: /sys/firmware/efi) and its variables (NULL:
	 * efivarfs in it); the tests point them at a scratch directory. */
	const char *efi_dir;
	const struct efi_vars *efi_vars;
};

/* Load entry @e for a later boot_jump(), by its method (entry.h): kexec,
 * or ENTRY_FIRMWARE, whose "load" writes the EFI variables for the next
 * restart (Boot#### and BootNext, or OsIndications: firmware.h; with
 * dry_run they are printed byte for byte instead; *syscall_used becomes
 * "BootNext" or "OsIndications"). Variables an earlier firmware load
 * wrote are put back first (not in a dry run). For a UKI (FMT_UKI) the
 * kernel file is a PE image whose .linux, .initrd and .cmdline sections are
 * used (the entry's initrds are appended after .initrd, its cmdline replaces
 * .cmdline when not empty). Returns 0, or -errno with a sentence for the
 * user in err[0..errlen) (file not found, not a bzImage, locked down...).
 * @o may be NULL for defaults (kexec_load, file syscall as fallback). */
int boot_load_entry(const struct entry *e, const struct boot_opts *o, char *err,
		    size_t errlen);

/* Sync, call @unmount_all(@ctx) (may be NULL), and reboot into what the
 * last boot_load_entry() loaded: the kexec'd kernel, or a restart
 * through the firmware (which then boots BootNext's option or its setup
 * screen). Returns only on failure: -EINVAL when nothing is loaded, or
 * another -errno from reboot(2); a failed restart puts the variables
 * back. */
int boot_jump(void (*unmount_all)(void *), void *ctx);

/* Sync, call @unmount_all(@ctx) (may be NULL), then power off (@off true)
 * or restart through the firmware. Returns only on failure, with -errno. */
int boot_power(bool off, void (*unmount_all)(void *), void *ctx);

#endif
