/* SPDX-License-Identifier: GPL-2.0-or-later */
/* map.c - a volume's window as a read-only loop device. */
#include "vol/map.h"

#include "util/say.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#define LOOP_CONTROL "/dev/loop-control"
#define FREE_TRIES 4 /* another process may take the free device first */

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
	if (!w->size || w->offset % 512 || w->size % 512 || w->offset > size ||
	    w->size > size - w->offset) {
		close(mfd);
		return say(err, errlen, -ERANGE,
			   "the volume's bytes %llu+%llu do not lie inside "
			   "%s (%llu bytes)",
			   (unsigned long long)w->offset,
			   (unsigned long long)w->size, member,
			   (unsigned long long)size);
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

int vol_unmap(const char *dev)
{
	int fd = open(dev, O_RDONLY | O_CLOEXEC);
	int rc;

	if (fd < 0)
		return -errno;
	rc = ioctl(fd, LOOP_CLR_FD, 0) < 0 ? -errno : 0;
	close(fd);
	return rc;
}
