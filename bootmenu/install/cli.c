/* cli.c - the installer's arguments (install_main(), install.h): shared by
 * the face bootmenu-install (installer.c) and `bootmenu install` (main.c),
 * so both read the same options. */
#include "install/install.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Where `make install` puts the image: the Makefile passes
 * $(PREFIX)/lib/bootmenu for the host build; the static binary keeps this. */
#ifndef BOOTMENU_LIBDIR
#define BOOTMENU_LIBDIR "/usr/local/lib/bootmenu"
#endif

static const char usage_text[] =
    "usage: %s [options]\n"
    "  put bootmenu.efi on the EFI system partition and add a boot entry\n"
    "  (or with --bios, make syslinux start it on a BIOS machine)\n"
    "  --esp DIR       the ESP's mount point (default: the mounted ESP,\n"
    "                  /efi, /boot/efi or /boot first); a plain directory\n"
    "                  too, with --no-nvram\n"
    "  --image FILE    the image (default: " BOOTMENU_LIBDIR ",\n"
    "                  then the build tree's build/)\n"
    "  --signed        the signed image (bootmenu.signed.efi); chosen\n"
    "                  anyway when Secure Boot is on, and with --shim\n"
    "  --shim FILE     behind shim: FILE (e.g. Debian's\n"
    "                  " INSTALL_SHIM_DEBIAN ") goes to\n"
    "                  \\EFI\\bootmenu\\shimx64.efi, the image beside it\n"
    "                  as grubx64.efi, the entry starts shim; the image's\n"
    "                  key must be enrolled as a MOK (mokutil --import)\n"
    "  --removable     also the fallback path \\EFI\\BOOT\\BOOTX64.EFI\n"
    "                  (the old one kept as BOOTX64.EFI.bootmenu-old);\n"
    "                  with --shim, shim there and the image as\n"
    "                  \\EFI\\BOOT\\grubx64.efi\n"
    "  --no-nvram      no EFI variable touched\n"
    "  --default       the boot entry first in BootOrder (else last)\n"
    "  --print         list every change, make none\n"
    "  --uninstall     take back what the install recorded on the ESP\n"
    "  --bios DISK     a BIOS machine instead: syslinux's mbr.bin (or\n"
    "                  gptmbr.bin) into DISK's first 440 bytes, the\n"
    "                  partition of --boot-dir marked to boot, and\n"
    "                  extlinux there starting bootmenu.efi; DISK is a\n"
    "                  whole disk (/dev/sda, not /dev/sda1)\n"
    "  --boot-dir DIR  with --bios: the mounted directory holding /boot\n"
    "                  (ext2/3/4, vfat, xfs; not btrfs yet); files go to\n"
    "                  DIR/bootmenu/; with --uninstall: take that back\n"
    "  --force-bios    --bios on a machine booted through UEFI (a disk\n"
    "                  for another machine)\n"
    "  --version, --help\n"
    "environment: BOOTMENU_EXTLINUX (extlinux), BOOTMENU_SYSLINUX_MBR\n"
    "  (the directory of mbr.bin, default " INSTALL_SYSLINUX_MBR_DIR ")\n";

enum { OPT_BIOS = 256, OPT_BOOT_DIR, OPT_FORCE_BIOS, OPT_SHIM, OPT_VERSION };

static const struct option long_opts[] = {
    {"esp", required_argument, NULL, 'e'},
    {"image", required_argument, NULL, 'i'},
    {"signed", no_argument, NULL, 's'},
    {"removable", no_argument, NULL, 'r'},
    {"no-nvram", no_argument, NULL, 'n'},
    {"default", no_argument, NULL, 'd'},
    {"print", no_argument, NULL, 'p'},
    {"uninstall", no_argument, NULL, 'u'},
    {"bios", required_argument, NULL, OPT_BIOS},
    {"boot-dir", required_argument, NULL, OPT_BOOT_DIR},
    {"force-bios", no_argument, NULL, OPT_FORCE_BIOS},
    {"shim", required_argument, NULL, OPT_SHIM},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, OPT_VERSION},
    {NULL, 0, NULL, 0},
};

/* One option into @o: 0, 1 to stop with success, or -EINVAL. */
static int cli_opt(struct install_opts *o, int c, const char *arg,
		   const char *prog)
{
	switch (c) {
	case 'e':
		o->esp = arg;
		return 0;
	case 'i':
		o->image = arg;
		return 0;
	case 's':
		o->want_signed = true;
		return 0;
	case 'r':
		o->removable = true;
		return 0;
	case 'n':
		o->no_nvram = true;
		return 0;
	case 'd':
		o->set_default = true;
		return 0;
	case 'p':
		o->print = true;
		return 0;
	case 'u':
		o->uninstall = true;
		return 0;
	case OPT_BIOS:
		o->bios_disk = arg;
		return 0;
	case OPT_BOOT_DIR:
		o->boot_dir = arg;
		return 0;
	case OPT_FORCE_BIOS:
		o->force_bios = true;
		return 0;
	case OPT_SHIM:
		o->shim = arg;
		return 0;
	case 'h':
		printf(usage_text, prog);
		return 1;
	case OPT_VERSION:
		puts("bootmenu-install " BOOTMENU_VERSION);
		return 1;
	}
	fprintf(stderr, usage_text, prog);
	return -EINVAL;
}

/* The build tree's image: build/bootmenu.efi, two levels above
 * build/host/bootmenu-install. */
static void cli_build_dir(char *out, size_t cap)
{
	ssize_t n = readlink("/proc/self/exe", out, cap - 1);
	char *slash;

	out[n > 0 ? n : 0] = '\0';
	for (int up = 0; up < 2; up++)
		if ((slash = strrchr(out, '/')))
			*slash = '\0';
}

int install_main(int argc, char **argv)
{
	static char build[PATH_MAX];
	static const char *dirs[] = {BOOTMENU_LIBDIR, build, NULL};
	struct install_opts o = {.image_dirs = dirs};
	const char *prog = argv[0];
	char err[1024];
	int c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", long_opts, NULL)) != -1)
		if ((rc = cli_opt(&o, c, optarg, prog)))
			return rc > 0 ? 0 : 2;
	if (optind < argc) {
		fprintf(stderr, "%s: unexpected argument '%s'\n", prog,
			argv[optind]);
		return 2;
	}
	cli_build_dir(build, sizeof(build));
	o.extlinux = getenv("BOOTMENU_EXTLINUX");
	o.mbr_dir = getenv("BOOTMENU_SYSLINUX_MBR");
	rc = install_run(&o, err, sizeof(err));
	if (rc < 0) {
		fprintf(stderr, "%s: %s\n", prog, err[0] ? err : strerror(-rc));
		return 1;
	}
	return 0;
}
