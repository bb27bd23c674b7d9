/* blob.h - read a kernel, or several initrds back to back, into memory.
 *
 * Reads already-open fds (from fs_open() or open()) so the caller decides
 * where files come from. The buffer is a private mapping: of the file
 * itself when there is one file (no copy: the page cache's pages), else
 * of fresh memory faulted in at once; the caller releases it with
 * kexec_blob_free(). Under emulation (TCG) page faults are what a 40 MiB
 * initrd costs most, so neither path takes them one page at a time.
 */
#ifndef BM_KEXEC_BLOB_H
#define BM_KEXEC_BLOB_H

#include <stddef.h>

#include "kexec/plan.h"

/* Largest file one blob may hold (a kernel or an initrd): 2 GiB. */
#define KEXEC_BLOB_MAX (2ull << 30)

struct kexec_progress {
	void (*fn)(void *data, unsigned long long done, unsigned long long total);
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

/* Release a buffer of kexec_blob_read() (an empty blob is fine). */
void kexec_blob_free(struct kexec_blob *b);

#endif
