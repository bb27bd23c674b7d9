/* fuzz_lilo.c - the lilo.conf parser on any text. */
#include "cfg/lilo.h"
#include "entry.h"
#include "scan/fs.h"
#include "util/arena.h"

#include <stdint.h>
#include <stdlib.h>

static char dir[] = "/tmp/fuzz-lilo-XXXXXX";
static struct fs_root fs;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	if (!mkdtemp(dir))
		abort();
	fs.root_fd = -1;
	fs.name = "fuzz";
	return fs_root_open_dir(&fs, dir) ? -1 : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arena a = ARENA_INIT;
	struct entry_list out;
	const struct fs_root *all[1] = { &fs };
	struct cfg_ctx ctx = { &a, &fs, all, 1, &out };

	entry_list_init(&out, &a);
	lilo_parse_buf(&ctx, "/etc/lilo.conf", (const char *)data, size);
	arena_free(&a);
	return 0;
}
