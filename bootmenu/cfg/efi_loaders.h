/* efi_loaders.h - EFI loaders on an ESP, booted by the firmware
 * (efi_loaders.c). */
#ifndef BM_CFG_EFI_LOADERS_H
#define BM_CFG_EFI_LOADERS_H

#include "cfg/ctx.h"

/* The table's EFI parser (cfg.h): on an ESP, the loaders rEFInd and
 * systemd-boot would list. Their entries boot through the firmware,
 * disabled with ctx->fw_off where it cannot. Returns 0. */
int efi_loaders_parse_fs(struct cfg_ctx *ctx);

/* Whether @path on @fs is bootmenu itself: a bzImage whose setup
 * header's kernel_version names it (the kernel fragment's
 * CONFIG_LOCALVERSION="-bootmenu"). The ESP's loaders leave it out, and
 * so do the firmware's boot options (source/firmware.c). */
bool efi_loaders_is_bootmenu(const struct fs_root *fs, const char *path);

#endif
