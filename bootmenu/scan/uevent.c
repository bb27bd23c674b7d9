/* uevent.c - parse the kernel's uevent messages. */
#include "scan/uevent.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const uevent_actions[] = {
    [UEVENT_ADD] = "add",	[UEVENT_REMOVE] = "remove",
    [UEVENT_CHANGE] = "change", [UEVENT_MOVE] = "move",
    [UEVENT_ONLINE] = "online", [UEVENT_OFFLINE] = "offline",
    [UEVENT_BIND] = "bind",	[UEVENT_UNBIND] = "unbind",
};

static enum uevent_action action_of(const char *s)
{
	for (size_t i = 1;
	     i < sizeof(uevent_actions) / sizeof(uevent_actions[0]); i++)
		if (!strcmp(s, uevent_actions[i]))
			return (enum uevent_action)i;
	return UEVENT_OTHER;
}

/* Copy @len bytes of @s into @dst of @cap bytes, cut if longer. */
static void put(char *dst, size_t cap, const char *s, size_t len)
{
	if (len >= cap)
		len = cap - 1;
	memcpy(dst, s, len);
	dst[len] = '\0';
}

static unsigned long long num(const char *s, size_t len)
{
	char b[24];

	put(b, sizeof(b), s, len);
	return strtoull(b, NULL, 10);
}

/* One KEY=VALUE field of @len bytes (not NUL-terminated). */
static void field(struct uevent *ev, const char *f, size_t len, bool *act,
		  bool *path)
{
	const char *eq = memchr(f, '=', len);
	size_t klen, vlen;
	const char *v;

	if (!eq)
		return;
	klen = (size_t)(eq - f);
	v = eq + 1;
	vlen = len - klen - 1;
#define KEY(k) (klen == sizeof(k) - 1 && !memcmp(f, k, klen))
	if (KEY("ACTION")) {
		put(ev->action_name, sizeof(ev->action_name), v, vlen);
		*act = true;
	} else if (KEY("DEVPATH")) {
		put(ev->devpath, sizeof(ev->devpath), v, vlen);
		*path = true;
	} else if (KEY("SUBSYSTEM")) {
		put(ev->subsystem, sizeof(ev->subsystem), v, vlen);
	} else if (KEY("DEVTYPE")) {
		put(ev->devtype, sizeof(ev->devtype), v, vlen);
	} else if (KEY("DEVNAME")) {
		put(ev->devname, sizeof(ev->devname), v, vlen);
	} else if (KEY("MAJOR")) {
		ev->major = (unsigned)num(v, vlen);
		ev->has_devno = true;
	} else if (KEY("MINOR")) {
		ev->minor = (unsigned)num(v, vlen);
	} else if (KEY("SEQNUM")) {
		ev->seqnum = num(v, vlen);
	} else if (KEY("DISK_MEDIA_CHANGE")) {
		ev->media_change = vlen == 1 && v[0] == '1';
	} else if (KEY("DISK_EJECT_REQUEST")) {
		ev->eject_request = vlen == 1 && v[0] == '1';
	}
#undef KEY
}

int uevent_parse(const void *buf, size_t len, struct uevent *ev)
{
	const char *p = buf, *end = p + len, *at, *nul;
	char head_action[16];
	bool act = false, path = false;

	memset(ev, 0, sizeof(*ev));
	if (len >= 8 && !memcmp(p, "libudev", 8))
		return -ENOMSG;
	if (len == 0 || len > UEVENT_MSG_MAX)
		return -EINVAL;
	nul = memchr(p, '\0', len);
	at = memchr(p, '@', nul ? (size_t)(nul - p) : len);
	if (!at || at == p)
		return -EINVAL;
	put(head_action, sizeof(head_action), p, (size_t)(at - p));
	for (p = nul ? nul + 1 : end; p < end; p = nul ? nul + 1 : end) {
		nul = memchr(p, '\0', (size_t)(end - p));
		field(ev, p, nul ? (size_t)(nul - p) : (size_t)(end - p), &act,
		      &path);
	}
	if (!act || !path || strcmp(head_action, ev->action_name))
		return -EINVAL;
	ev->action = action_of(ev->action_name);
	return 0;
}

bool uevent_is_block(const struct uevent *ev)
{
	return !strcmp(ev->subsystem, "block") && ev->devname[0] &&
	       (!strcmp(ev->devtype, "disk") ||
		!strcmp(ev->devtype, "partition"));
}
