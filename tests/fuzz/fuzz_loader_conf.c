/* fuzz_loader_conf.c - loader.conf text, and its default pattern matched
 * against a few entry ids. */
#include "cfg/bls.h"
#include "cfg/loader_conf.h"
#include "entry/entry.h"
#include "scan/fs.h"
#include "util/arena.h"

#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arena a = ARENA_INIT;
	struct entry_list out;
	struct fs_root fs = {.root_fd = -1, .name = "fuzz"};
	struct cfg_ctx ctx = {&a, &fs, NULL, 0, &out};
	struct loader_conf lc = {NULL, -1};
	struct entry *v[3];
	static const char *const ids[] = {"arch.conf", "fedora-6.5.conf",
					  "linux.efi"};

	entry_list_init(&out, &a);
	loader_conf_parse(&ctx, "/loader/loader.conf", (const char *)data, size,
			  &lc);
	for (int i = 0; i < 3; i++) {
		v[i] = entry_new(&out, FMT_BLS, &fs);
		v[i]->id = ids[i];
	}
	if (bls_pick_default(v, 3, lc.default_pattern) < 0)
		__builtin_trap();
	arena_free(&a);
	return 0;
}
