/* fuzz_crypttab.c - a target's crypttab (vol/crypttab.h) on any text.
 *
 * The seeds' volumes are looked for (the UUID below, in both source
 * forms), then each line's options are passed through
 * crypttab_pass_opts(). A line found must be whole fields, bounded, and
 * the options passed on only the characters a command line keeps. */
#include "vol/crypttab.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FZ_UUID "0d9f6a2c-95a1-4bd2-8f0e-3c1b7a6e5d40"

static void fz_check_field(const char *f, size_t cap, int may_be_empty)
{
	size_t n = strnlen(f, cap);

	if (n >= cap || (!n && !may_be_empty) || strpbrk(f, " \t\n"))
		abort();
}

static void fz_check_opts(const char *opts)
{
	char out[64];
	size_t n = crypttab_pass_opts(opts, out, sizeof(out));

	if (n >= sizeof(out) || n != strlen(out))
		abort();
	if (strspn(out, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			"0123456789_=.:/-,") != n ||
	    strstr(out, ",,") || out[0] == ',' || (n && out[n - 1] == ','))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const uuids[] = {
	    FZ_UUID, "0D9F6A2C-95A1-4BD2-8F0E-3C1B7A6E5D40", "", "x"};
	struct crypttab_line l;

	for (size_t i = 0; i < sizeof(uuids) / sizeof(uuids[0]); i++) {
		memset(&l, 0x55, sizeof(l));
		if (crypttab_find((const char *)data, size, uuids[i], &l))
			continue;
		fz_check_field(l.name, sizeof(l.name), 0);
		fz_check_field(l.source, sizeof(l.source), 0);
		fz_check_field(l.key, sizeof(l.key), 1);
		fz_check_field(l.opts, sizeof(l.opts), 1);
		if (!l.lineno)
			abort();
		fz_check_opts(l.opts);
	}
	return 0;
}
