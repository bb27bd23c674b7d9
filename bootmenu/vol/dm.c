/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dm.c - a volume's runs as a device-mapper linear table (pure). */
#include "vol/dm.h"

#include <errno.h>
#include <linux/dm-ioctl.h>
#include <stdio.h>
#include <string.h>

#define DM_ALIGN 8u /* what the kernel expects of each target spec */

static size_t align_up(size_t n)
{
	return (n + DM_ALIGN - 1) & ~(size_t)(DM_ALIGN - 1);
}

/* One linear target at @at of buf[0..len): the spec, its parameters
 * ("MAJ:MIN OFFSET"), padding. Returns the bytes it takes, or -ENOSPC. */
static long put_target(unsigned char *buf, size_t len, size_t at,
		       uint64_t start, const struct vol_dm_run *r)
{
	struct dm_target_spec spec;
	char params[64];
	int plen = snprintf(params, sizeof(params), "%u:%u %llu", r->major,
			    r->minor, (unsigned long long)r->offset);
	size_t size = align_up(sizeof(spec) + (size_t)plen + 1);

	if (at > len || size > len - at)
		return -ENOSPC;
	memset(&spec, 0, sizeof(spec));
	spec.sector_start = start;
	spec.length = r->sectors;
	spec.next = (uint32_t)size;
	snprintf(spec.target_type, sizeof(spec.target_type), "linear");
	memset(buf + at, 0, size);
	memcpy(buf + at, &spec, sizeof(spec));
	memcpy(buf + at + sizeof(spec), params, (size_t)plen);
	return (long)size;
}

long vol_dm_table(void *buf, size_t len, const char *name,
		  const struct vol_dm_run *runs, size_t n)
{
	unsigned char *out = buf;
	struct dm_ioctl io;
	size_t at = align_up(sizeof(io));
	uint64_t start = 0;

	if (!n)
		return -EINVAL;
	if (strlen(name) >= sizeof(io.name))
		return -ENAMETOOLONG;
	if (at > len)
		return -ENOSPC;
	for (size_t i = 0; i < n; i++) {
		long used;

		if (!runs[i].sectors || runs[i].sectors > UINT64_MAX - start)
			return -EINVAL;
		used = put_target(out, len, at, start, &runs[i]);
		if (used < 0)
			return used;
		start += runs[i].sectors;
		at += (size_t)used;
	}
	memset(&io, 0, sizeof(io));
	io.version[0] = DM_VERSION_MAJOR;
	io.data_size = (uint32_t)at;
	io.data_start = (uint32_t)align_up(sizeof(io));
	io.target_count = (uint32_t)n;
	io.flags = DM_READONLY_FLAG;
	memcpy(io.name, name, strlen(name));
	memset(out, 0, io.data_start);
	memcpy(out, &io, sizeof(io));
	return (long)at;
}
