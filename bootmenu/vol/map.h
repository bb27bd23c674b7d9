/* SPDX-License-Identifier: GPL-2.0-or-later */
/* map.h - a volume's window as a read-only block device for the scan.
 *
 * One window (a linear LV in one run, one RAID1 member's data area) needs
 * no device-mapper: a loop device over the member with an offset and a
 * size limit, read-only, is the same bytes. Volumes of several windows
 * need device-mapper and are not mapped here. */
#ifndef BOOTMENU_VOL_MAP_H
#define BOOTMENU_VOL_MAP_H

#include "vol/vol.h"

#include <stddef.h>

/* Map @w of the device or image file @member as a read-only loop device;
 * its path ("/dev/loop3") into dev[0..devlen). The window must lie inside
 * the member. Returns 0, or -errno with a sentence in err. */
int vol_map_window(const char *member, const struct vol_window *w, char *dev,
		   size_t devlen, char *err, size_t errlen);

/* Remove the mapping @dev made by vol_map_window(); a device still
 * mounted goes when it is unmounted. Returns 0 or -errno. */
int vol_unmap(const char *dev);

#endif
