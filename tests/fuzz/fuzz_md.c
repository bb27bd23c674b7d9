/* fuzz_md.c - the md superblock parser and the RAID1 volume on any bytes.
 *
 * Input: one byte choosing where the superblock was found (1.1, 1.2, 1.0,
 * 0.90), the device size in 512-byte sectors (4 bytes, little-endian),
 * then the superblock. With bit 2 of the first byte set, the target signs
 * the superblock first (as 1.x when its version word says 1, else as
 * 0.90), so mutations reach past the checksum. A member it accepts must have
 * its data area on the device, and a volume's window must lie in that data
 * area. */
#include "util/le.h"
#include "vol/md.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t where(uint8_t pick, uint64_t dev)
{
	switch (pick & 3) {
	case 0:
		return 0;
	case 1:
		return 4096;
	case 2: /* 1.0: md.c super_1_load */
		return dev < 8192 ? 0 : ((dev / 512 - 16) & ~(uint64_t)7) * 512;
	default: /* 0.90: md_p.h MD_NEW_SIZE_SECTORS */
		return dev < 65536 ? 0 : (dev & ~(uint64_t)65535) - 65536;
	}
}

/* calc_sb_csum / calc_sb_1_csum, to sign a mutated superblock */
static void sign(uint8_t *sb, size_t len)
{
	uint32_t major = 0, max_dev = 0, w, at = 152;
	uint64_t sum = 0;
	size_t n = MD_SB_BYTES, i;

	get_le32(sb, len, 4, &major);
	if (major == 1 && get_le32(sb, len, 220, &max_dev) == 0) {
		at = 216;
		n = 256 + 2 * (size_t)(max_dev & 0xffff);
	}
	if (n > len || at + 4 > len)
		return;
	put_le32(sb, len, at, 0);
	for (i = 0; i + 4 <= n; i += 4) {
		get_le32(sb, len, i, &w);
		sum += w;
	}
	if (n - i == 2)
		sum += (uint32_t)(sb[i] | sb[i + 1] << 8);
	put_le32(sb, len, at, (uint32_t)((sum & 0xffffffffu) + (sum >> 32)));
}

static int parse(const uint8_t *data, size_t size, uint64_t at, uint64_t dev,
		 struct md_member *m)
{
	char err[160];
	uint8_t *copy;
	int rc;

	if (!(data[0] & 4))
		return md_sb_parse(data + 5, size - 5, at, dev, m, err,
				   sizeof(err));
	copy = malloc(size - 5 + 1);
	if (!copy)
		return -1;
	memcpy(copy, data + 5, size - 5);
	sign(copy, size - 5);
	rc = md_sb_parse(copy, size - 5, at, dev, m, err, sizeof(err));
	free(copy);
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct md_member m[2];
	struct vol v[2];
	char err[160], notes[2][160];
	uint32_t sectors;
	uint64_t dev, at;

	if (get_le32(data, size, 1, &sectors) < 0)
		return 0;
	dev = (uint64_t)sectors * 512;
	at = where(data[0], dev);
	if (parse(data, size, at, dev, &m[0]))
		return 0;
	if (strlen(m[0].name) >= sizeof(m[0].name) || m[0].data_offset > dev ||
	    m[0].data_size > dev - m[0].data_offset)
		abort();
	m[1] = m[0];
	m[1].events ^= 1;
	if (md_group(m, 2, v, notes, 2) != 1 ||
	    md_volume(m, 2, &v[1], err, sizeof(err)) != 0)
		abort();
	if (v[0].n == 1 &&
	    (v[0].w[0].offset != m[v[0].w[0].source].data_offset ||
	     v[0].w[0].size > m[0].data_size))
		abort();
	return 0;
}
