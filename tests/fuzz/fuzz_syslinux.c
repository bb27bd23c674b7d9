/* fuzz_syslinux.c - the syslinux parser on any config text. The input is
 * written as /syslinux.cfg of a scratch directory, so INCLUDE, CONFIG and
 * loops through the file itself are exercised too. */
#include "cfg/syslinux.h"
#include "fuzz.h"

#include <stdint.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	fz_root_init("fuzz-syslinux");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz z;

	if (fz_write("/syslinux.cfg", data, size))
		return 0;
	fz_begin(&z);
	syslinux_parse_fs(&z.ctx);
	syslinux_parse_buf(&z.ctx, "/isolinux/isolinux.cfg", NULL,
			   (const char *)data, size);
	fz_end(&z);
	return 0;
}
