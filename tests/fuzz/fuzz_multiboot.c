/* fuzz_multiboot.c - any bytes as a multiboot2 or multiboot kernel: the
 * header and tag parser, the image's placement, then the whole plan on a
 * fixed 512 MiB machine with two modules, whose invariants must hold
 * (every refusal says why; segments page-aligned, disjoint, in RAM; the
 * modules and the boot information below 4 GiB; the info's size what
 * its first field says). The same bytes stand for the running kernel's
 * boot_params too, whose screen_info becomes the framebuffer tag. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kexec/multiboot.h"
#include "kexec/plan.h"
#include "util/le.h"

static struct kexec_range ram[] = {
    {0, 0x9fc00, E820_RAM},
    {0xf0000, 0x100000, E820_RESERVED},
    {0x100000, 0x1ffe0000, E820_RAM},
    {0xfffc0000, 0x100000000ull, E820_RESERVED},
};

static bool in_ram(uint64_t a, uint64_t n)
{
	for (size_t i = 0; i < sizeof(ram) / sizeof(ram[0]); i++)
		if (ram[i].type == E820_RAM && a >= ram[i].start &&
		    n <= ram[i].end - a)
			return true;
	return false;
}

static void check_plan(const struct kexec_plan *p)
{
	uint32_t total = 0;

	for (size_t i = 0; i < p->n_seg; i++) {
		const struct kexec_seg *s = &p->seg[i];

		if (s->mem % KEXEC_PAGE || s->memsz % KEXEC_PAGE ||
		    s->bufsz > s->memsz || !in_ram(s->mem, s->memsz))
			abort();
		if (i && p->seg[i - 1].mem + p->seg[i - 1].memsz > s->mem)
			abort();
		if (s->mem + s->memsz > (1ull << 32))
			abort();
	}
	if (p->multiboot == 2 &&
	    (get_le32(p->params, p->params_len, 0, &total) ||
	     total != p->params_len))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct kexec_machine m;
	static char mod[5000];
	struct kexec_mb_module mods[2] = {{{mod, sizeof(mod)}, "vmlinuz x"},
					  {{mod, 10}, ""}};
	struct kexec_plan p;
	char err[256];
	struct kexec_mb_plan_in in = {
	    .image = {data, size},
	    .version = (int)(size % 3),
	    .cmdline = "placeholder console=com1",
	    .mods = mods,
	    .n_mods = 2,
	    .m = &m,
	    .sha256 = size & 1,
	};

	m.mm = (struct kexec_memmap){ram, sizeof(ram) / sizeof(ram[0])};
	memset(m.params, 0, sizeof(m.params));
	memcpy(m.params, data,
	       size < sizeof(m.params) ? size : sizeof(m.params));
	m.have_params = size & 2;
	err[0] = '\0';
	if (kexec_mb_plan_build(&in, &p, err, sizeof(err)) != 0) {
		if (!err[0])
			abort(); /* every refusal says why */
		return 0;
	}
	check_plan(&p);
	kexec_plan_free(&p);
	return 0;
}
