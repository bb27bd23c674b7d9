/* lilo.h - /etc/lilo.conf, the config of the loader bootmenu replaces
 * (lilo.c).
 *
 * lilo_parse_fs() (the parser table's) reads /etc/lilo.conf;
 * lilo_parse_buf() reads one given text, for tests and the fuzzer.
 * Entries and warnings go to ctx->out, memory comes from ctx->a.
 */
#ifndef BM_CFG_LILO_H
#define BM_CFG_LILO_H

#include "cfg/ctx.h"

/* lilo's own limits: at most this many image=/other= sections
 * (MAX_IMAGES is 27 in lilo 24; a few more are accepted here) and this
 * long a value. */
#define LILO_SECTIONS_MAX 64
#define LILO_VALUE_MAX 4096

/* Parse lilo.conf text buf[0..len) that lives at @path on ctx->fs.
 * Returns the number of entries added. */
int lilo_parse_buf(struct cfg_ctx *ctx, const char *path, const char *buf,
		   size_t len);

/* Read /etc/lilo.conf on ctx->fs, if there is one. Returns 0. */
int lilo_parse_fs(struct cfg_ctx *ctx);

#endif
