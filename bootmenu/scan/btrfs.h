/* btrfs.h - which subvolume of a btrfs filesystem is its default, and
 * where each subvolume sits, read from a mount of the top level.
 *
 * GRUB reads btrfs from the top level (subvolume id 5) unless a config
 * says btrfs_relative_path=y (then from the default subvolume). The scan
 * mounts the top level read-only (subvolid=5) and asks the kernel for the
 * default subvolume's path, so both views are reachable. The ioctls need
 * CAP_SYS_ADMIN (BTRFS_IOC_TREE_SEARCH). Only btrfs_subvol_list()
 * allocates (its list); thread-safe.
 */
#ifndef BM_BTRFS_H
#define BM_BTRFS_H

#include <stddef.h>
#include <stdint.h>

/* Longest subvolume path kept ("@/.snapshots/12/snapshot"). */
#define BTRFS_PATH_MAX 512
/* The top level's subvolume id (BTRFS_FS_TREE_OBJECTID). */
#define BTRFS_TOP_ID 5

/* The path of the default subvolume inside the top level mounted at
 * @top_fd, without a leading '/': "" when the top level is the default,
 * "@/.snapshots/1/snapshot" on openSUSE. @out holds @size bytes.
 * Returns 0 or -errno: -ENOTTY (not btrfs), -EPERM (no CAP_SYS_ADMIN),
 * -ENOENT (no "default" item: the top level), -ENAMETOOLONG. */
int btrfs_default_path(int top_fd, char *out, size_t size);

/* The path of subvolume @id inside the top level mounted at @top_fd,
 * as btrfs_default_path() writes it. Returns 0 or -errno. */
int btrfs_subvol_path(int top_fd, uint64_t id, char *out, size_t size);

/* Every subvolume's path inside the top level mounted at @top_fd, as
 * btrfs_default_path() writes them, in order of their ids: *@list is one
 * malloc'd block of *@n NUL-terminated paths one after another (NULL when
 * none), which the caller frees. At most FS_SUBVOL_MAX (scan/fs.h): past
 * it, the subvolumes with higher ids are not listed. A subvolume whose
 * path cannot be had (too long) is left out. Returns 0 or -errno (as
 * btrfs_default_path()). */
int btrfs_subvol_list(int top_fd, char **list, size_t *n);

/* Pure parsers of a BTRFS_IOC_TREE_SEARCH result (@n items in
 * buf[0..len), each a search header and the item's bytes), for the tests
 * and the fuzz target. */

/* The subvolume id of the first DIR_ITEM named "default". Returns 0,
 * -ENOENT when none, -EUCLEAN when an item is cut short. */
int btrfs_find_default(const void *buf, size_t len, unsigned n, uint64_t *id);

/* From the first ROOT_BACKREF item: the parent subvolume (the key's
 * offset), the directory inode in it, and the name (NUL-terminated in
 * @name of @size bytes). Returns 0, -ENOENT, -EUCLEAN, -ENAMETOOLONG. */
int btrfs_find_backref(const void *buf, size_t len, unsigned n,
		       uint64_t *parent, uint64_t *dirid, char *name,
		       size_t size);

/* Where a search of the root tree goes on: the key after the last item
 * seen (items come in key order). */
struct btrfs_cursor {
	uint64_t objectid, offset;
	uint32_t type;
};

/* The subvolumes that the ROOT_BACKREF items name (the keys' objectids)
 * appended to ids[*count..max), each once (*count grows), and @at moved
 * past the last item. Returns 0, -EUCLEAN when an item is cut short,
 * -ERANGE when the last key is the largest there is. */
int btrfs_find_subvols(const void *buf, size_t len, unsigned n, uint64_t *ids,
		       size_t max, size_t *count, struct btrfs_cursor *at);

/* The directory inside the top level mounted at @top_fd that a
 * distribution's root is in: the default subvolume, or a common layout
 * ("@", "@rootfs", "root") inside it when the default has no /boot (see
 * mount_pick_root()). @def is btrfs_default_path()'s answer; @out holds
 * BTRFS_PATH_MAX bytes ("" for the top level itself). */
void btrfs_pick_root(int top_fd, const char *def, char *out);

#endif
