/* probe_sysfs.c - the block devices the kernel knows, from
 * /sys/class/block (Documentation/ABI/stable/sysfs-block): "dev" is
 * MAJOR:MINOR, "size" and "start" count 512-byte sectors whatever the
 * device's own sector size, a partition has a "partition" file and lives
 * in its disk's directory. No libblkid here.
 */
#include "scan/probe.h"
#include "util/file.h"
#include "util/log.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SYSFS_UEVENT_MAX 4096 /* a sysfs attribute is at most a page */
#define SYSFS_SECTOR 512ull

/* Read @dir/@attr into @buf (NUL-terminated). Returns 0 or -errno. */
static int read_attr(const char *dir, const char *attr, char *buf, size_t cap)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/%s", dir, attr) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	return util_read_small(AT_FDCWD, path, buf, cap);
}

static unsigned long long attr_ull(const char *dir, const char *attr)
{
	char buf[64];

	return read_attr(dir, attr, buf, sizeof(buf)) ? 0
						      : strtoull(buf, NULL, 10);
}

/* ram disks, zram swap and unused loop devices are never boot media. */
static bool never_listed(const char *name, unsigned flags)
{
	if (!strncmp(name, "ram", 3) || !strncmp(name, "zram", 4))
		return true;
	return !strncmp(name, "loop", 4) && !(flags & PROBE_SYSFS_LOOP);
}

/* DEVNAME= in the device's uevent file names its node under /dev. */
static void dev_node(const char *dir, const char *devdir, const char *name,
		     char *out, size_t cap)
{
	char buf[SYSFS_UEVENT_MAX], *save = NULL;
	const char *node = name;

	if (read_attr(dir, "uevent", buf, sizeof(buf)) < 0)
		buf[0] = '\0';
	for (char *p = strtok_r(buf, "\n", &save); p;
	     p = strtok_r(NULL, "\n", &save))
		if (!strncmp(p, "DEVNAME=", 8) && p[8] && !strstr(p + 8, ".."))
			node = p + 8;
	snprintf(out, cap, "%s/%s", devdir, node);
}

static bool valid_name(const char *name)
{
	size_t len = strlen(name);

	return len && len < PROBE_NAME_MAX && !strchr(name, '/') &&
	       strcmp(name, ".") && strcmp(name, "..");
}

int probe_sysfs_dev(const char *sysfs, const char *devdir, const char *name,
		    unsigned flags, struct probe_dev *d)
{
	char link[PATH_MAX], dir[PATH_MAX], buf[64], *slash;

	memset(d, 0, sizeof(*d));
	if (!valid_name(name))
		return -EINVAL;
	if (never_listed(name, flags))
		return -EPERM;
	snprintf(link, sizeof(link), "%s/class/block/%s", sysfs, name);
	if (!realpath(link, dir))
		return -errno;
	if (read_attr(dir, "dev", buf, sizeof(buf)) < 0 ||
	    sscanf(buf, "%u:%u", &d->major, &d->minor) != 2)
		return -ENOENT;
	snprintf(d->name, sizeof(d->name), "%s", name);
	snprintf(d->disk, sizeof(d->disk), "%s", name);
	d->size = attr_ull(dir, "size") * SYSFS_SECTOR;
	d->ro = attr_ull(dir, "ro") != 0;
	dev_node(dir, devdir, name, d->devnode, sizeof(d->devnode));
	if (read_attr(dir, "partition", buf, sizeof(buf)) == 0) {
		d->partno = atoi(buf);
		d->start = attr_ull(dir, "start") * SYSFS_SECTOR;
		slash = strrchr(dir, '/');
		if (slash && slash != dir) {
			*slash = '\0'; /* the disk's directory holds its
					  partitions */
			snprintf(d->disk, sizeof(d->disk), "%s",
				 strrchr(dir, '/') + 1);
		}
	}
	/* USB disks count as removable media too: the default rule puts
	 * them last (choose.h), whatever their removable bit says */
	d->removable = attr_ull(dir, "removable") != 0 || strstr(dir, "/usb");
	if (d->size == 0)
		d->skip = probe_skip_no_medium;
	return 0;
}

int probe_dev_cmp(const char *disk_a, int partno_a, const char *name_a,
		  const char *disk_b, int partno_b, const char *name_b)
{
	int c = strcmp(disk_a, disk_b);

	if (c)
		return c;
	if (partno_a != partno_b)
		return partno_a < partno_b ? -1 : 1;
	return strcmp(name_a, name_b);
}

static int cmp_dev(const void *a, const void *b)
{
	const struct probe_dev *x = a, *y = b;

	return probe_dev_cmp(x->disk, x->partno, x->name, y->disk, y->partno,
			     y->name);
}

int probe_sysfs_list(const char *sysfs, const char *devdir, unsigned flags,
		     struct probe_dev **devs, size_t *n)
{
	char path[PATH_MAX];
	struct probe_dev *v;
	struct dirent *de;
	DIR *d;

	*devs = NULL;
	*n = 0;
	snprintf(path, sizeof(path), "%s/class/block", sysfs);
	d = opendir(path);
	if (!d)
		return -errno;
	v = calloc(PROBE_DEVS_MAX, sizeof(*v));
	if (!v) {
		closedir(d);
		return -ENOMEM;
	}
	while ((de = readdir(d)) && *n < PROBE_DEVS_MAX) {
		int rc;

		if (de->d_name[0] == '.')
			continue;
		rc = probe_sysfs_dev(sysfs, devdir, de->d_name, flags, &v[*n]);
		if (rc == 0)
			(*n)++;
		else if (rc != -EPERM)
			log_debug("sysfs: %s: %s", de->d_name, strerror(-rc));
	}
	closedir(d);
	qsort(v, *n, sizeof(*v), cmp_dev);
	*devs = v;
	return 0;
}
