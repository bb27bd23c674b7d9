/* fuzz_grubenv.c - the GRUB environment block reader on any input. */
#include "cfg/grub_env.h"

#include <stdint.h>
#include <string.h>

static int fz_var(void *data, const char *name, const char *value)
{
	size_t *n = data;

	*n += strlen(name) + strlen(value);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t n = 0;

	grub_env_parse((const char *)data, size, fz_var, &n);
	return 0;
}
