/* link.c - wired network links from sysfs, brought up with one ioctl;
 * the table of links in use (pure). */
#include "net/lease.h"
#include "net/link.h"
#include "util/file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

static int link_read(const char *sysfs, const char *name, const char *what,
		     char *buf, size_t len)
{
	char path[256];

	if ((size_t)snprintf(path, sizeof(path), "%s/%s/%s", sysfs, name,
			     what) >= sizeof(path))
		return -ENAMETOOLONG;
	return util_read_small(AT_FDCWD, path, buf, len);
}

static int link_has(const char *sysfs, const char *name, const char *what)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s/%s", sysfs, name, what);
	return access(path, F_OK) == 0;
}

bool net_link_wired(const char *sysfs, const char *name)
{
	char type[16];

	if (link_read(sysfs, name, "type", type, sizeof(type)) < 0 ||
	    strtol(type, NULL, 10) != 1)
		return 0;
	return link_has(sysfs, name, "device") &&
	       !link_has(sysfs, name, "wireless") &&
	       !link_has(sysfs, name, "phy80211");
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(a, b);
}

int net_links_list(const char *sysfs, const char *only,
		   char names[][NET_IFNAME_MAX], size_t max)
{
	DIR *d = opendir(sysfs);
	struct dirent *de;
	size_t n = 0;

	if (!d)
		return -errno;
	while ((de = readdir(d)) && n < max) {
		if (de->d_name[0] == '.' ||
		    strlen(de->d_name) >= NET_IFNAME_MAX)
			continue;
		if (only && strcmp(only, de->d_name))
			continue;
		if (!net_link_wired(sysfs, de->d_name))
			continue;
		strcpy(names[n++], de->d_name);
	}
	closedir(d);
	qsort(names, n, NET_IFNAME_MAX, name_cmp);
	return (int)n;
}

int net_link_index(const char *sysfs, const char *name)
{
	char buf[16];
	int rc = link_read(sysfs, name, "ifindex", buf, sizeof(buf));
	long v;

	if (rc < 0)
		return rc;
	v = strtol(buf, NULL, 10);
	return v > 0 && v < 0x7fffffff ? (int)v : -EINVAL;
}

int net_link_up(const char *name)
{
	struct ifreq ifr = {0};
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), rc = 0;

	if (fd < 0)
		return -errno;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0)
		rc = -errno;
	else if (!(ifr.ifr_flags & IFF_UP)) {
		ifr.ifr_flags |= IFF_UP;
		if (ioctl(fd, SIOCSIFFLAGS, &ifr) < 0)
			rc = -errno;
	}
	close(fd);
	return rc;
}

int net_link_carrier(const char *sysfs, const char *name)
{
	char buf[8];
	int rc = link_read(sysfs, name, "carrier", buf, sizeof(buf));

	/* reading carrier of a link that is down fails with EINVAL */
	return rc < 0 ? rc : buf[0] == '1';
}

int net_link_mac(const char *sysfs, const char *name, uint8_t mac[6])
{
	char buf[32];
	int rc = link_read(sysfs, name, "address", buf, sizeof(buf));

	return rc < 0 ? rc : net_mac_parse(buf, strcspn(buf, "\n"), mac);
}

/* The slot (LIVE or ENDING) of the link with index @index, or
 * NET_LINKS_MAX. */
static size_t slot_of(const struct net_links *t, int index)
{
	for (size_t i = 0; i < NET_LINKS_MAX; i++)
		if (t->slot[i].state != NET_SLOT_FREE &&
		    t->slot[i].index == index)
			return i;
	return NET_LINKS_MAX;
}

/* A link the table does not have: a free slot if it is one to use. */
static enum net_link_do link_new(struct net_links *t,
				 const struct net_link_msg *m, size_t *slot)
{
	struct net_link_slot *sl;
	size_t i;

	if (m->gone || !m->name[0] || (t->only && strcmp(t->only, m->name)) ||
	    !t->wired(m->name, t->ctx))
		return NET_LINK_KEEP;
	for (i = 0; i < NET_LINKS_MAX; i++)
		if (t->slot[i].state == NET_SLOT_FREE)
			break;
	if (i == NET_LINKS_MAX)
		return NET_LINK_FULL;
	sl = &t->slot[i];
	sl->state = NET_SLOT_LIVE;
	sl->index = m->index;
	memcpy(sl->name, m->name, sizeof(sl->name));
	sl->name[sizeof(sl->name) - 1] = '\0';
	sl->carrier = m->carrier;
	*slot = i;
	return NET_LINK_START;
}

enum net_link_do net_links_apply(struct net_links *t,
				 const struct net_link_msg *m, size_t *slot)
{
	size_t i = slot_of(t, m->index);
	struct net_link_slot *sl;

	if (i == NET_LINKS_MAX)
		return link_new(t, m, slot);
	sl = &t->slot[i];
	if (sl->state == NET_SLOT_ENDING)
		return NET_LINK_KEEP; /* listed again once the slot is free */
	*slot = i;
	if (m->gone ||
	    (m->name[0] && strncmp(sl->name, m->name, sizeof(sl->name)))) {
		sl->state = NET_SLOT_ENDING;
		return NET_LINK_END;
	}
	if (sl->carrier == m->carrier)
		return NET_LINK_KEEP;
	sl->carrier = m->carrier;
	return m->carrier ? NET_LINK_BACK : NET_LINK_LOST;
}

void net_links_free(struct net_links *t, size_t slot)
{
	if (slot < NET_LINKS_MAX && t->slot[slot].state == NET_SLOT_ENDING)
		t->slot[slot] = (struct net_link_slot){0};
}
