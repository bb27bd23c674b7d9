/* loader_conf.h - systemd-boot's /loader/loader.conf, as far as a menu
 * needs it (loader_conf.c). bls.c reads the file and applies it. */
#ifndef BM_CFG_LOADER_CONF_H
#define BM_CFG_LOADER_CONF_H

#include "cfg/ctx.h"

struct loader_conf {
	const char *default_pattern; /* glob over entry ids, or NULL */
	int timeout_ds;		     /* -1 when unset or "menu-force" */
};

/* Parse loader.conf contents buf[0..len) found at @path into @lc (fields
 * it does not meet keep their value); unknown keys warn through ctx->out.
 * Strings are owned by ctx->a. Returns 0. */
int loader_conf_parse(struct cfg_ctx *ctx, const char *path, const char *buf,
		      size_t len, struct loader_conf *lc);

#endif
