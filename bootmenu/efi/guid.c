/* guid.c - EFI GUID text (guid.h). UEFI 2.10 appendix A: the text form
 * prints Data1..Data3 as numbers, so their little-endian bytes come out
 * reversed; Data4 is printed byte by byte. */
#include "efi/guid.h"

#include <errno.h>
#include <stddef.h>
#include "util/hex.h"

/* Where each byte of the GUID goes in the text, in text order. */
static const uint8_t efi_guid_order[EFI_GUID_SIZE] = {
    3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15};

static int efi_guid_dash(size_t pos)
{
	return pos == 8 || pos == 13 || pos == 18 || pos == 23;
}

void efi_guid_format(const uint8_t g[EFI_GUID_SIZE], char out[EFI_GUID_TEXT])
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0;

	for (size_t i = 0; i < EFI_GUID_SIZE; i++) {
		uint8_t b = g[efi_guid_order[i]];

		if (efi_guid_dash(o))
			out[o++] = '-';
		out[o++] = hex[b >> 4];
		out[o++] = hex[b & 15];
	}
	out[o] = '\0';
}

int efi_guid_parse(const char *s, uint8_t g[EFI_GUID_SIZE])
{
	uint8_t tmp[EFI_GUID_SIZE];
	size_t pos = 0;

	if (!s)
		return -EINVAL;
	for (size_t i = 0; i < EFI_GUID_SIZE; i++) {
		int b;

		if (efi_guid_dash(pos) && s[pos++] != '-')
			return -EINVAL;
		if ((b = hex_byte(s + pos)) < 0)
			return -EINVAL;
		tmp[efi_guid_order[i]] = (uint8_t)b;
		pos += 2;
	}
	if (s[pos] != '\0')
		return -EINVAL;
	for (size_t i = 0; i < EFI_GUID_SIZE; i++)
		g[i] = tmp[i];
	return 0;
}
