/* utf16.h - UTF-16LE (EFI's CHAR16 strings) to and from UTF-8.
 *
 * Descriptions of load options and File path nodes are UTF-16LE on the
 * wire, UTF-8 everywhere else in bootmenu. Both directions reject what
 * is not a character: an unpaired surrogate, overlong or truncated UTF-8,
 * code points past U+10FFFF.
 */
#ifndef BM_EFI_UTF16_H
#define BM_EFI_UTF16_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The UTF-16LE units in in[0..len) up to the first NUL unit (or the end)
 * as UTF-8 into out[0..cap), NUL-terminated. A C0 or C1 control
 * character or DEL becomes '?' so the text is safe to show on a
 * terminal. Returns the UTF-8 length (without the NUL), or -EINVAL (@len
 * odd), -EILSEQ (an unpaired surrogate), -ENAMETOOLONG (does not fit in
 * @cap). @out is "" after an error when @cap > 0. */
ssize_t efi_utf16_to_utf8(const uint8_t *in, size_t len, char *out, size_t cap);
/* The UTF-8 string @s as UTF-16LE with a NUL unit at the end into
 * out[0..cap); @out may be NULL (with any @cap) to measure. Returns the
 * bytes written, NUL unit included, or -EILSEQ (not UTF-8), -ENOSPC
 * (does not fit). */
ssize_t efi_utf8_to_utf16(const char *s, uint8_t *out, size_t cap);

#endif
