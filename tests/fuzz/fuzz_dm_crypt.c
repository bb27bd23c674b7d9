/* fuzz_dm_crypt.c - the dm-crypt request made from a table line
 * (vol_dm_crypt_table()) on arbitrary text: it either refuses or makes a
 * request that stays inside its buffer, whose one target's parameters are
 * the line's after "crypt ". */
#include "vol/dm.h"

#include <linux/dm-ioctl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static _Alignas(8) unsigned char buf[2048];
	const struct dm_ioctl *io = (const void *)buf;
	const struct dm_target_spec *t;
	char *line = malloc(size + 1);
	long used;

	if (!line)
		return 0;
	memcpy(line, data, size);
	line[size] = '\0';
	used = vol_dm_crypt_table(buf, sizeof(buf), "bootmenu-luks-x", line);
	if (used > 0) {
		t = (const void *)(buf + io->data_start);
		if ((size_t)used > sizeof(buf) || io->data_size != used ||
		    io->target_count != 1 ||
		    io->data_start + t->next != (uint32_t)used ||
		    strcmp(t->target_type, "crypt") ||
		    !strstr(line, (const char *)(t + 1)))
			__builtin_trap();
	}
	(void)vol_dm_crypt_check(line, line + size / 2, NULL, 0);
	free(line);
	return 0;
}
