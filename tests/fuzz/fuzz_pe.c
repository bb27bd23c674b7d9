/* fuzz_pe.c - the PE section reader and the UKI reader on any bytes. A
 * section it reports must lie inside the buffer. */
#include "cfg/uki.h"
#include "entry/entry.h"
#include "scan/fs.h"
#include "util/arena.h"
#include "format/pe.h"

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = {
	    ".linux", ".initrd", ".cmdline", ".osrel", ".uname", ".sbat", ""};
	struct arena a = ARENA_INIT;
	struct entry_list out;
	struct fs_root fs = {.root_fd = -1, .name = "fuzz"};
	struct cfg_ctx ctx = {&a, &fs, NULL, 0, &out};
	struct entry *e;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		size_t off, len;

		if (pe_find_section(data, size, names[i], &off, &len) == 0 &&
		    (off > size || len > size - off))
			abort();
		pe_locate_section(data, size, names[i], &off, &len);
	}
	entry_list_init(&out, &a);
	uki_parse_mem(&ctx, "/EFI/Linux/fuzz+1-2.efi", data, size, &e);
	arena_free(&a);
	return 0;
}
