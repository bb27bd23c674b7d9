/* SPDX-License-Identifier: GPL-2.0-or-later */
/* plan.h - which volumes to map, from the member devices seen so far.
 *
 * The scan reads each LVM2 physical volume and md member it finds
 * (lvm_pv_read(), md_member_read()) and hands the results here, with
 * whether the scan has settled. vol_plan() is pure: no I/O, no globals.
 * A volume group or array whose members are all present is planned at
 * once; an incomplete one waits for the settle, and is then planned
 * either readable (a degraded RAID1 with a healthy member) or with the
 * sentence that says why not ("volume group vgdata: 1 of 2 physical
 * volumes missing"). A volume of several windows is planned as it is:
 * the scan maps it through device-mapper (vol/map.h).
 */
#ifndef BOOTMENU_VOL_PLAN_H
#define BOOTMENU_VOL_PLAN_H

#include "vol/lvm.h"
#include "vol/md.h"
#include "vol/vol.h"

#include <stdbool.h>
#include <stddef.h>

#define VOL_PLAN_MEMBERS_MAX 64 /* members looked at in one plan */
#define VOL_GROUP_ID_MAX 40	/* an LVM VG id or an md UUID, printed */

enum vol_kind { VOL_LVM, VOL_MD };

/* One member device and what its reader found (owned by the caller). */
struct vol_member {
	const char *dev; /* the kernel's name, "sda2" */
	enum vol_kind kind;
	const struct lvm_pv *pv;    /* VOL_LVM */
	const struct md_member *md; /* VOL_MD */
};

/* One volume to show now: v's windows (sources index the members) or
 * v.skip; @group says which VG or array it belongs to. */
struct vol_plan_item {
	char group[VOL_GROUP_ID_MAX];  /* the VG id or the md UUID */
	char group_name[VOL_NAME_MAX]; /* "vgsys", "md0", "md/boot" */
	struct vol v;
	char note[160]; /* "md/boot is degraded (1 of 2 ...)", or "" */
};

/* Plan members[0..n) into out[0..max), their count into *count: every
 * volume of every group that is complete, or (with @settled) of every
 * group at all. Groups that wait give nothing. Items of one group are
 * next to each other. Returns 0; -E2BIG when @max was too small (out
 * holds the first @max); -ENOMEM. */
int vol_plan(const struct vol_member *members, size_t n, bool settled,
	     struct vol_plan_item *out, size_t max, size_t *count);

#endif
