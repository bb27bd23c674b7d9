/* boot.h - turn a boot entry into a loaded kernel (or a restart through
 * the firmware), then jump.
 *
 * The menu's one door to the kexec and firmware rooms. boot_load_entry()
 * reads the entry's kernel and initrds through fs_open() (nothing else
 * touches the boot disk), plans the load and hands it to the running
 * kernel; what it loaded comes back in a struct boot_loaded that the
 * caller owns and boot_jump() consumes. Nothing stays loaded when a load
 * fails, and nothing about a load is kept here between the two calls.
 * Buffers read here belong to the load and are freed before returning.
 * The front-ends do not call these in turn themselves: boot_run()
 * (transaction.h) runs the whole boot.
 */
#ifndef BM_BOOT_H
#define BM_BOOT_H

#include "boot/firmware.h"
#include "boot/measure.h"
#include "entry/entry.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct efi_vars;
struct boot_loader_vars;
struct boot_loaded;
struct boot_key;
struct kexec_blob;

/* One file a kexec load read for the target: its bytes as read. */
struct boot_read_file {
	const char *what; /* "kernel", "initrd" */
	const char *path; /* as the entry names it */
	const void *buf;
	size_t len;
};

/* What a kexec load read and will hand the kernel, for the measuring
 * step (tpm/): every file in load order (the kernel first: for a UKI the
 * whole PE file, then each initrd), the command line passed, and for a
 * UKI its bytes again in @uki. Valid during the call only. */
struct boot_read {
	const struct entry *e;
	struct boot_read_file files[1 + ENTRY_INITRD_MAX];
	size_t n_files;
	const char *cmdline;
	const void *uki; /* NULL unless e->format is FMT_UKI */
	size_t uki_len;
	bool uki_own_cmdline; /* the UKI's .cmdline is @cmdline */
	/* a multiboot kernel (Xen): files[1..] are its modules, each with
	 * mb_strings[i - 1] as passed; no initrd, no PCR 12, and nothing
	 * can be handed on (the event log is not added) */
	bool multiboot;
	const char *const *mb_strings;
	bool dry_run; /* print into @out what would be measured; extend nothing
		       */
	FILE *out;
};

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
	/* Called while a file of a network root is fetched, just before it
	 * is opened (fs_prefetch()), with @progress_data; @total is 0 while
	 * not known. Returning nonzero cancels the load. May be NULL. */
	int (*fetch)(void *data, const char *path, unsigned long long done,
		     unsigned long long total);
	/* The firmware method (boot/firmware.h): the firmware's sysfs
	 * directory (NULL: /sys/firmware/efi) and its variables (NULL:
	 * efivarfs in it); the tests point them at a scratch directory. */
	const char *efi_dir;
	const struct efi_vars *efi_vars;
	/* The session's part of a boot, wired by the face (main.c), each
	 * called with @session and each may be NULL: @clear_once clears the
	 * one-shot default (grub's next_entry, savedef_clear_once()) and
	 * returns 0 or -errno with a sentence in err[0..len); @unmount
	 * unmounts every filesystem just before the jump. */
	int (*clear_once)(void *session, char *err, size_t len);
	void (*unmount)(void *session);
	void *session;
	/* The measuring step (boot_run() wires it; transaction.h): called
	 * once a kexec entry's files are read and before the kernel is given
	 * them, in a dry run too. It may set *extra to bytes (its own, valid
	 * until the load returns) that the load adds after the initrds: a cpio
	 * archive with the event log. Returns 0, or -errno with a sentence in
	 * err[0..len) to stop the load. NULL: nothing is measured. */
	int (*measure)(void *ctx, const struct boot_read *r,
		       struct kexec_blob *extra, char *err, size_t len);
	void *measure_ctx;
	/* What boot_run() measures with (bootmenu.conf's `tpm`), and the TPM
	 * device (NULL: /dev/tpmrm0, then /dev/tpm0; tests name another). */
	enum boot_measure_mode tpm;
	const char *tpm_path;
	/* The hand-on step (boot_run() wires it; boot/hand_on.h): called for
	 * a kexec entry once its files are read, before the measuring step
	 * (the line it adds to is the line measured), in a dry run too (@dry:
	 * where its plan is printed; NULL for a real load). It may set
	 * *archive to bytes (its own, valid until the load returns) that the
	 * load adds after the initrds and after the measuring step's archive,
	 * never measured, and wipes once loaded; and cmd_add[0..cmd_len) to
	 * words added to the command line after a space. Returns 0, or -errno
	 * with a sentence in err[0..len) to stop the load. NULL: nothing is
	 * handed on. A multiboot kernel gets nothing (logged). */
	int (*hand_on)(void *ctx, const struct entry *e, FILE *dry,
		       struct kexec_blob *archive, char *cmd_add,
		       size_t cmd_len, char *err, size_t len);
	void *hand_on_ctx;
	/* What boot_run() hands on with: bootmenu.conf's `luks_pass_key`
	 * (NULL or "": nothing), and the keys the session kept for the LUKS
	 * volumes that hold the filesystem named @fs_name, called with
	 * @session: how many went into @out[0..max) (boot/hand_on.h). May
	 * be NULL: nothing is handed on. */
	const char *pass_key;
	size_t (*keys_of)(void *session, const char *fs_name,
			  struct boot_key *out, size_t max);
	/* systemd's Boot Loader Interface (boot/loader_vars.h): written
	 * before the jump, and LoaderEntryOneShot consumed with grub's
	 * next_entry. The face sets it under UEFI with efivarfs; NULL:
	 * nothing is written (BIOS). */
	const struct boot_loader_vars *loader_vars;
};

/* What a load left for the jump. Filled by boot_load_entry(); owned by
 * its caller, who either hands it to boot_jump() or gives it back with
 * boot_unload(). No memory is owned. */
struct boot_loaded {
	bool ready; /* a real load succeeded and no jump consumed it yet */
	enum entry_method method; /* ENTRY_KEXEC: the kernel holds the
				     image; ENTRY_FIRMWARE: a restart */
	/* How it was loaded: "kexec_load" or "kexec_file_load" (the image),
	 * "BootNext" or "OsIndications" (the variable written); NULL until
	 * a real load succeeded. */
	const char *syscall;
	struct firmware_undo fw; /* what a firmware load wrote, to put back */
};

/* Load entry @e for a later boot_jump(), by its method (entry.h): kexec,
 * or ENTRY_FIRMWARE, whose "load" writes the EFI variables for the next
 * restart (Boot#### and BootNext, or OsIndications: firmware.h; with
 * dry_run they are printed byte for byte instead). For a UKI (FMT_UKI)
 * the kernel file is a PE image whose .linux, .initrd and .cmdline
 * sections are used (the entry's initrds are appended after .initrd, its
 * cmdline replaces .cmdline when not empty). Files on a network root are
 * fetched as each is opened (o->fetch). @l is overwritten: ready only
 * after a real load (never for a dry run); an earlier load still in it
 * must have been given back first (boot_unload()). Returns 0, or -errno
 * with a sentence for the user in err[0..errlen) (file not found, not a
 * bzImage, locked down...). @o may be NULL for defaults (kexec_load, the
 * file syscall as fallback). */
int boot_load_entry(const struct entry *e, const struct boot_opts *o,
		    struct boot_loaded *l, char *err, size_t errlen);

/* Consume @l: sync, o->unmount(o->session), and reboot into what it
 * loaded (the kexec'd kernel, or a restart through the firmware, which
 * then boots BootNext's option or its setup screen). @o may be NULL (nothing
 * unmounted, the real reboot). Returns only on failure, with -errno (the
 * details in the log): -EINVAL when @l holds no load, or the reboot's; a failed
 * restart puts the variables back. @l is not ready afterwards. */
int boot_jump(struct boot_loaded *l, const struct boot_opts *o);

/* Give back a load that will not be jumped to: the EFI variables a
 * firmware load wrote are put back as they were (a kexec image stays in
 * the kernel until the next load replaces it). @l is not ready
 * afterwards. */
void boot_unload(struct boot_loaded *l);

/* Sync, call @unmount_all(@ctx) (may be NULL), then power off (@off true)
 * or restart through the firmware. Returns only on failure, with -errno. */
int boot_power(bool off, void (*unmount_all)(void *), void *ctx);

#endif
