/* bzimage.c - a bzImage's kernel_version string (bzimage.h).
 *
 * boot.rst, "The Real-Mode Kernel Header": the header signature "HdrS"
 * at 0x202 and the protocol version at 0x206 (2.00 and later have the
 * header at all); kernel_version at 0x20e, "if set to a nonzero value,
 * contains a pointer to a NUL-terminated human-readable kernel version
 * number string, less 0x200", which lies in the setup code.
 */
#include "format/bzimage.h"
#include "util/file.h"
#include "util/le.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define BZV_HDRS 0x53726448u /* "HdrS" */
#define BZV_HEADER 0x202
#define BZV_VERSION 0x206
#define BZV_KERNEL_VERSION 0x20e
#define BZV_MIN_VERSION 0x0200
#define BZV_STRING_BASE 0x200

int bzimage_kernel_version(const uint8_t *buf, size_t n, const char **ver,
			   size_t *len)
{
	uint32_t magic;
	uint16_t version, kver;
	size_t off;

	if (get_le32(buf, n, BZV_HEADER, &magic) || magic != BZV_HDRS ||
	    get_le16(buf, n, BZV_VERSION, &version) ||
	    version < BZV_MIN_VERSION ||
	    get_le16(buf, n, BZV_KERNEL_VERSION, &kver))
		return -ENOEXEC;
	off = (size_t)kver + BZV_STRING_BASE;
	if (!kver || off >= n)
		return -ENOENT;
	*ver = (const char *)buf + off;
	*len = strnlen(*ver, n - off);
	return 0;
}

bool bzimage_is_bootmenu(const uint8_t *buf, size_t n)
{
	const char *ver;
	size_t len;

	return bzimage_kernel_version(buf, n, &ver, &len) == 0 &&
	       memmem(ver, len, BZIMAGE_BOOTMENU_MARKER,
		      strlen(BZIMAGE_BOOTMENU_MARKER)) != NULL;
}

bool bzimage_fd_is_bootmenu(int fd)
{
	uint8_t *buf = malloc(BZIMAGE_HEAD_READ);
	ssize_t n = buf ? util_read_full(fd, buf, BZIMAGE_HEAD_READ) : -1;
	bool yes = n > 0 && bzimage_is_bootmenu(buf, (size_t)n);

	free(buf);
	return yes;
}
