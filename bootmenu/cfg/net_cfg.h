/* net_cfg.h - a network root's one config (net_cfg.c). */
#ifndef BM_CFG_NET_CFG_H
#define BM_CFG_NET_CFG_H

#include "cfg/ctx.h"

/* cfg_scan_fs() runs only this on a network root (ctx->fs->net): the
 * config the DHCP server named, read by that loader's parser. Returns 0;
 * a missing or unreadable config is a warning. */
int net_parse_fs(struct cfg_ctx *ctx);

#endif
