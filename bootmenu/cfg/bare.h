/* bare.h - kernels in /boot that no config names (bare.c). */
#ifndef BM_CFG_BARE_H
#define BM_CFG_BARE_H

#include "cfg/ctx.h"

/* The table's last parser (cfg.h): one entry per /boot/vmlinuz-VERSION
 * (or /vmlinuz-VERSION) on ctx->fs that no entry already in ctx->out
 * boots. Returns 0. */
int bare_parse_fs(struct cfg_ctx *ctx);

#endif
