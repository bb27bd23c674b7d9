/* btrfs.c - the default subvolume and subvolume paths, by ioctl.
 *
 * Why ioctls and not sysfs: /sys/fs/btrfs/<uuid>/ has no default
 * subvolume, and mountinfo names only what is mounted. The default is a
 * DIR_ITEM named "default" in the root tree under
 * BTRFS_ROOT_TREE_DIR_OBJECTID (btrfs_tree.h; `btrfs subvolume
 * set-default` writes it); a subvolume's place is its ROOT_BACKREF item
 * (parent id in the key's offset; directory inode and name in the item),
 * and BTRFS_IOC_INO_LOOKUP turns that directory into a path in the parent.
 */
#include "scan/btrfs.h"
#include "scan/fs.h"
#include "scan/mount.h"
#include "util/le.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/btrfs.h>
#include <linux/btrfs_tree.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* Subvolumes nested deeper than this are not followed (a loop guard). */
#define BTRFS_DEPTH_MAX 64
#define BTRFS_SH_LEN 32	      /* struct btrfs_ioctl_search_header */
#define BTRFS_DIR_ITEM_LEN 30 /* struct btrfs_dir_item, packed */
#define BTRFS_ROOT_REF_LEN 18 /* struct btrfs_root_ref, packed */

/* The search header is in host order (the kernel copies it out); the
 * item after it is on-disk little-endian. */
struct btrfs_hit {
	uint64_t objectid, offset;
	uint32_t type, len;
	const uint8_t *item;
};

static int btrfs_next_hit(const uint8_t *buf, size_t len, size_t *off,
			  struct btrfs_hit *h)
{
	uint64_t v[3];
	uint32_t tl[2];

	if (*off > len || len - *off < BTRFS_SH_LEN)
		return -EUCLEAN;
	memcpy(v, buf + *off, sizeof(v));
	memcpy(tl, buf + *off + sizeof(v), sizeof(tl));
	*off += BTRFS_SH_LEN;
	if (tl[1] > len - *off)
		return -EUCLEAN;
	h->objectid = v[1];
	h->offset = v[2];
	h->type = tl[0];
	h->len = tl[1];
	h->item = buf + *off;
	*off += tl[1];
	return 0;
}

/* The next of the @n items in buf[0..len) whose key type is @type, from
 * item *i at *off on: 0 with *h, -ENOENT past the last, -EUCLEAN. */
static int btrfs_next_of_type(const void *buf, size_t len, unsigned n,
			      unsigned *i, size_t *off, uint8_t type,
			      struct btrfs_hit *h)
{
	while (*i < n) {
		++*i;
		if (btrfs_next_hit(buf, len, off, h) < 0)
			return -EUCLEAN;
		if (h->type == type)
			return 0;
	}
	return -ENOENT;
}

int btrfs_find_default(const void *buf, size_t len, unsigned n, uint64_t *id)
{
	struct btrfs_hit h;
	size_t off = 0;
	unsigned i = 0;
	uint16_t nl;
	int rc;

	while (!(rc = btrfs_next_of_type(buf, len, n, &i, &off,
					 BTRFS_DIR_ITEM_KEY, &h))) {
		/* shorter than a dir_item: name_len may be read, but the
		 * length left for the name would wrap */
		if (h.len < BTRFS_DIR_ITEM_LEN ||
		    get_le16(h.item, h.len, 27, &nl) < 0 ||
		    nl > h.len - BTRFS_DIR_ITEM_LEN)
			return -EUCLEAN;
		if (nl == 7 &&
		    !memcmp(h.item + BTRFS_DIR_ITEM_LEN, "default", 7))
			return get_le64(h.item, h.len, 0, id) < 0 ? -EUCLEAN
								  : 0;
	}
	return rc;
}

int btrfs_find_backref(const void *buf, size_t len, unsigned n,
		       uint64_t *parent, uint64_t *dirid, char *name,
		       size_t size)
{
	struct btrfs_hit h;
	size_t off = 0;
	unsigned i = 0;
	uint16_t nl;
	int rc;

	rc = btrfs_next_of_type(buf, len, n, &i, &off, BTRFS_ROOT_BACKREF_KEY,
				&h);
	if (rc)
		return rc;
	if (get_le64(h.item, h.len, 0, dirid) < 0 ||
	    get_le16(h.item, h.len, 16, &nl) < 0 ||
	    nl > h.len - BTRFS_ROOT_REF_LEN)
		return -EUCLEAN;
	if (nl >= size)
		return -ENAMETOOLONG;
	memcpy(name, h.item + BTRFS_ROOT_REF_LEN, nl);
	name[nl] = '\0';
	*parent = h.offset;
	return 0;
}

/* The key right after @at's, in the order (objectid, type, offset). */
static int btrfs_cursor_next(struct btrfs_cursor *at)
{
	if (at->offset++ != UINT64_MAX)
		return 0;
	if (at->type++ != UINT8_MAX)
		return 0;
	at->type = 0;
	return at->objectid++ != UINT64_MAX ? 0 : -ERANGE;
}

int btrfs_find_subvols(const void *buf, size_t len, unsigned n, uint64_t *ids,
		       size_t max, size_t *count, struct btrfs_cursor *at)
{
	struct btrfs_hit h;
	size_t off = 0;

	for (unsigned i = 0; i < n; i++) {
		if (btrfs_next_hit(buf, len, &off, &h) < 0)
			return -EUCLEAN;
		*at = (struct btrfs_cursor){h.objectid, h.offset, h.type};
		if (h.type != BTRFS_ROOT_BACKREF_KEY || *count >= max ||
		    (*count && ids[*count - 1] == h.objectid))
			continue;
		ids[(*count)++] = h.objectid;
	}
	return n ? btrfs_cursor_next(at) : 0;
}

/* One key range of the root tree (tree 1). Returns the item count. */
static int btrfs_search(int fd, struct btrfs_ioctl_search_args *a,
			uint64_t objectid, uint32_t type)
{
	memset(&a->key, 0, sizeof(a->key));
	a->key.tree_id = BTRFS_ROOT_TREE_OBJECTID;
	a->key.min_objectid = a->key.max_objectid = objectid;
	a->key.min_type = a->key.max_type = type;
	a->key.max_offset = a->key.max_transid = UINT64_MAX;
	a->key.nr_items = 64;
	if (ioctl(fd, BTRFS_IOC_TREE_SEARCH, a) < 0)
		return -errno;
	return (int)a->key.nr_items;
}

/* Put "@dir@name/" in front of out[0..*used) (built from the end). */
static int btrfs_prepend(char *out, size_t size, size_t *used, const char *dir,
			 const char *name)
{
	size_t dl = strlen(dir), nl = strlen(name), add = dl + nl + 1;

	if (add > size - 1 - *used)
		return -ENAMETOOLONG;
	memmove(out + add, out, *used);
	memcpy(out, dir, dl);
	memcpy(out + dl, name, nl);
	out[dl + nl] = '/';
	*used += add;
	return 0;
}

static int btrfs_step_up(int fd, uint64_t *id, char *out, size_t size,
			 size_t *used)
{
	struct btrfs_ioctl_search_args a; /* 4 KiB; worker stacks are 256 */
	struct btrfs_ioctl_ino_lookup_args look = {0};
	char name[BTRFS_PATH_MAX];
	uint64_t parent, dirid;
	int n = btrfs_search(fd, &a, *id, BTRFS_ROOT_BACKREF_KEY), rc;

	if (n < 0)
		return n;
	rc = btrfs_find_backref(a.buf, sizeof(a.buf), (unsigned)n, &parent,
				&dirid, name, sizeof(name));
	if (rc < 0)
		return rc;
	look.treeid = parent;
	look.objectid = dirid;
	if (ioctl(fd, BTRFS_IOC_INO_LOOKUP, &look) < 0)
		return -errno;
	look.name[sizeof(look.name) - 1] = '\0';
	*id = parent;
	return btrfs_prepend(out, size, used, look.name, name);
}

/* The ioctls refuse O_PATH descriptors (EBADF): a readable one. */
static int btrfs_open(int top_fd)
{
	int fd = openat(top_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

static int btrfs_path_of(int fd, uint64_t id, char *out, size_t size)
{
	size_t used = 0;
	int rc = 0;

	if (size == 0)
		return -ENAMETOOLONG;
	for (int depth = 0; id != BTRFS_TOP_ID && rc == 0; depth++)
		rc = depth < BTRFS_DEPTH_MAX
			 ? btrfs_step_up(fd, &id, out, size, &used)
			 : -ELOOP;
	if (rc < 0)
		return rc;
	if (used)
		used--; /* the last component's '/' */
	out[used] = '\0';
	return 0;
}

int btrfs_subvol_path(int top_fd, uint64_t id, char *out, size_t size)
{
	int fd = btrfs_open(top_fd), rc;

	if (fd < 0)
		return fd;
	rc = btrfs_path_of(fd, id, out, size);
	close(fd);
	return rc;
}

static int btrfs_default_in(int fd, char *out, size_t size)
{
	struct btrfs_ioctl_search_args a;
	uint64_t id;
	int n = btrfs_search(fd, &a, BTRFS_ROOT_TREE_DIR_OBJECTID,
			     BTRFS_DIR_ITEM_KEY),
	    rc;

	if (n < 0)
		return n;
	rc = btrfs_find_default(a.buf, sizeof(a.buf), (unsigned)n, &id);
	if (rc < 0)
		return rc;
	/* mkfs writes the item pointing at the top level itself */
	if (id == 0)
		id = BTRFS_TOP_ID;
	return btrfs_path_of(fd, id, out, size);
}

/* The subvolumes' ids, from ROOT_BACKREF items of the root tree (the
 * search's range also holds ROOT_ITEM and ROOT_REF keys between them:
 * TREE_SEARCH compares whole keys; btrfs_find_subvols() skips those). */
static int btrfs_subvol_ids(int fd, uint64_t *ids, size_t max, size_t *count)
{
	struct btrfs_ioctl_search_args a;
	struct btrfs_cursor at = {BTRFS_FIRST_FREE_OBJECTID, 0,
				  BTRFS_ROOT_BACKREF_KEY};
	int n, rc = 0;

	*count = 0;
	while (rc == 0 && *count < max &&
	       at.objectid <= BTRFS_LAST_FREE_OBJECTID) {
		memset(&a.key, 0, sizeof(a.key));
		a.key.tree_id = BTRFS_ROOT_TREE_OBJECTID;
		a.key.min_objectid = at.objectid;
		a.key.min_type = at.type;
		a.key.min_offset = at.offset;
		a.key.max_objectid = BTRFS_LAST_FREE_OBJECTID;
		a.key.max_type = BTRFS_ROOT_BACKREF_KEY;
		a.key.max_offset = a.key.max_transid = UINT64_MAX;
		a.key.nr_items = 64;
		if (ioctl(fd, BTRFS_IOC_TREE_SEARCH, &a) < 0)
			return -errno;
		n = (int)a.key.nr_items;
		if (n == 0)
			break;
		rc = btrfs_find_subvols(a.buf, sizeof(a.buf), (unsigned)n, ids,
					max, count, &at);
	}
	return rc == -ERANGE ? 0 : rc;
}

/* Append @path and its NUL to the block *@list of *@len bytes. */
static int btrfs_append(char **list, size_t *len, const char *path)
{
	size_t pl = strlen(path) + 1;
	char *p = realloc(*list, *len + pl);

	if (!p)
		return -ENOMEM;
	memcpy(p + *len, path, pl);
	*list = p;
	*len += pl;
	return 0;
}

int btrfs_subvol_list(int top_fd, char **list, size_t *n)
{
	uint64_t ids[FS_SUBVOL_MAX];
	char path[BTRFS_PATH_MAX];
	size_t count, len = 0;
	int fd = btrfs_open(top_fd), rc;

	*list = NULL;
	*n = 0;
	if (fd < 0)
		return fd;
	rc = btrfs_subvol_ids(fd, ids, FS_SUBVOL_MAX, &count);
	for (size_t i = 0; rc == 0 && i < count; i++) {
		if (btrfs_path_of(fd, ids[i], path, sizeof(path)) < 0)
			continue;
		rc = btrfs_append(list, &len, path);
		*n += rc == 0;
	}
	close(fd);
	if (rc < 0) {
		free(*list);
		*list = NULL;
		*n = 0;
	}
	return rc;
}

int btrfs_default_path(int top_fd, char *out, size_t size)
{
	int fd = btrfs_open(top_fd), rc;

	if (fd < 0)
		return fd;
	rc = btrfs_default_in(fd, out, size);
	close(fd);
	return rc;
}

void btrfs_pick_root(int top_fd, const char *def, char *out)
{
	char sub[MOUNT_DETAIL_MAX], base[BTRFS_PATH_MAX];
	int fd;

	snprintf(base, sizeof(base), "%s", def); /* @out may be @def */
	snprintf(out, BTRFS_PATH_MAX, "%s", base);
	fd = *base ? openat(top_fd, base, O_PATH | O_DIRECTORY | O_CLOEXEC)
		   : dup(top_fd);
	if (fd < 0)
		return;
	mount_pick_root(fd, "btrfs", sub);
	close(fd);
	if (sub[0] && strlen(base) + strlen(sub) + 2 <= BTRFS_PATH_MAX) {
		if (*base)
			strcat(strcat(out, "/"), sub);
		else
			strcpy(out, sub);
	}
}
