/* lvm.h - LVM2 physical volumes and their volume groups, read-only.
 *
 * The path: a PV's label (one of its first 4 sectors) names its metadata
 * areas; the newest metadata text in an area describes the whole volume
 * group. lvm_pv_read() does the reading with pread(); every other
 * function is pure (bytes in, structures out) and never writes. The VG
 * with the highest seqno among its PVs' copies wins (lvm_newest()), its
 * text becomes a struct lvm_vg (lvm_vg_parse()), and lvm_vols() turns
 * its logical volumes into struct vol windows on the caller's PVs.
 *
 * Formats from lvm2's lib/label/label.h, lib/format_text/layout.h and
 * format-text.c (read for the facts, no code taken).
 */
#ifndef BM_VOL_LVM_H
#define BM_VOL_LVM_H

#include "vol/vol.h"

#include <stddef.h>
#include <stdint.h>

#define LVM_SECTOR 512
#define LVM_LABEL_SCAN 2048	   /* label.h: LABEL_SCAN_SECTORS 4 */
#define LVM_MDA_MAX 2		   /* metadata areas a PV names (pvcreate) */
#define LVM_MDA_READ_MAX (8 << 20) /* the largest area lvm_pv_read() reads */
#define LVM_NAME_MAX 128	   /* lvm2: NAME_LEN */
#define LVM_UUID_LEN 32		   /* without the dashes lvm2 prints */
#define LVM_PVS_MAX 64		   /* PVs of one VG that are kept */
#define LVM_LVS_MAX 128		   /* LVs of one VG that are kept */
#define LVM_DEPTH_MAX 8		   /* nesting of { } and [ ] in the text */

/* The CRC lvm2 computes (lib/misc/crc.c): CRC-32, reflected polynomial
 * 0xedb88320, no final inversion; @crc is the initial value. */
#define LVM_INITIAL_CRC 0xf597a6cfu
uint32_t lvm_crc(uint32_t crc, const uint8_t *buf, size_t len);

/* What one PV says of itself and of its VG. */
struct lvm_pv {
	char uuid[LVM_UUID_LEN + 1]; /* as in the label: no dashes */
	uint64_t dev_size;	     /* bytes */
	uint64_t label_sector;
	size_t n_mda;
	struct {
		uint64_t offset, size; /* bytes from the device's start */
	} mda[LVM_MDA_MAX];
	/* from its newest metadata text; text is NULL when the PV keeps
	 * no metadata (pvcreate --metadatacopies 0) */
	char *text; /* malloc'd, NUL-terminated; lvm_pv_free() */
	size_t text_len;
	char vg_name[LVM_NAME_MAX];
	char vg_id[LVM_UUID_LEN + 1];
	uint64_t seqno;
};

/* Find and check the label in buf[0..len), a device's first bytes (at
 * least LVM_LABEL_SCAN of them to see all 4 sectors): "LABELONE" at its
 * own sector, its CRC, type "LVM2 001", then the pv_header. Fills the
 * label part of @pv. Returns 0; -ENOENT when there is no label (not an
 * LVM2 PV: no sentence); -EINVAL with a sentence in err when the label is
 * damaged. */
int lvm_label_parse(const uint8_t *buf, size_t len, struct lvm_pv *pv,
		    char *err, size_t errlen);

/* Take the newest metadata text of the area that starts at byte @start
 * of the device, whose bytes are area[0..len): the mda_header (CRC,
 * magic, version 1, its own start), raw_locn 0, the text (which may wrap
 * from the area's end back to just after the header), its CRC. Sets
 * pv->text (malloc'd), text_len, vg_name, vg_id and seqno. Returns 0,
 * -ENODATA when the area holds no metadata yet, -ERANGE when the text
 * lies past @len, -EINVAL when damaged, -ENOMEM; each with a sentence.
 * pv->text must be NULL or its own (it is freed first). */
int lvm_mda_parse(const uint8_t *area, size_t len, uint64_t start,
		  struct lvm_pv *pv, char *err, size_t errlen);

/* Both of the above over buf[0..len), a device's first bytes: the label,
 * then the first metadata area that lies inside the buffer and reads. */
int lvm_pv_parse(const uint8_t *buf, size_t len, struct lvm_pv *pv, char *err,
		 size_t errlen);

/* The same from an open device (or image) with pread(); reads at most
 * LVM_MDA_READ_MAX of an area. Never writes. Returns as above, or the
 * -errno of a failed read. */
int lvm_pv_read(int fd, struct lvm_pv *pv, char *err, size_t errlen);

/* Free what lvm_*_parse/read allocated in @pv (its text). */
void lvm_pv_free(struct lvm_pv *pv);

/* Among pvs[0..n), the one whose copy of the VG with id @vg_id has the
 * highest seqno (the first of equals). Returns its index, or -ENOENT. */
int lvm_newest(const struct lvm_pv *pvs, size_t n, const char *vg_id);

/* One segment of an LV (format_text/import_vsn1.c's names). */
struct lvm_seg {
	uint64_t start_extent, extent_count;
	char type[32];	       /* "striped", "thin", "raid1", ... */
	uint64_t stripe_count; /* striped only */
	uint64_t stripe_size;  /* sectors, when stripe_count > 1 */
	/* every stripe (the first VOL_WINDOWS_MAX): PV index into vg->pv (or
	 * -1) and first extent there; a linear segment is stripe 0 */
	int pvs[VOL_WINDOWS_MAX];
	uint64_t pes[VOL_WINDOWS_MAX];
};

struct lvm_lv {
	char name[LVM_NAME_MAX];
	int visible;		/* status has "VISIBLE" */
	char cow[LVM_NAME_MAX]; /* a snapshot's: the LV of its COW data */
	size_t seg_count; /* all segments; the first VOL_WINDOWS_MAX kept */
	struct lvm_seg seg[VOL_WINDOWS_MAX];
};

struct lvm_vg {
	char name[LVM_NAME_MAX];
	char id[LVM_UUID_LEN + 1];
	uint64_t seqno;
	uint64_t extent_size; /* 512-byte sectors */
	size_t n_pv, n_lv;
	struct {
		char name[LVM_NAME_MAX]; /* "pv0" */
		char id[LVM_UUID_LEN + 1];
		uint64_t pe_start; /* sectors */
	} pv[LVM_PVS_MAX];
	struct lvm_lv lv[LVM_LVS_MAX];
};

/* Parse metadata text[0..len) (the lvm2 config grammar: sections,
 * key = value, strings, integers, arrays, # comments) into @vg, which
 * the caller owns (it is large: allocate it). Returns 0, or -EINVAL with
 * a sentence naming the line. */
int lvm_vg_parse(const char *text, size_t len, struct lvm_vg *vg, char *err,
		 size_t errlen);

/* The volumes of @vg's visible LVs into out[0..max), *n set to their
 * count. pv_uuids[0..n_pvs) are the PVs the caller found (label UUIDs,
 * no dashes); a window's source is an index into that list. A striped
 * LV of one segment gets a window per stripe (vol.stripes, vol.chunk).
 * An LV that cannot be read as windows (thin, RAID, a striped segment
 * among others, a missing PV...) gets a sentence in vol.skip instead.
 * Returns 0, or -E2BIG when @max was too small (out holds the first
 * @max). */
int lvm_vols(const struct lvm_vg *vg, const char *const *pv_uuids, size_t n_pvs,
	     struct vol *out, size_t max, size_t *n);

#endif
