/* fuzz_efi_devpath.c - the device path decoder, its text and the UTF-16
 * conversion on any bytes. An HD node decoded must encode back to its own
 * bytes; UTF-16 -> UTF-8 -> UTF-16 -> UTF-8 must give the same text. */
#include "efi/devpath.h"
#include "efi/guid.h"
#include "efi/utf16.h"
#include "util/arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void fz_nodes(const struct efi_devpath *dp)
{
	for (size_t i = 0; i < dp->n; i++) {
		const struct efi_dp_node *n = &dp->nodes[i];
		uint8_t b[EFI_DP_HD_LEN];
		size_t off = 0;

		if (n->kind != EFI_DP_HD)
			continue;
		if (efi_dp_put_hd(b, sizeof(b), &off, &n->hd) ||
		    off != EFI_DP_HD_LEN || n->len != EFI_DP_HD_LEN - 4 ||
		    memcmp(b + 4, n->data, n->len))
			abort();
	}
}

static void fz_utf16(const uint8_t *data, size_t size)
{
	char s1[512], s2[512];
	uint8_t u[1024];
	ssize_t n = efi_utf16_to_utf8(data, size & ~(size_t)1, s1, sizeof(s1));

	if (n < 0)
		return;
	n = efi_utf8_to_utf16(s1, u, sizeof(u));
	if (n < 0 || efi_utf16_to_utf8(u, (size_t)n, s2, sizeof(s2)) < 0 ||
	    strcmp(s1, s2))
		abort();
}

static void fz_guid(const uint8_t *data, size_t size)
{
	char s[EFI_GUID_TEXT], t[EFI_GUID_TEXT];
	uint8_t g[EFI_GUID_SIZE], h[EFI_GUID_SIZE];

	if (size < EFI_GUID_TEXT)
		return;
	memcpy(s, data, EFI_GUID_TEXT - 1);
	s[EFI_GUID_TEXT - 1] = '\0';
	if (efi_guid_parse(s, g) < 0)
		return;
	efi_guid_format(g, t);
	if (efi_guid_parse(t, h) < 0 || memcmp(g, h, sizeof(g)))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arena a = ARENA_INIT;
	struct efi_devpath dp;
	char text[128], file[EFI_DP_PATH_MAX];

	if (efi_dp_decode(&a, data, size, &dp) == 0) {
		fz_nodes(&dp);
		efi_dp_format(&dp, text, sizeof(text));
		efi_dp_target(&dp, file, sizeof(file));
	}
	fz_utf16(data, size);
	fz_guid(data, size);
	arena_free(&a);
	return 0;
}
