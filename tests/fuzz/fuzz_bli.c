/* fuzz_bli.c - what the OS may leave in the Boot Loader Interface
 * variables (efi/bli.h), on any bytes: a string variable's decoding, a
 * timeout's text, an identifier made from the text and matched back as a
 * pattern, and the kernel log line read for the firmware's name. A string
 * decoded must encode back to the same text; an identifier made must be
 * one systemd accepts; a list encoded must measure what it writes. */
#include "choose/loader_id.h"
#include "efi/bli.h"
#include "efi/utf16.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void fz_string(const uint8_t *data, size_t size)
{
	char s[BLI_ID_MAX], t[BLI_ID_MAX], id[CHOOSE_LOADER_ID_MAX];
	const char *ids[2] = {s, NULL};
	uint8_t u[4 * BLI_ID_MAX];
	ssize_t n;
	int secs;

	if (bli_decode_str(data, size, s, sizeof(s)) < 0)
		return;
	n = efi_utf8_to_utf16(s, u, sizeof(u));
	if (n < 0 || bli_decode_str(u, (size_t)n, t, sizeof(t)) < 0 ||
	    strcmp(s, t))
		abort();
	if (bli_parse_timeout(s, true, &secs) == 0 &&
	    (secs < BLI_TIMEOUT_FORCE || secs > 65535))
		abort();
	choose_loader_id_make(NULL, s, id);
	if (!bli_id_valid(id))
		abort();
	ids[1] = id;
	n = bli_encode_list(ids, 2, NULL, 0);
	if (n > 0 && (size_t)n <= sizeof(u) &&
	    bli_encode_list(ids, 2, u, sizeof(u)) != n)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *log = malloc(size + 1), type[64], info[128];

	fz_string(data, size);
	if (!log)
		return 0;
	memcpy(log, data, size);
	log[size] = '\0';
	if (bli_firmware_from_log(log, type, sizeof(type), info,
				  sizeof(info)) == 0 &&
	    strncmp(type, "UEFI ", 5))
		abort();
	free(log);
	return 0;
}
