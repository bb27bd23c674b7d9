/* watch.c - RTM_NEWLINK and RTM_DELLINK from an rtnetlink socket. */
#include "net/watch.h"

#include <errno.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <stdbool.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* netlink.h: headers, payloads and attributes are 4-byte aligned */
#define WATCH_ALIGN(n) (((n) + 3u) & ~(size_t)3u)
#define WATCH_HDR 16 /* struct nlmsghdr */
#define WATCH_IFI 16 /* struct ifinfomsg */
#define WATCH_RTA 4  /* struct rtattr */
/* linux/if.h's IFF_LOWER_UP (the carrier), which glibc's net/if.h lacks
 * and which cannot be included beside it */
#define WATCH_LOWER_UP 0x10000u

/* Host-order integers of the message at p (netlink is host-endian). */
static uint32_t u32_at(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint16_t u16_at(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* IFLA_IFNAME among the attributes in a[0..len). 0 or -EBADMSG. */
static int link_name(const uint8_t *a, size_t len, char *name)
{
	size_t off = 0;

	name[0] = '\0';
	while (len - off >= WATCH_RTA) {
		size_t alen = u16_at(a + off), type = u16_at(a + off + 2);

		if (alen < WATCH_RTA || alen > len - off)
			return -EBADMSG;
		if (type == IFLA_IFNAME) {
			size_t n = strnlen((const char *)a + off + WATCH_RTA,
					   alen - WATCH_RTA);

			if (n >= NET_IFNAME_MAX)
				return -EBADMSG;
			memcpy(name, a + off + WATCH_RTA, n);
			name[n] = '\0';
		}
		if (WATCH_ALIGN(alen) >= len - off)
			break;
		off += WATCH_ALIGN(alen);
	}
	return 0;
}

/* One RTM_NEWLINK/RTM_DELLINK body p[0..len) into *m. */
static int link_msg(const uint8_t *p, size_t len, bool gone,
		    struct net_link_msg *m)
{
	uint32_t flags;

	if (len < WATCH_IFI)
		return -EBADMSG;
	m->gone = gone;
	m->index = (int)u32_at(p + 4);
	flags = u32_at(p + 8);
	m->carrier = (flags & WATCH_LOWER_UP) != 0;
	return link_name(p + WATCH_IFI, len - WATCH_IFI, m->name);
}

int net_watch_parse(const uint8_t *buf, size_t len, struct net_link_msg *out,
		    size_t max)
{
	size_t off = 0, n = 0;

	while (len - off >= WATCH_HDR && n < max) {
		size_t mlen = u32_at(buf + off), type = u16_at(buf + off + 4);

		if (mlen < WATCH_HDR || mlen > len - off)
			return -EBADMSG;
		if (type == RTM_NEWLINK || type == RTM_DELLINK) {
			int rc =
			    link_msg(buf + off + WATCH_HDR, mlen - WATCH_HDR,
				     type == RTM_DELLINK, &out[n]);

			if (rc < 0)
				return rc;
			if (out[n].index > 0)
				n++;
		}
		if (WATCH_ALIGN(mlen) >= len - off)
			break;
		off += WATCH_ALIGN(mlen);
	}
	return (int)n;
}

int net_watch_open(void)
{
	struct sockaddr_nl sa = {.nl_family = AF_NETLINK,
				 .nl_groups = RTMGRP_LINK};
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK,
			NETLINK_ROUTE);

	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		int rc = -errno;

		close(fd);
		return rc;
	}
	return fd;
}

int net_watch_read(int fd, struct net_link_msg *out, size_t max)
{
	/* netlink.h: 8 KiB holds any one multicast datagram */
	uint8_t buf[8192];
	struct sockaddr_nl from;
	socklen_t flen = sizeof(from);
	ssize_t n = recvfrom(fd, buf, sizeof(buf), MSG_DONTWAIT,
			     (struct sockaddr *)&from, &flen);

	if (n < 0)
		return errno == EWOULDBLOCK ? -EAGAIN : -errno;
	if (flen < sizeof(from) || from.nl_pid != 0)
		return 0; /* another process, not the kernel */
	return net_watch_parse(buf, (size_t)n, out, max);
}
