/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef BOOTMENU_UTIL_HEX_H
#define BOOTMENU_UTIL_HEX_H

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

#endif
