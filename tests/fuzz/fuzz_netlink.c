/* fuzz_netlink.c - the rtnetlink link message parser on arbitrary bytes. */
#include "net/watch.h"

#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct net_link_msg m[NET_WATCH_MSGS];
	int n = net_watch_parse(data, size, m, NET_WATCH_MSGS);

	/* every message names a link, with a terminated name */
	for (int i = 0; i < n; i++)
		if (m[i].index <= 0 || strlen(m[i].name) >= sizeof(m[i].name))
			__builtin_trap();
	return 0;
}
