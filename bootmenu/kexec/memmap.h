/* memmap.h - the machine's physical memory map, as e820 ranges.
 *
 * Read from /sys/firmware/memmap (the firmware's map: one directory per
 * range holding start, end and type) or, without it, /proc/iomem's top
 * level. Both readers take a path so tests can feed fixtures. The ranges
 * array is malloc'd and owned by the map: kexec_memmap_free() frees it.
 */
#ifndef BM_KEXEC_MEMMAP_H
#define BM_KEXEC_MEMMAP_H

#include <stddef.h>
#include <stdint.h>

#define E820_RAM 1
#define E820_RESERVED 2
#define E820_ACPI 3
#define E820_NVS 4
#define E820_UNUSABLE 5
#define E820_PMEM 7
#define E820_PRAM 12
#define E820_SOFT_RESERVED 0xefffffffu

/* Most ranges read from one map (real machines have a few hundred). */
#define KEXEC_MEMMAP_MAX 1024

struct kexec_range {
	uint64_t start, end; /* [start, end): end is exclusive */
	uint32_t type;	     /* E820_* */
};

struct kexec_memmap {
	struct kexec_range *r; /* sorted by start */
	size_t n;
};

/* The e820 type of a name as sysfs and /proc/iomem spell it ("System
 * RAM", "ACPI Tables", ...); E820_RESERVED for an unknown name. */
uint32_t kexec_e820_type(const char *name);

/* Read @path: a directory is read as /sys/firmware/memmap, a file as
 * /proc/iomem (top-level lines only). NULL tries both system paths.
 * Returns 0, or -errno with a sentence in err (empty map, unreadable,
 * too many ranges, -EPERM: /proc/iomem all zeros because we are not
 * root). */
int kexec_memmap_read(const char *path, struct kexec_memmap *m, char *err,
		      size_t errlen);

/* The "Crash kernel" ranges (crashkernel= reservation) of the /proc/iomem
 * style file @path (NULL: /proc/iomem), as E820_RAM ranges. Returns 0
 * (m->n may be 0: nothing reserved) or -errno. */
int kexec_memmap_read_crash(const char *path, struct kexec_memmap *m);

void kexec_memmap_free(struct kexec_memmap *m);

#endif
