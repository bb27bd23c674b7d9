/* file.h - small files read whole: sysfs attributes, /proc files.
 *
 * Nothing here allocates: the caller's buffer takes the bytes.
 */
#ifndef BM_UTIL_FILE_H
#define BM_UTIL_FILE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Read the file @path (relative to the directory fd @dirfd, or to the
 * working directory with AT_FDCWD) into @buf: at most @cap - 1 bytes,
 * then a NUL. What does not fit is left unread: made for files of a page
 * or less (a sysfs attribute is at most one). The text is kept as it is,
 * newline included. @buf belongs to the caller; it ends in a NUL even
 * after an error. Returns 0, or -errno (-EINVAL when @cap is 0). */
int util_read_small(int dirfd, const char *path, char *buf, size_t cap);

/* Read from @fd into buf[0..cap) until @cap bytes or the end of the
 * file, going on after EINTR and short reads. Returns the bytes read, or
 * -errno. */
ssize_t util_read_full(int fd, void *buf, size_t cap);

/* The same with pread() from byte @off of @fd: the file position is left
 * alone. Returns the bytes read (fewer than @cap only at the end), or
 * -errno. */
ssize_t util_pread_full(int fd, void *buf, size_t cap, uint64_t off);

/* The value of the line "@key   N kB" of a /proc/meminfo text (proc(5):
 * one "Name:   value kB" per line; @key with its colon, matched at a
 * line's start), in KiB; 0 when there is no such line or no number. */
uint64_t util_meminfo_kib(const char *text, const char *key);

/* The same read from the meminfo file @path (its first 4 KiB). */
uint64_t util_meminfo_read_kib(const char *path, const char *key);

#endif
