/* mbplan.c - a multiboot kernel, its modules and its boot information
 * placed in RAM, entered through the purgatory in 32-bit mode. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kexec/multiboot.h"
#include "kexec/place.h"
#include "kexec/purgatory.h"
#include "util/le.h"
#include "util/say.h"

#define MIB (1024ull * 1024)
#define FOUR_G (1ull << 32)

static uint64_t up(uint64_t v)
{
	return (v + KEXEC_PAGE - 1) & ~(uint64_t)(KEXEC_PAGE - 1);
}

/* Whether [start, end) is RAM in the firmware's map (ranges sorted, RAM
 * ranges may follow each other). */
static bool in_ram(const struct kexec_memmap *mm, uint64_t start, uint64_t end)
{
	for (size_t i = 0; i < mm->n && start < end; i++) {
		if (mm->r[i].type != E820_RAM || mm->r[i].end <= start)
			continue;
		if (mm->r[i].start > start)
			return false;
		start = mm->r[i].end;
	}
	return start >= end;
}

static bool seg_overlaps(const struct kexec_plan *p, uint64_t at, uint64_t n)
{
	for (size_t i = 0; i < p->n_seg; i++)
		if (at < p->seg[i].mem + p->seg[i].memsz &&
		    p->seg[i].mem < at + n)
			return true;
	return false;
}

/* The image's segments go where it is linked (multiboot2 spec 3.1.6,
 * 3.1.7); kexec_load wants whole pages, so each must start on one. */
static int mb_image_segs(const struct kexec_mb_plan_in *in,
			 const struct kexec_elf *el, struct kexec_plan *p,
			 char *err, size_t errlen)
{
	const uint8_t *img = in->image.buf;

	p->kernel_addr = UINT64_MAX;
	for (size_t i = 0; i < el->n_load; i++) {
		const struct kexec_elf_load *l = &el->load[i];
		uint64_t n = up(l->memsz);

		if (l->paddr % KEXEC_PAGE)
			return say(
			    err, errlen, -ENOEXEC,
			    "the multiboot kernel's segment at 0x%" PRIx64
			    " does not start on a page",
			    l->paddr);
		if (!in_ram(&in->m->mm, l->paddr, l->paddr + n))
			return say(err, errlen, -EADDRNOTAVAIL,
				   "the multiboot kernel wants 0x%" PRIx64
				   "-0x%" PRIx64 ", which is not RAM here",
				   l->paddr, l->paddr + n - 1);
		if (seg_overlaps(p, l->paddr, n))
			return say(err, errlen, -ENOEXEC, "%s",
				   "the multiboot kernel's segments overlap");
		if (kexec_seg_add(p, img + l->off, l->filesz, l->paddr, n,
				  "multiboot kernel"))
			return say(
			    err, errlen, -E2BIG, "%s",
			    "the multiboot kernel has too many segments");
		if (l->paddr < p->kernel_addr)
			p->kernel_addr = l->paddr;
	}
	p->kernel_entry = el->entry;
	return 0;
}

/* Modules page-aligned (spec 3.1.10; multiboot flag 0), below 4 GiB as
 * their 32-bit fields need, above the kernel's first byte. */
static int mb_mods(const struct kexec_mb_plan_in *in, struct kexec_plan *p,
		   const struct kexec_place *pl, struct kexec_mb_mod *mods,
		   char *err, size_t errlen)
{
	uint64_t min = p->kernel_addr > MIB ? p->kernel_addr : MIB;

	for (size_t i = 0; i < in->n_mods; i++) {
		uint64_t len = in->mods[i].blob.len;
		uint64_t n = len ? up(len) : KEXEC_PAGE;
		uint64_t at =
		    kexec_place_find(pl, n, KEXEC_PAGE, min, FOUR_G, false);

		if (!at)
			return say(err, errlen, -ENOSPC,
				   "module %zu (%" PRIu64 " bytes) does not "
				   "fit in the RAM below 4 GiB",
				   i + 1, len);
		if (kexec_seg_add(p, in->mods[i].blob.buf, (size_t)len, at, n,
				  "multiboot module"))
			return say(err, errlen, -E2BIG, "%s",
				   "too many multiboot modules for one load");
		mods[i] = (struct kexec_mb_mod){
		    (uint32_t)at, (uint32_t)(at + len), in->mods[i].string};
	}
	return 0;
}

/* The EFI system table the running kernel was given (boot_params'
 * efi_info: efi_systab, efi_systab_hi). */
static uint64_t mb_efi_systab(const struct kexec_machine *m)
{
	uint32_t lo = 0, hi = 0;

	if (!m->efi || !m->have_params)
		return 0;
	get_le32(m->params, sizeof(m->params), BP_EFI_SYSTAB, &lo);
	get_le32(m->params, sizeof(m->params), BP_EFI_SYSTAB_HI, &hi);
	return (uint64_t)hi << 32 | lo;
}

static int mb_info_seg(struct kexec_mb_info_in *ii, struct kexec_plan *p,
		       const struct kexec_place *pl, char *err, size_t errlen)
{
	long n = kexec_mb_info(ii, 0, NULL, 0);
	uint64_t min = p->kernel_addr > MIB ? p->kernel_addr : MIB, at;

	p->params = n > 0 ? calloc(1, up((uint64_t)n)) : NULL;
	if (!p->params)
		return -ENOMEM;
	p->params_len = (size_t)n;
	at = kexec_place_find(pl, up((uint64_t)n), KEXEC_PAGE, min, FOUR_G,
			      false);
	if (!at)
		return say(err, errlen, -ENOSPC, "%s",
			   "no room below 4 GiB for the multiboot boot "
			   "information");
	p->params_addr = p->cmdline_addr = at;
	if (kexec_mb_info(ii, at, p->params, p->params_len) != n)
		return say(err, errlen, -E2BIG, "%s",
			   "the multiboot boot information does not fit "
			   "below 4 GiB");
	return kexec_seg_add(p, p->params, p->params_len, at, up((uint64_t)n),
			     "multiboot information");
}

/* The screen as the running kernel's boot_params describe it. */
static struct kexec_mb_fb mb_fb(const struct kexec_machine *m)
{
	struct kexec_mb_fb fb;

	kexec_mb_screen(m->params, m->have_params ? sizeof(m->params) : 0, &fb);
	return fb;
}

/* Information tags the kernel requires that this machine may lack. */
static int mb_wants(const struct kexec_mb_header *h,
		    const struct kexec_mb_plan_in *in,
		    const struct kexec_mb_fb *fb, char *err, size_t errlen)
{
	if ((h->want & (1u << MB2_TAG_EFI64)) && !mb_efi_systab(in->m))
		return say(err, errlen, -ENOEXEC, "%s",
			   "the multiboot2 kernel requires the EFI system "
			   "table, and this machine did not boot by EFI");
	if ((h->want & (1u << MB2_TAG_ACPI_OLD | 1u << MB2_TAG_ACPI_NEW)) &&
	    !in->rsdp)
		return say(err, errlen, -ENOEXEC, "%s",
			   "the multiboot2 kernel requires the ACPI RSDP, "
			   "which bootmenu could not read here");
	/* Xen 4.17 under OVMF, kexec'd: its EFI entry wants the boot
	 * services a kexec has ended, and its BIOS entry hangs before its
	 * console starts (no RSDP, no BIOS) */
	if (h->want_fb && fb->type != MB_FB_RGB)
		return say(err, errlen, -ENOEXEC, "%s",
			   "the multiboot2 kernel requires a graphics mode, "
			   "and the screen is not a linear framebuffer here "
			   "(bootmenu sets no mode)");
	if ((h->want & 1u << MB2_TAG_FRAMEBUFFER) && !fb->type)
		return say(err, errlen, -ENOEXEC, "%s",
			   "the multiboot2 kernel requires the framebuffer's "
			   "description, which bootmenu could not read here");
	if (h->efi_entry && in->m->efi)
		return say(
		    err, errlen, -EOPNOTSUPP, "%s",
		    "this multiboot2 kernel (Xen) starts on a UEFI "
		    "machine only through its EFI entry, which needs the "
		    "firmware's boot services, and they are gone after a "
		    "kexec: boot its xen.efi through the firmware "
		    "instead");
	if (in->n_mods > KEXEC_MB_MODULES_MAX)
		return say(err, errlen, -E2BIG,
			   "%zu modules: at most %d are supported", in->n_mods,
			   KEXEC_MB_MODULES_MAX);
	return 0;
}

static int mb_place(const struct kexec_mb_plan_in *in,
		    const struct kexec_mb_header *h, const struct kexec_elf *el,
		    const struct kexec_mb_fb *fb, struct kexec_plan *p,
		    char *err, size_t errlen)
{
	struct kexec_place pl = {in->m->mm.r, in->m->mm.n, p};
	struct kexec_mb_mod mods[KEXEC_MB_MODULES_MAX];
	struct kexec_mb_info_in ii = {
	    .version = h->version,
	    .cmdline = in->cmdline,
	    .mods = mods,
	    .n_mods = in->n_mods,
	    .mm = in->m->mm.r,
	    .n_mm = in->m->mm.n,
	    /* Xen's head.S answers an EFI64 tag with "Bootloader
	     * shutdown EFI x64 boot services!": only when asked for */
	    .efi_systab =
		h->ask & 1u << MB2_TAG_EFI64 ? mb_efi_systab(in->m) : 0,
	    .rsdp = in->rsdp,
	    .rsdp_len = in->rsdp_len,
	    .fb = *fb,
	};
	int rc = mb_image_segs(in, el, p, err, errlen);

	if (!rc)
		rc = mb_mods(in, p, &pl, mods, err, errlen);
	ii.load_base = (uint32_t)p->kernel_addr;
	if (!rc)
		rc = mb_info_seg(&ii, p, &pl, err, errlen);
	if (!rc)
		rc = kexec_plan_purgatory(p, &pl, err, errlen);
	return rc;
}

int kexec_mb_plan_build(const struct kexec_mb_plan_in *in, struct kexec_plan *p,
			char *err, size_t errlen)
{
	const struct kexec_blob none = {NULL, 0};
	struct kexec_mb_header h;
	struct kexec_elf el;
	struct kexec_mb_fb fb = mb_fb(in->m);
	int rc;

	kexec_plan_files(p, &in->image, &none, in->cmdline, false);
	rc = kexec_mb_header_parse(in->image.buf, in->image.len, in->version,
				   &h, err, errlen);
	if (!rc)
		rc = kexec_mb_image(in->image.buf, in->image.len, &h, &el, err,
				    errlen);
	if (!rc)
		rc = mb_wants(&h, in, &fb, err, errlen);
	if (rc)
		return rc;
	p->sha256 = in->sha256;
	p->mem_total = in->m->mem_total;
	p->multiboot = h.version;
	p->n_mods = in->n_mods;
	rc = mb_place(in, &h, &el, &fb, p, err, errlen);
	if (rc) {
		if (rc == -ENOMEM || rc == -E2BIG)
			say(err, errlen, rc, "%s",
			    rc == -ENOMEM ? "out of memory while planning the "
					    "load"
					  : "too many segments for one load");
		kexec_plan_free(p);
		return rc;
	}
	kexec_purg_patch(p, p->entry);
	put_le32(p->purg, p->purg_len, PURG_MAGIC,
		 h.version == 1 ? MB1_BOOT_MAGIC : MB2_BOOT_MAGIC);
	return 0;
}
