/* resolve.h - the end of a parse: each file's filesystem found among those
 * present, then the list finished (entry.h entry_finish()). */
#ifndef BM_CFG_RESOLVE_H
#define BM_CFG_RESOLVE_H

#include <stddef.h>

struct entry_list;
struct fs_root;

/* Resolve every entry_file of @l: a file with a device spec (UUID=,
 * LABEL=, PARTUUID=, PARTLABEL=, a device path or name: scan/fs.h
 * fs_find()) is on the filesystem of @fss that answers to it, or on none
 * (NULL: not present now); one without is on its entry's filesystem; a
 * file a parser put on a btrfs top level stays there while its spec
 * still finds that filesystem. Then entry_finish(@l). Runs at every list
 * rebuild: it allocates nothing. */
void cfg_finish(struct entry_list *l, const struct fs_root *const *fss,
		size_t n_fss);

#endif
