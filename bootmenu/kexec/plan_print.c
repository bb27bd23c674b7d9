/* plan_print.c - the plan as --dry-run shows it. */
#include <inttypes.h>
#include <string.h>

#include "kexec/plan.h"

static void print_head(const struct kexec_plan *p, const char *syscall,
		       FILE *out)
{
	const struct kexec_bzimage *bz = &p->bz;

	if (p->elf)
		fprintf(out,
			"image:    ELF vmlinux, entered at 0x%" PRIx64
			" (not relocated)\n",
			p->kernel_entry);
	else
		fprintf(out,
			"image:    bzImage, boot protocol %u.%02u, %s%s, "
			"init_size 0x%" PRIx32 ", alignment 0x%" PRIx32 "\n",
			bz->version >> 8, bz->version & 0xff,
			bz->relocatable ? "relocatable" : "fixed address",
			bz->xloadflags & XLF_CAN_BE_LOADED_ABOVE_4G
			    ? ", above 4G ok"
			    : "",
			bz->init_size, bz->kernel_alignment);
	fprintf(
	    out,
	    "cmdline:  \"%s\" (%zu of %" PRIu32 " bytes) at 0x%" PRIx64 "\n",
	    p->cmdline, strlen(p->cmdline), bz->cmdline_size, p->cmdline_addr);
	if (p->initrd_len)
		fprintf(out, "initrd:   %zu bytes at 0x%" PRIx64 "\n",
			p->initrd_len, p->initrd_addr);
	else
		fprintf(out, "initrd:   none\n");
	fprintf(out, "e820:     %zu entries%s\n", p->e820_entries,
		p->e820_entries > KEXEC_E820_ZEROPAGE
		    ? " (the rest in SETUP_E820_EXT)"
		    : "");
	fprintf(out, "efi:      %s\n",
		p->efi ? "runtime map + SETUP_EFI "
			 "handed over"
		       : "not handed over");
	fprintf(out, "syscall:  %s%s\n", syscall,
		p->crash ? " (panic kernel)" : "");
}

/* A multiboot kernel: what kexec/multiboot.h planned. */
static void print_mb(const struct kexec_plan *p, const char *syscall, FILE *out)
{
	fprintf(out,
		"image:    multiboot%s kernel at 0x%" PRIx64 " (not "
		"relocated), %zu module%s\n",
		p->multiboot == 2 ? "2" : "", p->kernel_addr, p->n_mods,
		p->n_mods == 1 ? "" : "s");
	fprintf(out, "cmdline:  \"%s\"\n", p->cmdline);
	fprintf(out, "info:     %zu bytes at 0x%" PRIx64 "\n", p->params_len,
		p->params_addr);
	fprintf(out, "syscall:  %s\n", syscall);
	fprintf(out,
		"entry:    0x%" PRIx64 " (purgatory) -> 0x%" PRIx64 " in "
		"32-bit protected mode, paging off, magic 0x%08x in %%eax, "
		"info in %%ebx\n",
		p->entry, p->kernel_entry,
		p->multiboot == 2 ? 0x36d76289u : 0x2BADB002u);
}

void kexec_plan_print(const struct kexec_plan *p, const char *syscall,
		      FILE *out)
{
	if (p->multiboot)
		print_mb(p, syscall, out);
	else
		print_head(p, syscall, out);
	if (!p->multiboot)
		fprintf(out,
			"entry:    0x%" PRIx64
			" (purgatory) -> kernel 0x%" PRIx64
			", boot_params 0x%" PRIx64 " in %%rsi\n",
			p->entry, p->kernel_entry, p->params_addr);
	if (p->sha256) {
		fprintf(out, "sha256:   ");
		for (int i = 0; i < 32; i++)
			fprintf(out, "%02x", p->digest[i]);
		fprintf(out, " (checked by the purgatory)\n");
	}
	if (p->lean)
		fprintf(out,
			"room:     0x%" PRIx64 "-0x%" PRIx64 " kept free for "
			"the kernel (init_size); the purgatory maps 0-4 GiB "
			"itself\n",
			p->kernel_addr, p->kernel_addr + p->kernel_room - 1);
	for (size_t i = 0; i < p->n_seg; i++) {
		const struct kexec_seg *s = &p->seg[i];

		fprintf(out,
			"segment %zu: 0x%012" PRIx64 "-0x%012" PRIx64
			" %10" PRIu64 " bytes  %s (%zu from the buffer)\n",
			i, s->mem, s->mem + s->memsz - 1, s->memsz, s->what,
			s->bufsz);
	}
}
