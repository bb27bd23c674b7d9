/* place.h - inside the kexec room: finding room for segments in RAM and
 * the purgatory's segment, shared by the bzImage plan (plan.c) and the
 * multiboot plan (mbplan.c). Not for use outside kexec/.
 */
#ifndef BM_KEXEC_PLACE_H
#define BM_KEXEC_PLACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kexec/plan.h"

/* The ranges segments may go into (RAM, or the crash reservation), and
 * the plan whose segments are already placed there. */
struct kexec_place {
	const struct kexec_range *r;
	size_t n;
	const struct kexec_plan *p;
};

/* Room for @size bytes aligned to @align in [@min, @max) of an E820_RAM
 * range that no segment of the plan covers: the lowest (or, @down, the
 * highest) such address, or 0 when there is none. */
uint64_t kexec_place_find(const struct kexec_place *pl, uint64_t size,
			  uint64_t align, uint64_t min, uint64_t max,
			  bool down);

/* Add a segment, keeping p->seg sorted by address. Returns 0 or -E2BIG
 * past KEXEC_SEGMENT_MAX. */
int kexec_seg_add(struct kexec_plan *p, const void *buf, size_t bufsz,
		  uint64_t mem, uint64_t memsz, const char *what);

/* Copy the purgatory into p->purg (owned by the plan), place it below
 * 4 GiB and add its segment; p->entry is its address. Returns 0, -ENOMEM,
 * or -ENOSPC with a sentence. */
int kexec_plan_purgatory(struct kexec_plan *p, const struct kexec_place *pl,
			 char *err, size_t errlen);

/* Fill the purgatory's fields (purgatory.h) from the plan: boot_params
 * (or the multiboot information), the entry, the stack, the GDT, the
 * regions and their SHA-256 when p->sha256. */
void kexec_purg_patch(struct kexec_plan *p, uint64_t at);

#endif
