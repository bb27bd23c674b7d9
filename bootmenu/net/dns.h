/* dns.h - names of servers: the leases' DNS servers and looking up a name.
 *
 * A boot file URL (DHCPv6 option 59, UEFI HTTP boot's usual way), option
 * 66 and the addresses a config writes may name their server
 * ("tftp://boot.example.org/pxelinux.0"). The leases bring DNS servers
 * (DHCPv4 option 6, DHCPv6 option 23); they go into one resolv.conf under
 * bootmenu's run directory, which the initramfs's /etc/resolv.conf points
 * at, so that musl's resolver (ours and busybox wget's) asks them. A name
 * is looked up in the network source's threads only, never on the thread
 * that draws the menu; the resolv.conf bounds a lookup at 3 s.
 */
#ifndef BM_NET_DNS_H
#define BM_NET_DNS_H

#include <stddef.h>
#include <stdint.h>

#define NET_DNS_MAX 3 /* musl asks at most three servers (MAXNS) */

/* The DNS servers known, each an IPv4 (4 bytes) or IPv6 (16) address. */
struct net_dns {
	struct {
		uint8_t addr[16];
		int len; /* 4 or 16; 0: unused */
	} server[NET_DNS_MAX];
};

/* Add @addr (@len 4 or 16 bytes) unless it is there or the list is full.
 * Returns 1 when added, 0 when not. */
int net_dns_add(struct net_dns *d, const uint8_t *addr, int len);

/* Write @d as a resolv.conf to @path (through @path.tmp, renamed: a
 * lookup never reads half of one). Returns 0 or -errno. */
int net_dns_write(const struct net_dns *d, const char *path);

/* "[" + an IPv6 address + "]" and a NUL */
#define NET_DNS_TEXT 48

/* Whether @host is a host name: letters, digits, '-', '.' and '_', at
 * most 253 bytes, a letter among them (so not an address). */
int net_dns_is_name(const char *host);

/* Look up the host name @host into @out as a URL's server: "192.0.2.1"
 * or "[2001:db8::2]", the first answer of family @first (AF_INET or
 * AF_INET6), else of @second (the other, or AF_UNSPEC: none). Returns 0,
 * or -EINVAL (not a host name), -ENOENT (no such name, or no address of
 * those families), -EAGAIN (no DNS server answered), -EIO; @why gets a
 * sentence. Blocks up to resolv.conf's 3 s: never on the menu's thread. */
int net_dns_lookup(const char *host, int first, int second, char *out,
		   size_t size, const char **why);

#endif
