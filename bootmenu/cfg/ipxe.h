/* ipxe.h - the subset of iPXE scripts (#!ipxe) that describes what to
 * boot: kernel, initrd, imgargs, boot, chain, set, goto and menus (ipxe.c
 * and, below it, ipxe_parse.c and ipxe_exec.c).
 *
 * ipxe_parse_fs() (the parser table's) reads the script iPXE itself runs
 * from a disk (autoexec.ipxe in the root) or the conventional boot.ipxe.
 * The network room calls ipxe_parse() on the script a DHCP server named,
 * with the lease's values as variables (struct ipxe_var, scan/fs.h).
 * Entries and warnings go to ctx->out, memory comes from ctx->a; what is
 * supported is listed in ipxe_exec.c, the limits in the two headers
 * included here.
 */
#ifndef BM_CFG_IPXE_H
#define BM_CFG_IPXE_H

#include "cfg/ctx.h"
#include "cfg/ipxe_exec.h"
#include "cfg/ipxe_parse.h"

/* Parse the script at @path on ctx->fs with the @n_vars variables
 * @vars (may be NULL: none). Relative names in it resolve against the
 * script's directory. Returns the number of entries added, -errno when
 * @path cannot be read (-EFBIG past FS_CONFIG_MAX), or -ENOEXEC when it
 * does not start with #!ipxe (a warning says so). */
int ipxe_parse(struct cfg_ctx *ctx, const char *path,
	       const struct ipxe_var *vars, size_t n_vars);

/* The same for a script already in memory, buf[0..len) (need not be
 * NUL-terminated), that claims to live at @path. */
int ipxe_parse_buf(struct cfg_ctx *ctx, const char *path,
		   const struct ipxe_var *vars, size_t n_vars, const char *buf,
		   size_t len);

/* The first of /autoexec.ipxe and /boot.ipxe on ctx->fs. Returns 0. */
int ipxe_parse_fs(struct cfg_ctx *ctx);

#endif
