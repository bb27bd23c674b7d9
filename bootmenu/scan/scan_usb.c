/* scan_usb.c - USB storage hosts that have appeared but not reported
 * their disks yet: usb-storage waits (delay_use) before the SCSI scan, so
 * a stick plugged in at boot shows as a host first and a disk a second
 * later. Such a host holds the settle for up to SCAN_HOST_WAIT_MS.
 */
#include "scan/scan_int.h"
#include "util/log.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void host_expect(struct scan *s, const char *devpath, int64_t now)
{
	for (size_t i = 0; i < s->n_hosts; i++)
		if (!strcmp(s->hosts[i].devpath, devpath))
			return;
	if (s->n_hosts == SCAN_HOSTS_MAX)
		return;
	snprintf(s->hosts[s->n_hosts].devpath, sizeof(s->hosts[0].devpath),
		 "%s", devpath);
	s->hosts[s->n_hosts++].since_ms = now;
	log_debug("scan: %s: waiting for its disks", devpath);
}

void scan_host_forget(struct scan *s, const char *devpath)
{
	for (size_t i = 0; i < s->n_hosts;) {
		size_t n = strlen(s->hosts[i].devpath);

		if (!strncmp(devpath, s->hosts[i].devpath, n) &&
		    (devpath[n] == '/' || !devpath[n]))
			s->hosts[i] = s->hosts[--s->n_hosts];
		else
			i++;
	}
}

bool scan_hosts_pending(struct scan *s, int64_t now)
{
	for (size_t i = 0; i < s->n_hosts;) {
		if (now - s->hosts[i].since_ms < SCAN_HOST_WAIT_MS) {
			i++;
			continue;
		}
		log_info("scan: %s: no disk within %d ms", s->hosts[i].devpath,
			 SCAN_HOST_WAIT_MS);
		s->hosts[i] = s->hosts[--s->n_hosts];
	}
	return s->n_hosts > 0;
}

void scan_hosts_from_sysfs(struct scan *s, int64_t now)
{
	char path[PATH_MAX], dir[PATH_MAX], base[PATH_MAX];
	struct dirent *de;
	size_t n;
	DIR *d;

	snprintf(path, sizeof(path), "%s/class/scsi_host", s->o.sysfs);
	if (!realpath(s->o.sysfs, base) || !(d = opendir(path)))
		return;
	n = strlen(base);
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/class/scsi_host/%s/device",
			 s->o.sysfs, de->d_name);
		if (realpath(path, dir) && !strncmp(dir, base, n) &&
		    strstr(dir + n, "/usb") &&
		    !scan_child_named(dir, "target", NULL, 0))
			host_expect(s, dir + n, now);
	}
	closedir(d);
}

bool scan_on_host_uevent(struct scan *s, const struct uevent *ev, int64_t now)
{
	if (!strcmp(ev->subsystem, "usb"))
		s->last_activity_ms = now;
	if (strcmp(ev->subsystem, "scsi") || strcmp(ev->devtype, "scsi_host") ||
	    !strstr(ev->devpath, "/usb"))
		return false;
	s->last_activity_ms = now;
	if (ev->action == UEVENT_ADD)
		host_expect(s, ev->devpath, now);
	else if (ev->action == UEVENT_REMOVE)
		scan_host_forget(s, ev->devpath);
	return true;
}

size_t scan_hosts_waiting(struct scan *s)
{
	int64_t now = scan_now_ms();
	size_t n = 0;

	pthread_mutex_lock(&s->lock);
	for (size_t i = 0; i < s->n_hosts; i++)
		n += now - s->hosts[i].since_ms < SCAN_HOST_WAIT_MS;
	pthread_mutex_unlock(&s->lock);
	return n;
}
