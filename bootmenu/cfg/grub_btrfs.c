/* grub_btrfs.c - GRUB's paths on btrfs.
 *
 * Upstream GRUB starts every btrfs path at the top level, subvolume id 5
 * (grub-core/fs/btrfs.c get_root()), so grub-mkconfig writes
 * "/@/boot/vmlinuz-..." on Ubuntu (grub-mkrelpath adds the subvolume).
 * SUSE's patches (grub2-btrfs-01..06, also in Fedora's grub2) add:
 * - btrfs_relative_path: when it starts with 'y' or '1', paths start at
 *   $btrfs_subvol when that is set (a path from the top level), else at
 *   the default subvolume (find_path() follows the "default" dir item);
 * - btrfs-mount-subvol DEV DIR SUBVOL: with relative paths on, a path
 *   that begins with DIR (the longest such DIR) is looked up in SUBVOL
 *   with the rest (find_mtab_subvol_tree()). openSUSE's
 *   80_suse_btrfs_snapshot writes one for /.snapshots.
 * Here a path becomes one inside the top level, and then a path on the
 * filesystem parsers see when it lies inside that (the entries' kernels
 * then match the bare-kernel scan's), else on the top level.
 */
#include "cfg/grub_btrfs.h"
#include "cfg/grub_vars.h"
#include "scan/fs.h"
#include "util/arena.h"

#include <string.h>

struct grub_btrfs_mount {
	struct grub_btrfs_mount *next;
	const char *dir;    /* "/.snapshots", cleaned */
	const char *subvol; /* "@/.snapshots", no leading or trailing '/' */
};

/* @s without leading and trailing '/', in @st's arena. */
static const char *grub_btrfs_trim(struct grub_state *st, const char *s)
{
	size_t n;

	while (*s == '/')
		s++;
	n = strlen(s);
	while (n && s[n - 1] == '/')
		n--;
	return arena_strndup(st->a, s, n);
}

/* Does @path begin with the directory @dir ("/a" begins "/a" and "/a/b",
 * not "/ab")? Then *rest is what follows. */
static bool grub_btrfs_under(const char *path, const char *dir,
			     const char **rest)
{
	size_t n = strlen(dir);

	while (n && dir[n - 1] == '/')
		n--;
	if (strncmp(path, dir, n) || (path[n] && path[n] != '/'))
		return false;
	*rest = path + n;
	return true;
}

bool grub_btrfs_relative(struct grub_state *st)
{
	const char *rel = grub_get(st, "btrfs_relative_path");

	return rel && (rel[0] == 'y' || rel[0] == '1');
}

/* The subvolume (a path in the top level) @path starts in, and the rest
 * of @path inside it. */
static const char *grub_btrfs_base(struct grub_state *st,
				   const struct fs_btrfs *b, const char *path,
				   const char **rest)
{
	const struct grub_btrfs_mount *best = NULL;
	const char *r, *sv;

	*rest = path;
	if (!grub_btrfs_relative(st))
		return "";
	for (const struct grub_btrfs_mount *m = st->btrfs_mounts; m;
	     m = m->next)
		if (grub_btrfs_under(path, m->dir, &r) &&
		    (!best || strlen(m->dir) > strlen(best->dir))) {
			best = m;
			*rest = r;
		}
	if (best)
		return best->subvol;
	sv = grub_get(st, "btrfs_subvol");
	return sv && *sv ? grub_btrfs_trim(st, sv) : b->default_path;
}

void grub_btrfs_where(struct grub_state *st, struct grub_where *w)
{
	const struct fs_btrfs *b = w->fs->btrfs;
	const char *rest, *base = grub_btrfs_base(st, b, w->path, &rest);
	const char *full =
	    *base ? arena_printf(st->a, "/%s%s", base, rest) : w->path;
	const char *in_home;

	if (!*b->home_path) {
		w->fs = b->home;
		w->path = full;
	} else if (grub_btrfs_under(full + 1, b->home_path, &in_home)) {
		w->fs = b->home;
		w->path = *in_home ? in_home : "/";
	} else {
		w->fs = b->top;
		w->path = full;
	}
}

bool grub_has_file(struct grub_state *st, const struct fs_root *fs,
		   const char *path)
{
	struct grub_where w = {.fs = fs, .path = path};

	if (fs->btrfs && path[0] == '/')
		grub_btrfs_where(st, &w);
	return fs_is_file(w.fs, w.path);
}

const struct fs_root *grub_where_top(const struct grub_where *w)
{
	const struct fs_root *fs = w->fs;

	return fs && fs->btrfs && fs == fs->btrfs->top ? fs : NULL;
}

const char *grub_btrfs_visible(struct grub_state *st, const struct fs_root *fs,
			       const char *path)
{
	const struct fs_btrfs *b = fs->btrfs;
	const char *full, *rest;

	if (!b || fs == b->top || !*b->home_path)
		full = path;
	else
		full = arena_printf(st->a, "/%s%s", b->home_path,
				    strcmp(path, "/") ? path : "");
	if (!b || !grub_btrfs_relative(st))
		return full;
	/* relative paths on: through a btrfs-mount-subvol directory, else
	 * as seen from the default subvolume */
	for (const struct grub_btrfs_mount *m = st->btrfs_mounts; m;
	     m = m->next)
		if (*m->subvol && grub_btrfs_under(full + 1, m->subvol, &rest))
			return arena_printf(st->a, "%s%s", m->dir, rest);
	if (*b->default_path &&
	    grub_btrfs_under(full + 1, b->default_path, &rest))
		return *rest ? rest : "/";
	return full;
}

int grub_cmd_btrfs_mount_subvol(struct grub_state *st, const char *const *argv,
				size_t argc)
{
	struct grub_btrfs_mount *m;

	if (argc < 4) {
		grub_warn(st, "%s needs a device, a directory and a subvolume",
			  argv[0]);
		return 1;
	}
	m = arena_alloc(st->a, sizeof(*m));
	m->dir = arena_printf(st->a, "/%s", grub_btrfs_trim(st, argv[2]));
	m->subvol = grub_btrfs_trim(st, argv[3]);
	m->next = st->btrfs_mounts;
	st->btrfs_mounts = m;
	return 0;
}
