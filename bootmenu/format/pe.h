/* pe.h - find a named section in a PE/COFF image (UKIs, EFI stubs).
 *
 * Only reads: the DOS header's e_lfanew, the "PE\0\0" signature, the COFF
 * file header and the section table. Every field goes through get_le*()
 * with bounds checks, so any buffer is safe to pass.
 */
#ifndef BM_PE_H
#define BM_PE_H

#include <stddef.h>
#include <stdint.h>

/* Most sections a PE file may declare before we call it malformed (the
 * COFF field allows 65535; UKIs have about a dozen). */
#define PE_SECTIONS_MAX 96

/* Find section @name (e.g. ".linux", at most 8 bytes) in the PE image
 * buf[0..len). On success stores the section's file offset and size
 * (VirtualSize, the data's true length, when it is non-zero and no
 * larger than SizeOfRawData, the file-aligned length; otherwise
 * SizeOfRawData) in *off and *size, with off + size <= len, and returns 0.
 * Returns -ENOEXEC when @buf is not a PE image or its headers are
 * malformed or truncated, -ENOENT when there is no such section, and
 * -ERANGE when the section's data lies beyond the end of @buf.
 * Nothing is allocated; the section lies in the caller's buffer. */
int pe_find_section(const void *buf, size_t len, const char *name, size_t *off,
		    size_t *size);

/* The same lookup when @hdr holds only the start of the image (enough for
 * the headers and section table, e.g. the first PE_HEADERS_READ bytes of
 * a 100 MB UKI): stores the section's file offset and size as the headers
 * say, without checking them against @len; the caller reads that range
 * from the file and checks it against the file size. Returns 0, -ENOEXEC
 * or -ENOENT as pe_find_section() does. */
int pe_locate_section(const void *hdr, size_t len, const char *name,
		      size_t *off, size_t *size);

/* Data directory @idx (PE_DIR_SECURITY, ...) of the optional header of
 * the PE image whose start is hdr[0..len): stores the directory's address
 * and size as the header says (an RVA for most directories, a file offset
 * for PE_DIR_SECURITY), unchecked against @len, and returns 0. Returns
 * -ENOEXEC when @hdr is not a PE32/PE32+ image or its headers are
 * truncated, -ENOENT when the optional header has no directory @idx. */
int pe_data_dir(const void *hdr, size_t len, unsigned idx, uint32_t *addr,
		uint32_t *size);

/* The certificate table's directory (IMAGE_DIRECTORY_ENTRY_SECURITY). */
#define PE_DIR_SECURITY 4

/* How much of a file to read for pe_locate_section(). */
#define PE_HEADERS_READ (64u * 1024)

#endif
