/* plan.c - place a bzImage, its initrd, boot_params and the purgatory in
 * RAM, and fill boot_params (boot.rst, "64-bit boot protocol"). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kexec/elf.h"
#include "kexec/place.h"
#include "kexec/plan.h"
#include "kexec/purgatory.h"
#include "util/le.h"
#include "util/sha256.h"

#define MIB (1024ull * 1024)
#define GIB (1024ull * MIB)
#define LOW_LIMIT MIB /* nothing of ours below 1 MiB */
#define FOUR_G (4 * GIB)
#define LOW_640K 0xa0000ull

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

static uint64_t align_down(uint64_t v, uint64_t a)
{
	return v & ~(a - 1);
}

static const struct kexec_seg *place_hit(const struct kexec_place *pl,
					 uint64_t at, uint64_t size)
{
	for (size_t i = 0; i < pl->p->n_seg; i++) {
		const struct kexec_seg *s = &pl->p->seg[i];

		if (at < s->mem + s->memsz && s->mem < at + size)
			return s;
	}
	return NULL;
}

/* Lowest aligned spot in [lo, hi) of free room for @size, or 0. */
static uint64_t place_up(const struct kexec_place *pl, uint64_t lo, uint64_t hi,
			 uint64_t size, uint64_t align)
{
	uint64_t at = align_up(lo, align);
	const struct kexec_seg *s;

	while (at >= lo && at <= hi && size <= hi - at) {
		s = place_hit(pl, at, size);
		if (!s)
			return at;
		at = align_up(s->mem + s->memsz, align);
	}
	return 0;
}

/* Highest aligned spot in [lo, hi) of free room for @size, or 0. */
static uint64_t place_down(const struct kexec_place *pl, uint64_t lo,
			   uint64_t hi, uint64_t size, uint64_t align)
{
	uint64_t at;
	const struct kexec_seg *s;

	if (size > hi - lo)
		return 0;
	at = align_down(hi - size, align);
	while (at >= lo) {
		s = place_hit(pl, at, size);
		if (!s)
			return at;
		if (s->mem < lo + size)
			return 0;
		at = align_down(s->mem - size, align);
	}
	return 0;
}

/* Find room for @size in [min, max) over every usable range. */
uint64_t kexec_place_find(const struct kexec_place *pl, uint64_t size,
			  uint64_t align, uint64_t min, uint64_t max, bool down)
{
	for (size_t k = 0; k < pl->n; k++) {
		const struct kexec_range *r = &pl->r[down ? pl->n - 1 - k : k];
		uint64_t lo = r->start > min ? r->start : min;
		uint64_t hi = r->end < max ? r->end : max;
		uint64_t at;

		if (r->type != E820_RAM || lo >= hi)
			continue;
		at = down ? place_down(pl, lo, hi, size, align)
			  : place_up(pl, lo, hi, size, align);
		if (at)
			return at;
	}
	return 0;
}

int kexec_seg_add(struct kexec_plan *p, const void *buf, size_t bufsz,
		  uint64_t mem, uint64_t memsz, const char *what)
{
	size_t i = p->n_seg;

	if (p->n_seg >= KEXEC_SEGMENT_MAX)
		return -E2BIG;
	while (i > 0 && p->seg[i - 1].mem > mem) {
		p->seg[i] = p->seg[i - 1];
		i--;
	}
	p->seg[i] = (struct kexec_seg){buf, bufsz, mem, memsz, what};
	p->n_seg++;
	return 0;
}

static int plan_kernel(const struct kexec_plan_in *in, struct kexec_plan *p,
		       const struct kexec_place *pl, char *err, size_t errlen)
{
	const struct kexec_bzimage *bz = &p->bz;
	uint64_t need =
	    bz->init_size > bz->pm_size ? bz->init_size : bz->pm_size;
	uint64_t min =
	    bz->pref_address > LOW_LIMIT ? bz->pref_address : LOW_LIMIT;
	uint64_t max =
	    bz->xloadflags & XLF_CAN_BE_LOADED_ABOVE_4G ? UINT64_MAX : FOUR_G;
	uint64_t at;

	need = align_up(need, KEXEC_PAGE);
	if (bz->relocatable) {
		at = kexec_place_find(pl, need, bz->kernel_alignment, min, max,
				      false);
	} else {
		/* boot.rst: a non-relocatable kernel runs where it was linked
		 */
		at = kexec_place_find(pl, need, KEXEC_PAGE, min, min + need,
				      false);
		if (at != min)
			at = 0;
	}
	if (!at) {
		snprintf(err, errlen,
			 "no room in RAM for the kernel: it needs "
			 "%" PRIu64 " MiB (init_size) at or above 0x%" PRIx64
			 " aligned to 0x%" PRIx32,
			 (uint64_t)(need / MIB + 1), min, bz->kernel_alignment);
		return -ENOSPC;
	}
	p->kernel_addr = at;
	p->kernel_entry = at + 0x200; /* boot.rst: 64-bit entry */
	p->kernel_room = need;
	p->kernel_seg_buf = (const uint8_t *)in->kernel.buf + bz->pm_off;
	return kexec_seg_add(p, p->kernel_seg_buf, bz->pm_size, at, need,
			     "kernel");
}

/* An ELF vmlinux runs where it is linked: each PT_LOAD at its p_paddr. */
static int plan_elf(const struct kexec_plan_in *in, struct kexec_plan *p,
		    const struct kexec_place *pl, const struct kexec_elf *el,
		    char *err, size_t errlen)
{
	for (size_t i = 0; i < el->n_load; i++) {
		const struct kexec_elf_load *l = &el->load[i];
		uint64_t lead = l->paddr % KEXEC_PAGE, mem = l->paddr - lead;
		uint64_t size = align_up(l->memsz + lead, KEXEC_PAGE);
		int rc;

		/* The first MiB holds the real-mode and BIOS areas, and our
		 * boot_params and purgatory go just above it: never load there.
		 */
		if (mem < 0x100000) {
			snprintf(err, errlen,
				 "the ELF kernel's segment at 0x%" PRIx64
				 " is below 1 MiB",
				 l->paddr);
			return -ENOEXEC;
		}
		if (l->off % KEXEC_PAGE != lead ||
		    kexec_place_find(pl, size, KEXEC_PAGE, mem, mem + size,
				     false) != mem) {
			snprintf(
			    err, errlen,
			    "no room in RAM for the ELF "
			    "kernel's segment at 0x%" PRIx64 " (%" PRIu64
			    " bytes): it is not free RAM or not page-aligned",
			    l->paddr, l->memsz);
			return -ENOSPC;
		}
		rc = kexec_seg_add(
		    p, (const uint8_t *)in->kernel.buf + l->off - lead,
		    l->filesz + lead, mem, size, "kernel (ELF)");
		if (rc)
			return rc;
		if (i == 0 || mem < p->kernel_addr)
			p->kernel_addr = mem;
	}
	p->kernel_entry = el->entry;
	return 0;
}

/* What a vmlinux gets as its setup header: the fields a bzImage would
 * carry, for the kernel's own reading of boot_params (boot.rst). */
static void elf_header(struct kexec_bzimage *bz)
{
	memset(bz, 0, sizeof(*bz));
	bz->version = 0x020f;
	bz->loadflags = LOADED_HIGH;
	bz->xloadflags = XLF_KERNEL_64 | XLF_CAN_BE_LOADED_ABOVE_4G;
	bz->kernel_alignment = KEXEC_PAGE;
	bz->cmdline_size = 2047;
	bz->initrd_addr_max = 0x7fffffff;
	bz->hdr_end = BZ_INIT_SIZE + 4;
}

static void elf_header_put(uint8_t *bp, const struct kexec_bzimage *bz)
{
	put_le16(bp, BOOT_PARAMS_SIZE, BZ_BOOT_FLAG, 0xaa55);
	memcpy(bp + BZ_HEADER, "HdrS", 4);
	put_le16(bp, BOOT_PARAMS_SIZE, BZ_VERSION, bz->version);
	bp[BZ_LOADFLAGS] = bz->loadflags;
	put_le16(bp, BOOT_PARAMS_SIZE, BZ_XLOADFLAGS, bz->xloadflags);
	put_le32(bp, BOOT_PARAMS_SIZE, BZ_CMDLINE_SIZE, bz->cmdline_size);
	put_le32(bp, BOOT_PARAMS_SIZE, BZ_INITRD_ADDR_MAX, bz->initrd_addr_max);
	put_le32(bp, BOOT_PARAMS_SIZE, BZ_KERNEL_ALIGNMENT,
		 bz->kernel_alignment);
}

static int plan_initrd(const struct kexec_plan_in *in, struct kexec_plan *p,
		       const struct kexec_place *pl, char *err, size_t errlen)
{
	uint64_t size = align_up(in->initrd.len, KEXEC_PAGE);
	uint64_t max = (uint64_t)p->bz.initrd_addr_max + 1;
	uint64_t at;

	if (in->initrd.len == 0)
		return 0;
	if (max > FOUR_G || p->bz.initrd_addr_max == 0)
		max = p->bz.initrd_addr_max ? FOUR_G : 0x38000000ull;
	at = kexec_place_find(pl, size, KEXEC_PAGE, LOW_LIMIT, max, true);
	if (!at && (p->bz.xloadflags & XLF_CAN_BE_LOADED_ABOVE_4G))
		at = kexec_place_find(pl, size, KEXEC_PAGE, FOUR_G, UINT64_MAX,
				      true);
	if (!at) {
		snprintf(err, errlen,
			 "the initrd is too large: %zu bytes do "
			 "not fit in the free RAM below 0x%" PRIx64 "%s",
			 in->initrd.len, max,
			 p->bz.xloadflags & XLF_CAN_BE_LOADED_ABOVE_4G
			     ? " nor above 4 GiB"
			     : "");
		return -ENOSPC;
	}
	p->initrd_addr = at;
	p->initrd_size = in->initrd.len;
	return kexec_seg_add(p, in->initrd.buf, in->initrd.len, at, size,
			     "initrd");
}

/* The e820 map the new kernel gets: the machine's, or for a panic kernel
 * the machine's without its RAM but the first 640 KiB and the crash
 * reservation (so the crashed kernel's memory stays untouched). */
static int e820_build(const struct kexec_plan_in *in, struct kexec_range **out,
		      size_t *n)
{
	const struct kexec_memmap *m = &in->m->mm;
	const struct kexec_memmap *c = in->crash ? &in->m->crash : NULL;
	struct kexec_range *r = calloc(m->n + (c ? c->n : 0) + 1, sizeof(*r));
	size_t k = 0;

	if (!r)
		return -ENOMEM;
	for (size_t i = 0; i < m->n; i++) {
		struct kexec_range x = m->r[i];

		if (c && x.type == E820_RAM) {
			if (x.start >= LOW_640K)
				continue;
			if (x.end > LOW_640K)
				x.end = LOW_640K;
		}
		r[k++] = x;
	}
	for (size_t i = 0; c && i < c->n; i++) {
		size_t j = k++;

		while (j > 0 && r[j - 1].start > c->r[i].start) {
			r[j] = r[j - 1];
			j--;
		}
		r[j] = c->r[i];
	}
	*out = r;
	*n = k;
	return 0;
}

static void e820_put(uint8_t *buf, size_t len, size_t off,
		     const struct kexec_range *r)
{
	put_le64(buf, len, off, r->start);
	put_le64(buf, len, off + 8, r->end - r->start);
	put_le32(buf, len, off + 16, r->type);
}

/* Offsets inside the boot_params segment. */
struct params_layout {
	size_t e820_ext, efi_setup, efi_map, cmdline, total;
	size_t efi_desc_size;
};

static void params_layout(const struct kexec_plan *p, size_t n_e820,
			  size_t n_efi, size_t cmdlen, struct params_layout *l)
{
	size_t off = BOOT_PARAMS_SIZE;

	l->e820_ext = l->efi_setup = l->efi_map = 0;
	if (n_e820 > BP_E820_MAX) {
		l->e820_ext = off;
		off = align_up(off + SETUP_HDR +
				   (n_e820 - BP_E820_MAX) * E820_ENTRY_SIZE,
			       16);
	}
	if (p->efi) {
		l->efi_setup = off;
		off += SETUP_HDR + EFI_SETUP_SIZE;
		l->efi_map = off;
		off = align_up(off + n_efi * l->efi_desc_size, 16);
	}
	l->cmdline = off;
	l->total = off + cmdlen + 1;
}

/* Chain a setup_data header at @off in front of hdr.setup_data. */
static void setup_data_link(uint8_t *bp, size_t len, uint64_t base, size_t off,
			    uint32_t type, uint32_t dlen)
{
	uint64_t head = 0;

	get_le64(bp, len, BZ_SETUP_DATA, &head);
	put_le64(bp, len, off, head);
	put_le32(bp, len, off + 8, type);
	put_le32(bp, len, off + 12, dlen);
	put_le64(bp, len, BZ_SETUP_DATA, base + off);
}

static void params_e820(struct kexec_plan *p, const struct kexec_range *r,
			size_t n, const struct params_layout *l)
{
	uint8_t *bp = p->params;
	size_t len = p->params_len, low = n > BP_E820_MAX ? BP_E820_MAX : n;
	uint64_t mem_k = 0;

	for (size_t i = 0; i < n; i++) {
		size_t off = i < low ? BP_E820_TABLE + i * E820_ENTRY_SIZE
				     : l->e820_ext + SETUP_HDR +
					   (i - low) * E820_ENTRY_SIZE;
		e820_put(bp, len, off, &r[i]);
		/* zero-page.rst: alt_mem_k, KiB of RAM above 1 MiB */
		if (r[i].type == E820_RAM && r[i].start <= MIB &&
		    r[i].end > MIB)
			mem_k = (r[i].end - MIB) >> 10;
	}
	bp[BP_E820_ENTRIES] = (uint8_t)low;
	if (n > low)
		setup_data_link(bp, len, p->params_addr, l->e820_ext,
				SETUP_E820_EXT,
				(uint32_t)((n - low) * E820_ENTRY_SIZE));
	put_le16(bp, len, BP_EXT_MEM_K,
		 mem_k > 0xfc00 ? 0xfc00 : (uint16_t)mem_k);
	put_le32(bp, len, BP_ALT_MEM_K,
		 mem_k > 0xffffffffu ? 0xffffffffu : (uint32_t)mem_k);
	p->e820_entries = n;
}

/* efi_info from the running kernel's, the runtime map, SETUP_EFI: what
 * the kernel's own kexec_file path (kexec-bzimage64.c) passes, so the
 * new kernel keeps the runtime services at their virtual addresses. */
static void params_efi(struct kexec_plan *p, const struct kexec_machine *m,
		       const struct params_layout *l)
{
	uint8_t *bp = p->params;
	size_t len = p->params_len, d = l->efi_desc_size;
	uint64_t map = p->params_addr + l->efi_map,
		 sd = l->efi_setup + SETUP_HDR;

	for (size_t i = 0; i < m->n_efi_map; i++) {
		size_t off = l->efi_map + i * d;

		put_le32(bp, len, off, m->efi_map[i].type);
		put_le64(bp, len, off + 8, m->efi_map[i].phys);
		put_le64(bp, len, off + 16, m->efi_map[i].virt);
		put_le64(bp, len, off + 24, m->efi_map[i].pages);
		put_le64(bp, len, off + 32, m->efi_map[i].attr);
	}
	put_le32(bp, len, BP_EFI_MEMDESC_SIZE, (uint32_t)d);
	put_le32(bp, len, BP_EFI_MEMMAP, (uint32_t)map);
	put_le32(bp, len, BP_EFI_MEMMAP_HI, (uint32_t)(map >> 32));
	put_le32(bp, len, BP_EFI_MEMMAP_SIZE, (uint32_t)(m->n_efi_map * d));
	put_le64(bp, len, sd, m->efi_fw_vendor);
	put_le64(bp, len, sd + 16, m->efi_tables);
	put_le64(bp, len, sd + 24, m->efi_smbios);
	setup_data_link(bp, len, p->params_addr, l->efi_setup, SETUP_EFI,
			EFI_SETUP_SIZE);
}

static bool efi_ok(const struct kexec_plan_in *in,
		   const struct kexec_bzimage *bz)
{
	uint32_t sig = 0, systab = 0;

	if (!in->m->efi || !(bz->xloadflags & XLF_EFI_KEXEC) ||
	    !in->m->have_params)
		return false;
	get_le32(in->m->params, BOOT_PARAMS_SIZE, BP_EFI_INFO, &sig);
	get_le32(in->m->params, BOOT_PARAMS_SIZE, BP_EFI_SYSTAB, &systab);
	return sig != 0 && systab != 0;
}

static size_t efi_desc_size(const struct kexec_plan_in *in)
{
	uint32_t d = 0;

	get_le32(in->m->params, BOOT_PARAMS_SIZE, BP_EFI_MEMDESC_SIZE, &d);
	return d >= EFI_DESC_MIN && d <= 256 ? d : 48;
}

/* The zero page: the running kernel's (screen_info, acpi_rsdp_addr, EDD,
 * efi_info) with the new kernel's setup header copied in (boot.rst). */
static void params_base(const struct kexec_plan_in *in, struct kexec_plan *p)
{
	uint8_t *bp = p->params;
	uint32_t subarch = 0;
	uint64_t rsdp = 0;

	memcpy(bp, in->m->params, BOOT_PARAMS_SIZE);
	get_le32(bp, BOOT_PARAMS_SIZE, BP_HARDWARE_SUBARCH, &subarch);
	memset(bp + BP_TBOOT_ADDR, 0, 8); /* no tboot handoff through kexec */
	memset(bp + BP_APM_BIOS_INFO, 0, 20);
	memset(bp + BP_HD_INFO, 0, 32);
	memset(bp + BP_EXT_RAMDISK_IMAGE, 0, 12);
	memset(bp + BZ_SETUP_SECTS, 0, BZ_HDR_LIMIT - BZ_SETUP_SECTS);
	memset(bp + BP_E820_TABLE, 0, BP_E820_MAX * E820_ENTRY_SIZE);
	bp[BP_SENTINEL] = 0;
	if (p->elf)
		elf_header_put(bp, &p->bz);
	else
		memcpy(bp + BZ_SETUP_SECTS,
		       (const uint8_t *)in->kernel.buf + BZ_SETUP_SECTS,
		       p->bz.hdr_end - BZ_SETUP_SECTS);
	put_le32(bp, BOOT_PARAMS_SIZE, BP_HARDWARE_SUBARCH, subarch);
	put_le64(bp, BOOT_PARAMS_SIZE, BZ_SETUP_DATA, 0);
	if (!p->efi)
		memset(bp + BP_EFI_INFO, 0, 32);
	get_le64(bp, BOOT_PARAMS_SIZE, BP_ACPI_RSDP, &rsdp);
	if (!rsdp)
		put_le64(bp, BOOT_PARAMS_SIZE, BP_ACPI_RSDP, in->m->acpi_rsdp);
}

static void params_loader(struct kexec_plan *p, const char *cmdline,
			  const struct params_layout *l)
{
	uint8_t *bp = p->params;
	size_t len = p->params_len;

	bp[BZ_TYPE_OF_LOADER] = 0xff; /* boot.rst: "undefined" loader */
	bp[BZ_EXT_LOADER_VER] = 0;
	bp[BZ_EXT_LOADER_VER + 1] = 0;
	bp[BZ_LOADFLAGS] |= LOADED_HIGH;
	put_le32(bp, len, BZ_CODE32_START, (uint32_t)p->kernel_addr);
	memcpy(bp + l->cmdline, cmdline, strlen(cmdline) + 1);
	p->cmdline_addr = p->params_addr + l->cmdline;
	put_le32(bp, len, BZ_CMD_LINE_PTR, (uint32_t)p->cmdline_addr);
	put_le32(bp, len, BP_EXT_CMD_LINE_PTR,
		 (uint32_t)(p->cmdline_addr >> 32));
	put_le32(bp, len, BZ_RAMDISK_IMAGE, (uint32_t)p->initrd_addr);
	put_le32(bp, len, BP_EXT_RAMDISK_IMAGE,
		 (uint32_t)(p->initrd_addr >> 32));
	put_le32(bp, len, BZ_RAMDISK_SIZE, (uint32_t)p->initrd_size);
	put_le32(bp, len, BP_EXT_RAMDISK_SIZE,
		 (uint32_t)(p->initrd_size >> 32));
}

/* PML5 -> PML4 -> PDPT -> 4 PDs of 2 MiB pages: 0-4 GiB mapped 1:1,
 * present and writable (Intel SDM vol. 3, 4.5). */
static void purg_tables(struct kexec_plan *p, uint64_t at)
{
	size_t t = p->purg_len - PURG_PT_PAGES * KEXEC_PAGE, len = p->purg_len;
	uint64_t base = at + t;

	put_le64(p->purg, len, t, (base + KEXEC_PAGE) | 3);
	put_le64(p->purg, len, t + KEXEC_PAGE, (base + 2 * KEXEC_PAGE) | 3);
	for (size_t k = 0; k < 4; k++)
		put_le64(p->purg, len, t + 2 * KEXEC_PAGE + 8 * k,
			 (base + (3 + k) * KEXEC_PAGE) | 3);
	for (uint64_t i = 0; i < 2048; i++)
		put_le64(p->purg, len, t + 3 * KEXEC_PAGE + 8 * i,
			 (i << 21) | 0x83); /* present, writable, 2 MiB */
	put_le64(p->purg, len, PURG_PML4, base + KEXEC_PAGE);
}

/* boot.rst wants init_size bytes of room at the kernel's load address,
 * and the segment of kexec-tools and of the kernel's own file loader
 * spans all of it; but the kernel copies (and first zeroes) every page of
 * a segment, 64 MiB for Debian's where the file is 8. The room stays free
 * of our other segments (they were placed around it); what kexec_core
 * could put there are its own pages (the old kernel's identity page
 * tables, the relocation code), which the purgatory leaves for page
 * tables of its own before the jump. So the segment shrinks to the file,
 * when the purgatory's map covers the kernel, boot_params and itself
 * (below 4 GiB). A panic kernel keeps the whole room. */
static void plan_lean_kernel(struct kexec_plan *p)
{
	struct kexec_seg *k = NULL;
	uint64_t top = 0;

	for (size_t i = 0; i < p->n_seg; i++) {
		struct kexec_seg *s = &p->seg[i];

		if (s->buf == p->kernel_seg_buf)
			k = s;
		else if (s->buf == p->params || s->buf == p->purg)
			top = s->mem + s->memsz > top ? s->mem + s->memsz : top;
	}
	if (!k || p->crash || p->elf || k->mem + k->memsz > FOUR_G ||
	    top > FOUR_G)
		return;
	k->memsz = align_up(k->bufsz, KEXEC_PAGE);
	p->lean = true;
	purg_tables(p, p->entry);
}

void kexec_purg_patch(struct kexec_plan *p, uint64_t at)
{
	uint8_t *b = p->purg;
	size_t len = p->purg_len;
	struct sha256 s;
	uint32_t k = 0;

	put_le64(b, len, PURG_RSI, p->params_addr);
	put_le64(b, len, PURG_RIP, p->kernel_entry);
	put_le64(b, len, PURG_STACK,
		 at + align_up(len, KEXEC_PAGE) + PURG_STACK_SIZE - 16);
	put_le64(b, len, PURG_GDTR + 2, at + PURG_GDT);
	if (p->sha256)
		sha256_init(&s);
	for (size_t i = 0; i < p->n_seg && k < PURG_REGIONS_MAX; i++) {
		if (p->seg[i].buf == p->purg)
			continue;
		put_le64(b, len, PURG_REGIONS + 16 * k, p->seg[i].mem);
		put_le64(b, len, PURG_REGIONS + 16 * k + 8, p->seg[i].bufsz);
		if (p->sha256)
			sha256_update(&s, p->seg[i].buf, p->seg[i].bufsz);
		k++;
	}
	if (p->sha256) {
		sha256_final(&s, p->digest);
		memcpy(b + PURG_DIGEST, p->digest, 32);
	}
	put_le32(b, len, PURG_NREGIONS, k);
	put_le32(b, len, PURG_SHA_ON, p->sha256 ? 1 : 0);
}

void kexec_plan_free(struct kexec_plan *p)
{
	free(p->params);
	free(p->purg);
	memset(p, 0, sizeof(*p));
}

/* Place and fill the boot_params segment: zero page, setup_data, the
 * EFI runtime map, the command line (one segment, boot.rst allows it
 * anywhere the kernel can reach: below 4 GiB unless ABOVE_4G). */
static int plan_params(const struct kexec_plan_in *in, struct kexec_plan *p,
		       const struct kexec_place *pl,
		       const struct kexec_range *e820, size_t n_e820, char *err,
		       size_t errlen)
{
	const char *cmdline = in->cmdline ? in->cmdline : "";
	struct params_layout l;
	uint64_t max =
	    p->bz.xloadflags & XLF_CAN_BE_LOADED_ABOVE_4G ? UINT64_MAX : FOUR_G;
	uint64_t size;

	p->efi = efi_ok(in, &p->bz);
	l.efi_desc_size = efi_desc_size(in);
	params_layout(p, n_e820, p->efi ? in->m->n_efi_map : 0, strlen(cmdline),
		      &l);
	size = align_up(l.total, KEXEC_PAGE);
	p->params = calloc(1, size);
	if (!p->params)
		return -ENOMEM;
	p->params_len = l.total;
	p->params_addr =
	    kexec_place_find(pl, size, KEXEC_PAGE, LOW_LIMIT, FOUR_G, false);
	if (!p->params_addr)
		p->params_addr =
		    kexec_place_find(pl, size, KEXEC_PAGE, FOUR_G, max, false);
	if (!p->params_addr) {
		snprintf(err, errlen,
			 "no room in RAM for boot_params and the "
			 "command line (%" PRIu64 " bytes)",
			 size);
		return -ENOSPC;
	}
	params_base(in, p);
	params_loader(p, cmdline, &l);
	params_e820(p, e820, n_e820, &l);
	if (p->efi)
		params_efi(p, in->m, &l);
	return kexec_seg_add(p, p->params, p->params_len, p->params_addr, size,
			     "boot_params+cmdline");
}

/* The purgatory segment: the stub, its page tables (PURG_PT_PAGES, filled
 * by purg_tables()), then its stack. */
int kexec_plan_purgatory(struct kexec_plan *p, const struct kexec_place *pl,
			 char *err, size_t errlen)
{
	size_t len = (size_t)(kexec_purgatory_end - kexec_purgatory_start);
	size_t buf = align_up(len, KEXEC_PAGE) + PURG_PT_PAGES * KEXEC_PAGE;
	uint64_t size = buf + PURG_STACK_SIZE, at;

	p->purg = calloc(1, buf);
	if (!p->purg)
		return -ENOMEM;
	memcpy(p->purg, kexec_purgatory_start, len);
	p->purg_len = buf;
	at = kexec_place_find(pl, size, KEXEC_PAGE, LOW_LIMIT, FOUR_G, false);
	if (!at) {
		snprintf(err, errlen, "no room in RAM for the purgatory");
		return -ENOSPC;
	}
	p->entry = at;
	return kexec_seg_add(p, p->purg, buf, at, size, "purgatory");
}

static int plan_cmdline_check(const struct kexec_plan_in *in,
			      const struct kexec_plan *p, char *err,
			      size_t errlen)
{
	size_t n = in->cmdline ? strlen(in->cmdline) : 0;

	if (n <= p->bz.cmdline_size)
		return 0;
	snprintf(err, errlen,
		 "the command line is too long: %zu bytes, "
		 "this kernel takes at most %" PRIu32 " (cmdline_size)",
		 n, p->bz.cmdline_size);
	return -E2BIG;
}

/* kexec_core.c sanity_check_segment_list(): the running kernel refuses
 * (EINVAL) segments whose pages, one or all together, are more than half
 * of totalram_pages(), which MemTotal shows. The file syscall's kernel
 * segment spans init_size whatever we do. */
int kexec_plan_fits(const struct kexec_plan *p, bool file_syscall, char *err,
		    size_t errlen)
{
	uint64_t half = p->mem_total / KEXEC_PAGE / 2, bytes = 0, kern = 0;

	for (size_t i = 0; i < p->n_seg; i++) {
		uint64_t m = p->seg[i].memsz;

		if (p->seg[i].buf == p->kernel_seg_buf && p->kernel_seg_buf) {
			m = file_syscall ? p->kernel_room : m;
			kern = m;
		}
		bytes += m;
	}
	if (!p->mem_total || bytes / KEXEC_PAGE <= half)
		return 0;
	snprintf(err, errlen,
		 "the new kernel needs %" PRIu64 " MiB to load "
		 "(the kernel %" PRIu64 " MiB%s, the initrd %" PRIu64 " MiB), "
		 "more than half of the running kernel's %" PRIu64 " MiB "
		 "(MemTotal), and kexec refuses that: give the machine more "
		 "memory or use a smaller initrd",
		 (uint64_t)((bytes + MIB - 1) / MIB),
		 (uint64_t)((kern + MIB - 1) / MIB),
		 file_syscall ? " with its init_size room" : "",
		 (uint64_t)((p->initrd_size + MIB - 1) / MIB),
		 (uint64_t)(p->mem_total / MIB));
	return -EFBIG;
}

/* Take @in's inputs into @p and parse the kernel (an ELF vmlinux into
 * @el); nothing is allocated yet. */
void kexec_plan_files(struct kexec_plan *p, const struct kexec_blob *kernel,
		      const struct kexec_blob *initrd, const char *cmdline,
		      bool crash)
{
	memset(p, 0, sizeof(*p));
	p->crash = crash;
	p->kernel = kernel->buf;
	p->kernel_len = kernel->len;
	p->initrd = initrd->buf;
	p->initrd_len = initrd->len;
	p->cmdline = cmdline ? cmdline : "";
}

static int plan_parse(const struct kexec_plan_in *in, struct kexec_plan *p,
		      struct kexec_elf *el, char *err, size_t errlen)
{
	int rc;

	kexec_plan_files(p, &in->kernel, &in->initrd, in->cmdline, in->crash);
	p->sha256 = in->sha256;
	p->mem_total = in->m->mem_total;
	p->elf = kexec_elf_is(in->kernel.buf, in->kernel.len);
	if (p->elf) {
		rc = kexec_elf_parse(in->kernel.buf, in->kernel.len, el, err,
				     errlen);
		elf_header(&p->bz);
	} else {
		rc = kexec_bzimage_parse(in->kernel.buf, in->kernel.len, &p->bz,
					 err, errlen);
	}
	if (rc < 0)
		return rc;
	rc = plan_cmdline_check(in, p, err, errlen);
	if (rc < 0)
		return rc;
	if (in->crash && in->m->crash.n == 0) {
		snprintf(err, errlen,
			 "no memory is reserved for a panic kernel "
			 "(boot the running kernel with crashkernel=)");
		return -EADDRNOTAVAIL;
	}
	return 0;
}

/* Place the kernel, the initrd, boot_params and the purgatory in RAM (or
 * in the crash reservation). */
static int plan_place(const struct kexec_plan_in *in, struct kexec_plan *p,
		      const struct kexec_elf *el,
		      const struct kexec_range *e820, size_t n_e820, char *err,
		      size_t errlen)
{
	struct kexec_place pl;
	int rc;

	pl.r = in->crash ? in->m->crash.r : in->m->mm.r;
	pl.n = in->crash ? in->m->crash.n : in->m->mm.n;
	pl.p = p;
	rc = p->elf ? plan_elf(in, p, &pl, el, err, errlen)
		    : plan_kernel(in, p, &pl, err, errlen);
	if (rc < 0 || (rc = plan_initrd(in, p, &pl, err, errlen)) < 0 ||
	    (rc = plan_params(in, p, &pl, e820, n_e820, err, errlen)) < 0)
		return rc;
	return kexec_plan_purgatory(p, &pl, err, errlen);
}

int kexec_plan_build(const struct kexec_plan_in *in, struct kexec_plan *p,
		     char *err, size_t errlen)
{
	struct kexec_range *e820 = NULL;
	struct kexec_elf el;
	size_t n_e820;
	int rc = plan_parse(in, p, &el, err, errlen);

	if (rc < 0)
		return rc;
	rc = e820_build(in, &e820, &n_e820);
	if (rc < 0)
		goto err_e820;
	rc = plan_place(in, p, &el, e820, n_e820, err, errlen);
	if (rc < 0)
		goto err_place;
	plan_lean_kernel(p);
	kexec_purg_patch(p, p->entry);
	free(e820);
	return 0;

err_place:
	if (rc == -ENOMEM || rc == -E2BIG)
		snprintf(err, errlen,
			 rc == -ENOMEM ? "out of memory while "
					 "planning the load"
				       : "more than %d segments",
			 KEXEC_SEGMENT_MAX);
	free(e820);
err_e820:
	if (rc == -ENOMEM && !p->params)
		snprintf(err, errlen, "out of memory while planning the load");
	kexec_plan_free(p);
	return rc;
}
