/* mbinfo.c - the boot information a multiboot kernel finds in %ebx:
 * multiboot2 spec 3.6 (tags), multiboot spec 3.3 (the info structure). */
#include <errno.h>
#include <string.h>

#include "kexec/multiboot.h"
#include "util/le.h"

#define FOUR_G (1ull << 32)
#define MB_MMAP_ENTRY 24 /* v2 entry_size; v1 size field 20 + 4 */

/* A writer that counts every byte but stores only those under @cap. */
struct mbw {
	uint8_t *b;
	size_t cap, pos;
};

/* Sizing only (no buffer): nothing is written, not even a pointer
 * computed from NULL. */
static void w32(struct mbw *w, size_t at, uint32_t v)
{
	if (w->b)
		put_le32(w->b, w->cap, at, v);
}

static void w64(struct mbw *w, size_t at, uint64_t v)
{
	if (w->b)
		put_le64(w->b, w->cap, at, v);
}

static void wbytes(struct mbw *w, size_t at, const void *s, size_t n)
{
	if (w->b && at <= w->cap && n <= w->cap - at)
		memcpy(w->b + at, s, n);
}

/* The Linux boot protocol's screen_info at the start of boot_params
 * (include/uapi/linux/screen_info.h): the fields read here. */
#define SI_MODE 0x06
#define SI_COLS 0x07
#define SI_LINES 0x0e
#define SI_TYPE 0x0f /* orig_video_isVGA */
#define SI_LFB_WIDTH 0x12
#define SI_LFB_HEIGHT 0x14
#define SI_LFB_DEPTH 0x16
#define SI_LFB_BASE 0x18
#define SI_LFB_LINE 0x24
#define SI_COLOURS 0x26 /* red size, pos, green size, pos, blue ... */
#define SI_CAPS 0x36
#define SI_EXT_BASE 0x3a
#define SI_TEXT_VGA 0x01 /* the real-mode setup found a VGA (text) */
#define SI_VGAC 0x22
#define SI_VLFB 0x23
#define SI_EFI 0x70
#define SI_CAP_64BIT_BASE 2

static uint8_t byte_at(const uint8_t *p, size_t len, size_t at)
{
	return at < len ? p[at] : 0;
}

static void screen_lfb(const uint8_t *p, size_t len, struct kexec_mb_fb *fb)
{
	uint32_t base = 0, ext = 0, caps = 0;
	uint16_t w = 0, h = 0, depth = 0, line = 0;
	const uint8_t *c = p + SI_COLOURS;

	get_le16(p, len, SI_LFB_WIDTH, &w);
	get_le16(p, len, SI_LFB_HEIGHT, &h);
	get_le16(p, len, SI_LFB_DEPTH, &depth);
	get_le16(p, len, SI_LFB_LINE, &line);
	get_le32(p, len, SI_LFB_BASE, &base);
	get_le32(p, len, SI_CAPS, &caps);
	get_le32(p, len, SI_EXT_BASE, &ext);
	if (!w || !h || !depth || depth > 32 || !line || !base)
		return;
	*fb = (struct kexec_mb_fb){
	    .addr = (caps & SI_CAP_64BIT_BASE ? (uint64_t)ext << 32 : 0) | base,
	    .pitch = line,
	    .width = w,
	    .height = h,
	    .bpp = (uint8_t)depth,
	    .type = MB_FB_RGB,
	    .red_size = c[0],
	    .red_pos = c[1],
	    .green_size = c[2],
	    .green_pos = c[3],
	    .blue_size = c[4],
	    .blue_pos = c[5]};
}

void kexec_mb_screen(const uint8_t *params, size_t len, struct kexec_mb_fb *fb)
{
	uint8_t type = byte_at(params, len, SI_TYPE);
	uint8_t cols = byte_at(params, len, SI_COLS);
	uint8_t lines = byte_at(params, len, SI_LINES);

	*fb = (struct kexec_mb_fb){0};
	if (len < SI_EXT_BASE + 4)
		return;
	if (type == SI_VLFB || type == SI_EFI) {
		screen_lfb(params, len, fb);
		return;
	}
	if ((type == SI_TEXT_VGA || type == SI_VGAC) && cols && lines)
		/* mode 7 is the monochrome adapter's text, at 0xb0000 */
		*fb = (struct kexec_mb_fb){
		    .addr =
			byte_at(params, len, SI_MODE) == 7 ? 0xb0000 : 0xb8000,
		    .pitch = 2u * cols,
		    .width = cols,
		    .height = lines,
		    .bpp = 16,
		    .type = MB_FB_TEXT};
}

/* multiboot2 spec 3.6.8 and multiboot 3.3: 1 available, 3 ACPI, 4
 * preserve on hibernation, 5 defective; anything else is reserved. */
static uint32_t mb_mmap_type(uint32_t e820)
{
	return e820 == E820_RAM || (e820 >= E820_ACPI && e820 <= E820_UNUSABLE)
		   ? e820
		   : E820_RESERVED;
}

void kexec_mb_meminfo(const struct kexec_range *mm, size_t n, uint32_t *lower,
		      uint32_t *upper)
{
	*lower = *upper = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t end = mm[i].end;

		if (mm[i].type != E820_RAM)
			continue;
		if (mm[i].start == 0)
			*lower =
			    (uint32_t)((end < 0xa0000 ? end : 0xa0000) >> 10);
		if (mm[i].start <= 0x100000 && end > 0x100000) {
			uint64_t k = (end - 0x100000) >> 10;

			*upper = k > UINT32_MAX ? UINT32_MAX : (uint32_t)k;
		}
	}
}

/* One tag's header; returns the offset past it, padded to 8 (3.6.1). */
static size_t tag(struct mbw *w, uint32_t type, size_t size)
{
	size_t at = w->pos;

	w32(w, at, type);
	w32(w, at + 4, (uint32_t)size);
	w->pos = at + ((size + 7) & ~(size_t)7);
	return at;
}

static void tag_string(struct mbw *w, uint32_t type, const char *s)
{
	size_t n = strlen(s) + 1;
	size_t at = tag(w, type, 8 + n);

	wbytes(w, at + 8, s, n);
}

static void mb2_mmap(struct mbw *w, const struct kexec_mb_info_in *in)
{
	size_t at = tag(w, MB2_TAG_MMAP, 16 + MB_MMAP_ENTRY * in->n_mm);

	w32(w, at + 8, MB_MMAP_ENTRY);
	w32(w, at + 12, 0);
	for (size_t i = 0; i < in->n_mm; i++) {
		size_t e = at + 16 + MB_MMAP_ENTRY * i;

		w64(w, e, in->mm[i].start);
		w64(w, e + 8, in->mm[i].end - in->mm[i].start);
		w32(w, e + 16, mb_mmap_type(in->mm[i].type));
		w32(w, e + 20, 0);
	}
}

/* 3.6.16 and 3.6.17: a copy of the RSDP, the ACPI 1.0 part (20 bytes)
 * and, for revision 2 and later, the whole structure. */
static void mb2_acpi(struct mbw *w, const struct kexec_mb_info_in *in)
{
	size_t at;

	if (!in->rsdp || in->rsdp_len < 20)
		return;
	at = tag(w, MB2_TAG_ACPI_OLD, 8 + 20);
	wbytes(w, at + 8, in->rsdp, 20);
	if (in->rsdp_len < 36 || in->rsdp[15] < 2)
		return;
	at = tag(w, MB2_TAG_ACPI_NEW, 8 + in->rsdp_len);
	wbytes(w, at + 8, in->rsdp, in->rsdp_len);
}

/* The framebuffer's fields from @at: address, pitch, width, height,
 * bpp, type, then (GRUB's layout, which kernels follow: the multiboot2
 * text's one reserved byte is two there) the RGB colour fields. */
static void fb_fields(struct mbw *w, size_t at, const struct kexec_mb_fb *fb,
		      size_t colours)
{
	const uint8_t rgb[6] = {fb->red_pos,	fb->red_size, fb->green_pos,
				fb->green_size, fb->blue_pos, fb->blue_size};
	const uint8_t bt[2] = {fb->bpp, fb->type};

	w64(w, at, fb->addr);
	w32(w, at + 8, fb->pitch);
	w32(w, at + 12, fb->width);
	w32(w, at + 16, fb->height);
	wbytes(w, at + 20, bt, 2);
	if (fb->type == MB_FB_RGB)
		wbytes(w, at + colours, rgb, 6);
}

/* 3.6.12: the screen as it is, when known. */
static void mb2_fb(struct mbw *w, const struct kexec_mb_info_in *in)
{
	size_t at;

	if (!in->fb.type)
		return;
	at = tag(w, MB2_TAG_FRAMEBUFFER, in->fb.type == MB_FB_RGB ? 38 : 32);
	fb_fields(w, at + 8, &in->fb, 24);
}

static void mb2_module(struct mbw *w, const struct kexec_mb_mod *m)
{
	size_t n = strlen(m->string) + 1;
	size_t at = tag(w, MB2_TAG_MODULE, 16 + n);

	w32(w, at + 8, m->start);
	w32(w, at + 12, m->end);
	wbytes(w, at + 16, m->string, n);
}

static long mb2_info(const struct kexec_mb_info_in *in, struct mbw *w)
{
	uint32_t lower, upper;
	size_t at;

	w->pos = 8;
	tag_string(w, MB2_TAG_CMDLINE, in->cmdline ? in->cmdline : "");
	tag_string(w, MB2_TAG_LOADER, KEXEC_MB_LOADER_NAME);
	for (size_t i = 0; i < in->n_mods; i++)
		mb2_module(w, &in->mods[i]);
	kexec_mb_meminfo(in->mm, in->n_mm, &lower, &upper);
	at = tag(w, MB2_TAG_MEMINFO, 16);
	w32(w, at + 8, lower);
	w32(w, at + 12, upper);
	mb2_mmap(w, in);
	at = tag(w, MB2_TAG_LOAD_BASE, 12);
	w32(w, at + 8, in->load_base);
	if (in->efi_systab) {
		at = tag(w, MB2_TAG_EFI64, 16);
		w64(w, at + 8, in->efi_systab);
	}
	mb2_acpi(w, in);
	mb2_fb(w, in);
	tag(w, MB2_TAG_END, 8);
	w32(w, 0, (uint32_t)w->pos);
	w32(w, 4, 0);
	return (long)w->pos;
}

/* multiboot 3.3: the fixed structure, then the module list, the memory
 * map (each entry's size field counts the 20 bytes after it), then the
 * strings; every pointer is physical. */
static long mb1_info(const struct kexec_mb_info_in *in, uint64_t addr,
		     struct mbw *w)
{
	size_t mods = MB1_INFO_SIZE, mmap = mods + 16 * in->n_mods;
	size_t str = mmap + MB_MMAP_ENTRY * in->n_mm, at;
	uint32_t lower, upper;
	const char *cmd = in->cmdline ? in->cmdline : "";

	kexec_mb_meminfo(in->mm, in->n_mm, &lower, &upper);
	w32(w, 0,
	    MB1_INFO_MEM | MB1_INFO_CMDLINE | MB1_INFO_MODS | MB1_INFO_MMAP |
		MB1_INFO_LOADER | (in->fb.type ? MB1_INFO_FB : 0));
	if (in->fb.type) /* multiboot 3.3: offsets 88..115 */
		fb_fields(w, 88, &in->fb, 22);
	w32(w, 4, lower);
	w32(w, 8, upper);
	w32(w, 16, (uint32_t)(addr + str));
	wbytes(w, str, cmd, strlen(cmd) + 1);
	at = str + strlen(cmd) + 1;
	w32(w, 64, (uint32_t)(addr + at));
	wbytes(w, at, KEXEC_MB_LOADER_NAME, sizeof(KEXEC_MB_LOADER_NAME));
	at += sizeof(KEXEC_MB_LOADER_NAME);
	w32(w, 20, (uint32_t)in->n_mods);
	w32(w, 24, (uint32_t)(addr + mods));
	for (size_t i = 0; i < in->n_mods; i++) {
		const struct kexec_mb_mod *m = &in->mods[i];

		w32(w, mods + 16 * i, m->start);
		w32(w, mods + 16 * i + 4, m->end);
		w32(w, mods + 16 * i + 8, (uint32_t)(addr + at));
		wbytes(w, at, m->string, strlen(m->string) + 1);
		at += strlen(m->string) + 1;
	}
	w32(w, 44, (uint32_t)(MB_MMAP_ENTRY * in->n_mm));
	w32(w, 48, (uint32_t)(addr + mmap));
	for (size_t i = 0; i < in->n_mm; i++) {
		size_t e = mmap + MB_MMAP_ENTRY * i;

		w32(w, e, MB_MMAP_ENTRY - 4);
		w64(w, e + 4, in->mm[i].start);
		w64(w, e + 12, in->mm[i].end - in->mm[i].start);
		w32(w, e + 20, mb_mmap_type(in->mm[i].type));
	}
	return (long)((at + 7) & ~(size_t)7);
}

long kexec_mb_info(const struct kexec_mb_info_in *in, uint64_t addr,
		   uint8_t *out, size_t cap)
{
	struct mbw w = {out, out ? cap : 0, 0};
	long n;

	if (out && cap)
		memset(out, 0, cap);
	n = in->version == 1 ? mb1_info(in, addr, &w) : mb2_info(in, &w);
	if (addr >= FOUR_G || (uint64_t)n > FOUR_G - addr)
		return -E2BIG;
	return n;
}
