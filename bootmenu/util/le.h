/* le.h - bounds-checked little-endian (and, for the formats that use
 * it, big-endian: get_be*) readers for on-disk structures.
 *
 * Never cast a buffer to a struct: read each field with these. Each
 * returns 0 and stores the value, or -ERANGE when the field does not lie
 * wholly inside buf[0..len).
 */
#ifndef BM_LE_H
#define BM_LE_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

static inline int le_in(size_t len, size_t off, size_t n)
{
	return off <= len && n <= len - off;
}

static inline int get_le8(const void *buf, size_t len, size_t off, uint8_t *v)
{
	if (!le_in(len, off, 1))
		return -ERANGE;
	*v = ((const uint8_t *)buf)[off];
	return 0;
}

static inline int get_le16(const void *buf, size_t len, size_t off, uint16_t *v)
{
	const uint8_t *p = (const uint8_t *)buf + off;

	if (!le_in(len, off, 2))
		return -ERANGE;
	*v = (uint16_t)(p[0] | p[1] << 8);
	return 0;
}

static inline int get_le32(const void *buf, size_t len, size_t off, uint32_t *v)
{
	const uint8_t *p = (const uint8_t *)buf + off;

	if (!le_in(len, off, 4))
		return -ERANGE;
	*v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	     (uint32_t)p[3] << 24;
	return 0;
}

static inline int get_le64(const void *buf, size_t len, size_t off, uint64_t *v)
{
	uint32_t lo = 0, hi = 0;

	if (!le_in(len, off, 8))
		return -ERANGE;
	get_le32(buf, len, off, &lo);
	get_le32(buf, len, off + 4, &hi);
	*v = (uint64_t)hi << 32 | lo;
	return 0;
}

static inline int get_be16(const void *buf, size_t len, size_t off, uint16_t *v)
{
	const uint8_t *p = (const uint8_t *)buf + off;

	if (!le_in(len, off, 2))
		return -ERANGE;
	*v = (uint16_t)(p[0] << 8 | p[1]);
	return 0;
}

static inline int get_be32(const void *buf, size_t len, size_t off, uint32_t *v)
{
	const uint8_t *p = (const uint8_t *)buf + off;

	if (!le_in(len, off, 4))
		return -ERANGE;
	*v = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 |
	     p[3];
	return 0;
}

static inline int get_be64(const void *buf, size_t len, size_t off, uint64_t *v)
{
	uint32_t hi = 0, lo = 0;

	if (!le_in(len, off, 8))
		return -ERANGE;
	get_be32(buf, len, off, &hi);
	get_be32(buf, len, off + 4, &lo);
	*v = (uint64_t)hi << 32 | lo;
	return 0;
}

static inline int put_le16(void *buf, size_t len, size_t off, uint16_t v)
{
	uint8_t *p = (uint8_t *)buf + off;

	if (!le_in(len, off, 2))
		return -ERANGE;
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	return 0;
}

static inline int put_le32(void *buf, size_t len, size_t off, uint32_t v)
{
	uint8_t *p = (uint8_t *)buf + off;

	if (!le_in(len, off, 4))
		return -ERANGE;
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
	return 0;
}

static inline int put_le64(void *buf, size_t len, size_t off, uint64_t v)
{
	if (!le_in(len, off, 8))
		return -ERANGE;
	put_le32(buf, len, off, (uint32_t)v);
	put_le32(buf, len, off + 4, (uint32_t)(v >> 32));
	return 0;
}

#endif
