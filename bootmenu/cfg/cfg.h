/* cfg.h - the config parsers, as the rest of bootmenu sees them: the
 * table that lists them, the loop that runs it over one filesystem, and
 * (through each parser's own header, included here) every entry point.
 *
 * A parser is pure: it reads files only through the fs door (scan/fs.h),
 * appends entries and warnings to ctx->out, and never fails the scan: a
 * config it cannot read becomes a warning. Each looks for its own files.
 * No parser includes this header: they include ctx.h, the leaf.
 */
#ifndef BM_CFG_H
#define BM_CFG_H

#include "cfg/bare.h"
#include "cfg/bls.h"
#include "cfg/ctx.h"
#include "cfg/efi_loaders.h"
#include "cfg/grub.h"
#include "cfg/ipxe.h"
#include "cfg/lilo.h"
#include "cfg/net_cfg.h"
#include "cfg/syslinux.h"
#include "cfg/uki.h"

struct cfg_parser {
	const char *name;
	enum entry_format format;
	/* Returns 0, or -errno for a fault that is not the config's (ENOMEM);
	 * a bad or missing config is not an error. */
	int (*parse)(struct cfg_ctx *ctx);
};

/* parsers.c: every parser in the order a scan runs them. */
extern const struct cfg_parser cfg_parsers[];
extern const size_t cfg_n_parsers;

/* Run every parser over @ctx->fs in table order (bare kernels last); a
 * network root (fs_net) gets only net_parse_fs(). */
void cfg_scan_fs(struct cfg_ctx *ctx);

#endif
