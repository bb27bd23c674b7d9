/* fuzz_btrfs_search.c - scan/btrfs.c's readers of a BTRFS_IOC_TREE_SEARCH
 * result (search headers and on-disk items the kernel copied from the
 * disk) on any bytes: the "default" dir item and a ROOT_BACKREF. */
#include "scan/btrfs.h"

#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char name[BTRFS_PATH_MAX];
	uint64_t id, parent, dirid;
	unsigned n = size ? data[0] : 0;

	if (size)
		data++, size--;
	btrfs_find_default(data, size, n, &id);
	btrfs_find_backref(data, size, n, &parent, &dirid, name, sizeof(name));
	btrfs_find_backref(data, size, n, &parent, &dirid, name, 4);
	return 0;
}
