/* fuzz_lease.c - the udhcpc lease text; every field that comes back must
 * be a terminated string within its buffer. */
#include "net/lease.h"
#include "net/names.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void terminated(const char *s, size_t size)
{
	if (!memchr(s, '\0', size))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct net_names names;
	struct net_client c = {NULL, {0}, {0}};
	const char *why = NULL;
	struct net_lease l;
	char prefix[NET_NAME_MAX];

	if (net_lease_parse((const char *)data, size, &l, &why) < 0) {
		if (!why)
			abort();
		return 0;
	}
	terminated(l.interface, sizeof(l.interface));
	terminated(l.tftp_server, sizeof(l.tftp_server));
	terminated(l.boot_file, sizeof(l.boot_file));
	terminated(l.config_file, sizeof(l.config_file));
	terminated(l.path_prefix, sizeof(l.path_prefix));
	terminated(l.hostname, sizeof(l.hostname));
	if (!l.interface[0])
		abort();
	/* what a lease leads to next: the names to look for */
	memcpy(c.mac, l.mac, 6);
	memcpy(c.ip, l.ip, 4);
	if (net_pxelinux_prefix(l.boot_file, prefix, sizeof(prefix)) == 0)
		net_pxelinux_names(l.path_prefix[0] ? l.path_prefix : prefix,
				   l.config_file, &c, &names);
	if (net_grub_prefix(l.boot_file, prefix, sizeof(prefix)) == 0)
		net_grub_names(prefix, &c, true, &names);
	net_loader_classify(l.boot_file, l.config_file, strlen(l.config_file));
	return 0;
}
