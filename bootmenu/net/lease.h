/* lease.h - the DHCPv4 and DHCPv6 leases busybox's udhcpc and udhcpc6
 * hand to our scripts.
 *
 * udhcpc runs its script with the lease in environment variables; ours
 * writes them to a file, one "name=value" a line, the value as udhcpc
 * made it, up to the end of the line (a value with a newline in it is left
 * out by the script). The names are busybox's (networking/udhcp/common.c,
 * dhcp_option_strings[], and fill_envp() in dhcpc.c):
 *
 *   interface      the link udhcpc ran on
 *   ip             yiaddr, the address offered to us
 *   siaddr         the BOOTP next-server field, when not 0.0.0.0
 *   boot_file      the BOOTP file field, when not empty or overloaded
 *   sname          the BOOTP server-name field, likewise
 *   subnet         option 1, dotted; mask: the same as a prefix length
 *   router         option 3, a space-separated list (the first is used)
 *   dns            option 6, a space-separated list (the first is used)
 *   hostname       option 12
 *   serverid       option 54
 *   tftp           option 66, the TFTP server's name
 *   bootfile       option 67
 *   pxeconffile    option 209 (PXELINUX config file, RFC 5071)
 *   pxepathprefix  option 210 (path prefix)
 *   reboottime     option 211, seconds in decimal
 *   opt97          option 97 sent back by the server (hex, type 0 and
 *                  the client's UUID), which GRUB's lookup uses
 *   mac            not udhcpc's: our script adds the link's address
 *
 * Options udhcpc has no name for come as "optNNN" (NNN the code in
 * decimal, the value in hex); only opt97 is read here. Unknown names
 * are ignored. Nothing here reads a file: bytes in, a struct out.
 *
 * The DHCPv6 lease (udhcpc6 asking stateless, an Information-Request:
 * the address is the kernel's own, from router advertisements) has
 * interface and mac as above, and (busybox 1.35 d6_dhcpc.c,
 * option_to_env(); ip6 is our script's):
 *
 *   ip6            the link's global address (SLAAC), "addr/len"
 *   dns            option 23, a space-separated list (the first is used)
 *   bootfile_url   option 59, the boot file's address (RFC 5970)
 */
#ifndef BM_NET_LEASE_H
#define BM_NET_LEASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NET_LEASE_MAX 16384	  /* the whole lease text */
#define NET_LEASE_IFNAME_MAX 16	  /* IFNAMSIZ, NUL included */
#define NET_LEASE_STR_MAX 256	  /* options 66, 67, 209, 210: 255 bytes */
#define NET_LEASE_HOSTNAME_MAX 64 /* HOST_NAME_MAX and a NUL */

/* Which optional fields the lease has (net_lease.has). */
enum {
	NET_LEASE_MAC = 1 << 0,
	NET_LEASE_SUBNET = 1 << 1,
	NET_LEASE_ROUTER = 1 << 2,
	NET_LEASE_SERVER_ID = 1 << 3,
	NET_LEASE_SIADDR = 1 << 4,
	NET_LEASE_REBOOT_TIME = 1 << 5,
	NET_LEASE_UUID = 1 << 6,
	NET_LEASE_IP6 = 1 << 7,
	NET_LEASE_DNS6 = 1 << 8,
	NET_LEASE_V6 = 1 << 9, /* a DHCPv6 lease (net_lease6_parse()) */
	NET_LEASE_DNS = 1 << 10,
};

struct net_lease {
	unsigned has; /* NET_LEASE_* */
	char interface[NET_LEASE_IFNAME_MAX];
	uint8_t mac[6];
	uint8_t ip[4];
	uint8_t subnet[4];
	uint8_t router[4];
	uint8_t server_id[4];
	uint8_t siaddr[4];
	uint8_t dns[4]; /* option 6's first server */
	/* "" when absent. tftp_server: option 66, else the sname field;
	 * boot_file: option 67, else the file field (RFC 2132 9.4, 9.5). */
	char tftp_server[NET_LEASE_STR_MAX];
	char boot_file[NET_LEASE_STR_MAX];
	char config_file[NET_LEASE_STR_MAX]; /* 209 */
	char path_prefix[NET_LEASE_STR_MAX]; /* 210 */
	uint32_t reboot_time;		     /* 211, seconds */
	uint8_t uuid[16];		     /* 97 as the server sent it back */
	char hostname[NET_LEASE_HOSTNAME_MAX];
	/* DHCPv6 only (net_lease6_parse()): ip6, dns6 by their flags; the boot
	 * file URL, a tftp:// or http:// address net_url_parse() takes, or
	 * "" (its server is the one to ask: a v6 lease names no other). */
	uint8_t ip6[16];
	uint8_t dns6[16];
	char boot_url[NET_LEASE_STR_MAX];
	/* The first field left out for a bad value, as a sentence ("the DHCP
	 * server's host name (option 12) is not valid"), or NULL. */
	const char *dropped;
	/* The boot file's own (option 67 or the BOOTP field), when it was
	 * left out for a bad value, or NULL: why no boot file is named. */
	const char *dropped_boot;
};

/* A MAC address as text, v[0..n): "52:54:00:12:34:56", either case (as
 * the lease's mac= and sysfs's address give it) into mac[0..6). Returns 0,
 * or -EINVAL (@mac is then unchanged). */
int net_mac_parse(const char *v, size_t n, uint8_t mac[6]);

/* Parse the lease text buf[0..len) into *l. Lines without '=' and unknown
 * names are ignored; a later line wins over an earlier one of the same
 * name. A bad value of an optional field drops that field and sets
 * l->dropped. Returns 0, or -EINVAL (no interface or ip, or a bad one; a
 * NUL in the text) / -E2BIG (longer than NET_LEASE_MAX) with *why set to a
 * sentence; @why may be NULL. */
int net_lease_parse(const char *buf, size_t len, struct net_lease *l,
		    const char **why);

/* Parse the DHCPv6 lease text buf[0..len) into *l, as net_lease_parse()
 * does: interface is required, the rest (mac, ip6, dns, bootfile_url)
 * optional, a bad value dropping its field (a boot file URL that is not
 * a tftp:// or http:// address sets l->dropped_boot too). The DHCPv4
 * names are ignored. Returns 0, or -EINVAL / -E2BIG with *why set. */
int net_lease6_parse(const char *buf, size_t len, struct net_lease *l,
		     const char **why);

#endif
