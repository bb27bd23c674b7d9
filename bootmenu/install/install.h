/* install.h - put bootmenu.efi on an EFI system partition, and take it
 * off again: bootmenu-install and `bootmenu install`.
 *
 * An install copies the image to \EFI\bootmenu\bootmenu.efi (with
 * --removable also to the fallback path \EFI\BOOT\BOOTX64.EFI, the old
 * one kept beside it as BOOTX64.EFI.bootmenu-old), makes or reuses a
 * Boot#### "bootmenu" pointing at it and puts that number in BootOrder
 * (first with --default, else last). With --shim FILE a distribution's
 * shim is the first stage instead (install/shim.c): \EFI\bootmenu holds
 * shimx64.efi, the image as grubx64.efi (the second stage shim starts),
 * and the mmx64.efi and fbx64.efi found beside FILE; the Boot####
 * points at shimx64.efi. Every change is written down in a
 * record on the ESP (\EFI\bootmenu\install.rec), which --uninstall reads
 * to take back exactly those changes. Every check comes before the first
 * change, so a refusal changes nothing; a failure halfway takes back
 * what was done. Each change is printed before it is made; with --print
 * it is only printed.
 *
 * On a BIOS machine (--bios DISK --boot-dir DIR) syslinux is the first
 * stage instead: the image goes to DIR/bootmenu/bootmenu.efi beside an
 * extlinux.conf that starts it as a Linux kernel, Debian's extlinux
 * installs itself in DIR/bootmenu, syslinux's mbr.bin (gptmbr.bin on a
 * GPT disk) goes into the first 440 bytes of DISK, and the partition
 * holding DIR is made the one the boot code starts (the MBR's active
 * flag, or GPT's legacy BIOS bootable attribute). The record is
 * DIR/bootmenu/install.rec and holds the old 440 bytes and flags.
 *
 * Files reach the ESP (or DIR) only through install/file.c; variables
 * only through the efi room; the disk only through install/disk.c.
 * Everything a test must redirect is a field of install_opts: the ESP,
 * the firmware and variables directories, the partition the ESP is on,
 * extlinux and the directory of mbr.bin.
 */
#ifndef BM_INSTALL_H
#define BM_INSTALL_H

#include "efi/efivar.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define INSTALL_DIR "EFI/bootmenu" /* relative to the ESP */
#define INSTALL_FILE INSTALL_DIR "/bootmenu.efi"
#define INSTALL_RECORD INSTALL_DIR "/install.rec"
#define INSTALL_FALLBACK_DIR "EFI/BOOT"
#define INSTALL_FALLBACK INSTALL_FALLBACK_DIR "/BOOTX64.EFI"
#define INSTALL_OLD_SUFFIX ".bootmenu-old"
/* The shim layout: the first stage, and the second stage it starts (the
 * name shim looks for beside itself). */
#define INSTALL_SHIM INSTALL_DIR "/shimx64.efi"
#define INSTALL_SHIM_NEXT "grubx64.efi"
/* Debian's signed shim (package shim-signed), named in a hint only: the
 * installer never takes a shim it was not given with --shim. */
#define INSTALL_SHIM_DEBIAN "/usr/lib/shim/shimx64.efi.signed"
#define INSTALL_LABEL "bootmenu" /* the Boot####'s description */
#define INSTALL_PARTUUID_MAX 64
#define INSTALL_BIOS_DIR "bootmenu" /* relative to --boot-dir */
#define INSTALL_BIOS_RECORD INSTALL_BIOS_DIR "/install.rec"
/* Where Debian's syslinux-common keeps mbr.bin and gptmbr.bin. */
#define INSTALL_SYSLINUX_MBR_DIR "/usr/lib/syslinux/mbr"

/* The partition an ESP directory is on, as the firmware names it. */
struct install_part {
	char partuuid[INSTALL_PARTUUID_MAX]; /* GPT: the partition's GUID */
	char disk[160];			     /* "/dev/sda", for messages */
	uint32_t num;			     /* partition number */
	uint64_t start, size;		     /* in logical blocks */
};

struct install_opts {
	const char *esp;   /* --esp DIR; NULL: the mounted ESP */
	const char *image; /* --image FILE; NULL: search @image_dirs */
	/* Directories searched for bootmenu.efi (and bootmenu.signed.efi)
	 * when @image is NULL, in order; NULL-terminated. */
	const char *const *image_dirs;
	bool print;	  /* --print: list every change, make none */
	bool removable;	  /* --removable: also \EFI\BOOT\BOOTX64.EFI */
	bool no_nvram;	  /* --no-nvram: no variable touched */
	bool set_default; /* --default: the Boot#### first in BootOrder */
	bool want_signed; /* --signed: the signed image, or a refusal */
	bool uninstall;	  /* --uninstall: take back what the record says */
	/* --shim FILE: shim as the first stage, the image behind it; implies
	 * the signed image. */
	const char *shim;
	/* Where a distribution's signed shim is looked for, to say under
	 * Secure Boot that --shim could name it; NULL: INSTALL_SHIM_DEBIAN. */
	const char *shim_hint;
	/* The firmware's sysfs directory (NULL: /sys/firmware/efi); when it
	 * is absent the machine did not boot through UEFI. */
	const char *efi_dir;
	/* The variables (NULL: <efi_dir>/efivars through ioctl(2)). */
	const struct efi_vars *vars;
	/* The partition the ESP is on; NULL: found from the mount. */
	const struct install_part *part;
	const char *mountinfo; /* NULL: /proc/self/mountinfo */
	/* BIOS: --bios DISK (a whole disk, or an image file), --boot-dir
	 * DIR (a directory on a partition of DISK; with --uninstall alone
	 * it names the install to take back). */
	const char *bios_disk;
	const char *boot_dir;
	bool force_bios; /* --force-bios: BIOS code on a UEFI-booted host */
	/* The number of the partition of DISK holding @boot_dir; 0: found
	 * from the mount (and its filesystem checked). */
	uint32_t bios_part;
	const char *extlinux; /* NULL: /usr/bin/extlinux, /usr/sbin/... */
	const char *mbr_dir;  /* NULL: INSTALL_SYSLINUX_MBR_DIR */
	FILE *out;	      /* the list of changes; NULL: stdout */
};

/* Install (or with o->uninstall, uninstall) as @o says. Returns 0, or
 * -errno with a sentence for the user, saying what to do, in
 * err[0..errlen): -ENOENT (no image, no shim, no ESP, no record), -EROFS
 * (a read-only ESP), -ENOSPC (not enough room), -EOPNOTSUPP (not booted
 * through UEFI and variables asked for), -EPERM (an unsigned image or
 * shim under Secure Boot, or an unsigned image with --shim), -EEXIST (a
 * file in the way, or an install of the other layout, with or without
 * shim, recorded), -EINVAL (an image or a shim that is no EFI image),
 * -ENOTBLK (--bios names a partition, not a disk), -EBUSY (the disk's
 * boot code is no longer the one installed), or the -errno of a change
 * that failed (what was changed before it is taken back). */
int install_run(const struct install_opts *o, char *err, size_t errlen);

/* The face of both bootmenu-install and `bootmenu install`: parses
 * argv[1..argc) (argv[0] names the program in messages), runs, prints a
 * failure's sentence. Returns the exit status: 0, 1 refused or failed,
 * 2 a usage error. */
int install_main(int argc, char **argv);

#endif
