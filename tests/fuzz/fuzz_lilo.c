/* fuzz_lilo.c - the lilo.conf parser on any text. */
#include "cfg/lilo.h"
#include "fuzz.h"

#include <stdint.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	fz_root_init("fuzz-lilo");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz z;

	fz_begin(&z);
	lilo_parse_buf(&z.ctx, "/etc/lilo.conf", (const char *)data, size);
	fz_end(&z);
	return 0;
}
