/* probe.c - what is on a device, through libblkid's low-level API.
 *
 * The only file that includes <blkid/blkid.h>. One blkid_probe per call,
 * never shared, so workers may probe different devices at once.
 */
#include "scan/probe.h"

#include <blkid/blkid.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* UEFI 2.10 5.3.3 (EFI System), the Boot Loader Specification
 * (XBOOTLDR: GPT type bc13c2ff-..., MBR type 0xea). */
#define GPT_TYPE_ESP "c12a7328-f81f-11d2-ba4b-00a0c93ec93b"
#define GPT_TYPE_XBOOTLDR "bc13c2ff-59e6-4262-a352-b275fd6f7172"
#define MBR_TYPE_ESP "0xef"
#define MBR_TYPE_XBOOTLDR "0xea"
#define SECTOR                                                                 \
	512ull /* blkid_partition_get_start/size count 512-byte sectors */

const char probe_skip_encrypted[] = "encrypted, not opened";
const char probe_skip_swap[] = "swap space";
const char probe_skip_lvm[] = "LVM physical volume";
const char probe_skip_raid[] = "RAID member";
const char probe_skip_table[] = "partition table";
const char probe_skip_nothing[] = "no filesystem found";
const char probe_skip_ambivalent[] = "several signatures, not guessed";
const char probe_skip_error[] = "could not be read";
const char probe_skip_other[] = "not a filesystem";
const char probe_skip_no_medium[] = "no medium";
const char probe_skip_overlap[] = "same data as its whole disk";

static void copy(char *dst, size_t cap, const char *src)
{
	snprintf(dst, cap, "%s", src ? src : "");
}

static void lookup(blkid_probe pr, const char *name, char *dst, size_t cap)
{
	const char *v = NULL;

	if (blkid_probe_lookup_value(pr, name, &v, NULL) < 0)
		v = NULL;
	copy(dst, cap, v);
}

const char *probe_classify(const char *type, const char *usage)
{
	if (!type || !*type)
		return probe_skip_nothing;
	usage = usage ? usage : "";
	if (!strcmp(usage, "crypto") || !strncmp(type, "crypto_", 7) ||
	    !strcmp(type, "BitLocker"))
		return probe_skip_encrypted;
	if (!strcmp(type, "swap") || !strcmp(type, "swsuspend"))
		return probe_skip_swap;
	/* before RAID: blkid reports LVM PVs with USAGE=raid */
	if (!strcmp(type, "LVM2_member") || !strcmp(type, "LVM1_member"))
		return probe_skip_lvm;
	if (!strcmp(usage, "raid") || strstr(type, "_raid_member"))
		return probe_skip_raid;
	if (*usage && strcmp(usage, "filesystem"))
		return probe_skip_other;
	return NULL;
}

void probe_classify_part(struct probe_result *r)
{
	bool gpt = !strcmp(r->part_scheme, "gpt");
	bool dos = !strcmp(r->part_scheme, "dos");

	r->esp = (gpt && !strcasecmp(r->parttype, GPT_TYPE_ESP)) ||
		 (dos && !strcasecmp(r->parttype, MBR_TYPE_ESP));
	r->xbootldr = (gpt && !strcasecmp(r->parttype, GPT_TYPE_XBOOTLDR)) ||
		      (dos && !strcasecmp(r->parttype, MBR_TYPE_XBOOTLDR));
}

/* A probe over @path's window; the caller closes *fd after freeing it.
 * O_NONBLOCK as blkid(8) opens: an empty CD drive answers at once. */
static int probe_open(const char *path, uint64_t offset, uint64_t size,
		      blkid_probe *pr, int *fd)
{
	*fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (*fd < 0)
		return -errno;
	*pr = blkid_new_probe();
	if (!*pr) {
		close(*fd);
		return -ENOMEM;
	}
	if (blkid_probe_set_device(*pr, *fd, (blkid_loff_t)offset,
				   (blkid_loff_t)size) < 0) {
		blkid_free_probe(*pr);
		close(*fd);
		return -EIO;
	}
	return 0;
}

static void probe_close(blkid_probe pr, int fd)
{
	blkid_free_probe(pr);
	close(fd);
}

/* After an ambivalent safe probe: name every superblock that matched,
 * for the device list ("xfs ext4"), without choosing one. */
static void list_candidates(const char *path, uint64_t offset, uint64_t size,
			    struct probe_result *r)
{
	blkid_probe pr;
	size_t len = 0;
	int fd;

	if (probe_open(path, offset, size, &pr, &fd) < 0)
		return;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE);
	blkid_probe_enable_partitions(pr, 0);
	while (blkid_do_probe(pr) == 0 && len + 1 < sizeof(r->detail)) {
		const char *t = NULL;

		if (blkid_probe_lookup_value(pr, "TYPE", &t, NULL) < 0)
			continue;
		len +=
		    (size_t)snprintf(r->detail + len, sizeof(r->detail) - len,
				     "%s%s", len ? " " : "", t);
	}
	probe_close(pr, fd);
}

static void probe_values(blkid_probe pr, struct probe_result *r)
{
	char num[16];

	lookup(pr, "TYPE", r->type, sizeof(r->type));
	lookup(pr, "USAGE", r->usage, sizeof(r->usage));
	lookup(pr, "UUID", r->uuid, sizeof(r->uuid));
	lookup(pr, "LABEL", r->label, sizeof(r->label));
	lookup(pr, "PTTYPE", r->pttype, sizeof(r->pttype));
	lookup(pr, "PTUUID", r->ptuuid, sizeof(r->ptuuid));
	lookup(pr, "PART_ENTRY_SCHEME", r->part_scheme, sizeof(r->part_scheme));
	lookup(pr, "PART_ENTRY_UUID", r->partuuid, sizeof(r->partuuid));
	lookup(pr, "PART_ENTRY_NAME", r->partlabel, sizeof(r->partlabel));
	lookup(pr, "PART_ENTRY_TYPE", r->parttype, sizeof(r->parttype));
	lookup(pr, "PART_ENTRY_NUMBER", num, sizeof(num));
	r->partno = atoi(num);
	probe_classify_part(r);
	if (!r->type[0] && r->pttype[0]) {
		r->skip = probe_skip_table;
		copy(r->detail, sizeof(r->detail), r->pttype);
	} else {
		r->skip = probe_classify(r->type, r->usage);
		if (r->skip == probe_skip_other)
			copy(r->detail, sizeof(r->detail), r->type);
	}
}

int probe_path(const char *path, uint64_t offset, uint64_t size,
	       struct probe_result *r)
{
	blkid_probe pr;
	int fd, rc;

	memset(r, 0, sizeof(*r));
	r->rc = probe_open(path, offset, size, &pr, &fd);
	if (r->rc < 0) {
		r->skip = probe_skip_error;
		copy(r->detail, sizeof(r->detail), strerror(-r->rc));
		return r->rc;
	}
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(
	    pr, BLKID_SUBLKS_LABEL | BLKID_SUBLKS_UUID | BLKID_SUBLKS_TYPE |
		    BLKID_SUBLKS_USAGE);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_ENTRY_DETAILS);
	errno = 0;
	rc = blkid_do_safeprobe(pr);
	if (rc == 0) {
		probe_values(pr, r);
	} else if (rc == 1) {
		r->skip = probe_skip_nothing;
	} else if (rc == -2) {
		r->skip = probe_skip_ambivalent;
	} else {
		r->rc = errno ? -errno : -EIO;
		r->skip = probe_skip_error;
		copy(r->detail, sizeof(r->detail), strerror(-r->rc));
	}
	probe_close(pr, fd);
	if (rc == -2)
		list_candidates(path, offset, size, r);
	return r->rc;
}

static void part_info(blkid_partition p, struct probe_part *o)
{
	const char *ts = blkid_partition_get_type_string(p);

	memset(o, 0, sizeof(*o));
	o->partno = blkid_partition_get_partno(p);
	o->start = (uint64_t)blkid_partition_get_start(p) * SECTOR;
	o->size = (uint64_t)blkid_partition_get_size(p) * SECTOR;
	o->extended = blkid_partition_is_extended(p);
	copy(o->uuid, sizeof(o->uuid), blkid_partition_get_uuid(p));
	copy(o->name, sizeof(o->name), blkid_partition_get_name(p));
	if (ts)
		copy(o->type, sizeof(o->type), ts);
	else
		snprintf(o->type, sizeof(o->type), "0x%02x",
			 (unsigned)blkid_partition_get_type(p));
}

int probe_table(const char *path, char *pttype, struct probe_part *parts,
		size_t max, size_t *n)
{
	blkid_partlist ls;
	blkid_probe pr;
	int fd, rc, count;

	*n = 0;
	pttype[0] = '\0';
	rc = probe_open(path, 0, 0, &pr, &fd);
	if (rc < 0)
		return rc;
	ls = blkid_probe_get_partitions(pr);
	count = ls ? blkid_partlist_numof_partitions(ls) : 0;
	if (ls && blkid_partlist_get_table(ls))
		copy(pttype, PROBE_TYPE_MAX,
		     blkid_parttable_get_type(blkid_partlist_get_table(ls)));
	for (int i = 0; i < count && *n < max; i++) {
		blkid_partition p = blkid_partlist_get_partition(ls, i);

		if (p)
			part_info(p, &parts[(*n)++]);
	}
	probe_close(pr, fd);
	return 0;
}

/* The window probe knows nothing of the table it sits in: add the entry. */
static void fill_entry(struct probe_result *r, const char *pttype,
		       const struct probe_part *p)
{
	copy(r->part_scheme, sizeof(r->part_scheme), pttype);
	copy(r->partuuid, sizeof(r->partuuid), p->uuid);
	copy(r->partlabel, sizeof(r->partlabel), p->name);
	copy(r->parttype, sizeof(r->parttype), p->type);
	r->partno = p->partno;
	probe_classify_part(r);
}

int probe_image(const char *path, struct probe_result *out, size_t max,
		size_t *n)
{
	char pttype[PROBE_TYPE_MAX];
	struct probe_part *parts;
	size_t np = 0;
	int rc;

	*n = 0;
	if (!max)
		return -EINVAL;
	rc = probe_path(path, 0, 0, &out[0]);
	if (rc < 0)
		return rc;
	*n = 1;
	parts = calloc(PROBE_PARTS_MAX, sizeof(*parts));
	if (!parts)
		return -ENOMEM;
	rc = probe_table(path, pttype, parts, PROBE_PARTS_MAX, &np);
	for (size_t i = 0; rc == 0 && i < np && *n < max; i++) {
		if (parts[i].extended)
			continue;
		probe_path(path, parts[i].start, parts[i].size, &out[*n]);
		fill_entry(&out[*n], pttype, &parts[i]);
		(*n)++;
	}
	free(parts);
	return rc;
}
