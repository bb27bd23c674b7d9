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

#endif
