/* hotplug.h - the kernel's uevent stream (NETLINK_KOBJECT_UEVENT).
 *
 * No udev in the initramfs: bootmenu listens to the kernel's own
 * multicast group. The socket is non-blocking, for a poll() loop.
 */
#ifndef BM_HOTPLUG_H
#define BM_HOTPLUG_H

#include "scan/uevent.h"

/* Receive buffer asked for, so a burst (a USB hub with 8 card slots) is
 * not dropped while the scan is busy. */
#define HOTPLUG_RCVBUF (4 << 20)

/* Open and bind the socket. Returns the fd (the caller closes it) or
 * -errno (-EPROTONOSUPPORT without CONFIG_NET / uevent netlink). */
int hotplug_open(void);

/* Read the next kernel message from @fd into @ev, skipping others' and
 * malformed ones. Returns 1, 0 when there is nothing left to read,
 * -ENOBUFS when messages were lost (look at sysfs again), or -errno. */
int hotplug_recv(int fd, struct uevent *ev);

#endif
