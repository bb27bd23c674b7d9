/* parsers.c - the parser table, listed explicitly (no constructors). */
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

bool cfg_budget(struct cfg_ctx *ctx, const char *path, unsigned files,
		size_t bytes)
{
	if (!ctx->spent) {
		ctx->files += files;
		ctx->bytes += bytes;
		if (ctx->files <= CFG_FILES_MAX && ctx->bytes <= CFG_BYTES_MAX)
			return true;
		ctx->spent = true;
		entry_warn(ctx->out, ctx->fs, path, 0,
			   "the configs here included more than %d files or "
			   "%u MiB in all: this one and the rest are not read",
			   CFG_FILES_MAX, CFG_BYTES_MAX >> 20);
	}
	return false;
}

void cfg_scan_fs(struct cfg_ctx *ctx)
{
	if (ctx->fs->net) {
		net_parse_fs(ctx);
		return;
	}
	for (size_t i = 0; i < cfg_n_parsers; i++)
		cfg_parsers[i].parse(ctx);
}

void cfg_reached(struct cfg_ctx *ctx, const struct fs_root *fs)
{
	if (!fs) {
		ctx->missed = true;
		return;
	}
	if (fs == ctx->fs)
		return;
	for (size_t i = 0; i < ctx->n_reached; i++)
		if (ctx->reached[i] == fs)
			return;
	if (ctx->n_reached == CFG_REACHED_MAX)
		ctx->all_deps = true;
	else
		ctx->reached[ctx->n_reached++] = fs;
}
