/* fuzz_lease.c - the udhcpc and udhcpc6 lease texts; every field that
 * comes back must be a terminated string within its buffer, and so must
 * the server and boot file a DHCPv6 lease's URL gives. */
#include "net/lease.h"
#include "net/names.h"
#include "net/search.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void terminated(const char *s, size_t size)
{
	if (!memchr(s, '\0', size))
		abort();
}

/* The same bytes as a DHCPv6 lease, and what its boot file URL gives. */
static void lease6(const uint8_t *data, size_t size)
{
	static struct net_search s;
	const char *why = NULL;

	memset(&s, 0, sizeof(s));
	s.ifname = "eth0";
	if (net_lease6_parse((const char *)data, size, &s.lease, &why) < 0) {
		if (!why)
			abort();
		return;
	}
	terminated(s.lease.interface, sizeof(s.lease.interface));
	terminated(s.lease.boot_url, sizeof(s.lease.boot_url));
	if (!s.lease.interface[0] || !(s.lease.has & NET_LEASE_V6))
		abort();
	/* a lease with a DNS server would have a name in its URL looked up:
	 * no queries from the fuzzer (the lookup's input is checked by
	 * net_dns_is_name(), which the unit tests cover) */
	s.lease.has &= ~(unsigned)NET_LEASE_DNS6;
	net_search_server(&s);
	terminated(s.server, sizeof(s.server));
	terminated(s.file, sizeof(s.file));
	terminated(s.ip6, sizeof(s.ip6));
	if (s.ip[0] || (s.file[0] && !s.lease.boot_url[0]))
		abort();
	if (s.lease.has & NET_LEASE_IP6) {
		static struct net_names names;
		struct net_client c = {NULL, {0}, {0}, s.lease.ip6};

		/* GRUB's name for the address: its longest is 39 bytes */
		if (net_grub_names("/grub", &c, true, &names) ||
		    names.count != 3 ||
		    strlen(names.name[1]) > strlen("/grub/grub.cfg-") + 39)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct net_names names;
	struct net_client c = {NULL, {0}, {0}, NULL};
	const char *why = NULL;
	struct net_lease l;
	char prefix[NET_NAME_MAX];

	lease6(data, size);
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
