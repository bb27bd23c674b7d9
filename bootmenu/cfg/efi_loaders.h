/* efi_loaders.h - EFI loaders on an ESP, booted by the firmware
 * (efi_loaders.c). */
#ifndef BM_CFG_EFI_LOADERS_H
#define BM_CFG_EFI_LOADERS_H

#include "cfg/ctx.h"

/* The table's EFI parser (cfg.h): on an ESP, the loaders rEFInd and
 * systemd-boot would list, leaving out bootmenu itself (a bzImage whose
 * kernel release names it: format/bzimage.h). Their entries boot through
 * the firmware, disabled with ctx->fw_off where it cannot. Returns 0. */
int efi_loaders_parse_fs(struct cfg_ctx *ctx);

#endif
