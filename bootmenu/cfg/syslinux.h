/* syslinux.h - SYSLINUX/EXTLINUX/ISOLINUX/PXELINUX configs: the entry
 * points, all in syslinux_find.c.
 *
 * syslinux_parse_fs() (the parser table's) finds the one config the
 * loader would read and lists the menu it would show: bootmenu acts as
 * ISOLINUX on iso9660, as SYSLINUX (EXTLINUX) on other filesystems, and
 * as PXELINUX for a pxelinux.cfg/ tree. The two others read one given
 * config (as ISOLINUX on iso9660, else as SYSLINUX), for tests and the
 * fuzzer. Entries and warnings go to ctx->out, memory comes from ctx->a.
 * The limits the reader keeps are in syslinux_int.h.
 */
#ifndef BM_CFG_SYSLINUX_H
#define BM_CFG_SYSLINUX_H

#include "cfg/ctx.h"

/* Parse the config at @path on ctx->fs; relative paths inside resolve
 * against @cwd (the config's directory when NULL). Returns the number of
 * entries added, or -errno when @path cannot be read. */
int syslinux_parse_file(struct cfg_ctx *ctx, const char *path, const char *cwd);

/* The same for a config already in memory (buf[0..len), need not be
 * NUL-terminated) that claims to live at @path. INCLUDEs still read
 * through ctx->fs. Returns the number of entries added. */
int syslinux_parse_buf(struct cfg_ctx *ctx, const char *path, const char *cwd,
		       const char *buf, size_t len);

/* The config ctx->fs's loader would read, and a pxelinux.cfg/default in
 * a TFTP root. Returns 0. */
int syslinux_parse_fs(struct cfg_ctx *ctx);

#endif
