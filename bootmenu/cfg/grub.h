/* grub.h - the grub.cfg reader (grub.c and the grub_*.c files below it):
 * grub_parse_fs() for the parser table, the others for the network root,
 * the unit tests and the fuzzer. Entries and warnings go to ctx->out,
 * memory comes from ctx->a.
 */
#ifndef BM_CFG_GRUB_H
#define BM_CFG_GRUB_H

#include "cfg/ctx.h"

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

/* Run the grub.cfg GRUB would read from ctx->fs ($prefix in /boot/grub,
 * /grub, /boot/grub2 or /grub2) and each ESP vendor's /EFI/<vendor>/
 * grub.cfg (or grub/grub.cfg). Returns 0. */
int grub_parse_fs(struct cfg_ctx *ctx);

#endif
