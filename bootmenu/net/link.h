/* link.h - wired network links: which there are, up, carrier, address.
 *
 * A wired link is a /sys/class/net entry of type 1 (Ethernet) backed by a
 * device (not lo, a bridge or a tunnel) and without wireless/ or
 * phy80211/ (Wi-Fi needs a passphrase a boot menu does not have).
 */
#ifndef BM_NET_LINK_H
#define BM_NET_LINK_H

#include <stddef.h>
#include <stdint.h>

#define NET_LINKS_MAX 8
#define NET_IFNAME_MAX 16

/* The wired links under @sysfs ("/sys/class/net"), in name order, into
 * names[0..max); only the one named @only when it is not NULL. Returns
 * how many, or -errno when @sysfs cannot be read. */
int net_links_list(const char *sysfs, const char *only,
		   char names[][NET_IFNAME_MAX], size_t max);

/* Set IFF_UP on @name (a carrier can only be seen on a link that is up).
 * Returns 0 or -errno. */
int net_link_up(const char *name);

/* 1 when @name has a carrier, 0 when not, -errno when unknown. */
int net_link_carrier(const char *sysfs, const char *name);

/* The link's hardware address. Returns 0 or -errno. */
int net_link_mac(const char *sysfs, const char *name, uint8_t mac[6]);

#endif
