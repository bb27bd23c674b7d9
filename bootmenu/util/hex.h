/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef BOOTMENU_UTIL_HEX_H
#define BOOTMENU_UTIL_HEX_H

#include <stddef.h>

/* The value of one hexadecimal digit, either case; -1 for any other
 * character. */
static inline int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* The byte two hexadecimal digits s[0], s[1] write; -1 when either is
 * not one (s[1] is read only when s[0] is a digit, so a NUL-terminated
 * string is never read past its end). */
static inline int hex_byte(const char *s)
{
	int hi = hex_digit(s[0]), lo = hi < 0 ? -1 : hex_digit(s[1]);

	return lo < 0 ? -1 : hi << 4 | lo;
}

/* @n bytes of @p as lowercase hexadecimal into out[0..2n], NUL-ended. */
static inline void hex_encode(const void *p, size_t n, char *out)
{
	static const char digits[] = "0123456789abcdef";
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++) {
		out[2 * i] = digits[b[i] >> 4];
		out[2 * i + 1] = digits[b[i] & 15];
	}
	out[2 * n] = '\0';
}

#endif
