/* grub_source.c - `source` and `configfile`, and the run of one config
 * file (grub_source.h).
 *
 * `configfile` (grub-core/commands/configfile.c) runs the file in a new
 * context holding the exported variables, with a new menu that is shown
 * when it has entries. When a stub (an ESP's grub.cfg) leads to the
 * config another filesystem's own scan reads, that scan shows the
 * entries: the stub adds none, so they appear once.
 */
#include "cfg/grub_source.h"
#include "cfg/grub_btrfs.h"
#include "cfg/grub_exec.h"
#include "cfg/grub_menu.h"
#include "cfg/grub_path.h"
#include "cfg/grub_vars.h"
#include "scan/fs.h"
#include "util/arena.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* GRUB's read_config_file(): $config_file and $config_directory name the
 * file while it runs. */
int grub_source_run(struct grub_state *st, const struct grub_where *w,
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
	grub_source_run(st, w, buf, len);
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
	grub_source_run(st, w, buf, len);
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
		char why[256];

		if (rc != -ECANCELED) /* cfg_budget() has said why */
			grub_warn(
			    st, "cannot read %s: %s", w.path,
			    fs_strerror(w.fs, w.path, rc, why, sizeof(why)));
		return 1;
	}
	st->include_depth++;
	if (configfile && st->load)
		rc = grub_configfile_entry(st, &w, buf, len);
	else
		rc = configfile ? grub_configfile(st, &w, buf, len)
				: grub_source_run(st, &w, buf, len);
	st->include_depth--;
	free(buf);
	return rc;
}
