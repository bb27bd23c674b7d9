/* ctx.c - the services every parser shares (ctx.h). Nothing here calls a
 * parser: this file is the bottom of cfg/. */
#include "cfg/ctx.h"

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
