/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef BOOTMENU_VOL_VOL_H
#define BOOTMENU_VOL_VOL_H

#include <stddef.h>
#include <stdint.h>

/* Volumes: a filesystem that lives on a logical volume (LVM2) or a
 * RAID1 mirror (md) rather than on a partition. The parsers of this
 * room turn the bytes of the member devices into the windows below;
 * they never write to a device. Mapping a volume for the scan (a
 * read-only loop device over one window, device-mapper for several)
 * is a separate step. */

#define VOL_NAME_MAX 128
#define VOL_WINDOWS_MAX 16

/* One contiguous run of a volume's bytes on one member device. */
struct vol_window {
	int source;	 /* the member: an index into the caller's list */
	uint64_t offset; /* bytes from the member device's start */
	uint64_t size;	 /* bytes */
};

/* A volume found on the members: its name as `bootmenu --list` shows it
 * ("vgsys/root", "md0"), and either its windows, in the order of the
 * volume's bytes, or the sentence that says why it is not read. A
 * striped volume (stripes > 1) has one window per stripe instead, in
 * the stripes' order: its bytes go round them @chunk bytes at a time. */
struct vol {
	char name[VOL_NAME_MAX];
	char skip[160];	  /* empty: readable through w[0..n) */
	uint64_t size;	  /* bytes, the sum of the windows */
	unsigned stripes; /* 0 or 1: the windows follow each other */
	uint64_t chunk;	  /* bytes, when striped */
	size_t n;
	struct vol_window w[VOL_WINDOWS_MAX];
};

#endif
