/* efi_loaders.h - EFI loaders on an ESP, booted by the firmware
 * (efi_loaders.c). */
#ifndef BM_CFG_EFI_LOADERS_H
#define BM_CFG_EFI_LOADERS_H

#include "cfg/ctx.h"

/* The table's EFI parser (cfg.h): on an ESP, the loaders rEFInd and
 * systemd-boot would list, and on the first ESP the firmware's own boot
 * options and "UEFI Firmware Settings" (ctx->fw_opts, ctx->fw_ui). Their
 * entries boot through the firmware. Returns 0. */
int efi_loaders_parse_fs(struct cfg_ctx *ctx);

#endif
