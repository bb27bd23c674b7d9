/* scan_owed.c - settling by knowing: the disks the kernel still owes us
 * at start. Built-in storage drivers have finished probing before /init
 * runs (the kernel waits for their asynchronous scans), so what can still
 * come without a plug is what USB and MMC find on their own time:
 *   - a hub port with a device connected that has no device in sysfs yet
 *     (hub_wq has not enumerated it), asked of the hub itself through
 *     usbfs (GET_STATUS of the port: its connection bit);
 *   - a port not powered yet, and every port of a hub behind a root port
 *     for SCAN_HUB_YOUNG_MS after it was first seen (it powers its ports
 *     as it is set up, and a device shows connected only after that);
 *   - a device not configured yet, or whose interfaces are not all there;
 *   - a USB storage interface with no SCSI host, or no disk under it yet
 *     (usb-storage's delay_use, then sd's probe);
 *   - an MMC host with no card yet: the kernel says nothing of its slot,
 *     so it gets the old quiet window (SCAN_QUIET_MS from the start).
 * Each owed thing holds the settle for at most SCAN_HOST_WAIT_MS from when
 * it was first seen. Asked only until the first settle, under s->lock:
 * afterwards hotplug shows what comes, and usbfs is not opened again
 * (opening it wakes a suspended hub). A root hub answers from its host
 * controller's registers; a hub that does not answer within
 * SCAN_PORT_ASK_MS is not asked of its other ports in that pass.
 */
#include "scan/scan_int.h"
#include "util/file.h"
#include "util/log.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <linux/usbdevice_fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define PORT_CONNECTION 0x0001
#define PORT_POWER_USB2 0x0100
#define PORT_POWER_USB3 0x0200
#define USB_REQ_GET_STATUS 0x00
#define USB_RT_PORT_IN 0xa3 /* device to host, class, recipient: other */
/* A hub's power-on-to-power-good time (up to 510 ms by the descriptor's
 * byte, 100 ms in practice) and a device's attach: until then an empty
 * port of a hub first seen is not known to stay empty. */
#define SCAN_HUB_YOUNG_MS 500
/* A hub answers GET_STATUS in a millisecond; the coordinator holds the
 * scan's lock meanwhile, so a hub that does not is not waited for long. */
#define SCAN_PORT_ASK_MS 100

int scan_usb_port_status(void *ctx, const char *node, unsigned port,
			 uint16_t *status)
{
	unsigned char buf[4] = {0};
	struct usbdevfs_ctrltransfer c = {
	    .bRequestType = USB_RT_PORT_IN,
	    .bRequest = USB_REQ_GET_STATUS,
	    .wIndex = (uint16_t)port,
	    .wLength = sizeof(buf),
	    .timeout = SCAN_PORT_ASK_MS,
	    .data = buf,
	};
	int fd = open(node, O_RDWR | O_CLOEXEC);
	int rc = 0;

	(void)ctx;
	if (fd < 0)
		return -errno;
	if (ioctl(fd, USBDEVFS_CONTROL, &c) < 0)
		rc = -errno;
	close(fd);
	*status = (uint16_t)(buf[0] | buf[1] << 8);
	return rc;
}

/* "@a/@b" into @out; false when it does not fit. */
static bool join(char *out, size_t n, const char *a, const char *b)
{
	int len = snprintf(out, n, "%s/%s", a, b);

	return len >= 0 && (size_t)len < n;
}

/* @dir/@name's first line as an unsigned number of @base; -1 when none. */
static long read_num(const char *dir, const char *name, int base)
{
	char p[PATH_MAX], line[32];
	char *end;
	long v;

	if (!join(p, sizeof(p), dir, name) ||
	    util_read_small(AT_FDCWD, p, line, sizeof(line)) < 0)
		return -1;
	v = strtol(line, &end, base);
	return end == line || v < 0 ? -1 : v;
}

static bool exists(const char *dir, const char *name)
{
	char p[PATH_MAX];

	return join(p, sizeof(p), dir, name) && access(p, F_OK) == 0;
}

/* Remember what @fmt names as owed (from @now on, the first time); false
 * once it has been owed @limit_ms: then it has come or is given up on. */
__attribute__((format(printf, 4, 5))) static bool
owe(struct scan *s, int64_t now, int limit_ms, const char *fmt, ...)
{
	char what[UEVENT_FIELD_MAX];
	va_list ap;
	size_t i;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	for (i = 0; i < s->n_owed; i++)
		if (!strcmp(s->owed[i].devpath, what))
			break;
	if (i == s->n_owed) {
		if (s->n_owed == SCAN_OWED_MAX)
			return false; /* more than a machine has: unasked */
		memcpy(s->owed[i].devpath, what, sizeof(what));
		s->owed[i].limit_ms = limit_ms;
		s->owed[s->n_owed++].since_ms = now;
		log_debug("scan: waiting for %s", what);
	}
	if (s->owed[i].since_ms == INT64_MIN)
		return false; /* over already */
	if (now - s->owed[i].since_ms < limit_ms)
		return true;
	if (limit_ms == SCAN_HOST_WAIT_MS)
		log_info("scan: %s: nothing came within %d ms", what, limit_ms);
	s->owed[i].since_ms = INT64_MIN;
	return false;
}

/* A hub's ports: one connected whose device is not in @bus yet, or one
 * not powered yet. A hub whose driver has not counted its ports owes. */
static bool hub_owes(struct scan *s, const char *bus, const char *name,
		     int64_t now)
{
	char dir[PATH_MAX], node[PATH_MAX], child[64];
	long nbus, dev, ports;
	bool root = !strncmp(name, "usb", 3), owed = false;
	uint16_t power;

	if (!join(dir, sizeof(dir), bus, name))
		return false;
	nbus = read_num(dir, "busnum", 10);
	dev = read_num(dir, "devnum", 10);
	ports = read_num(dir, "maxchild", 10);
	power = read_num(dir, "speed", 10) >= 5000 ? PORT_POWER_USB3
						   : PORT_POWER_USB2;
	if (ports == 0)
		return owe(s, now, SCAN_HOST_WAIT_MS, "USB hub %s (its ports)",
			   name);
	if (nbus < 0 || dev < 0 || ports < 0)
		return false;
	/* a hub behind a root port powers its ports as it is set up: a
	 * device there shows as connected only a while after */
	if (!root && owe(s, now, SCAN_HUB_YOUNG_MS,
			 "USB hub %s (powering its ports)", name))
		return true;
	if (snprintf(node, sizeof(node), "%s/bus/usb/%03ld/%03ld", s->o.devdir,
		     nbus, dev) >= (int)sizeof(node))
		return false;
	for (long p = 1; p <= ports && p < 256; p++) {
		uint16_t st = 0;

		int len =
		    root ? snprintf(child, sizeof(child), "%s-%ld", name + 3, p)
			 : snprintf(child, sizeof(child), "%s.%ld", name, p);

		if (len < 0 || (size_t)len >= sizeof(child) ||
		    exists(bus, child))
			continue; /* enumerated */
		if (s->o.usb_port_fn(s->o.usb_port_ctx, node, (unsigned)p,
				     &st) < 0)
			break; /* cannot ask: hotplug will show what comes */
		if (!(st & PORT_CONNECTION) && (st & power))
			continue;
		owed |=
		    owe(s, now, SCAN_HOST_WAIT_MS, "USB port %s (%s)", child,
			st & PORT_CONNECTION ? "a device is connected"
					     : "not powered yet");
	}
	return owed;
}

/* How many of @name's interfaces ("NAME:C.I") are in @bus. */
static long interfaces_in(const char *bus, const char *name)
{
	size_t n = strlen(name);
	struct dirent *de;
	long count = 0;
	DIR *d = opendir(bus);

	if (!d)
		return 0;
	while ((de = readdir(d)))
		count += !strncmp(de->d_name, name, n) && de->d_name[n] == ':';
	closedir(d);
	return count;
}

/* A device not configured yet, or whose interfaces are not all there:
 * its driver (usb-storage among them) has not been asked yet. */
static bool device_owes(struct scan *s, const char *bus, const char *name,
			int64_t now)
{
	char dir[PATH_MAX];
	long want;

	if (!join(dir, sizeof(dir), bus, name))
		return false;
	want = read_num(dir, "bNumInterfaces", 10);
	if (want >= 0 && interfaces_in(bus, name) >= want)
		return false;
	return owe(s, now, SCAN_HOST_WAIT_MS,
		   "USB device %s (being configured)", name);
}

bool scan_child_named(const char *dir, const char *prefix, char *out, size_t n)
{
	struct dirent *de;
	bool found = false;
	DIR *d = opendir(dir);

	if (!d)
		return false;
	while (!found && (de = readdir(d)))
		found = !strncmp(de->d_name, prefix, strlen(prefix)) &&
			(!out || join(out, n, dir, de->d_name));
	closedir(d);
	return found;
}

/* A device under @target ("H:C:T:L") with its block device made. */
static bool has_block(const char *target)
{
	char lun[PATH_MAX];
	struct dirent *de;
	bool found = false;
	DIR *d = opendir(target);

	if (!d)
		return false;
	while (!found && (de = readdir(d)))
		found = strchr(de->d_name, ':') &&
			join(lun, sizeof(lun), target, de->d_name) &&
			exists(lun, "block");
	closedir(d);
	return found;
}

/* A storage interface whose SCSI host is not there yet, or whose disk
 * is not: usb-storage waits (delay_use) before its scan, and sd adds
 * the disk after the target. */
static bool storage_owes(struct scan *s, const char *bus, const char *name,
			 int64_t now)
{
	char dir[PATH_MAX], host[PATH_MAX], target[PATH_MAX];

	if (!join(dir, sizeof(dir), bus, name) ||
	    read_num(dir, "bInterfaceClass", 16) != 8)
		return false;
	if (scan_child_named(dir, "host", host, sizeof(host)) &&
	    scan_child_named(host, "target", target, sizeof(target)) &&
	    has_block(target))
		return false;
	return owe(s, now, SCAN_HOST_WAIT_MS, "USB storage %s", name);
}

static bool usb_owes(struct scan *s, int64_t now)
{
	char bus[PATH_MAX], dir[PATH_MAX];
	struct dirent *de;
	bool owed = false;
	DIR *d;

	if (!join(bus, sizeof(bus), s->o.sysfs, "bus/usb/devices") ||
	    !(d = opendir(bus)))
		return false;
	while ((de = readdir(d))) {
		const char *name = de->d_name;

		if (name[0] == '.' || strlen(name) > 48 ||
		    !join(dir, sizeof(dir), bus, name))
			continue;
		if (strchr(name, ':'))
			owed |= storage_owes(s, bus, name, now);
		else if (read_num(dir, "bDeviceClass", 16) == 9)
			owed |= hub_owes(s, bus, name, now);
		else
			owed |= device_owes(s, bus, name, now);
	}
	closedir(d);
	return owed;
}

/* An MMC host with no card child: the slot may still report one. */
static bool mmc_owes(struct scan *s, int64_t now)
{
	char path[PATH_MAX], dir[PATH_MAX], card[NAME_MAX + 2];
	struct dirent *de;
	bool owed = false;
	DIR *d;

	if (now - s->started_ms >= SCAN_QUIET_MS)
		return false;
	if (!join(path, sizeof(path), s->o.sysfs, "class/mmc_host") ||
	    !(d = opendir(path)))
		return false;
	while (!owed && (de = readdir(d))) {
		/* a card is the host's child "mmc0:0001" */
		snprintf(card, sizeof(card), "%s:", de->d_name);
		owed = de->d_name[0] != '.' &&
		       join(dir, sizeof(dir), path, de->d_name) &&
		       !scan_child_named(dir, card, NULL, 0);
	}
	closedir(d);
	return owed;
}

bool scan_owed(struct scan *s, int64_t now)
{
	bool usb = usb_owes(s, now);

	return mmc_owes(s, now) || usb;
}

size_t scan_owed_waiting(struct scan *s)
{
	int64_t now = scan_now_ms();
	size_t n = 0;

	pthread_mutex_lock(&s->lock);
	for (size_t i = 0; i < s->n_owed && !s->settled_sent; i++)
		n += s->owed[i].since_ms != INT64_MIN &&
		     now - s->owed[i].since_ms < s->owed[i].limit_ms;
	pthread_mutex_unlock(&s->lock);
	return n;
}
