/* syslinux.h - SYSLINUX/EXTLINUX/ISOLINUX/PXELINUX configs.
 *
 * syslinux_parse_fs() (cfg.h) finds the one config the loader would read
 * and lists the menu it would show: bootmenu acts as ISOLINUX on
 * iso9660, as SYSLINUX (EXTLINUX) on other filesystems, and as PXELINUX
 * for a pxelinux.cfg/ tree. The entry points below read one given config
 * (as ISOLINUX on iso9660, else as SYSLINUX), for tests and the fuzzer.
 * Entries and warnings go to ctx->out, memory comes from ctx->a.
 */
#ifndef BM_CFG_SYSLINUX_H
#define BM_CFG_SYSLINUX_H

#include "cfg/cfg.h"

/* Longest line syslinux reads (readconfig.c MAX_LINE); longer ones are
 * cut there, as syslinux does. */
#define SYSLINUX_LINE_MAX 4096
/* Most labels one config tree may define. */
#define SYSLINUX_LABELS_MAX 4096
/* Most CONFIGs followed from the first config (each one starts over; a
 * config that CONFIGs itself would loop for ever in syslinux too). */
#define SYSLINUX_CONFIG_DEPTH 8
/* Most COM32 dispatchers (whichsys.c32, ifcpu64.c32, ifcpu.c32) one
 * command goes through. */
#define SYSLINUX_DISPATCH_DEPTH 8
/* Most words of a dispatcher's command line that are looked at. */
#define SYSLINUX_ARGS_MAX 256

/* Parse the config at @path on ctx->fs; relative paths inside resolve
 * against @cwd (the config's directory when NULL). Returns the number of
 * entries added, or -errno when @path cannot be read. */
int syslinux_parse_file(struct cfg_ctx *ctx, const char *path, const char *cwd);

/* The same for a config already in memory (buf[0..len), need not be
 * NUL-terminated) that claims to live at @path. INCLUDEs still read
 * through ctx->fs. Returns the number of entries added. */
int syslinux_parse_buf(struct cfg_ctx *ctx, const char *path, const char *cwd,
		       const char *buf, size_t len);

#endif
