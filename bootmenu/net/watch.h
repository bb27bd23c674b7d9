/* watch.h - the kernel's word when a network link comes, goes or changes.
 *
 * An rtnetlink socket in the RTMGRP_LINK group: the kernel sends
 * RTM_NEWLINK when a link is registered and whenever its flags change
 * (IFF_LOWER_UP is the carrier), and RTM_DELLINK when it is removed. The
 * parser is pure (a fuzz target reads arbitrary bytes through it); only
 * messages from the kernel itself are read.
 */
#ifndef BM_NET_WATCH_H
#define BM_NET_WATCH_H

#include <stddef.h>
#include <stdint.h>

#include "net/link.h"

/* Most messages read from one datagram. */
#define NET_WATCH_MSGS 32

/* The socket, nonblocking, joined to the link group. Returns the fd (the
 * caller closes it) or -errno. */
int net_watch_open(void);

/* Parse the netlink messages in buf[0..len) into out[0..max): the
 * RTM_NEWLINK and RTM_DELLINK ones, others skipped. Returns how many, or
 * -EBADMSG when a header or attribute runs past the buffer (the messages
 * before it are in out[]). */
int net_watch_parse(const uint8_t *buf, size_t len, struct net_link_msg *out,
		    size_t max);

/* Read one datagram from @fd and parse it (net_watch_parse()). Returns
 * how many messages, -EAGAIN when none is waiting, or -ENOBUFS (the
 * kernel dropped some), -EBADMSG or another -errno: then list the links
 * again. A datagram not from the kernel counts as none. */
int net_watch_read(int fd, struct net_link_msg *out, size_t max);

#endif
