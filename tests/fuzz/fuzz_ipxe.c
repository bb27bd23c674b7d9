/* fuzz_ipxe.c - the iPXE script subset on any text, with a few variables
 * as a DHCP lease gives them. */
#include "cfg/ipxe.h"
#include "fuzz.h"

#include <stdint.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	fz_root_init("fuzz-ipxe");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct ipxe_var vars[] = {
	    {"ip", "10.0.2.15"},
	    {"net0/mac", "52:54:00:12:34:56"},
	    {"netX/mac", "52:54:00:12:34:56"},
	    {"next-server", "10.0.2.2"},
	    {"filename", "boot.ipxe"},
	    {"platform", "efi"},
	    {"buildarch", "x86_64"},
	};
	struct fz z;

	fz_begin(&z);
	ipxe_parse_buf(&z.ctx, "/boot.ipxe", vars,
		       sizeof(vars) / sizeof(vars[0]), (const char *)data,
		       size);
	fz_end(&z);
	return 0;
}
