/* search.h - what a network boot loader would read, found on its server.
 *
 * After DHCP: the server that serves the files (the lease's option 66
 * when it is an address, else the BOOTP next-server, else the DHCP
 * server), the loader the boot file is (pxelinux, GRUB, an iPXE script:
 * by name, else by its first bytes), and the first of the configs that
 * loader would try, in its order (net/names.h), that the server has. The
 * answers fill the remote root's fs_net (scan/fs.h), which the parsers
 * read like any filesystem. Runs on a link's thread; every file is
 * fetched through net/remote.h.
 */
#ifndef BM_NET_SEARCH_H
#define BM_NET_SEARCH_H

#include <stdatomic.h>
#include <stdint.h>

#include "net/lease.h"
#include "net/names.h"
#include "scan/fs.h"

#define NET_SEARCH_VARS 8 /* the lease's values an iPXE script may read */

struct net_remote;

struct net_search {
	/* The caller's. */
	const char *ifname;	    /* for messages */
	struct net_lease lease;	    /* DHCP's answer */
	const uint8_t *smbios_uuid; /* the machine's UUID (pxelinux), or NULL */
	struct net_remote *rt;	    /* the server as a root, for the config */
	const _Atomic int *cancel;  /* nonzero: stop between fetches */
	/* The name being looked for, for the status line; may be NULL. */
	void (*looking)(void *ctx, const char *name);
	void *ctx;
	/* Filled here; the fs_net points into them, so they live as long as
	 * the remote root. */
	/* ip: the IPv4 address ("" on a DHCPv6 lease), ip6 the IPv6 one
	 * when the lease has it; server: dotted IPv4 or "[IPv6]" */
	char mac[18], ip[16], ip6[48], server[48], file[NET_LEASE_STR_MAX];
	char config[NET_NAME_MAX + 1], prefix[NET_NAME_MAX + 1];
	char why[2048]; /* no config: why, a sentence for the menu */
	struct ipxe_var vars[NET_SEARCH_VARS];
};

/* From s->lease: s->ip, s->server (empty when the lease names none) and
 * s->file, the boot file. Option 66 and a boot file URL's server may be
 * names, looked up in DNS (net/dns.h: this blocks up to 3 s) when the
 * lease names a DNS server. A DHCPv6 lease's boot file URL gives both:
 * its server, and as the file its path on a
 * tftp:// URL to the standard port, else the whole URL (which the remote
 * root fetches as an address, as it does a DHCPv4 boot file that is a
 * URL). */
void net_search_server(struct net_search *s);

/* Look on s->rt for the config the boot file's loader would read, and
 * fill net_remote_net(s->rt): the loader, the config's path (or the
 * reason in s->why there is none), the prefix, and for iPXE the lease's
 * values as variables. */
void net_search_config(struct net_search *s);

#endif
