/* uevent.h - the kernel's uevent messages (NETLINK_KOBJECT_UEVENT), parsed.
 *
 * A message is "ACTION@DEVPATH\0KEY=VALUE\0KEY=VALUE\0..."
 * (lib/kobject_uevent.c). The parser is pure: bytes in, a fixed struct out, no
 * allocation; it is what tests/fuzz/fuzz_uevent.c feeds.
 */
#ifndef BM_UEVENT_H
#define BM_UEVENT_H

#include <stdbool.h>
#include <stddef.h>

/* The kernel's UEVENT_BUFFER_SIZE is 2048; anything longer is not its. */
#define UEVENT_MSG_MAX 8192
#define UEVENT_FIELD_MAX 256

enum uevent_action {
	UEVENT_OTHER,
	UEVENT_ADD,
	UEVENT_REMOVE,
	UEVENT_CHANGE,
	UEVENT_MOVE,
	UEVENT_ONLINE,
	UEVENT_OFFLINE,
	UEVENT_BIND,
	UEVENT_UNBIND,
};

struct uevent {
	enum uevent_action action;
	char action_name[16];
	char devpath[UEVENT_FIELD_MAX];
	char subsystem[64];
	char devtype[64];
	char devname[UEVENT_FIELD_MAX]; /* "sda1", relative to /dev */
	unsigned major, minor;
	bool has_devno;
	unsigned long long seqnum;
	bool media_change;  /* DISK_MEDIA_CHANGE=1: a CD went in or out */
	bool eject_request; /* DISK_EJECT_REQUEST=1 */
};

/* Parse one message of @len bytes. Returns 0, -ENOMSG for a message that
 * is not the kernel's (udev's "libudev" ones), or -EINVAL when malformed
 * (no '@' header, no ACTION or DEVPATH, a header that disagrees with
 * them). Overlong values are cut at the field's size. */
int uevent_parse(const void *buf, size_t len, struct uevent *ev);

/* True for an event about a block disk or partition with a device name. */
bool uevent_is_block(const struct uevent *ev);

#endif
