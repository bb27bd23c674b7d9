/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dm.c - a volume's runs as a device-mapper table (pure): linear runs
 * one after another, or the stripes of one striped target. */
#include "vol/dm.h"

#include "util/say.h"

#include <errno.h>
#include <linux/dm-ioctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DM_ALIGN 8u /* what the kernel expects of each target spec */
/* a parameter text: "N CHUNK" and "MAJ:MIN OFFSET " for each stripe */
#define DM_PARAMS_MAX (48 + VOL_DM_RUNS_MAX * 48)

static size_t align_up(size_t n)
{
	return (n + DM_ALIGN - 1) & ~(size_t)(DM_ALIGN - 1);
}

/* One target at @at of buf[0..len): the spec of @type for sectors
 * start..start+length, its parameter text, padding. Returns the bytes it
 * takes, or -ENOSPC. */
static long put_target(unsigned char *buf, size_t len, size_t at,
		       const char *type, uint64_t start, uint64_t length,
		       const char *params)
{
	struct dm_target_spec spec;
	size_t plen = strlen(params);
	size_t size = align_up(sizeof(spec) + plen + 1);

	if (at > len || size > len - at)
		return -ENOSPC;
	memset(&spec, 0, sizeof(spec));
	spec.sector_start = start;
	spec.length = length;
	spec.next = (uint32_t)size;
	snprintf(spec.target_type, sizeof(spec.target_type), "%s", type);
	memset(buf + at, 0, size);
	memcpy(buf + at, &spec, sizeof(spec));
	memcpy(buf + at + sizeof(spec), params, plen);
	return (long)size;
}

/* "MAJ:MIN OFFSET" of @r at @p (room @room). Returns the length. */
static int put_dev(char *p, size_t room, const struct vol_dm_run *r)
{
	return snprintf(p, room, "%u:%u %llu", r->major, r->minor,
			(unsigned long long)r->offset);
}

/* Each run a linear target, one after another. Returns the end of the
 * last target in @buf, or -errno. */
static long put_linear(unsigned char *buf, size_t len, size_t at,
		       const struct vol_dm_run *runs, size_t n)
{
	uint64_t start = 0;

	for (size_t i = 0; i < n; i++) {
		char params[64];
		long used;

		if (!runs[i].sectors || runs[i].sectors > UINT64_MAX - start)
			return -EINVAL;
		put_dev(params, sizeof(params), &runs[i]);
		used = put_target(buf, len, at, "linear", start,
				  runs[i].sectors, params);
		if (used < 0)
			return used;
		start += runs[i].sectors;
		at += (size_t)used;
	}
	return (long)at;
}

/* One striped target over the stripes runs[0..n) (striped.rst: "<num
 * stripes> <chunk size> [<dev path> <offset>]+"). Returns the end of the
 * target in @buf, or -errno. */
static long put_striped(unsigned char *buf, size_t len, size_t at,
			const struct vol_dm_run *runs, size_t n, uint64_t chunk)
{
	char params[DM_PARAMS_MAX];
	size_t pl;
	long used;

	if (n > VOL_DM_RUNS_MAX || !runs[0].sectors ||
	    runs[0].sectors > UINT64_MAX / n)
		return -EINVAL;
	pl = (size_t)snprintf(params, sizeof(params), "%zu %llu", n,
			      (unsigned long long)chunk);
	for (size_t i = 0; i < n; i++) {
		if (runs[i].sectors != runs[0].sectors)
			return -EINVAL;
		params[pl++] = ' ';
		pl +=
		    (size_t)put_dev(params + pl, sizeof(params) - pl, &runs[i]);
	}
	used =
	    put_target(buf, len, at, "striped", 0, runs[0].sectors * n, params);
	return used < 0 ? used : (long)(at + (size_t)used);
}

/* The header of a request of @end bytes whose table starts at @start. */
static void put_header(unsigned char *out, const char *name, size_t start,
		       long end, uint32_t targets, uint32_t flags)
{
	struct dm_ioctl io;

	memset(&io, 0, sizeof(io));
	io.version[0] = DM_VERSION_MAJOR;
	io.data_size = (uint32_t)end;
	io.data_start = (uint32_t)start;
	io.target_count = targets;
	io.flags = flags;
	memcpy(io.name, name, strlen(name));
	memset(out, 0, start);
	memcpy(out, &io, sizeof(io));
}

long vol_dm_table(void *buf, size_t len, const char *name,
		  const struct vol_dm_run *runs, size_t n, uint64_t chunk)
{
	unsigned char *out = buf;
	struct dm_ioctl io;
	size_t start = align_up(sizeof(io));
	long end;

	if (!n)
		return -EINVAL;
	if (strlen(name) >= sizeof(io.name))
		return -ENAMETOOLONG;
	if (start > len)
		return -ENOSPC;
	end = chunk ? put_striped(out, len, start, runs, n, chunk)
		    : put_linear(out, len, start, runs, n);
	if (end < 0)
		return end;
	put_header(out, name, start, end, chunk ? 1 : (uint32_t)n,
		   DM_READONLY_FLAG);
	return end;
}

/* --- dm-crypt */

/* "<start> <length> crypt " at the head of @line: the numbers, and where
 * the parameters begin (dm-crypt.rst: the table line's fields). */
static const char *crypt_head(const char *line, uint64_t *start,
			      uint64_t *length)
{
	char *end;

	if (*line < '0' || *line > '9')
		return NULL;
	*start = strtoull(line, &end, 10);
	if (*end != ' ' || end[1] < '0' || end[1] > '9')
		return NULL;
	*length = strtoull(end + 1, &end, 10);
	if (strncmp(end, " crypt ", 7) || !*length || !end[7])
		return NULL;
	return end + 7;
}

long vol_dm_crypt_table(void *buf, size_t len, const char *name,
			const char *line)
{
	unsigned char *out = buf;
	size_t start = align_up(sizeof(struct dm_ioctl));
	uint64_t first = 0, length = 0;
	const char *params = crypt_head(line, &first, &length);
	long used;

	if (!params || first || strchr(params, '\n'))
		return -EINVAL;
	if (strlen(name) >= sizeof(((struct dm_ioctl *)0)->name))
		return -ENAMETOOLONG;
	if (start > len)
		return -ENOSPC;
	used = put_target(out, len, start, "crypt", 0, length, params);
	if (used < 0)
		return used;
	put_header(out, name, start, (long)start + used, 1,
		   DM_READONLY_FLAG | DM_SECURE_DATA_FLAG);
	return (long)start + used;
}

/* What the crypto options of kernel/bootmenu.config give dm-crypt: AES
 * (CRYPTO_AES) in XTS, CBC or ECB; IVs plain, plain64 (dm-crypt's own)
 * and ESSIV over SHA-256 (CRYPTO_ESSIV, CRYPTO_SHA256). */
const char *const vol_dm_crypt_specs[] = {
    "aes-xts-plain64",
    "aes-xts-plain",
    "aes-cbc-essiv:sha256",
    "aes-cbc-plain64",
    "aes-cbc-plain",
    "aes-ecb",
    NULL,
};

int vol_dm_crypt_check(const char *cipher, const char *mode, char *err,
		       size_t errlen)
{
	char spec[2 * 64 + 2], have[256];
	size_t at = 0;

	snprintf(spec, sizeof(spec), "%s-%s", cipher, mode);
	for (size_t i = 0; vol_dm_crypt_specs[i]; i++)
		if (!strcmp(spec, vol_dm_crypt_specs[i]))
			return 0;
	have[0] = '\0';
	for (size_t i = 0; vol_dm_crypt_specs[i] && at < sizeof(have); i++)
		at += (size_t)snprintf(have + at, sizeof(have) - at, "%s%s",
				       i ? ", " : "", vol_dm_crypt_specs[i]);
	return say(err, errlen, -ENOTSUP,
		   "cipher %s is not in bootmenu's kernel (it has %s)", spec,
		   have);
}
