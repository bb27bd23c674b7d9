/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dm.h - the device-mapper table of a volume in several runs.
 *
 * A logical volume whose extents lie in several runs (lvextend after
 * another LV took the next extents, or a VG over two PVs) is one block
 * device only through device-mapper: one "linear" target per run, in the
 * volume's order; a striped LV (lvcreate -i) is one "striped" target over
 * its stripes. vol_dm_table() writes the DM_TABLE_LOAD request for
 * that (struct dm_ioctl, then each struct dm_target_spec followed by its
 * parameter text, 8-byte aligned, each spec's `next` counted from its own
 * start); it is pure, so the layout is tested without a kernel. The
 * ioctls themselves are in map.c. Layout from the kernel's
 * include/uapi/linux/dm-ioctl.h and Documentation/admin-guide/
 * device-mapper/linear.rst and striped.rst.
 */
#ifndef BOOTMENU_VOL_DM_H
#define BOOTMENU_VOL_DM_H

#include "vol/vol.h"

#include <stddef.h>
#include <stdint.h>

#define VOL_DM_PREFIX "bootmenu-"	/* the names of bootmenu's own tables */
#define VOL_DM_RUNS_MAX VOL_WINDOWS_MAX /* runs or stripes of one table */

/* One run: @sectors of the volume, from sector @offset of the member
 * device @major:@minor. */
struct vol_dm_run {
	unsigned major, minor;
	uint64_t offset;  /* 512-byte sectors from the member's start */
	uint64_t sectors; /* > 0 */
};

/* The DM_TABLE_LOAD request for device @name (< DM_NAME_LEN bytes),
 * read-only, into buf[0..len): with @chunk 0, runs[0..n) one after
 * another from the volume's sector 0 (linear); else runs[0..n) are the
 * stripes, equally long, the volume's sectors going round them @chunk
 * sectors at a time (striped). Returns the bytes used (the request's
 * data_size), or -EINVAL (no runs, an empty run, a run past the 64-bit
 * sector count, stripes of unequal length), -ENAMETOOLONG, -ENOSPC when
 * @len is too small. */
long vol_dm_table(void *buf, size_t len, const char *name,
		  const struct vol_dm_run *runs, size_t n, uint64_t chunk);

/* The DM_TABLE_LOAD request for device @name with the one target of a
 * dm-crypt table line @line ("<start> <length> crypt <params>", as
 * luks_dm_table() writes it), read-only, with DM_SECURE_DATA_FLAG so the
 * kernel wipes its copies of the key. Same returns as vol_dm_table(), and
 * -EINVAL for a line that is not one crypt target. The request holds the
 * key: the caller wipes buf[0..len) after use. */
long vol_dm_crypt_table(void *buf, size_t len, const char *name,
			const char *line);

/* The dm-crypt cipher specs bootmenu's kernel has (kernel/bootmenu.config),
 * "<cipher>-<mode>" as a LUKS header names them. vol_dm_crypt_check()
 * returns 0 when @cipher-@mode is one of them, else -ENOTSUP with a
 * sentence naming it and the ones there are. */
extern const char *const vol_dm_crypt_specs[];
int vol_dm_crypt_check(const char *cipher, const char *mode, char *err,
		       size_t errlen);

#endif
