/* grub.c - reading grub.cfg: where it is, and the interpreter's start.
 *
 * GRUB reads $prefix/grub.cfg; on an ESP that is usually a stub that
 * finds the real /boot with `search` and runs its config with
 * `configfile` (grub_source.c). This file makes the interpreter's state,
 * gives it the commands (grub_cmd.c), runs the file and then phase two
 * (grub_menu.c).
 */
#include "cfg/grub.h"
#include "cfg/grub_btrfs.h"
#include "cfg/grub_cmd.h"
#include "cfg/grub_menu.h"
#include "cfg/grub_path.h"
#include "cfg/grub_source.h"
#include "cfg/grub_vars.h"
#include "entry/entry.h"
#include "scan/fs.h"
#include "util/arena.h"

#include <stdlib.h>
#include <string.h>

/* What GRUB 2.06+ sets before reading grub.cfg (normal/main.c
 * features[]; grub-mkconfig's output tests them). */
static const char *const grub_features[] = {
    "feature_chainloader_bpb",	    "feature_ntldr",
    "feature_platform_search_hint", "feature_default_font_path",
    "feature_all_video_module",	    "feature_menuentry_id",
    "feature_menuentry_options",    "feature_200_final",
    "feature_nativedisk_cmd",	    "feature_timeout_style",
};

static void grub_set_export(struct grub_state *st, const char *name,
			    const char *v)
{
	grub_set(st, name, v);
	grub_export(st, name);
}

static void grub_state_init(struct grub_state *st, struct cfg_ctx *ctx,
			    const char *path, long steps_max)
{
	const char *root = grub_fs_devname(ctx->fs), *dir;

	memset(st, 0, sizeof(*st));
	st->ctx = ctx;
	st->a = ctx->a;
	st->cmds = grub_cmds;
	st->scope = grub_scope_new(st, NULL);
	st->menu = arena_alloc(st->a, sizeof(*st->menu));
	grub_menu_init(st->menu);
	st->steps_max = steps_max > 0 ? steps_max : CFG_STEPS_MAX;
	st->fs = ctx->fs;
	st->file = st->top_path = path;
	for (size_t i = 0; i < sizeof(grub_features) / sizeof(grub_features[0]);
	     i++)
		grub_set_export(st, grub_features[i], "y");
	grub_set_export(st, "grub_platform", "efi");
	grub_set_export(st, "grub_cpu", "x86_64");
	grub_set_export(st, "root", root);
	/* on btrfs the directory as GRUB names it: from the top level */
	dir = grub_dirname(st, grub_btrfs_visible(st, ctx->fs, path));
	grub_set_export(st, "prefix", arena_printf(st->a, "(%s)%s", root, dir));
	if (ctx->fs->btrfs) { /* the btrfs module's own (SUSE's patch) */
		grub_export(st, "btrfs_relative_path");
		grub_export(st, "btrfs_subvol");
	}
}

int grub_run_config(struct cfg_ctx *ctx, const char *path, const char *buf,
		    size_t len, long steps_max)
{
	struct grub_state st;
	struct grub_where w = {.fs = ctx->fs, .path = path};
	size_t before = ctx->out->count;

	grub_state_init(&st, ctx, path, steps_max);
	grub_source_run(&st, &w, buf, len);
	grub_menu_finish(&st);
	return (int)(ctx->out->count - before);
}

void grub_run_file(struct cfg_ctx *ctx, const char *path)
{
	size_t len;
	char *buf;
	int rc = fs_read_file(ctx->fs, path, FS_CONFIG_MAX, &buf, &len);

	if (rc < 0) {
		entry_warn(ctx->out, ctx->fs, path, 0, "cannot read: %s",
			   strerror(-rc));
		return;
	}
	grub_run_config(ctx, path, buf, len, 0);
	free(buf);
}

/* /EFI/<vendor>/grub.cfg: the stubs (and full configs) on an ESP; else
 * /EFI/<vendor>/grub/grub.cfg, the prefix of a standalone image made with
 * `grub-mkimage -p /EFI/<vendor>/grub` (Tails' EFI/BOOT). */
static void grub_scan_esp(struct cfg_ctx *ctx)
{
	char **names;
	size_t n;

	if (fs_list(ctx->fs, "/EFI", ctx->a, &names, &n) < 0)
		return;
	for (size_t i = 0; i < n; i++) {
		const char *p =
		    arena_printf(ctx->a, "/EFI/%s/grub.cfg", names[i]);

		if (!fs_is_file(ctx->fs, p))
			p = arena_printf(ctx->a, "/EFI/%s/grub/grub.cfg",
					 names[i]);
		if (fs_is_file(ctx->fs, p))
			grub_run_file(ctx, p);
	}
}

int grub_parse_fs(struct cfg_ctx *ctx)
{
	const char *primary = grub_primary_config(ctx->fs);

	if (primary)
		grub_run_file(ctx, primary);
	grub_scan_esp(ctx);
	return 0;
}
