/* fuzz_bzimage.c - any bytes as a kernel image (bzImage or ELF vmlinux):
 * the header parsers, then the whole plan on a fixed 512 MiB machine,
 * whose invariants must hold (segments in RAM, aligned, disjoint, and
 * none in a lean kernel's init_size room). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kexec/bzimage.h"
#include "kexec/plan.h"

static struct kexec_range ram[] = {
    {0, 0x9fc00, E820_RAM},
    {0xf0000, 0x100000, E820_RESERVED},
    {0x100000, 0x1ffe0000, E820_RAM},
    {0xfffc0000, 0x100000000ull, E820_RESERVED},
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct kexec_machine m;
	static char initrd[64];
	struct kexec_bzimage bz;
	struct kexec_plan p;
	char err[256];

	if (kexec_bzimage_parse(data, size, &bz, err, sizeof(err)) == 0 &&
	    bz.pm_off + bz.pm_size != size)
		abort();
	m.mm = (struct kexec_memmap){ram, sizeof(ram) / sizeof(ram[0])};
	struct kexec_plan_in in = {{data, size},    {initrd, sizeof(initrd)},
				   "console=ttyS0", &m,
				   false,	    size & 1};
	err[0] = '\0';
	if (kexec_plan_build(&in, &p, err, sizeof(err)) != 0) {
		if (!err[0])
			abort(); /* every refusal says why */
		return 0;
	}
	for (size_t i = 0; i < p.n_seg; i++) {
		const struct kexec_seg *s = &p.seg[i];

		if (s->mem % KEXEC_PAGE || s->memsz % KEXEC_PAGE ||
		    s->bufsz > s->memsz || s->mem < 0x100000 ||
		    s->mem + s->memsz > 0x1ffe0000)
			abort();
		if (i && p.seg[i - 1].mem + p.seg[i - 1].memsz > s->mem)
			abort();
		/* a lean kernel segment: its init_size room holds nothing else
		 */
		if (p.lean && s->buf != p.kernel_seg_buf &&
		    s->mem < p.kernel_addr + p.kernel_room &&
		    p.kernel_addr < s->mem + s->memsz)
			abort();
	}
	kexec_plan_free(&p);
	return 0;
}
