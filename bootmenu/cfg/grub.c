/* grub.c - reading grub.cfg: where it is, the interpreter's start, and
 * `source`/`configfile`.
 *
 * GRUB reads $prefix/grub.cfg; on an ESP that is usually a stub that
 * finds the real /boot with `search` and runs its config with
 * `configfile` (grub-core/commands/configfile.c: a new context holding
 * the exported variables and a new menu, shown when it has entries).
 * When the stub leads to the config another filesystem's own scan reads,
 * that scan shows the entries: the stub adds none, so they appear once.
 */
#include "cfg/grub.h"
#include "cfg/grub_interp.h"
#include "entry/entry.h"
#include "scan/fs.h"
#include "util/arena.h"

#include <errno.h>
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

static const char *grub_dirname(struct grub_state *st, const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash && slash != path
		   ? arena_strndup(st->a, path, (size_t)(slash - path))
		   : "";
}

static void grub_state_init(struct grub_state *st, struct cfg_ctx *ctx,
			    const char *path, long steps_max)
{
	const char *root = grub_fs_devname(ctx->fs), *dir;

	memset(st, 0, sizeof(*st));
	st->ctx = ctx;
	st->a = ctx->a;
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

/* GRUB's read_config_file(): $config_file and $config_directory name the
 * file while it runs. */
static int grub_run_in(struct grub_state *st, const struct grub_where *w,
		       const char *buf, size_t len)
{
	const char *dev = grub_fs_devname(w->fs);
	const char *of = grub_get(st, "config_file"),
		   *od = grub_get(st, "config_directory");
	const char *path = grub_btrfs_visible(st, w->fs, w->path);

	grub_set(st, "config_file", arena_printf(st->a, "(%s)%s", dev, path));
	grub_set(st, "config_directory",
		 arena_printf(st->a, "(%s)%s", dev, grub_dirname(st, path)));
	grub_exec_buffer(st, w->fs, w->path, buf, len);
	st->flow = GF_NONE;
	if (of)
		grub_set(st, "config_file", of);
	if (od)
		grub_set(st, "config_directory", od);
	return st->status;
}

/* True when @w is the config another run of grub_parse_fs() reads. */
static bool grub_defer(struct grub_state *st, const struct grub_where *w)
{
	const char *primary = grub_primary_config(w->fs);

	if (!primary || strcmp(primary, w->path))
		return false;
	return w->fs != st->ctx->fs || strcmp(st->top_path, w->path);
}

static int grub_configfile(struct grub_state *st, const struct grub_where *w,
			   const char *buf, size_t len)
{
	struct grub_menu *menu = st->menu,
			 *mine = arena_alloc(st->a, sizeof(*mine));
	struct grub_scope *scope = st->scope;

	grub_menu_init(mine);
	st->menu = mine;
	st->scope = grub_scope_exported(st, scope);
	grub_run_in(st, w, buf, len);
	if (mine->n || st->replaced) {
		st->replaced =
		    true; /* its menu is shown: the rest never runs */
		return 0;
	}
	st->menu = menu;
	st->scope = scope;
	return st->status;
}

/* `configfile` in a chosen entry: GRUB shows that file's menu (snapper's
 * snapshot entries on openSUSE load the snapshot's own grub.cfg). Its
 * items run in a context of the exported variables (configfile.c) and
 * become entries under the entry's title; the entry itself adds none.
 * $btrfs_subvol is the btrfs module's global in GRUB (SUSE's variable
 * hook), so it goes along exported or not. */
static int grub_configfile_entry(struct grub_state *st,
				 const struct grub_where *w, const char *buf,
				 size_t len)
{
	struct grub_menu *menu = st->menu,
			 *mine = arena_alloc(st->a, sizeof(*mine));
	struct grub_scope *scope = st->scope;
	struct grub_load *ld = st->load;
	const char *subvol = grub_get(st, "btrfs_subvol");

	grub_menu_init(mine);
	st->menu = mine;
	st->scope = grub_scope_exported(st, scope);
	if (subvol)
		grub_set(st, "btrfs_subvol", subvol);
	st->load = NULL;
	grub_run_in(st, w, buf, len);
	grub_menu_nested(st, mine, st->scope, ld->e->title);
	st->menu = menu;
	st->scope = scope;
	st->load = ld;
	ld->replaced = true;
	return 0;
}

int grub_source_file(struct grub_state *st, const char *arg, bool configfile)
{
	struct grub_where w;
	size_t len;
	char *buf;
	int rc;

	grub_where(st, arg, &w);
	if (!w.fs) {
		grub_warn(st, "cannot read %s: device %s not found", w.path,
			  w.dev ?: "?");
		return 1;
	}
	if (configfile && st->load && grub_defer(st, &w)) {
		st->load->replaced = true; /* that scan shows its entries */
		return 0;
	}
	if (configfile && grub_defer(st, &w)) {
		st->menu = arena_alloc(st->a, sizeof(*st->menu));
		grub_menu_init(st->menu);
		st->replaced = true;
		return 0;
	}
	if (st->include_depth >= CFG_INCLUDE_DEPTH) {
		grub_warn(st, "%s nested more than %d deep: %s not read",
			  configfile ? "configfile" : "source",
			  CFG_INCLUDE_DEPTH, w.path);
		return 1;
	}
	rc = grub_read(st, &w, FS_CONFIG_MAX, &buf, &len);
	if (rc < 0) {
		if (rc != -ECANCELED) /* cfg_budget() has said why */
			grub_warn(st, "cannot read %s: %s", w.path,
				  strerror(-rc));
		return 1;
	}
	st->include_depth++;
	if (configfile && st->load)
		rc = grub_configfile_entry(st, &w, buf, len);
	else
		rc = configfile ? grub_configfile(st, &w, buf, len)
				: grub_run_in(st, &w, buf, len);
	st->include_depth--;
	free(buf);
	return rc;
}

int grub_run_config(struct cfg_ctx *ctx, const char *path, const char *buf,
		    size_t len, long steps_max)
{
	struct grub_state st;
	struct grub_where w = {.fs = ctx->fs, .path = path};
	size_t before = ctx->out->count;

	grub_state_init(&st, ctx, path, steps_max);
	grub_run_in(&st, &w, buf, len);
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
