/* SPDX-License-Identifier: GPL-2.0-or-later */
/* map_crypt.c - an unlocked LUKS volume as a read-only dm-crypt device.
 * A file of its own so that the scan's tests put a stand-in in its place
 * at link time (there is no dm-crypt on a build machine). */
#include "util/say.h"
#include "vol/dm.h"
#include "vol/map.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/dm-ioctl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define DM_CONTROL "/dev/mapper/control"
#define CRYPT_REQ_MAX 2048 /* a table line with a 512-bit key in hex fits */

/* Why a mapping failed, in words. */
static const char *crypt_why(int rc)
{
	if (rc == -EEXIST)
		return "a device-mapper device of that name is there already";
	if (rc == -EINVAL)
		return "the kernel refused the table (no dm-crypt, or its "
		       "cipher is missing)";
	return strerror(-rc);
}

int vol_map_crypt(const char *name, const char *line, char *dev, size_t devlen,
		  char *err, size_t errlen)
{
	_Alignas(8) unsigned char req[CRYPT_REQ_MAX];
	char dmname[DM_NAME_LEN];
	dev_t devno = 0;
	long used;
	int ctl, rc;

	snprintf(dmname, sizeof(dmname), VOL_DM_PREFIX "%s", name);
	used = vol_dm_crypt_table(req, sizeof(req), dmname, line);
	if (used < 0) {
		explicit_bzero(req, sizeof(req));
		return say(err, errlen, (int)used,
			   "cannot make a dm-crypt table for %s: %s", name,
			   strerror((int)-used));
	}
	ctl = open(DM_CONTROL, O_RDWR | O_CLOEXEC);
	rc = ctl < 0 ? -errno : vol_dm_load(ctl, dmname, req, &devno);
	if (rc == -EBUSY) /* DM_DEV_CREATE: the name is taken */
		rc = -EEXIST;
	explicit_bzero(req, sizeof(req));
	if (ctl < 0)
		return say(err, errlen, rc,
			   "cannot map %s through dm-crypt: %s", name,
			   rc == -ENOENT || rc == -ENODEV
			       ? "this kernel has no device-mapper"
			       : strerror(-rc));
	close(ctl);
	if (rc < 0)
		return say(err, errlen, rc,
			   "cannot map %s read-only through dm-crypt: %s", name,
			   crypt_why(rc));
	snprintf(dev, devlen, "/dev/dm-%u", minor(devno));
	return 0;
}

int vol_unmap_crypt(const char *dev)
{
	return vol_unmap(dev);
}
