/* unpack.h - a kernel file compressed as a whole, made loadable.
 *
 * Some kernels come compressed from the outside: a vmlinux.gz, or a raw
 * kernel behind a gzip header (an x86 bzImage decompresses itself and
 * needs nothing). The format is found by its magic bytes, never by the
 * file name. gzip is inflated (format/inflate); xz, zstd, bzip2, lz4 and
 * lzop are refused with a sentence saying how to decompress the file.
 */
#ifndef BM_KEXEC_UNPACK_H
#define BM_KEXEC_UNPACK_H

#include <stdint.h>

#include "kexec/plan.h"

/* Largest kernel after decompression: 1 GiB. */
#define KEXEC_UNPACK_MAX (1ull << 30)

/* The compression @buf starts with: "gzip", "xz", "zstd", "bzip2", "lz4",
 * "lzop", or NULL for none of them. */
const char *kexec_compression(const void *buf, size_t len);

/* Make @in loadable. Not compressed: *out = *in and *owned = NULL. gzip:
 * *out is the inflated kernel, in *owned (malloc'd; the caller frees it).
 * *format (may be NULL) gets kexec_compression(). Returns 0, or -ENOEXEC
 * (a format we do not decompress, or corrupt gzip) or -ENOMEM, with a
 * sentence in @err. */
int kexec_unpack(const struct kexec_blob *in, struct kexec_blob *out,
		 uint8_t **owned, const char **format, char *err,
		 size_t errlen);

#endif
