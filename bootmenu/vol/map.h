/* SPDX-License-Identifier: GPL-2.0-or-later */
/* map.h - a volume's window as a read-only block device for the scan.
 *
 * One window (a linear LV in one run, one RAID1 member's data area) needs
 * no device-mapper: a loop device over the member with an offset and a
 * size limit, read-only, is the same bytes. A volume of several windows
 * (an LV in several runs, or over several PVs) is a read-only
 * device-mapper table of linear targets (dm.h), named VOL_DM_PREFIX and
 * the volume's name, made with our own ioctls: no libdevmapper, no udev,
 * nothing written to the members. */
#ifndef BOOTMENU_VOL_MAP_H
#define BOOTMENU_VOL_MAP_H

#include "vol/vol.h"

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Map @w of the device or image file @member as a read-only loop device;
 * its path ("/dev/loop3") into dev[0..devlen). The window must lie inside
 * the member. Returns 0, or -errno with a sentence in err. */
int vol_map_window(const char *member, const struct vol_window *w, char *dev,
		   size_t devlen, char *err, size_t errlen);

/* Map volume @name's windows w[0..n) (members[w[i].source] are their
 * devices) as one read-only block device: vol_map_window() for one
 * window, device-mapper for several (members must then be block
 * devices); with @stripes > 1 the windows are the stripes of a striped
 * volume, its bytes going round them @chunk bytes at a time (struct
 * vol). The device's path ("/dev/loop3", "/dev/dm-0") into
 * dev[0..devlen). Returns 0, or -errno with a sentence in err; nothing
 * stays mapped on failure. */
int vol_map(const char *name, const struct vol_window *w, size_t n,
	    unsigned stripes, uint64_t chunk, const char *const *members,
	    char *dev, size_t devlen, char *err, size_t errlen);

/* The device-mapper step every table of ours takes, on the control
 * device @ctl: create @name read-only, load the DM_TABLE_LOAD request
 * @req (vol/dm.h makes them), resume it; its device number into *devno.
 * Returns 0 or the failed ioctl's -errno; a half-made device is removed
 * again. */
int vol_dm_load(int ctl, const char *name, void *req, dev_t *devno);

/* Remove the mapping @dev made by vol_map() or vol_map_window(); a
 * device still mounted goes when it is unmounted. Returns 0 or -errno. */
int vol_unmap(const char *dev);

/* Map an unlocked LUKS volume @name ("luks-<uuid>") read-only through
 * dm-crypt as the table VOL_DM_PREFIX @name, from the table line @line
 * (luks_dm_table()'s; it holds the key, which the kernel is asked to wipe
 * from its own copies). The device's path ("/dev/dm-1") into
 * dev[0..devlen). Every buffer that held the key is wiped; the caller
 * wipes @line. Returns 0, or -errno with a sentence in err (-EEXIST: a
 * table of that name is there); nothing stays mapped on failure.
 * vol/map_crypt.c: a test puts its own in place at link time. */
int vol_map_crypt(const char *name, const char *line, char *dev, size_t devlen,
		  char *err, size_t errlen);

/* Remove the mapping @dev made by vol_map_crypt() (when its last user
 * closes it, if still open). Returns 0 or -errno. */
int vol_unmap_crypt(const char *dev);

#endif
