/* fuzz_kexec_plan.c - any memory map, any header values: the placer must
 * keep every segment page-aligned, disjoint, inside RAM (or the crash
 * reservation), or refuse with a sentence.
 *
 * Input: 32 bytes of header values (init_size, pref_address, alignment,
 * xloadflags, initrd size, flags), then 17-byte map records (u64 start,
 * u64 length, u8 type: 1 RAM, else reserved; bit 7 = crash range). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kexec/plan.h"
#include "util/le.h"

#define LEN (5 * 512 + 4096)
#define MAXR 64

static bool inside(const struct kexec_memmap *mm, uint64_t a, uint64_t n)
{
	for (size_t i = 0; i < mm->n; i++)
		if (mm->r[i].type == E820_RAM && a >= mm->r[i].start &&
		    a + n <= mm->r[i].end && a + n >= a)
			return true;
	return false;
}

static size_t map_from(const uint8_t *d, size_t n, struct kexec_range *r,
		       struct kexec_range *c, size_t *nc)
{
	size_t k = 0;
	uint64_t at = 0;

	*nc = 0;
	for (size_t off = 0; off + 17 <= n && k < MAXR; off += 17) {
		uint64_t start, len;

		get_le64(d, n, off, &start);
		get_le64(d, n, off + 8, &len);
		start = at + (start & 0xffffffffffull); /* sorted, disjoint */
		len = (len & 0xfffffffffull) + 1;
		if (start < at || start + len < start)
			break;
		r[k] = (struct kexec_range){
		    start, start + len,
		    (d[off + 16] & 0x7f) == 1 ? E820_RAM : E820_RESERVED};
		if ((d[off + 16] & 0x80) && r[k].type == E820_RAM)
			c[(*nc)++] = r[k];
		at = r[k++].end;
	}
	return k;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t k[LEN];
	static char initrd[16];
	struct kexec_range r[MAXR], c[MAXR];
	struct kexec_machine m;
	struct kexec_plan p;
	uint32_t init, align, ilen;
	uint64_t pref;
	uint16_t xlf;
	size_t nc;
	char err[256];

	if (size < 32)
		return 0;
	memset(&m, 0, sizeof(m));
	memset(k, 0, sizeof(k));
	k[BZ_SETUP_SECTS] = 4;
	put_le16(k, LEN, BZ_BOOT_FLAG, 0xaa55);
	k[BZ_JUMP + 1] = 0x66;
	memcpy(k + BZ_HEADER, "HdrS", 4);
	put_le16(k, LEN, BZ_VERSION, 0x020f);
	get_le32(data, size, 0, &init);
	get_le64(data, size, 4, &pref);
	get_le32(data, size, 12, &align);
	get_le16(data, size, 16, &xlf);
	get_le32(data, size, 18, &ilen);
	put_le32(k, LEN, BZ_INIT_SIZE, init & 0x0fffffff);
	put_le64(k, LEN, BZ_PREF_ADDRESS, pref & 0xffffffffffull);
	put_le32(k, LEN, BZ_KERNEL_ALIGNMENT, align);
	put_le16(k, LEN, BZ_XLOADFLAGS, xlf | XLF_KERNEL_64);
	put_le32(k, LEN, BZ_INITRD_ADDR_MAX, data[22] & 1 ? 0x7fffffff : 0);
	put_le32(k, LEN, BZ_CMDLINE_SIZE, 2047);
	k[BZ_RELOCATABLE] = data[23] & 1;
	m.mm.n = map_from(data + 32, size - 32, r, c, &nc);
	m.mm.r = r;
	m.crash = (struct kexec_memmap){c, nc};
	struct kexec_plan_in in = {{k, LEN},	 {initrd, ilen & 0x3fffffff},
				   "fuzz",	 &m,
				   data[24] & 1, false};
	if (kexec_plan_build(&in, &p, err, sizeof(err)) != 0) {
		if (!err[0])
			abort(); /* every refusal says why */
		return 0;
	}
	for (size_t i = 0; i < p.n_seg; i++) {
		const struct kexec_seg *s = &p.seg[i];

		if (s->mem % KEXEC_PAGE || s->memsz % KEXEC_PAGE ||
		    !inside(in.crash ? &m.crash : &m.mm, s->mem, s->memsz))
			abort();
		if (i && p.seg[i - 1].mem + p.seg[i - 1].memsz > s->mem)
			abort();
	}
	kexec_plan_free(&p);
	return 0;
}
