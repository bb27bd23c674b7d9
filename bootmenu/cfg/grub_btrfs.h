/* grub_btrfs.h - GRUB's paths on btrfs (grub_btrfs.c says how GRUB and
 * SUSE's patches name them). Strings returned are owned by st->a. */
#ifndef BM_CFG_GRUB_BTRFS_H
#define BM_CFG_GRUB_BTRFS_H

#include "cfg/grub_state.h"

/* Is $btrfs_relative_path on ('y' or '1' first, as SUSE's patch reads)? */
bool grub_btrfs_relative(struct grub_state *st);
/* @w (on a filesystem with ->btrfs) from GRUB's view to the filesystem
 * the file is on: home when inside it, else the top level. */
void grub_btrfs_where(struct grub_state *st, struct grub_where *w);
/* The path GRUB would name @path on @fs by ($config_file, $prefix):
 * from the top level, or from the default subvolume when relative paths
 * are on. @path itself when @fs is no btrfs. */
const char *grub_btrfs_visible(struct grub_state *st, const struct fs_root *fs,
			       const char *path);
/* Is @path (absolute, GRUB's view) a file on @fs? `search --file`. */
bool grub_has_file(struct grub_state *st, const struct fs_root *fs,
		   const char *path);
/* @w's filesystem when it is a btrfs top level, else NULL: the
 * entry_file.fs to set beside the spec, so that the entry room keeps the
 * file there (entry.c resolve_file()). */
const struct fs_root *grub_where_top(const struct grub_where *w);
/* `btrfs-mount-subvol DEV DIR SUBVOL`: a command of grub_cmd.c's table. */
int grub_cmd_btrfs_mount_subvol(struct grub_state *st, const char *const *argv,
				size_t argc);

#endif
