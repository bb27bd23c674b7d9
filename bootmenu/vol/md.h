/* SPDX-License-Identifier: GPL-2.0-or-later */
/* md.h - Linux software RAID (md) members, read-only: the superblock of
 * one member device (metadata 0.90, 1.0, 1.1, 1.2), and RAID1 mirrors
 * as volumes. Nothing here writes to a device or assembles an array;
 * a RAID1 mirror is read through one healthy member's data area.
 */
#ifndef BOOTMENU_VOL_MD_H
#define BOOTMENU_VOL_MD_H

#include "vol/vol.h"

#include <stddef.h>
#include <stdint.h>

/* md_p.h: the 0.90 superblock is the last 64 KiB-aligned 64 KiB of the
 * device, 4 KiB long; a 1.x superblock is 256 bytes plus 2 per role. */
#define MD_SB_BYTES 4096u
#define MD_SB0_RESERVED 65536u

/* md_p.h levels (the superblock's signed level field) */
#define MD_LEVEL_LINEAR (-1)
#define MD_LEVEL_MULTIPATH (-4)

/* What this member is in its array. */
enum md_state {
	MD_ACTIVE,     /* in sync, holds role `role` */
	MD_REBUILDING, /* has a role but is still being recovered */
	MD_SPARE,
	MD_FAULTY,
	MD_JOURNAL,
};

/* One member device's superblock, as md_sb_parse() read it. */
struct md_member {
	char version[8];   /* "0.90", "1.0", "1.1", "1.2" */
	uint8_t uuid[16];  /* the array's UUID, as stored */
	char uuid_str[36]; /* as mdadm shows it: "xxxxxxxx:...:xxxxxxxx" */
	char set_name[33]; /* 1.x "host:name"; empty for 0.90 */
	char name[33];	   /* "md0" (0.90), the part after ':' (1.x) */
	int level;	   /* 1 for RAID1, 5 for RAID5, -1 linear, ... */
	uint32_t raid_disks;
	enum md_state state;
	int role;    /* the slot when active or rebuilding; else -1 */
	int reshape; /* nonzero: a reshape is under way */
	uint64_t events;
	uint64_t sb_offset;   /* bytes from the device's start */
	uint64_t data_offset; /* bytes: where the member's data starts */
	uint64_t data_size;   /* bytes available for data on the member */
	uint64_t array_size;  /* bytes: for RAID1, the mirror's size */
};

/* Parse the superblock in buf[0..len), read from @sb_offset bytes into a
 * device of @dev_size bytes. Pure: no I/O. Returns 0 and fills *m;
 * -ENOENT when buf holds no md superblock; -EINVAL (bad checksum, fields
 * out of range, an unknown version) with a sentence in err[0..errlen). */
int md_sb_parse(const uint8_t *buf, size_t len, uint64_t sb_offset,
		uint64_t dev_size, struct md_member *m, char *err,
		size_t errlen);

/* Read the md superblock of the device open as @fd (@dev_size bytes),
 * trying 1.1 (sector 0), 1.2 (4 KiB), 1.0 (near the end) and 0.90 (the
 * last 64 KiB block), with pread() only. Returns 0 and fills *m;
 * -ENOENT when the device is no md member; another -errno with a
 * sentence in err when a superblock is there but unusable. */
int md_member_read(int fd, uint64_t dev_size, struct md_member *m, char *err,
		   size_t errlen);

/* The RAID1 volume on members[0..n), which must all carry one array's
 * UUID (else -EINVAL). Fills *v: its name, and one window on the
 * healthy active member with the highest events count, the lowest slot
 * among equals whatever their order in @members (w[0].source is an
 * index into members), or v->skip says why the array is not read.
 * A degraded mirror stays readable: @note (may be NULL) then gets a
 * sentence saying so, else it is emptied. Returns 0 or -EINVAL. */
int md_volume(const struct md_member *members, size_t n, struct vol *v,
	      char *note, size_t notelen);

/* Group members[0..n) (one per device, any arrays) by array UUID and
 * fill vols[0..max) with one volume per array, in order of first
 * appearance; window sources index members. @notes, when not NULL,
 * holds max strings of 160 bytes for the degraded notes. Returns the
 * number of arrays filled (at most max; arrays beyond are left out). */
int md_group(const struct md_member *members, size_t n, struct vol *vols,
	     char (*notes)[160], size_t max);

#endif
