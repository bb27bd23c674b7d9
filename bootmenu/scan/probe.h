/* probe.h - which block devices there are (sysfs), and what is on each
 * (libblkid's low-level probing, behind this header only).
 *
 * Nothing here allocates but probe_sysfs_list(), whose array the caller
 * frees; results are fixed-size structs, so workers can probe in
 * parallel without sharing an arena. Skip reasons are static strings.
 */
#ifndef BM_PROBE_H
#define BM_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PROBE_NAME_MAX 32 /* kernel block device names (DISK_NAME_LEN) */
#define PROBE_PATH_MAX 160
#define PROBE_TYPE_MAX 32
#define PROBE_UUID_MAX 64
#define PROBE_LABEL_MAX 256 /* btrfs: 256; GPT names: 36 UTF-16 units */
#define PROBE_DETAIL_MAX 128
/* Most partitions probe_table() reports (GPT's usual array holds 128). */
#define PROBE_PARTS_MAX 256
/* Most block devices probe_sysfs_list() returns. */
#define PROBE_DEVS_MAX 1024

/* Skip reasons (pointer-comparable). */
extern const char probe_skip_encrypted[]; /* "encrypted, not opened" */
extern const char probe_skip_swap[];
extern const char probe_skip_lvm[];
extern const char probe_skip_raid[];
extern const char probe_skip_table[];	   /* whole disk holding partitions */
extern const char probe_skip_nothing[];	   /* no signature found */
extern const char probe_skip_ambivalent[]; /* several signatures */
extern const char probe_skip_error[];	   /* I/O or open error: see rc */
extern const char probe_skip_other[];	   /* a signature that is no fs */
extern const char probe_skip_no_medium[];  /* size 0: empty drive */
extern const char probe_skip_overlap[];	   /* partition at 0 over a disk fs */

struct probe_result {
	int rc;			    /* 0, or -errno of open/read */
	char type[PROBE_TYPE_MAX];  /* "ext4", "vfat", "crypto_LUKS"... */
	char usage[PROBE_TYPE_MAX]; /* "filesystem", "crypto", "raid"... */
	char uuid[PROBE_UUID_MAX];
	char label[PROBE_LABEL_MAX];
	/* the table on a whole disk (type "gpt"/"dos", its id) */
	char pttype[PROBE_TYPE_MAX];
	char ptuuid[PROBE_UUID_MAX];
	/* this partition's entry, when it is one */
	char part_scheme[PROBE_TYPE_MAX]; /* table it is in: "gpt", "dos" */
	char partuuid[PROBE_UUID_MAX];
	char partlabel[PROBE_LABEL_MAX];
	char parttype[PROBE_UUID_MAX]; /* GPT type GUID, or "0xef" */
	int partno;		       /* 0: not a partition */
	bool esp, xbootldr;
	const char *skip;	       /* why not to mount; NULL to mount */
	char detail[PROBE_DETAIL_MAX]; /* more words: "xfs ext4" */
};

/* Probe the device or image file @path, in the window @offset/@size
 * (bytes; size 0 means to the end). Fills @r, always (r->skip says what
 * kept it from being mountable). Returns r->rc. A partition device gets
 * its entry (PARTUUID, ...) from libblkid through sysfs; an image window
 * does not: probe_image() fills those from the table. */
int probe_path(const char *path, uint64_t offset, uint64_t size,
	       struct probe_result *r);

struct probe_part {
	int partno;
	uint64_t start, size; /* bytes */
	bool extended;	      /* an MBR extended container */
	char uuid[PROBE_UUID_MAX];
	char name[PROBE_LABEL_MAX];
	char type[PROBE_UUID_MAX];
};

/* The partition table of the disk (image) @path: its type into @pttype
 * (PROBE_TYPE_MAX bytes, "" when none), partitions into @parts (at most
 * @max), their count into *n. Returns 0 or -errno. */
int probe_table(const char *path, char *pttype, struct probe_part *parts,
		size_t max, size_t *n);

/* Probe an image file the way the kernel would see it as a disk: out[0]
 * is the whole image, out[1..] each partition (extended containers left
 * out) with its entry filled from the table. Returns 0 or -errno; *n is
 * the count. */
int probe_image(const char *path, struct probe_result *out, size_t max,
		size_t *n);

/* Pure rules, for the tests. The skip reason for a superblock of @type /
 * @usage (NULL when it is a filesystem to mount). */
const char *probe_classify(const char *type, const char *usage);
/* Set r->esp / r->xbootldr from r->part_scheme and r->parttype. */
void probe_classify_part(struct probe_result *r);

/* --- /sys/class/block */

enum probe_sysfs_flags {
	PROBE_SYSFS_LOOP = 1 << 0, /* list loop devices too */
};

struct probe_dev {
	char name[PROBE_NAME_MAX]; /* "sda2" */
	char disk[PROBE_NAME_MAX]; /* its whole disk, "sda" (itself for one) */
	char devnode[PROBE_PATH_MAX]; /* "/dev/sda2" */
	unsigned major, minor;
	uint64_t size;	/* bytes */
	uint64_t start; /* partition start, bytes */
	int partno;	/* 0: a whole disk */
	bool removable, ro;
	const char *skip; /* not to probe: probe_skip_no_medium */
};

/* One device by kernel name from @sysfs ("/sys") with nodes in @devdir
 * ("/dev"). Returns 0, -ENOENT, or -EPERM for a name that is never
 * listed (ram, zram, loop without PROBE_SYSFS_LOOP). */
int probe_sysfs_dev(const char *sysfs, const char *devdir, const char *name,
		    unsigned flags, struct probe_dev *d);

/* The order of a device listing: by whole disk name, then partition
 * number (the disk itself, 0, first), then name. Returns <0, 0 or >0
 * as strcmp() does. */
int probe_dev_cmp(const char *disk_a, int partno_a, const char *name_a,
		  const char *disk_b, int partno_b, const char *name_b);

/* Every block device under @sysfs/class/block, whole disks before their
 * partitions, in name order. *devs is malloc'd; the caller frees it.
 * Returns 0 or -errno. */
int probe_sysfs_list(const char *sysfs, const char *devdir, unsigned flags,
		     struct probe_dev **devs, size_t *n);

#endif
