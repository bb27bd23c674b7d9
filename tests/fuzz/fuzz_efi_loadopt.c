/* fuzz_efi_loadopt.c - EFI_LOAD_OPTION, BootOrder and BootNext decoders
 * on any bytes. A load option decoded must encode back to its own length
 * with the same device path and optional data (a control character in
 * the description is shown as '?', one CHAR16 for one). */
#include "efi/devpath.h"
#include "efi/loadopt.h"
#include "util/arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void fz_check(const struct efi_load_option *o, size_t size)
{
	static const struct efi_part_ref gpt = {
	    "0e7a8d5c-3b51-4c0e-9f2a-6d1b8e4f7a21", 1, 2048};
	static const struct efi_part_ref mbr = {"1234abcd-02", 2, 63};
	uint8_t *back = malloc(size ? size : 1);
	char text[256], file[EFI_DP_PATH_MAX];
	ssize_t n;

	n = efi_loadopt_encode(o->attrs, o->desc, o->path_raw, o->path_len,
			       o->opt, o->opt_len, back, size);
	if (n != (ssize_t)size)
		abort();
	if (memcmp(back + size - o->opt_len - o->path_len, o->path_raw,
		   o->path_len) ||
	    (o->opt_len &&
	     memcmp(back + size - o->opt_len, o->opt, o->opt_len)))
		abort();
	free(back);
	efi_dp_format(&o->path, text, sizeof(text));
	if (strlen(text) >= sizeof(text))
		abort();
	efi_dp_target(&o->path, file, sizeof(file));
	efi_loadopt_points_at(o, &gpt, "\\EFI\\debian\\shimx64.efi");
	efi_loadopt_points_at(o, &mbr, "/efi/boot/bootx64.efi");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arena a = ARENA_INIT;
	struct efi_load_option o;
	uint16_t nums[64], next;
	size_t n;

	if (efi_loadopt_decode(&a, data, size, &o) == 0)
		fz_check(&o, size);
	efi_boot_order_decode(data, size, nums, 64, &n);
	efi_boot_next_decode(data, size, &next);
	arena_free(&a);
	return 0;
}
