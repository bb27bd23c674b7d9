/* SPDX-License-Identifier: GPL-2.0-or-later */
/* map.c - a volume as a read-only block device: a loop device over its
 * one window, or a device-mapper table over its several. */
#include "vol/map.h"

#include "util/say.h"
#include "vol/dm.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/dm-ioctl.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define LOOP_CONTROL "/dev/loop-control"
#define DM_CONTROL "/dev/mapper/control"
#define FREE_TRIES 4	/* another process may take the free device first */
#define DM_REQ_MAX 4096 /* a table of VOL_WINDOWS_MAX runs fits */

static int member_size(int fd, uint64_t *size)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (S_ISREG(st.st_mode)) {
		*size = (uint64_t)st.st_size;
		return 0;
	}
	if (!S_ISBLK(st.st_mode))
		return -ENOTBLK;
	return ioctl(fd, BLKGETSIZE64, size) < 0 ? -errno : 0;
}

/* Attach @mfd to a free loop device with @w's offset and size. */
static int attach(int mfd, const struct vol_window *w, char *dev, size_t devlen)
{
	struct loop_config c;
	int ctl = open(LOOP_CONTROL, O_RDWR | O_CLOEXEC);
	int rc = -EBUSY;

	if (ctl < 0)
		return -errno;
	memset(&c, 0, sizeof(c));
	c.fd = (uint32_t)mfd;
	c.info.lo_offset = w->offset;
	c.info.lo_sizelimit = w->size;
	c.info.lo_flags = LO_FLAGS_READ_ONLY;
	for (int i = 0; i < FREE_TRIES && rc == -EBUSY; i++) {
		int n = ioctl(ctl, LOOP_CTL_GET_FREE);
		int lfd;

		if (n < 0) {
			rc = -errno;
			break;
		}
		snprintf(dev, devlen, "/dev/loop%d", n);
		lfd = open(dev, O_RDONLY | O_CLOEXEC);
		if (lfd < 0) {
			rc = -errno;
			break;
		}
		rc = ioctl(lfd, LOOP_CONFIGURE, &c) < 0 ? -errno : 0;
		close(lfd);
	}
	close(ctl);
	return rc;
}

/* Does @w lie inside the @size bytes of @member, in whole sectors? */
static int window_inside(const char *member, const struct vol_window *w,
			 uint64_t size, char *err, size_t errlen)
{
	if (w->size && !(w->offset % 512) && !(w->size % 512) &&
	    w->offset <= size && w->size <= size - w->offset)
		return 0;
	return say(err, errlen, -ERANGE,
		   "the volume's bytes %llu+%llu do not lie inside %s (%llu "
		   "bytes)",
		   (unsigned long long)w->offset, (unsigned long long)w->size,
		   member, (unsigned long long)size);
}

int vol_map_window(const char *member, const struct vol_window *w, char *dev,
		   size_t devlen, char *err, size_t errlen)
{
	uint64_t size = 0;
	int mfd = open(member, O_RDONLY | O_CLOEXEC);
	int rc;

	if (mfd < 0)
		return say(err, errlen, -errno, "cannot open %s: %s", member,
			   strerror(errno));
	rc = member_size(mfd, &size);
	if (rc < 0) {
		close(mfd);
		return say(err, errlen, rc, "cannot size %s: %s", member,
			   strerror(-rc));
	}
	rc = window_inside(member, w, size, err, errlen);
	if (rc < 0) {
		close(mfd);
		return rc;
	}
	rc = attach(mfd, w, dev, devlen);
	close(mfd); /* the loop device keeps its own reference */
	if (rc < 0)
		return say(err, errlen, rc,
			   "cannot map %s read-only through a loop device: %s",
			   member,
			   rc == -ENOENT ? "this kernel has no loop devices"
					 : strerror(-rc));
	return 0;
}

/* --- device-mapper */

/* @w as a run of the block device @member, checked as for a loop. */
static int dm_run(const char *member, const struct vol_window *w,
		  struct vol_dm_run *r, char *err, size_t errlen)
{
	struct stat st;
	uint64_t size = 0;
	int fd = open(member, O_RDONLY | O_CLOEXEC);
	int rc;

	if (fd < 0)
		return say(err, errlen, -errno, "cannot open %s: %s", member,
			   strerror(errno));
	rc = fstat(fd, &st) < 0 ? -errno : 0;
	if (rc == 0 && !S_ISBLK(st.st_mode))
		rc = -ENOTBLK;
	if (rc == 0)
		rc = member_size(fd, &size);
	close(fd);
	if (rc < 0)
		return say(err, errlen, rc,
			   "cannot use %s for device-mapper: %s", member,
			   strerror(-rc));
	rc = window_inside(member, w, size, err, errlen);
	if (rc < 0)
		return rc;
	r->major = major(st.st_rdev);
	r->minor = minor(st.st_rdev);
	r->offset = w->offset / 512;
	r->sectors = w->size / 512;
	return 0;
}

/* A name no other table has: the prefix, @vol's name with '/' as '-',
 * this process and a count (a restarted bootmenu never meets its
 * predecessor's tables). */
static void dm_name(const char *vol, char *out, size_t len)
{
	static atomic_uint count;
	size_t at = (size_t)snprintf(out, len, VOL_DM_PREFIX "%.80s", vol);

	for (char *p = out + strlen(VOL_DM_PREFIX); *p; p++)
		if (*p == '/')
			*p = '-';
	if (at < len)
		snprintf(out + at, len - at, "-%ld-%u", (long)getpid(),
			 atomic_fetch_add(&count, 1));
}

/* One dm ioctl on the control device with the request @io. */
static int dm_call(int ctl, unsigned long req, struct dm_ioctl *io)
{
	return ioctl(ctl, req, io) < 0 ? -errno : 0;
}

/* A request with no table: the version, its size and @name. */
static void dm_plain(struct dm_ioctl *io, const char *name, uint32_t flags)
{
	memset(io, 0, sizeof(*io));
	io->version[0] = DM_VERSION_MAJOR;
	io->data_size = sizeof(*io);
	io->data_start = sizeof(*io);
	io->flags = flags;
	snprintf(io->name, sizeof(io->name), "%s", name);
}

int vol_dm_load(int ctl, const char *name, void *req, dev_t *devno)
{
	struct dm_ioctl io;
	int rc;

	dm_plain(&io, name, DM_READONLY_FLAG);
	rc = dm_call(ctl, DM_DEV_CREATE, &io);
	if (rc < 0)
		return rc;
	*devno = (dev_t)io.dev;
	rc = dm_call(ctl, DM_TABLE_LOAD, (struct dm_ioctl *)req);
	if (rc == 0) {
		dm_plain(&io, name, 0); /* no DM_SUSPEND_FLAG: resume */
		rc = dm_call(ctl, DM_DEV_SUSPEND, &io);
	}
	if (rc < 0) {
		dm_plain(&io, name, 0);
		dm_call(ctl, DM_DEV_REMOVE, &io);
	}
	return rc;
}

/* Load runs[0..n) (striped by @chunk sectors when not 0) as @name:
 * vol_dm_load() of vol_dm_table()'s request. */
static int dm_make(int ctl, const char *name, const struct vol_dm_run *runs,
		   size_t n, uint64_t chunk, dev_t *devno)
{
	_Alignas(8) unsigned char req[DM_REQ_MAX];
	long used = vol_dm_table(req, sizeof(req), name, runs, n, chunk);

	return used < 0 ? (int)used : vol_dm_load(ctl, name, req, devno);
}

static int map_dm(const char *name, const struct vol_window *w, size_t n,
		  uint64_t chunk, const char *const *members, char *dev,
		  size_t devlen, char *err, size_t errlen)
{
	struct vol_dm_run runs[VOL_WINDOWS_MAX];
	char dmname[DM_NAME_LEN];
	dev_t devno = 0;
	int ctl, rc;

	if (n > VOL_WINDOWS_MAX)
		return say(err, errlen, -E2BIG, "%s has %zu runs, more than %d",
			   name, n, VOL_WINDOWS_MAX);
	for (size_t i = 0; i < n; i++) {
		rc = dm_run(members[w[i].source], &w[i], &runs[i], err, errlen);
		if (rc < 0)
			return rc;
	}
	ctl = open(DM_CONTROL, O_RDWR | O_CLOEXEC);
	if (ctl < 0)
		return say(err, errlen, -errno,
			   "cannot map %s through device-mapper: %s", name,
			   errno == ENOENT ? "this kernel has no device-mapper"
					   : strerror(errno));
	dm_name(name, dmname, sizeof(dmname));
	rc = dm_make(ctl, dmname, runs, n, chunk / 512, &devno);
	close(ctl);
	if (rc < 0)
		return say(err, errlen, rc,
			   "cannot map %s read-only through device-mapper: %s",
			   name, strerror(-rc));
	snprintf(dev, devlen, "/dev/dm-%u", minor(devno));
	return 0;
}

int vol_map(const char *name, const struct vol_window *w, size_t n,
	    unsigned stripes, uint64_t chunk, const char *const *members,
	    char *dev, size_t devlen, char *err, size_t errlen)
{
	if (!n)
		return say(err, errlen, -EINVAL, "%s has no bytes to map",
			   name);
	if (stripes > 1 &&
	    (stripes != n || !chunk || chunk % 512 || chunk / 512 > UINT32_MAX))
		return say(err, errlen, -EINVAL,
			   "%s is striped in a way bootmenu cannot map", name);
	if (n == 1)
		return vol_map_window(members[w[0].source], &w[0], dev, devlen,
				      err, errlen);
	return map_dm(name, w, n, stripes > 1 ? chunk : 0, members, dev, devlen,
		      err, errlen);
}

/* Remove the table behind the device node @dev, now or (still open) when
 * its last user closes it. */
static int unmap_dm(const char *dev)
{
	struct dm_ioctl io;
	struct stat st;
	int ctl, rc;

	if (stat(dev, &st) < 0)
		return -errno;
	ctl = open(DM_CONTROL, O_RDWR | O_CLOEXEC);
	if (ctl < 0)
		return -errno;
	dm_plain(&io, "", DM_DEFERRED_REMOVE);
	io.dev = (uint64_t)st.st_rdev; /* no name: looked up by number */
	rc = dm_call(ctl, DM_DEV_REMOVE, &io);
	close(ctl);
	return rc;
}

int vol_unmap(const char *dev)
{
	int fd, rc;

	if (!strncmp(dev, "/dev/dm-", 8))
		return unmap_dm(dev);
	fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	rc = ioctl(fd, LOOP_CLR_FD, 0) < 0 ? -errno : 0;
	close(fd);
	return rc;
}
