/* bls.h - Boot Loader Specification entries, shared with grub's blscfg.
 *
 * Fedora/RHEL grub.cfg runs `blscfg`, which reads the same
 * .conf files in /loader/entries; grub's interpreter calls bls_collect()
 * with an expander so `$kernelopts` and other grub variables in `options`
 * lines take grub's values.
 */
#ifndef BM_CFG_BLS_H
#define BM_CFG_BLS_H

#include "cfg/cfg.h"

/* Expand grub variables in @s; returns a string owned by the arena, or
 * @s itself. */
typedef const char *(*bls_expand_fn)(void *data, const char *s);

/* Read the .conf files of @dir on ctx->fs, append the entries in the
 * specification's order (sort-key, machine-id, version descending, id; no
 * tries left last) to ctx->out with format @fmt. @expand may be NULL; with
 * one, `options` and `initrd` values are expanded and `initrd` is split at
 * blanks, as grub's blscfg does. Each entry's id is the file name with the
 * boot counter removed and ".conf" kept (systemd-boot's id; Fedora's
 * saved_entry is that without ".conf"); no entry is marked default.
 * Returns the number of entries added, or -errno when @dir cannot be
 * listed. */
int bls_collect(struct cfg_ctx *ctx, const char *dir, enum entry_format fmt,
		bls_expand_fn expand, void *data);

#endif
