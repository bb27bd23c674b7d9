/* fuzz_syslinux.c - the syslinux parser on any config text. The input is
 * written as /syslinux.cfg of a scratch directory, so INCLUDE, CONFIG and
 * loops through the file itself are exercised too. */
#include "cfg/syslinux.h"
#include "entry.h"
#include "scan/fs.h"
#include "util/arena.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[] = "/tmp/fuzz-syslinux-XXXXXX";
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
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/syslinux.cfg", dir);
	f = fopen(path, "w");
	if (!f)
		return 0;
	fwrite(data, 1, size, f);
	fclose(f);
	entry_list_init(&out, &a);
	syslinux_parse_fs(&ctx);
	syslinux_parse_buf(&ctx, "/isolinux/isolinux.cfg", NULL, (const char *)data, size);
	arena_free(&a);
	return 0;
}
