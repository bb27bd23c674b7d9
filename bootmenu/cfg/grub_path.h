/* grub_path.h - where a GRUB path lives: devices, "(dev)/path", $root
 * (grub_path.c). Strings returned are owned by st->a. */
#ifndef BM_CFG_GRUB_PATH_H
#define BM_CFG_GRUB_PATH_H

#include "cfg/grub_state.h"

/* Split "(dev)/path" (or "/path" on $root) and find the filesystem. */
void grub_where(struct grub_state *st, const char *arg, struct grub_where *w);
/* The name `search` gives a filesystem (and $root starts as). */
const char *grub_fs_devname(const struct fs_root *fs);
/* The directory part of @path ("" for "/x"). */
const char *grub_dirname(struct grub_state *st, const char *path);
/* The entry_file.dev for @w seen from entry filesystem @home. */
const char *grub_where_dev(struct grub_state *st, const struct grub_where *w,
			   const struct fs_root *home);
/* Read @w's file (capped at @max) into *buf, which the caller frees.
 * Returns 0 or -errno; -ECANCELED past cfg_budget(), which has warned. */
int grub_read(struct grub_state *st, const struct grub_where *w, size_t max,
	      char **buf, size_t *len);
/* The config grub_parse_fs() reads on @fs, or NULL. */
const char *grub_primary_config(const struct fs_root *fs);

#endif
