/* link.h - wired network links: which there are, up, carrier, address,
 * and the table of the links the network source uses as they come and go.
 *
 * A wired link is a /sys/class/net entry of type 1 (Ethernet) backed by a
 * device (not lo, a bridge or a tunnel) and without wireless/ or
 * phy80211/ (Wi-Fi needs a passphrase a boot menu does not have).
 */
#ifndef BM_NET_LINK_H
#define BM_NET_LINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NET_LINKS_MAX 8
#define NET_IFNAME_MAX 16

/* The wired links under @sysfs ("/sys/class/net"), in name order, into
 * names[0..max); only the one named @only when it is not NULL. Returns
 * how many, or -errno when @sysfs cannot be read. */
int net_links_list(const char *sysfs, const char *only,
		   char names[][NET_IFNAME_MAX], size_t max);

/* Whether @name under @sysfs is a wired link (above). */
bool net_link_wired(const char *sysfs, const char *name);

/* The kernel's index of @name (its "ifindex"), > 0, or -errno. */
int net_link_index(const char *sysfs, const char *name);

/* Set IFF_UP on @name (a carrier can only be seen on a link that is up).
 * Returns 0 or -errno. */
int net_link_up(const char *name);

/* 1 when @name has a carrier, 0 when not, -errno when unknown. */
int net_link_carrier(const char *sysfs, const char *name);

/* The link's hardware address. Returns 0 or -errno. */
int net_link_mac(const char *sysfs, const char *name, uint8_t mac[6]);

/* --- The links in use: a slot each, at most NET_LINKS_MAX.
 *
 * The network source feeds every kernel message about a link (net/watch.h)
 * and every link of a sysfs listing through net_links_apply(), which says
 * what the link's job has to do. A slot whose link went is ENDING until
 * the source has joined its job's thread (net_links_free()): only then can
 * another link have it. A link is known by its index; one renamed under
 * the same index ends, and comes back under its new name at the next
 * listing (the source lists again whenever a slot frees). */

/* What the kernel says of one link (RTM_NEWLINK, RTM_DELLINK), or a
 * listing says. */
struct net_link_msg {
	bool gone; /* RTM_DELLINK: the link was removed */
	int index;
	char name[NET_IFNAME_MAX];
	bool carrier; /* IFF_LOWER_UP */
};

enum net_link_do {
	NET_LINK_KEEP,	/* nothing for a job to do */
	NET_LINK_START, /* a new link has the slot: start its job */
	NET_LINK_LOST,	/* the slot's link lost its carrier */
	NET_LINK_BACK,	/* the slot's link has its carrier again */
	NET_LINK_END,	/* the slot's link went (or was renamed): end its job */
	NET_LINK_FULL,	/* a new wired link, but no slot is free */
};

enum net_slot_state { NET_SLOT_FREE, NET_SLOT_LIVE, NET_SLOT_ENDING };

struct net_links {
	const char *only; /* the one link name to use, or NULL: any */
	/* Is @name a wired link (net_link_wired())? Asked only for a link
	 * not in the table. */
	bool (*wired)(const char *name, void *ctx);
	void *ctx;
	struct net_link_slot {
		enum net_slot_state state;
		int index;
		char name[NET_IFNAME_MAX];
		bool carrier;
	} slot[NET_LINKS_MAX];
};

/* Take @m into @t and say what it means; *slot gets the slot concerned
 * (for every answer but KEEP and FULL). A new link is taken only when it
 * is wired and named @t->only (when set). */
enum net_link_do net_links_apply(struct net_links *t,
				 const struct net_link_msg *m, size_t *slot);

/* The job of @slot (ENDING) is over: the slot is free for another link. */
void net_links_free(struct net_links *t, size_t slot);

#endif
