/* bzimage.h - what a bzImage's start says about the kernel it holds: its
 * kernel_version string (Documentation/arch/x86/boot.rst), and so whether
 * it is bootmenu itself.
 *
 * Only reads the caller's buffer, every field through get_le*() with
 * bounds checks, so any bytes are safe to pass; nothing is allocated.
 * Loading a bzImage is the kexec room's (kexec/bzimage.h).
 */
#ifndef BM_FORMAT_BZIMAGE_H
#define BM_FORMAT_BZIMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* How much of a file's start to read for these: the string lies in the
 * setup code, at most (setup_sects + 1) * 512 bytes. */
#define BZIMAGE_HEAD_READ (64u * 1024)

/* bootmenu's kernel release holds it: the kernel fragment sets
 * CONFIG_LOCALVERSION="-bootmenu" ("6.1.0-bootmenu (...) #1 ..."). */
#define BZIMAGE_BOOTMENU_MARKER "-bootmenu"

/* The kernel_version string of the bzImage whose start is buf[0..n):
 * "HdrS" at 0x202, a boot protocol of 2.00 or later at 0x206, and at
 * 0x20e the string's offset minus 0x200, not 0. On success *ver points
 * at the string in @buf and *len is its length, up to its NUL or the end
 * of @buf; returns 0. Returns -ENOEXEC when @buf is not a bzImage's
 * start (or ends inside those fields), -ENOENT when it names no string
 * or one that starts beyond @buf. */
int bzimage_kernel_version(const uint8_t *buf, size_t n, const char **ver,
			   size_t *len);

/* Whether the bzImage whose start is buf[0..n) is bootmenu: its
 * kernel_version string holds BZIMAGE_BOOTMENU_MARKER. False for any
 * other bytes. */
bool bzimage_is_bootmenu(const uint8_t *buf, size_t n);

/* The same for the open file @fd, whose first BZIMAGE_HEAD_READ bytes
 * are read (from its current offset); false when they cannot be. @fd
 * stays the caller's. */
bool bzimage_fd_is_bootmenu(int fd);

#endif
