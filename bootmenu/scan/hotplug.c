/* hotplug.c - NETLINK_KOBJECT_UEVENT listener.
 *
 * Group 1 carries the kernel's messages (udev re-broadcasts on group 2,
 * which we do not join); only a sender with nl_pid 0 is the kernel.
 */
#include "scan/hotplug.h"

#include <errno.h>
#include <linux/netlink.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define HOTPLUG_GROUP_KERNEL 1u

int hotplug_open(void)
{
	struct sockaddr_nl sa = {
	    .nl_family = AF_NETLINK,
	    .nl_groups = HOTPLUG_GROUP_KERNEL,
	};
	int fd, size = HOTPLUG_RCVBUF;

	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
		    NETLINK_KOBJECT_UEVENT);
	if (fd < 0)
		return -errno;
	/* FORCE passes rmem_max as root; the plain one is the fallback */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)) < 0)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		int rc = -errno;

		close(fd);
		return rc;
	}
	return fd;
}

int hotplug_recv(int fd, struct uevent *ev)
{
	char buf[UEVENT_MSG_MAX];
	struct sockaddr_nl sa;
	struct iovec iov = {buf, sizeof(buf)};
	struct msghdr msg;
	ssize_t n;

	for (;;) {
		memset(&msg, 0, sizeof(msg));
		msg.msg_name = &sa;
		msg.msg_namelen = sizeof(sa);
		msg.msg_iov = &iov;
		msg.msg_iovlen = 1;
		n = recvmsg(fd, &msg, MSG_DONTWAIT);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno == EAGAIN || errno == EWOULDBLOCK ? 0
								       : -errno;
		/* skip what is not the kernel's, cut, or malformed */
		if (sa.nl_pid != 0 || (msg.msg_flags & MSG_TRUNC))
			continue;
		if (uevent_parse(buf, (size_t)n, ev) == 0)
			return 1;
	}
}
