/* SPDX-License-Identifier: GPL-2.0-or-later */
/* md.c - md superblocks (0.90, 1.x) and RAID1 mirrors as volumes.
 *
 * Layouts: the kernel's include/uapi/linux/raid/md_p.h and md.c
 * (calc_sb_csum, calc_sb_1_csum, super_1_load), checked against
 * mdadm --examine (tests/fixtures/md/README). */
#include "vol/md.h"

#include "util/file.h"
#include "util/le.h"
#include "util/say.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define MD_MAGIC 0xa92b4efcu
#define MD_MAGIC_SWAPPED 0xfc4e2ba9u

/* md_p.h, mdp_super_t: 32-bit words; the generic state starts at word
 * 32, this_disk at word 992 (MD_SB_BYTES/4 - MD_SB_DESCRIPTOR_WORDS) */
#define SB0_MAJOR 4
#define SB0_MINOR 8
#define SB0_UUID0 20
#define SB0_LEVEL 28
#define SB0_SIZE 32 /* KiB per member */
#define SB0_RAID_DISKS 40
#define SB0_MD_MINOR 44
#define SB0_UUID1 52
#define SB0_CSUM 152
#define SB0_EVENTS_LO 156 /* little-endian hosts: lo before hi */
#define SB0_EVENTS_HI 160
#define SB0_DISKS_MAX 27u /* md_p.h MD_SB_DISKS: the descriptors it holds */
#define SB0_THIS_DISK 3968
#define SB0_DISK_RAID_DISK 12
#define SB0_DISK_STATE 16
#define MD_DISK_FAULTY 1u /* md_p.h: bit 0 */
#define MD_DISK_ACTIVE 2u /* bit 1 */
#define MD_DISK_SYNC 4u	  /* bit 2 */

/* md_p.h, struct mdp_superblock_1 */
#define SB1_MAJOR 4
#define SB1_FEATURE 8
#define SB1_UUID 16
#define SB1_NAME 32
#define SB1_LEVEL 72
#define SB1_SIZE 80 /* sectors per member */
#define SB1_RAID_DISKS 92
#define SB1_DATA_OFFSET 128
#define SB1_DATA_SIZE 136
#define SB1_SUPER_OFFSET 144
#define SB1_DEV_NUMBER 160
#define SB1_EVENTS 200
#define SB1_CSUM 216
#define SB1_MAX_DEV 220
#define SB1_ROLES 256
#define SB1_MAX_DEV_LIMIT ((MD_SB_BYTES - SB1_ROLES) / 2) /* super_1_load */
#define MD_FEATURE_RECOVERY_OFFSET 2u
#define MD_FEATURE_RESHAPE_ACTIVE 4u
#define MD_FEATURE_ALL 0x1fffu /* bits 0 (bitmap) to 12 (raid0 layout) */
#define MD_ROLE_SPARE 0xffffu
#define MD_ROLE_FAULTY 0xfffeu
#define MD_ROLE_JOURNAL 0xfffdu

static uint32_t le32(const uint8_t *buf, size_t len, size_t off)
{
	uint32_t v = 0;

	get_le32(buf, len, off, &v);
	return v;
}

static uint64_t le64(const uint8_t *buf, size_t len, size_t off)
{
	uint64_t v = 0;

	get_le64(buf, len, off, &v);
	return v;
}

/* calc_sb_csum / calc_sb_1_csum: 32-bit words summed in 64 bits with
 * the checksum field taken as zero, a trailing 16-bit half word added,
 * and the carry folded in once. */
static uint32_t md_csum(const uint8_t *buf, size_t n, size_t csum_off)
{
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i + 4 <= n; i += 4)
		sum += i == csum_off ? 0 : le32(buf, n, i);
	if (n - i == 2)
		sum += (uint32_t)(buf[i] | buf[i + 1] << 8);
	return (uint32_t)((sum & 0xffffffffu) + (sum >> 32));
}

static uint32_t fold16(uint32_t c)
{
	c = (c & 0xffff) + (c >> 16);
	return (c & 0xffff) + (c >> 16);
}

static void uuid_words(struct md_member *m)
{
	snprintf(m->uuid_str, sizeof(m->uuid_str), "%08x:%08x:%08x:%08x",
		 le32(m->uuid, 16, 0), le32(m->uuid, 16, 4),
		 le32(m->uuid, 16, 8), le32(m->uuid, 16, 12));
}

static void uuid_bytes(struct md_member *m)
{
	char *p = m->uuid_str;

	for (int i = 0; i < 16; i++) {
		p += sprintf(p, "%02x", m->uuid[i]);
		if (i % 4 == 3 && i < 15)
			*p++ = ':';
	}
}

/* this_disk: in the array only when active and in sync; a disk being
 * recovered stays a spare in 0.90 until it is in sync */
static void sb0_role(const uint8_t *b, size_t len, struct md_member *m)
{
	uint32_t st = le32(b, len, SB0_THIS_DISK + SB0_DISK_STATE);
	uint32_t slot = le32(b, len, SB0_THIS_DISK + SB0_DISK_RAID_DISK);

	m->state = st & MD_DISK_FAULTY ? MD_FAULTY : MD_SPARE;
	if (m->state == MD_SPARE && (st & MD_DISK_ACTIVE) &&
	    (st & MD_DISK_SYNC) && slot < m->raid_disks) {
		m->state = MD_ACTIVE;
		m->role = (int)slot;
	}
}

static int sb0_parse(const uint8_t *b, size_t len, uint64_t sb_offset,
		     uint64_t dev_size, struct md_member *m, char *err,
		     size_t errlen)
{
	uint32_t minor = le32(b, len, SB0_MINOR);
	uint32_t csum = le32(b, len, SB0_CSUM);

	if (len < MD_SB_BYTES)
		return say(err, errlen, -EINVAL,
			   "the md 0.90 superblock is cut short");
	if (le32(b, len, SB0_MAJOR) != 0 || (minor != 90 && minor != 91))
		return say(err, errlen, -EINVAL,
			   "md superblock version 0.%u is not one bootmenu "
			   "knows",
			   minor);
	/* super_90_load compares the sums folded to 16 bits (md_csum_fold,
	 * for old Alpha kernels that wrote them so) */
	if (fold16(md_csum(b, MD_SB_BYTES, SB0_CSUM)) != fold16(csum))
		return say(err, errlen, -EINVAL,
			   "the md 0.90 superblock's checksum is wrong");
	if (le32(b, len, SB0_RAID_DISKS) == 0)
		return say(err, errlen, -EINVAL,
			   "the md 0.90 superblock lists no devices");
	if (le32(b, len, SB0_RAID_DISKS) > SB0_DISKS_MAX)
		return say(err, errlen, -EINVAL,
			   "the md 0.90 superblock claims %u members, more "
			   "than it can describe (%u)",
			   le32(b, len, SB0_RAID_DISKS), SB0_DISKS_MAX);
	strcpy(m->version, "0.90");
	memcpy(m->uuid, b + SB0_UUID0, 4);
	memcpy(m->uuid + 4, b + SB0_UUID1, 12);
	uuid_words(m);
	snprintf(m->name, sizeof(m->name), "md%u", le32(b, len, SB0_MD_MINOR));
	m->level = (int32_t)le32(b, len, SB0_LEVEL);
	m->raid_disks = le32(b, len, SB0_RAID_DISKS);
	m->reshape = minor == 91; /* md_p.h: 0.91 marks a reshape */
	m->events = (uint64_t)le32(b, len, SB0_EVENTS_HI) << 32 |
		    le32(b, len, SB0_EVENTS_LO);
	sb0_role(b, len, m);
	/* md.c super_90_load: data from sector 0 up to the superblock */
	m->data_offset = 0;
	m->data_size = sb_offset;
	m->array_size = (uint64_t)le32(b, len, SB0_SIZE) * 1024;
	return 0;
}

static void sb1_names(const uint8_t *b, struct md_member *m)
{
	const char *colon;
	size_t i;

	for (i = 0; i < 32 && b[SB1_NAME + i]; i++) {
		uint8_t c = b[SB1_NAME + i];

		m->set_name[i] = c > 0x20 && c < 0x7f ? (char)c : '?';
	}
	m->set_name[i] = 0;
	colon = strchr(m->set_name, ':');
	colon = colon ? colon + 1 : m->set_name;
	/* mdadm --create /dev/md0 names the array "host:0" */
	if (colon[0] && strspn(colon, "0123456789") == strlen(colon))
		snprintf(m->name, sizeof(m->name), "md%.30s", colon);
	else
		snprintf(m->name, sizeof(m->name), "%s", colon);
	if (!m->name[0])
		snprintf(m->name, sizeof(m->name), "md-%.8s", m->uuid_str);
}

static void sb1_role(const uint8_t *b, size_t len, uint32_t feature,
		     struct md_member *m)
{
	uint32_t dev = le32(b, len, SB1_DEV_NUMBER);
	uint32_t max_dev = le32(b, len, SB1_MAX_DEV);
	uint16_t role = MD_ROLE_SPARE;

	if (dev < max_dev)
		get_le16(b, len, SB1_ROLES + 2 * (size_t)dev, &role);
	if (role == MD_ROLE_FAULTY)
		m->state = MD_FAULTY;
	else if (role == MD_ROLE_JOURNAL)
		m->state = MD_JOURNAL;
	else if (role >= m->raid_disks)
		m->state = MD_SPARE;
	else
		m->state = feature & MD_FEATURE_RECOVERY_OFFSET ? MD_REBUILDING
								: MD_ACTIVE;
	if (m->state == MD_ACTIVE || m->state == MD_REBUILDING)
		m->role = role;
}

/* The data area [data_offset, +data_size) must lie on the device, hold
 * the member's share of the array, and miss the superblock. */
static int sb1_check_area(const struct md_member *m, uint64_t sb_end,
			  uint64_t dev_size, char *err, size_t errlen)
{
	uint64_t off = m->data_offset, size = m->data_size;

	if (off > dev_size || size > dev_size - off)
		return say(err, errlen, -EINVAL,
			   "the md member's data area runs past the end of "
			   "the device");
	if (m->array_size > size)
		return say(err, errlen, -EINVAL,
			   "the md member's data area is smaller than its "
			   "share of the array");
	if (off < sb_end && m->sb_offset < off + size)
		return say(err, errlen, -EINVAL,
			   "the md member's data area overlaps its superblock");
	return 0;
}

/* super_1_load's checks: size, checksum, place, features, data size */
static int sb1_check(const uint8_t *b, size_t len, uint64_t sb_offset,
		     char *err, size_t errlen)
{
	uint32_t max_dev = le32(b, len, SB1_MAX_DEV);
	uint32_t feature = le32(b, len, SB1_FEATURE);
	uint64_t at = le64(b, len, SB1_SUPER_OFFSET);
	size_t n = SB1_ROLES + 2 * (size_t)max_dev;

	if (len < SB1_ROLES || max_dev > SB1_MAX_DEV_LIMIT || n > len)
		return say(err, errlen, -EINVAL,
			   "the md 1.x superblock is cut short or lists too "
			   "many devices");
	if (md_csum(b, n, SB1_CSUM) != le32(b, len, SB1_CSUM))
		return say(err, errlen, -EINVAL,
			   "the md 1.x superblock's checksum is wrong");
	if (at != sb_offset / 512 || sb_offset % 512)
		return say(err, errlen, -EINVAL,
			   "the md superblock says it is at sector %llu, but "
			   "was found at byte %llu",
			   (unsigned long long)at,
			   (unsigned long long)sb_offset);
	if (feature & ~MD_FEATURE_ALL)
		return say(err, errlen, -EINVAL,
			   "the md superblock uses features bootmenu does not "
			   "know (0x%x)",
			   feature & ~MD_FEATURE_ALL);
	if (le64(b, len, SB1_DATA_SIZE) < 10)
		return say(err, errlen, -EINVAL,
			   "the md member's data area is too small");
	/* a slot is filled by a member with that role, and a 1.x superblock
	 * records at most SB1_MAX_DEV_LIMIT roles: more slots than that can
	 * never all be filled (raid1.c would allocate them all) */
	if (le32(b, len, SB1_RAID_DISKS) > SB1_MAX_DEV_LIMIT)
		return say(err, errlen, -EINVAL,
			   "the md superblock claims %u members, more than a "
			   "1.x superblock can record (%u)",
			   le32(b, len, SB1_RAID_DISKS), SB1_MAX_DEV_LIMIT);
	return 0;
}

static int sb1_parse(const uint8_t *b, size_t len, uint64_t sb_offset,
		     uint64_t dev_size, struct md_member *m, char *err,
		     size_t errlen)
{
	uint32_t feature = le32(b, len, SB1_FEATURE);
	uint64_t sz = 512;
	int rc = sb1_check(b, len, sb_offset, err, errlen);

	if (rc < 0)
		return rc;
	strcpy(m->version, sb_offset == 0      ? "1.1"
			   : sb_offset == 4096 ? "1.2"
					       : "1.0");
	memcpy(m->uuid, b + SB1_UUID, 16);
	uuid_bytes(m);
	sb1_names(b, m);
	m->level = (int32_t)le32(b, len, SB1_LEVEL);
	m->raid_disks = le32(b, len, SB1_RAID_DISKS);
	m->reshape = !!(feature & MD_FEATURE_RESHAPE_ACTIVE);
	m->events = le64(b, len, SB1_EVENTS);
	sb1_role(b, len, feature, m);
	if (le64(b, len, SB1_DATA_OFFSET) > UINT64_MAX / sz ||
	    le64(b, len, SB1_DATA_SIZE) > UINT64_MAX / sz ||
	    le64(b, len, SB1_SIZE) > UINT64_MAX / sz)
		return say(err, errlen, -EINVAL,
			   "the md superblock's sizes are out of range");
	m->data_offset = le64(b, len, SB1_DATA_OFFSET) * sz;
	m->data_size = le64(b, len, SB1_DATA_SIZE) * sz;
	m->array_size = le64(b, len, SB1_SIZE) * sz;
	return sb1_check_area(
	    m, sb_offset + SB1_ROLES + 2 * (size_t)le32(b, len, SB1_MAX_DEV),
	    dev_size, err, errlen);
}

int md_sb_parse(const uint8_t *buf, size_t len, uint64_t sb_offset,
		uint64_t dev_size, struct md_member *m, char *err,
		size_t errlen)
{
	uint32_t magic = 0;
	int rc;

	memset(m, 0, sizeof(*m));
	m->role = -1;
	m->sb_offset = sb_offset;
	if (get_le32(buf, len, 0, &magic) < 0 || magic != MD_MAGIC) {
		if (magic == MD_MAGIC_SWAPPED)
			return say(err, errlen, -EINVAL,
				   "the md superblock was written by a "
				   "big-endian machine: bootmenu cannot "
				   "read it");
		return say(err, errlen, -ENOENT, "no md superblock here");
	}
	if (sb_offset > dev_size || len > dev_size - sb_offset)
		return say(err, errlen, -EINVAL,
			   "the md superblock lies past the end of the device");
	if (le32(buf, len, SB1_MAJOR) == 1)
		rc = sb1_parse(buf, len, sb_offset, dev_size, m, err, errlen);
	else
		rc = sb0_parse(buf, len, sb_offset, dev_size, m, err, errlen);
	if (rc == 0 && m->array_size > m->data_size)
		rc = say(err, errlen, -EINVAL,
			 "the md member is smaller than its array");
	return rc;
}

int md_member_read(int fd, uint64_t dev_size, struct md_member *m, char *err,
		   size_t errlen)
{
	uint8_t buf[MD_SB_BYTES];
	uint64_t at[4] = {0, 4096, 0, 0};
	char why[160];
	ssize_t got;
	int first = -ENOENT, rc;
	size_t n = 2;

	/* md.c super_1_load: 1.0 sits 8 KiB or less from the end, on a
	 * 4 KiB boundary; md_p.h MD_NEW_SIZE_SECTORS for 0.90 */
	if (dev_size >= 16 * 512)
		at[n++] = ((dev_size / 512 - 16) & ~(uint64_t)7) * 512;
	if (dev_size >= 2 * (uint64_t)MD_SB0_RESERVED)
		at[n++] = (dev_size & ~(uint64_t)(MD_SB0_RESERVED - 1)) -
			  MD_SB0_RESERVED;
	for (size_t i = 0; i < n; i++) {
		if (at[i] > dev_size || MD_SB_BYTES > dev_size - at[i])
			continue;
		got = util_pread_full(fd, buf, sizeof(buf), at[i]);
		rc = got < 0 ? (int)got : got < (ssize_t)sizeof(buf) ? -EIO : 0;
		if (rc < 0)
			return say(err, errlen, rc,
				   "cannot read the md superblock: %s",
				   strerror(-rc));
		rc = md_sb_parse(buf, sizeof(buf), at[i], dev_size, m, why,
				 sizeof(why));
		if (rc == 0)
			return 0;
		if (rc != -ENOENT && first == -ENOENT) {
			first = rc;
			say(err, errlen, rc, "%s", why);
		}
	}
	if (first == -ENOENT)
		say(err, errlen, -ENOENT, "no md superblock on this device");
	return first;
}

static const char *level_name(int level, char *buf, size_t n)
{
	if (level == MD_LEVEL_LINEAR)
		return "linear";
	if (level == MD_LEVEL_MULTIPATH)
		return "multipath";
	if (level >= 0)
		snprintf(buf, n, "RAID%d", level);
	else
		snprintf(buf, n, "md level %d", level);
	return buf;
}

/* Whether @a comes before @b as the member to read: more events, else
 * the lower slot (a member with a slot before one without), so that the
 * same member is read whatever order the devices were found in. */
static bool before(const struct md_member *a, const struct md_member *b)
{
	if (a->events != b->events)
		return a->events > b->events;
	return a->role >= 0 && (b->role < 0 || a->role < b->role);
}

/* The member of the array with the highest events count among the
 * healthy active ones (@active), or among all but the faulty, whose
 * superblock stops at the failure (the newest says what the array is
 * now); -1 when there is none. */
static int newest(const struct md_member *ms, size_t n, const uint8_t *uuid,
		  bool active)
{
	int best = -1;

	for (size_t i = 0; i < n; i++) {
		if (memcmp(ms[i].uuid, uuid, 16) ||
		    (active ? ms[i].state != MD_ACTIVE
			    : ms[i].state == MD_FAULTY))
			continue;
		if (best < 0 || before(&ms[i], &ms[best]))
			best = (int)i;
	}
	return best;
}

/* How many slots of the mirror have an up-to-date active member. */
static uint32_t present(const struct md_member *ms, size_t n,
			const struct md_member *b)
{
	uint32_t count = 0;

	for (size_t i = 0; i < n; i++) {
		size_t j;

		if (memcmp(ms[i].uuid, b->uuid, 16) ||
		    ms[i].state != MD_ACTIVE || ms[i].events != b->events)
			continue;
		for (j = 0; j < i; j++)
			if (!memcmp(ms[j].uuid, b->uuid, 16) &&
			    ms[j].state == MD_ACTIVE &&
			    ms[j].events == b->events &&
			    ms[j].role == ms[i].role)
				break;
		count += j == i;
	}
	return count;
}

static void volume_of(const struct md_member *ms, size_t n, size_t first,
		      struct vol *v, char *note, size_t notelen)
{
	const struct md_member *top;
	int b, t = newest(ms, n, ms[first].uuid, false);
	uint32_t have;
	char lv[24];

	memset(v, 0, sizeof(*v));
	say(note, notelen, 0, "%s", "");
	top = &ms[t < 0 ? (int)first : t];
	snprintf(v->name, sizeof(v->name), "%s", top->name);
	if (top->level != 1) {
		say(v->skip, sizeof(v->skip), 0,
		    "%s is %s: bootmenu reads only RAID1 mirrors", v->name,
		    level_name(top->level, lv, sizeof(lv)));
		return;
	}
	if (top->reshape) {
		say(v->skip, sizeof(v->skip), 0,
		    "%s is being reshaped: bootmenu reads only a mirror at "
		    "rest",
		    v->name);
		return;
	}
	b = newest(ms, n, ms[first].uuid, true);
	if (b < 0 || ms[b].events < top->events) {
		say(v->skip, sizeof(v->skip), 0,
		    "%s has no healthy, up-to-date member to read", v->name);
		return;
	}
	v->n = 1;
	v->w[0] = (struct vol_window){b, ms[b].data_offset, ms[b].array_size};
	v->size = ms[b].array_size;
	have = present(ms, n, &ms[b]);
	if (have < ms[b].raid_disks)
		say(note, notelen, 0,
		    "%s is degraded (%u of %u mirrors present): read from one",
		    v->name, have, ms[b].raid_disks);
}

int md_volume(const struct md_member *members, size_t n, struct vol *v,
	      char *note, size_t notelen)
{
	if (!n)
		return -EINVAL;
	for (size_t i = 1; i < n; i++)
		if (memcmp(members[i].uuid, members[0].uuid, 16))
			return -EINVAL;
	volume_of(members, n, 0, v, note, notelen);
	return 0;
}

int md_group(const struct md_member *members, size_t n, struct vol *vols,
	     char (*notes)[160], size_t max)
{
	size_t count = 0;

	for (size_t i = 0; i < n && count < max; i++) {
		size_t j;

		for (j = 0; j < i; j++)
			if (!memcmp(members[j].uuid, members[i].uuid, 16))
				break;
		if (j < i)
			continue;
		volume_of(members, n, i, &vols[count],
			  notes ? notes[count] : NULL, notes ? 160 : 0);
		count++;
	}
	return (int)count;
}
