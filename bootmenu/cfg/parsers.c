/* parsers.c - the parser table, listed explicitly (no constructors), and
 * the loop that runs it. The services the parsers share are ctx.c's. */
#include "cfg/cfg.h"
#include "scan/fs.h"

const struct cfg_parser cfg_parsers[] = {
    {"grub", FMT_GRUB, grub_parse_fs},
    {"syslinux", FMT_SYSLINUX, syslinux_parse_fs},
    {"bls", FMT_BLS, bls_parse_fs},
    {"uki", FMT_UKI, uki_parse_fs},
    {"lilo", FMT_LILO, lilo_parse_fs},
    {"ipxe", FMT_IPXE, ipxe_parse_fs},
    {"efi", FMT_EFI, efi_loaders_parse_fs},
    {"bare", FMT_BARE, bare_parse_fs},
};

const size_t cfg_n_parsers = sizeof(cfg_parsers) / sizeof(cfg_parsers[0]);

void cfg_scan_fs(struct cfg_ctx *ctx)
{
	if (ctx->fs->net) {
		net_parse_fs(ctx);
		return;
	}
	for (size_t i = 0; i < cfg_n_parsers; i++)
		cfg_parsers[i].parse(ctx);
}
