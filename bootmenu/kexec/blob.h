/* blob.h - read a kernel, or several initrds back to back, into memory.
 *
 * Reads already-open fds (from fs_open() or open()) so the caller decides
 * where files come from. The buffer is fresh memory faulted in at once
 * (MAP_POPULATE: under emulation (TCG) page faults one at a time are what
 * a 40 MiB initrd costs most), filled with read(); the caller releases it
 * with kexec_blob_free(). Never a mapping of the file itself: a page
 * there that cannot be read, because the USB stick was pulled during the
 * load, kills the process with SIGBUS, where read() says EIO.
 */
#ifndef BM_KEXEC_BLOB_H
#define BM_KEXEC_BLOB_H

#include <stddef.h>

#include "kexec/plan.h"

/* Largest file one blob may hold (a kernel or an initrd): 2 GiB. */
#define KEXEC_BLOB_MAX (2ull << 30)

struct kexec_progress {
	void (*fn)(void *data, unsigned long long done,
		   unsigned long long total);
	void *data;
	unsigned long long done, total; /* total: set by the caller */
};

/* Total size of the regular files @fds[0..n) as kexec_blob_read() lays
 * them out (each padded to 4 bytes, as GRUB does for initrds). Returns 0
 * or -errno (-EFBIG past KEXEC_BLOB_MAX). */
int kexec_blob_size(const int *fds, size_t n, unsigned long long *size);

/* Concatenate @fds[0..n) into one buffer, each file padded with zeros to
 * a multiple of 4 bytes (cpio archives may follow each other that way);
 * a single file is not padded. Reports to @pr (may be NULL). Returns 0,
 * or -errno (-EIO for a short file, -EFBIG, -ENOMEM). The fds may be
 * closed afterwards; the buffer stays valid until kexec_blob_free(). */
int kexec_blob_read(const int *fds, size_t n, struct kexec_progress *pr,
		    struct kexec_blob *out);

/* Add @more[0..len) at the end of @b, a buffer of kexec_blob_read() or an
 * empty blob, after zeros up to a multiple of 4 bytes (a cpio archive
 * appended to initrds, as kexec_blob_read() lays several out). The
 * mapping grows in place where it can (mremap), so the bytes already
 * read are not copied. Returns 0 or -ENOMEM (@b unchanged). */
int kexec_blob_append(struct kexec_blob *b, const void *more, size_t len);

/* Release a buffer of kexec_blob_read() (an empty blob is fine). */
void kexec_blob_free(struct kexec_blob *b);

#endif
