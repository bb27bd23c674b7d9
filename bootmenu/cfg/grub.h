/* grub.h - the grub.cfg reader's entry points below grub_parse_fs(), for
 * the unit tests and the fuzzer.
 */
#ifndef BM_CFG_GRUB_H
#define BM_CFG_GRUB_H

#include "cfg/cfg.h"

/* Run buf[0..len) as the config file @path on ctx->fs, the way
 * grub_parse_fs() runs one it found, and append its entries and warnings
 * to ctx->out. @steps_max caps the interpreter steps (0: CFG_STEPS_MAX).
 * Returns the number of entries added. Everything it allocates is in
 * ctx->a; @buf stays the caller's. */
int grub_run_config(struct cfg_ctx *ctx, const char *path, const char *buf,
		    size_t len, long steps_max);

/* Read the config file @path on ctx->fs (capped at FS_CONFIG_MAX) and
 * run it as grub_run_config() does; one that cannot be read is a
 * warning. */
void grub_run_file(struct cfg_ctx *ctx, const char *path);

#endif
