/* syslinux_boot.h - what ldlinux does with a config's labels, as entries
 * (syslinux_boot.c). Used by syslinux_find.c and, for a PXELINUX config
 * on a network root, net_cfg.c. */
#ifndef BM_CFG_SYSLINUX_BOOT_H
#define BM_CFG_SYSLINUX_BOOT_H

#include "cfg/syslinux_int.h"

/* A fresh @s for the config @path (working directory @cwd, else its
 * own); @parent is the config whose CONFIG led here, or NULL. */
void sl_init(struct sl_parse *s, struct cfg_ctx *ctx,
	     const struct sl_parse *parent, const char *path, const char *cwd);
/* Parse the config at @path (or @buf[0..len) claiming to be it) as
 * @variant and list what it boots; @seen collects the files read, which
 * stay the caller's. Returns the entries added or -errno. */
int sl_run(struct cfg_ctx *ctx, struct sl_seen *seen, enum sl_variant variant,
	   const char *tftp_root, const char *path, const char *cwd,
	   const char *buf, size_t len);

#endif
