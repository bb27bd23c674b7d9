/* inflate.h - gzip (RFC 1952) and raw deflate (RFC 1951) decompression.
 *
 * Small and self-contained, for kernels shipped gzip-compressed (a
 * vmlinux.gz, or a raw kernel behind a gzip header). Reads only the
 * caller's buffer; the output is malloc'd and belongs to the caller
 * (free() it). Output is capped by @max, so a small hostile input cannot
 * claim unbounded memory.
 */
#ifndef BM_UTIL_INFLATE_H
#define BM_UTIL_INFLATE_H

#include <stddef.h>
#include <stdint.h>

/* True when buf starts with the gzip magic (1f 8b). */
int inflate_is_gzip(const void *buf, size_t len);

/* Decompress the raw deflate stream in[0..len) into *out (malloc'd, at
 * most @max bytes; *outlen its length). *used (may be NULL) gets the
 * number of input bytes the stream took, rounded up to a whole byte.
 * Returns 0, or -errno: -EINVAL corrupt data, -ENODATA the stream ends
 * early, -EFBIG more than @max bytes, -ENOMEM. On failure *out is NULL. */
int inflate_raw(const void *in, size_t len, size_t max, uint8_t **out,
		size_t *outlen, size_t *used);

/* Decompress a gzip file: one member, or several back to back (their
 * outputs concatenated); bytes after the last member that do not start
 * another one are ignored (padding). Each member's CRC-32 and length are
 * checked. Returns 0 or -errno as inflate_raw(), plus -ENOEXEC (not gzip,
 * or not deflate) and -EBADMSG (CRC-32 or length mismatch). */
int inflate_gzip(const void *in, size_t len, size_t max, uint8_t **out,
		 size_t *outlen);

/* A short phrase for an inflate_*() error: "corrupt deflate data", ... */
const char *inflate_strerror(int rc);

/* CRC-32 (the gzip and zlib polynomial, reflected 0xedb88320) of
 * buf[0..len), continuing from @crc (0 to start). */
uint32_t inflate_crc32(uint32_t crc, const void *buf, size_t len);

#endif
