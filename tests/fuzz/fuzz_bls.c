/* fuzz_bls.c - BLS entry files: the input's first line is the file name
 * (boot counter parsing), the rest is split at a "\n--\n" into two entry
 * files, which are parsed (with and without grub's expander) and
 * compared both ways; the comparison must be antisymmetric. */
#include "cfg/bls.h"
#include "cfg/verscmp.h"
#include "fuzz.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	fz_root_init("fuzz-bls");
	return 0;
}

static const char *expand(void *data, const char *s)
{
	return arena_printf(data, "%s $x", s);
}

static int sign(int v)
{
	return (v > 0) - (v < 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz z;
	char *text, *nl, *sep;
	const char *name = "x.conf", *b = "";
	struct entry *e1, *e2;

	fz_begin(&z);
	text = arena_strndup(&z.a, (const char *)data, size);
	nl = strchr(text, '\n');
	if (nl) {
		*nl = '\0';
		name = text;
		text = nl + 1;
	}
	sep = strstr(text, "\n--\n");
	if (sep) {
		*sep = '\0';
		b = sep + 4;
	}
	e1 = bls_parse_entry(&z.ctx, "/loader/entries", name, text,
			     strlen(text), FMT_BLS, NULL, NULL);
	e2 = bls_parse_entry(&z.ctx, "/boot/loader/entries", name, b, strlen(b),
			     FMT_GRUB, expand, &z.a);
	if (e1 && e2 && sign(bls_compare(e1, e2)) != -sign(bls_compare(e2, e1)))
		abort();
	if (e1 && e2 &&
	    sign(cfg_verscmp(e1->version, e2->version)) !=
		-sign(cfg_verscmp(e2->version, e1->version)))
		abort();
	fz_end(&z);
	return 0;
}
