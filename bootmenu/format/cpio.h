/* cpio.h - write a cpio archive in the "newc" format the kernel unpacks
 * as an initramfs (Documentation/driver-api/early-userspace/
 * buffer-format.rst), for files bootmenu hands to a target's initramfs.
 *
 * The archive is built in memory the caller owns: cpio_add_*() append
 * to it, cpio_finish() writes the trailer. Entries get mtime 0, uid and
 * gid 0, and inode numbers counted from 1, so the same files give the
 * same bytes at every boot.
 */
#ifndef BM_FORMAT_CPIO_H
#define BM_FORMAT_CPIO_H

#include <stddef.h>

struct cpio {
	char *buf; /* malloc'd; the caller frees it with cpio_free() */
	size_t len, cap;
	unsigned ino;
	int rc; /* the first failure (-ENOMEM, -EINVAL), kept to the end */
};

/* A directory @path ("a/b", no leading slash) with @mode (e.g. 0755). */
void cpio_add_dir(struct cpio *c, const char *path, unsigned mode);

/* A regular file @path with @data[0..len) and @mode (e.g. 0400). */
void cpio_add_file(struct cpio *c, const char *path, const void *data,
		   size_t len, unsigned mode);

/* The trailer. Returns 0, or the first failure of the archive's making
 * (-ENOMEM, or -EINVAL for a name or file too large for the format). */
int cpio_finish(struct cpio *c);

void cpio_free(struct cpio *c);

#endif
