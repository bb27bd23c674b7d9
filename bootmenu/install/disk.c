/* disk.c - the BIOS installer's reads and writes of a whole disk
 * (install_int.h): its first sector, and on GPT both headers and their
 * entry arrays. Nothing else in bootmenu writes to a disk's table.
 *
 * MBR: the boot code is bytes 0..440, the disk signature 440..446, four
 * 16-byte partition entries from 446 (byte 0 the boot indicator, 0x80
 * active; byte 4 the type, 0xEE a GPT protective entry), then 0x55 0xAA.
 * GPT (UEFI 2.10 section 5.3.2): the header at LBA 1 ("EFI PART", its
 * size at 12, its CRC32 at 16, computed with that field zero; its LBA at
 * 24, the other header's at 32, the entries' at 72, their number at 80,
 * each's size at 84, their CRC32 at 88); the backup header at the last
 * LBA with its own entries. An entry's attributes are at 48; bit 2 is
 * Legacy BIOS Bootable (table 5.13), which syslinux's gptmbr.bin looks
 * for.
 */
#include "install/install_int.h"
#include "util/file.h"
#include "format/inflate.h"
#include "util/le.h"
#include "util/say.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define MBR_PARTS 446
#define MBR_TYPE_GPT 0xee
#define GPT_SIG "EFI PART"
#define GPT_HDR_MIN 92
#define GPT_ENTRY_ATTRS 48
#define GPT_ENTRIES_MAX (1u << 20) /* bytes; 128 entries of 128 are 16 KiB */

int disk_read(struct inst *in, uint64_t off, void *buf, size_t len)
{
	ssize_t n = util_pread_full(in->diskfd, buf, len, off);

	if (n < 0)
		return (int)n;
	return (size_t)n == len ? 0 : -EIO;
}

int disk_write(struct inst *in, uint64_t off, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	while (len) {
		ssize_t w = pwrite(in->diskfd, p, len, (off_t)off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		p += w, off += (uint64_t)w, len -= (size_t)w;
	}
	return fsync(in->diskfd) < 0 ? -errno : 0;
}

/* Whether block device @rdev is a partition (sysfs has its number). */
static bool disk_is_partition(dev_t rdev)
{
	char path[96];

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/partition",
		 major(rdev), minor(rdev));
	return access(path, F_OK) == 0;
}

int disk_open(struct inst *in, bool write)
{
	struct stat st;
	int ssz = 512;

	in->diskfd = open(in->disk, (write ? O_RDWR : O_RDONLY) | O_CLOEXEC);
	if (in->diskfd < 0)
		return say(in->err, in->errlen, -errno, "cannot open %s: %s%s",
			   in->disk, strerror(errno),
			   errno == EACCES ? " (run this as root)" : "");
	if (fstat(in->diskfd, &st) < 0 ||
	    !(S_ISBLK(st.st_mode) || S_ISREG(st.st_mode)))
		return say(in->err, in->errlen, -ENOTBLK,
			   "%s is not a disk: name a whole disk, e.g. "
			   "/dev/sda",
			   in->disk);
	if (S_ISBLK(st.st_mode) && disk_is_partition(st.st_rdev))
		return say(in->err, in->errlen, -ENOTBLK,
			   "%s is a partition: the boot code goes into the "
			   "first sector of the whole disk, so name the disk "
			   "(e.g. /dev/sda for /dev/sda1, /dev/nvme0n1 for "
			   "/dev/nvme0n1p1)",
			   in->disk);
	if (S_ISBLK(st.st_mode) && ioctl(in->diskfd, BLKSSZGET, &ssz) < 0)
		ssz = 512;
	in->sector = ssz >= 512 ? (unsigned)ssz : 512;
	return 0;
}

/* --- GPT */

struct gpt_hdr {
	uint8_t raw[512]; /* the header's first bytes (size <= 512) */
	uint32_t size, n, esize;
	uint64_t lba, alt, entries;
};

static uint32_t gpt_crc(const void *buf, size_t len)
{
	return inflate_crc32(0, buf, len);
}

/* The header at @lba into @h, checked: 0 or -EINVAL. */
static int gpt_hdr_read(struct inst *in, uint64_t lba, struct gpt_hdr *h)
{
	uint32_t crc;
	int rc = disk_read(in, lba * in->sector, h->raw, sizeof(h->raw));

	if (rc < 0)
		return rc;
	if (memcmp(h->raw, GPT_SIG, 8) ||
	    get_le32(h->raw, sizeof(h->raw), 12, &h->size) ||
	    h->size < GPT_HDR_MIN || h->size > sizeof(h->raw))
		return -EINVAL;
	get_le32(h->raw, sizeof(h->raw), 16, &crc);
	get_le64(h->raw, sizeof(h->raw), 24, &h->lba);
	get_le64(h->raw, sizeof(h->raw), 32, &h->alt);
	get_le64(h->raw, sizeof(h->raw), 72, &h->entries);
	get_le32(h->raw, sizeof(h->raw), 80, &h->n);
	get_le32(h->raw, sizeof(h->raw), 84, &h->esize);
	put_le32(h->raw, sizeof(h->raw), 16, 0);
	if (gpt_crc(h->raw, h->size) != crc || h->lba != lba ||
	    h->esize < 128 || h->n == 0 ||
	    (uint64_t)h->n * h->esize > GPT_ENTRIES_MAX)
		return -EINVAL;
	put_le32(h->raw, sizeof(h->raw), 16, crc);
	return 0;
}

/* @h's entry array (malloc'd, CRC checked) into *out: 0 or -errno. */
static int gpt_entries_read(struct inst *in, const struct gpt_hdr *h,
			    uint8_t **out)
{
	size_t len = (size_t)h->n * h->esize;
	uint8_t *e = malloc(len);
	uint32_t crc;
	int rc = e ? disk_read(in, h->entries * in->sector, e, len) : -ENOMEM;

	get_le32(h->raw, sizeof(h->raw), 88, &crc);
	if (rc == 0 && gpt_crc(e, len) != crc)
		rc = -EINVAL;
	if (rc < 0)
		free(e);
	else
		*out = e;
	return rc;
}

/* Both headers (primary at LBA 1, backup where it points) into h[0..2),
 * with their entries checked. 0 or -EINVAL. */
static int gpt_both(struct inst *in, struct gpt_hdr h[2])
{
	uint8_t *e;
	int rc = gpt_hdr_read(in, 1, &h[0]);

	if (rc == 0)
		rc = gpt_hdr_read(in, h[0].alt, &h[1]);
	for (int k = 0; rc == 0 && k < 2; k++) {
		rc = gpt_entries_read(in, &h[k], &e);
		if (rc == 0)
			free(e);
	}
	return rc;
}

/* Set entry @num's attributes to @val in the copy @h: the entries, their
 * CRC in the header, the header's CRC; entries written first. */
static int gpt_set_copy(struct inst *in, struct gpt_hdr *h, uint32_t num,
			uint64_t val)
{
	size_t len = (size_t)h->n * h->esize;
	uint8_t *e;
	int rc = gpt_entries_read(in, h, &e);

	if (rc < 0)
		return rc;
	put_le64(e, len, (size_t)(num - 1) * h->esize + GPT_ENTRY_ATTRS, val);
	put_le32(h->raw, sizeof(h->raw), 88, gpt_crc(e, len));
	put_le32(h->raw, sizeof(h->raw), 16, 0);
	put_le32(h->raw, sizeof(h->raw), 16, gpt_crc(h->raw, h->size));
	rc = disk_write(in, h->entries * in->sector, e, len);
	if (rc == 0)
		rc = disk_write(in, h->lba * in->sector, h->raw, h->size);
	free(e);
	return rc;
}

/* --- Both tables */

int disk_table(struct inst *in)
{
	uint8_t s0[512];
	struct gpt_hdr h[2];
	int rc = disk_read(in, 0, s0, sizeof(s0));

	if (rc < 0)
		return say(in->err, in->errlen, rc, "cannot read %s: %s",
			   in->disk, strerror(-rc));
	if (s0[510] != 0x55 || s0[511] != 0xaa)
		return say(in->err, in->errlen, -EINVAL,
			   "%s has no partition table (no 0x55AA at the end "
			   "of its first sector): partition it first",
			   in->disk);
	in->gpt = false;
	for (int i = 0; i < 4; i++)
		in->gpt |= s0[MBR_PARTS + 16 * i + 4] == MBR_TYPE_GPT;
	if (in->gpt && gpt_both(in, h) < 0)
		return say(in->err, in->errlen, -EINVAL,
			   "%s has a protective MBR but its GPT (both "
			   "headers and their entries, with their CRCs) does "
			   "not check out: repair it (sgdisk -v %s) first",
			   in->disk, in->disk);
	return 0;
}

uint32_t disk_part_count(struct inst *in)
{
	struct gpt_hdr h;

	if (!in->gpt)
		return 4;
	return gpt_hdr_read(in, 1, &h) == 0 ? h.n : 0;
}

/* MBR entry @num (1..4) with a type, or GPT entry @num with a type GUID:
 * its flag byte or attributes into @val. */
int disk_part_get(struct inst *in, uint32_t num, uint64_t *val)
{
	static const uint8_t zero[16];
	struct gpt_hdr h;
	uint8_t s0[512], *e;
	size_t at;
	int rc;

	if (!num || num > disk_part_count(in))
		return -ENOENT;
	if (!in->gpt) {
		rc = disk_read(in, 0, s0, sizeof(s0));
		at = MBR_PARTS + 16 * (num - 1);
		*val = s0[at];
		return rc < 0 ? rc : s0[at + 4] ? 0 : -ENOENT;
	}
	rc = gpt_hdr_read(in, 1, &h);
	if (rc == 0)
		rc = gpt_entries_read(in, &h, &e);
	if (rc < 0)
		return rc;
	at = (size_t)(num - 1) * h.esize;
	get_le64(e, (size_t)h.n * h.esize, at + GPT_ENTRY_ATTRS, val);
	rc = memcmp(e + at, zero, sizeof(zero)) ? 0 : -ENOENT;
	free(e);
	return rc;
}

int disk_part_set(struct inst *in, uint32_t num, uint64_t val)
{
	struct gpt_hdr h[2];
	uint8_t flag = (uint8_t)val;
	int rc;

	if (!in->gpt)
		return disk_write(in, MBR_PARTS + 16 * (num - 1), &flag, 1);
	rc = gpt_hdr_read(in, 1, &h[0]);
	if (rc == 0)
		rc = gpt_hdr_read(in, h[0].alt, &h[1]);
	/* the backup first: a cut between leaves the primary, which the
	 * firmware and the kernel read, as it was or whole */
	if (rc == 0)
		rc = gpt_set_copy(in, &h[1], num, val);
	if (rc == 0)
		rc = gpt_set_copy(in, &h[0], num, val);
	return rc;
}
