/* fuzz_bzimage_version.c - any bytes as a bzImage's start: its
 * kernel_version string (format/bzimage.h) must lie inside the buffer,
 * hold no NUL and end at one or at the buffer's end; and bootmenu is
 * named by that string alone. */
#include "format/bzimage.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *v = NULL, *base = (const char *)data;
	size_t len = 0;
	int rc = bzimage_kernel_version(data, size, &v, &len);
	bool named;

	if (rc != 0 && rc != -ENOEXEC && rc != -ENOENT)
		abort();
	if (rc == 0 &&
	    (v < base || v >= base + size || len > size - (size_t)(v - base) ||
	     memchr(v, '\0', len) || (v + len < base + size && v[len] != '\0')))
		abort();
	named = rc == 0 && memmem(v, len, BZIMAGE_BOOTMENU_MARKER,
				  strlen(BZIMAGE_BOOTMENU_MARKER));
	if (bzimage_is_bootmenu(data, size) != named)
		abort();
	return 0;
}
