/* syslinux_find.c - which config the loader reads, and as which variant.
 *
 * syslinux 6.04 opens one config, the first its variant finds; the
 * directory it is found in becomes the working directory (search_dirs(),
 * core/fs/lib/searchconfig.c: each directory in turn, each name in it).
 * - SYSLINUX/EXTLINUX (generic_open_config(), core/fs/lib/loadconfig.c):
 *   the install directory (CurrentDirName: where the installer put
 *   ldlinux.sys, e.g. /boot after `extlinux --install /boot`), then
 *   /boot/syslinux, /syslinux and /; extlinux.conf, then syslinux.cfg.
 * - ISOLINUX (iso_open_config(), core/fs/iso9660/iso9660.c):
 *   /boot/isolinux, /isolinux, /boot/syslinux, /syslinux and /;
 *   isolinux.cfg, then syslinux.cfg.
 * - PXELINUX (pxe_open_config(), core/fs/pxe/pxe.c): on the TFTP server,
 *   pxelinux.cfg/<UUID>, 01-<MAC>, the hex IP address shortened one digit
 *   at a time, then pxelinux.cfg/default.
 * A config given by name (syslinux_parse_file(), syslinux_parse_buf()) is
 * read as ISOLINUX on iso9660, else as SYSLINUX. This file holds the
 * entry points of syslinux.h; the reading is syslinux_boot.c's.
 */
#include "cfg/syslinux.h"
#include "cfg/cfg_text.h"
#include "cfg/syslinux_boot.h"
#include "scan/fs.h"
#include "util/arena.h"

#include <string.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const char *const sl_sys_names[] = {"extlinux.conf", "syslinux.cfg"};
static const char *const sl_sys_dirs[] = {"/boot/syslinux", "/syslinux", "/"};
static const char *const sl_iso_names[] = {"isolinux.cfg", "syslinux.cfg"};
static const char *const sl_iso_dirs[] = {"/boot/isolinux", "/isolinux",
					  "/boot/syslinux", "/syslinux", "/"};

/* Where an install directory is looked for. The boot sector knows which
 * one it is; from the files, the directory holding ldlinux.sys tells
 * (ldlinux.c32 where ldlinux.sys sits in the boot area: btrfs, xfs). */
static const char *const sl_install_dirs[] = {
    "/boot/extlinux", "/boot/syslinux", "/boot", "/extlinux", "/syslinux", "/",
};

/* No install directory: a tree read by U-Boot's distro boot
 * (boot_prefixes "/ /boot/", then extlinux/extlinux.conf), whose paths
 * are relative to the config's directory too. */
static const char *const sl_uboot_configs[] = {
    "/extlinux/extlinux.conf",
    "/boot/extlinux/extlinux.conf",
};

/* pxelinux.cfg/ sits in the TFTP root; paths in it are relative to that
 * root. */
static const char *const sl_tftp_roots[] = {
    "/", "/boot", "/srv/tftp", "/tftpboot", "/var/lib/tftpboot",
};

/* The first @names file in the first of @dirs that has one. */
static const char *sl_search(struct cfg_ctx *ctx, const char *const *dirs,
			     size_t n_dirs, const char *const *names,
			     size_t n_names, const char **cwd)
{
	for (size_t d = 0; d < n_dirs; d++) {
		for (size_t f = 0; f < n_names; f++) {
			char *p = cfg_text_path(ctx->a, dirs[d], names[f]);

			if (fs_is_file(ctx->fs, p)) {
				*cwd = dirs[d];
				return p;
			}
		}
	}
	return NULL;
}

/* The first install directory holding @mark. */
static const char *sl_mark_dir(struct cfg_ctx *ctx, const char *mark)
{
	const char *cwd = NULL;

	if (sl_search(ctx, sl_install_dirs, N(sl_install_dirs), &mark, 1, &cwd))
		return cwd;
	return NULL;
}

static const char *sl_find_sys(struct cfg_ctx *ctx, const char *install,
			       const char **cwd)
{
	const char *dirs[N(sl_sys_dirs) + 1] = {install};
	size_t n = 0;

	if (install)
		n++;
	for (size_t i = 0; i < N(sl_sys_dirs); i++)
		dirs[n++] = sl_sys_dirs[i];
	for (size_t i = 0; !install && i < N(sl_uboot_configs); i++) {
		if (fs_is_file(ctx->fs, sl_uboot_configs[i])) {
			*cwd = cfg_text_dirname(ctx->a, sl_uboot_configs[i]);
			return sl_uboot_configs[i];
		}
	}
	return sl_search(ctx, dirs, n, sl_sys_names, N(sl_sys_names), cwd);
}

static const char *sl_find_iso(struct cfg_ctx *ctx, const char **cwd)
{
	return sl_search(ctx, sl_iso_dirs, N(sl_iso_dirs), sl_iso_names,
			 N(sl_iso_names), cwd);
}

/* The config the loader reads and the variant reading it: ISOLINUX on
 * iso9660, SYSLINUX on any other known filesystem. A directory tree
 * (--root: no type known) is a disk install when it has ldlinux.sys, an
 * ISO's when it has isolinux.bin where ISOLINUX looks (ISOs carry
 * ldlinux.c32 too); else whichever finds a config, SYSLINUX first. */
static const char *sl_pick(struct cfg_ctx *ctx, enum sl_variant *v,
			   const char **cwd)
{
	const char *fstype = ctx->fs->fstype, *install, *path;
	static const char *const bin[] = {"isolinux.bin"};

	*v = SL_VAR_ISOLINUX;
	if (fstype && !strcmp(fstype, "iso9660"))
		return sl_find_iso(ctx, cwd);
	install = sl_mark_dir(ctx, "ldlinux.sys");
	if (!fstype && !install &&
	    sl_search(ctx, sl_iso_dirs, N(sl_iso_dirs), bin, 1, cwd))
		return sl_find_iso(ctx, cwd);
	if (!install)
		install = sl_mark_dir(ctx, "ldlinux.c32");
	*v = SL_VAR_SYSLINUX;
	path = sl_find_sys(ctx, install, cwd);
	if (path || fstype)
		return path;
	*v = SL_VAR_ISOLINUX;
	return sl_find_iso(ctx, cwd);
}

/* PXELINUX tries pxelinux.cfg/<client UUID>, 01-<MAC>, the hex IP
 * address shortened one digit at a time, then "default". A local disk
 * has no client, so only "default" can be chosen. */
static void sl_pxe(struct cfg_ctx *ctx, struct sl_seen *seen, const char *root)
{
	char *dir = cfg_text_path(ctx->a, root, "pxelinux.cfg");
	char *dflt = cfg_text_path(ctx->a, dir, "default"), **names;
	size_t n = 0, others = 0;

	if (fs_list(ctx->fs, dir, ctx->a, &names, &n) < 0)
		return;
	for (size_t i = 0; i < n; i++)
		others += strcmp(names[i], "default") != 0;
	if (others)
		entry_warn(ctx->out, ctx->fs, dir, 0,
			   "%zu per-client config(s) chosen by MAC or IP at "
			   "network boot: only 'default' is read from a disk",
			   others);
	if (fs_is_file(ctx->fs, dflt) && !sl_seen_has(seen, dflt))
		sl_run(ctx, seen, SL_VAR_PXELINUX, root, dflt, root, NULL, 0);
}

int syslinux_parse_fs(struct cfg_ctx *ctx)
{
	struct sl_seen seen = {0};
	enum sl_variant v;
	const char *cwd = NULL, *path = sl_pick(ctx, &v, &cwd);

	if (path)
		sl_run(ctx, &seen, v, NULL, path, cwd, NULL, 0);
	for (size_t i = 0; i < N(sl_tftp_roots); i++)
		sl_pxe(ctx, &seen, sl_tftp_roots[i]);
	return 0;
}

/* The variant for a config given by name: ISOLINUX on iso9660. */
static enum sl_variant sl_variant_of_fs(const struct fs_root *fs)
{
	if (fs->fstype && !strcmp(fs->fstype, "iso9660"))
		return SL_VAR_ISOLINUX;
	return SL_VAR_SYSLINUX;
}

int syslinux_parse_buf(struct cfg_ctx *ctx, const char *path, const char *cwd,
		       const char *buf, size_t len)
{
	struct sl_seen seen = {0};

	return sl_run(ctx, &seen, sl_variant_of_fs(ctx->fs), NULL, path, cwd,
		      buf ? buf : "", buf ? len : 0);
}

int syslinux_parse_file(struct cfg_ctx *ctx, const char *path, const char *cwd)
{
	struct sl_seen seen = {0};

	return sl_run(ctx, &seen, sl_variant_of_fs(ctx->fs), NULL, path, cwd,
		      NULL, 0);
}
