/* utf16.c - UTF-16LE <-> UTF-8 (utf16.h), RFC 2781 and RFC 3629. */
#include "efi/utf16.h"
#include "util/le.h"

#include <errno.h>

/* One code point of UTF-16LE at in[*i]; *i moves past it. */
static int efi_u16_next(const uint8_t *in, size_t len, size_t *i, uint32_t *cp)
{
	uint16_t hi = 0, lo = 0;

	get_le16(in, len, *i, &hi);
	*i += 2;
	if (hi < 0xd800 || hi > 0xdfff) {
		*cp = hi;
		return 0;
	}
	if (hi > 0xdbff || get_le16(in, len, *i, &lo) || lo < 0xdc00 ||
	    lo > 0xdfff)
		return -EILSEQ;
	*i += 2;
	*cp = 0x10000 + ((uint32_t)(hi - 0xd800) << 10) + (lo - 0xdc00);
	return 0;
}

/* @cp as UTF-8 at out[*o]; -ENAMETOOLONG when it and a NUL do not fit. */
static int efi_u8_put(uint32_t cp, char *out, size_t cap, size_t *o)
{
	size_t n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
	static const uint8_t lead[5] = {0, 0, 0xc0, 0xe0, 0xf0};

	if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0)) {
		cp = '?';
		n = 1;
	}
	if (*o + n >= cap)
		return -ENAMETOOLONG;
	if (n == 1) {
		out[(*o)++] = (char)cp;
		return 0;
	}
	for (size_t k = n - 1; k > 0; k--)
		out[*o + k] = (char)(0x80 | ((cp >> (6 * (n - 1 - k))) & 0x3f));
	out[*o] = (char)(lead[n] | (cp >> (6 * (n - 1))));
	*o += n;
	return 0;
}

ssize_t efi_utf16_to_utf8(const uint8_t *in, size_t len, char *out, size_t cap)
{
	size_t i = 0, o = 0;
	int rc = 0;

	if (cap)
		out[0] = '\0';
	if (len % 2)
		return -EINVAL;
	if (!cap)
		return -ENAMETOOLONG;
	while (i < len) {
		uint32_t cp;

		rc = efi_u16_next(in, len, &i, &cp);
		if (rc == 0 && cp == 0)
			break;
		if (rc == 0)
			rc = efi_u8_put(cp, out, cap, &o);
		if (rc < 0) {
			out[0] = '\0';
			return rc;
		}
	}
	out[o] = '\0';
	return (ssize_t)o;
}

/* One code point of UTF-8 at s[*i]; *i moves past it. Rejects overlong
 * forms, surrogates and anything past U+10FFFF (RFC 3629 section 3). */
static int efi_u8_next(const char *s, size_t *i, uint32_t *cp)
{
	static const uint32_t min[4] = {0, 0x80, 0x800, 0x10000};
	const unsigned char *p = (const unsigned char *)s + *i;
	size_t n = p[0] < 0x80	 ? 0
		   : p[0] < 0xc0 ? 4
		   : p[0] < 0xe0 ? 1
		   : p[0] < 0xf0 ? 2
		   : p[0] < 0xf8 ? 3
				 : 4;
	uint32_t c;

	if (n > 3)
		return -EILSEQ;
	c = n ? p[0] & (0x3f >> n) : p[0];
	for (size_t k = 1; k <= n; k++) {
		if ((p[k] & 0xc0) != 0x80)
			return -EILSEQ;
		c = c << 6 | (p[k] & 0x3f);
	}
	if (c < min[n] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return -EILSEQ;
	*i += n + 1;
	*cp = c;
	return 0;
}

/* @u as one UTF-16LE unit at out[*o], or only counted when @out is NULL. */
static int efi_u16_put(uint16_t u, uint8_t *out, size_t cap, size_t *o)
{
	if (out && put_le16(out, cap, *o, u))
		return -ENOSPC;
	*o += 2;
	return 0;
}

ssize_t efi_utf8_to_utf16(const char *s, uint8_t *out, size_t cap)
{
	size_t i = 0, o = 0;
	int rc = 0;

	while (s[i] && rc == 0) {
		uint32_t cp;

		rc = efi_u8_next(s, &i, &cp);
		if (rc == 0 && cp >= 0x10000) {
			cp -= 0x10000;
			rc = efi_u16_put((uint16_t)(0xd800 | cp >> 10), out,
					 cap, &o);
			cp = 0xdc00 | (cp & 0x3ff);
		}
		if (rc == 0)
			rc = efi_u16_put((uint16_t)cp, out, cap, &o);
	}
	if (rc == 0)
		rc = efi_u16_put(0, out, cap, &o);
	return rc < 0 ? rc : (ssize_t)o;
}
