/* fuzz_btrfs_search.c - scan/btrfs.c's readers of a BTRFS_IOC_TREE_SEARCH
 * result (search headers and on-disk items the kernel copied from the
 * disk) on any bytes: the "default" dir item, a ROOT_BACKREF, and every
 * ROOT_BACKREF with the cursor after the last item. */
#include "scan/btrfs.h"

#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char name[BTRFS_PATH_MAX];
	uint64_t id, parent, dirid, ids[4];
	struct btrfs_cursor at = {0, 0, 0};
	unsigned n = size ? data[0] : 0;
	size_t count = 0;

	if (size)
		data++, size--;
	btrfs_find_default(data, size, n, &id);
	btrfs_find_backref(data, size, n, &parent, &dirid, name, sizeof(name));
	btrfs_find_backref(data, size, n, &parent, &dirid, name, 4);
	btrfs_find_subvols(data, size, n, ids, 4, &count, &at);
	return 0;
}
