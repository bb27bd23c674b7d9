/* test_kexec.c - the kexec room: bzImage header, memory maps, the plan,
 * boot_params, the purgatory (its SHA-256 run for real), the commit's
 * syscall choice through the ops seam, and kexload's refusals. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kexec_double.h"
#include "kexec/blob.h"
#include "kexec/bzimage.h"
#include "kexec/elf.h"
#include "kexec/load.h"
#include "kexec/machine.h"
#include "kexec/memmap.h"
#include "kexec/plan.h"
#include "kexec/purgatory.h"
#include "kexec/sys.h"
#include "kexec/unpack.h"
#include "test.h"
#include "util/le.h"
#include "util/sha256.h"

#define FIX "tests/fixtures/memmap/"
#define TINY_KERNEL "build/kernel/bzImage"
#define DEB_KERNEL "build/debkernel/vmlinuz"
#define VMLINUX "build/kernel/obj/vmlinux"
#define MIB (1024ull * 1024)
#define GIB (1024 * MIB)

static char *kernel_or_skip(const char *path, size_t *len, const char *test)
{
	char *k = test_slurp(path, len);

	if (!k)
		test_skip("%s absent, %s not tried (run make)", path, test);
	return k;
}

/* A synthetic 64-bit bzImage: 5 setup sectors and 64 KiB of "kernel". */
#define SYN_LEN (5 * 512 + 65536)
static uint8_t syn[SYN_LEN];

static void syn_make(void)
{
	memset(syn, 0, sizeof(syn));
	syn[BZ_SETUP_SECTS] = 4;
	put_le16(syn, SYN_LEN, BZ_BOOT_FLAG, 0xaa55);
	syn[BZ_JUMP] = 0xeb;
	syn[BZ_JUMP + 1] = 0x66; /* header ends at 0x268 */
	memcpy(syn + BZ_HEADER, "HdrS", 4);
	put_le16(syn, SYN_LEN, BZ_VERSION, 0x020f);
	syn[BZ_LOADFLAGS] = LOADED_HIGH;
	put_le32(syn, SYN_LEN, BZ_INITRD_ADDR_MAX, 0x7fffffff);
	put_le32(syn, SYN_LEN, BZ_KERNEL_ALIGNMENT, 0x200000);
	syn[BZ_RELOCATABLE] = 1;
	put_le16(syn, SYN_LEN, BZ_XLOADFLAGS,
		 XLF_KERNEL_64 | XLF_CAN_BE_LOADED_ABOVE_4G | XLF_EFI_KEXEC);
	put_le32(syn, SYN_LEN, BZ_CMDLINE_SIZE, 255);
	put_le64(syn, SYN_LEN, BZ_PREF_ADDRESS, 0x1000000);
	put_le32(syn, SYN_LEN, BZ_INIT_SIZE, 0x800000);
}

static int machine(struct kexec_machine *m, const char *memmap,
		   const char *params, const char *efi, const char *iomem)
{
	struct kexec_machine_paths p = {memmap,
					iomem,
					params ? params : FIX "absent",
					efi ? efi : FIX "absent",
					NULL,
					FIX "absent"};
	char err[256] = "";
	int rc = kexec_machine_read(m, &p, err, sizeof(err));

	if (rc)
		printf("  machine %s: %s\n", memmap, err);
	return rc;
}

static uint32_t bp32(const struct kexec_plan *p, size_t off)
{
	uint32_t v = 0;

	CHECK_INT(get_le32(p->params, p->params_len, off, &v), 0);
	return v;
}

static uint64_t bp64(const struct kexec_plan *p, size_t off)
{
	uint64_t v = 0;

	CHECK_INT(get_le64(p->params, p->params_len, off, &v), 0);
	return v;
}

/* Every segment inside one RAM range of @ranges, aligned, disjoint. */
static void check_segments(const struct kexec_plan *p,
			   const struct kexec_memmap *ranges)
{
	CHECK(p->n_seg >= 3 && p->n_seg <= KEXEC_SEGMENT_MAX);
	for (size_t i = 0; i < p->n_seg; i++) {
		const struct kexec_seg *s = &p->seg[i];
		bool in_ram = false;

		CHECK_INT(s->mem % KEXEC_PAGE, 0);
		CHECK_INT(s->memsz % KEXEC_PAGE, 0);
		CHECK(s->bufsz <= s->memsz);
		CHECK(s->mem >= MIB);
		for (size_t k = 0; k < ranges->n; k++)
			if (ranges->r[k].type == E820_RAM &&
			    s->mem >= ranges->r[k].start &&
			    s->mem + s->memsz <= ranges->r[k].end)
				in_ram = true;
		if (!in_ram)
			printf("  segment %zu (%s) at 0x%llx not in RAM\n", i,
			       s->what, (unsigned long long)s->mem);
		CHECK(in_ram);
		if (i > 0)
			CHECK(p->seg[i - 1].mem + p->seg[i - 1].memsz <=
			      s->mem);
	}
}

static const struct kexec_seg *seg_named(const struct kexec_plan *p,
					 const char *what)
{
	for (size_t i = 0; i < p->n_seg; i++)
		if (strcmp(p->seg[i].what, what) == 0)
			return &p->seg[i];
	return NULL;
}

TEST(bzimage_real_kernels)
{
	const char *paths[] = {TINY_KERNEL, DEB_KERNEL};

	for (int i = 0; i < 2; i++) {
		struct kexec_bzimage bz;
		char err[256] = "";
		size_t len;
		char *k =
		    kernel_or_skip(paths[i], &len, "bzimage_real_kernels");

		if (!k)
			continue;
		CHECK_INT(kexec_bzimage_parse(k, len, &bz, err, sizeof(err)),
			  0);
		CHECK_STR(err, "");
		CHECK(bz.version >= 0x020c);
		CHECK(bz.xloadflags & XLF_KERNEL_64);
		CHECK(bz.xloadflags & XLF_EFI_KEXEC);
		CHECK_INT(bz.pm_off,
			  ((size_t)(uint8_t)k[BZ_SETUP_SECTS] + 1) * 512);
		CHECK_INT(bz.pm_off + bz.pm_size, len);
		CHECK_INT(bz.cmdline_size, 2047);
		CHECK_INT(bz.initrd_addr_max, 0x7fffffff);
		CHECK_INT(bz.kernel_alignment, 0x200000);
		CHECK_INT(bz.pref_address, 0x1000000);
		CHECK(bz.init_size > bz.pm_size);
		CHECK(bz.hdr_end > BZ_INIT_SIZE + 4 &&
		      bz.hdr_end <= BZ_HDR_LIMIT);
		free(k);
	}
}

static void refuse(const void *buf, size_t len, const char *want)
{
	struct kexec_bzimage bz;
	char err[256] = "";

	CHECK_INT(kexec_bzimage_parse(buf, len, &bz, err, sizeof(err)),
		  -ENOEXEC);
	if (!strstr(err, want))
		printf("  err \"%s\" lacks \"%s\"\n", err, want);
	CHECK(strstr(err, want) != NULL);
}

TEST(bzimage_refusals)
{
	static uint8_t junk[4096];

	memset(junk, 0x5a, sizeof(junk));
	refuse(junk, sizeof(junk), "not a bzImage");
	refuse(junk, 10, "not a bzImage");
	syn_make();
	refuse(syn, 1024,
	       "the bzImage is truncated (1024 bytes, its setup "
	       "code alone is 2560)");
	put_le16(syn, SYN_LEN, BZ_VERSION, 0x0204);
	refuse(syn, SYN_LEN, "boot protocol 2.04 is too old: 2.12 or later");
	syn_make();
	put_le16(syn, SYN_LEN, BZ_XLOADFLAGS, 0);
	refuse(syn, SYN_LEN, "a 32-bit-only kernel");
	syn_make();
}

TEST(memmap_readers)
{
	struct kexec_memmap m;
	char err[256] = "";

	CHECK_INT(kexec_memmap_read(FIX "bios-small", &m, err, sizeof(err)), 0);
	CHECK_INT(m.n, 7);
	CHECK_INT(m.r[3].start, 0x100000);
	CHECK_INT(m.r[3].end, 0x1ffe0000);
	CHECK_INT(m.r[3].type, E820_RAM);
	CHECK_INT(m.r[6].end, 0x100000000ull);
	CHECK_INT(m.r[6].type, E820_RESERVED);
	kexec_memmap_free(&m);

	CHECK_INT(kexec_memmap_read(FIX "holes.iomem", &m, err, sizeof(err)),
		  0);
	CHECK_INT(m.n, 14); /* nested lines are not ranges of their own */
	CHECK_INT(m.r[6].start, 0x3000000);
	CHECK_INT(m.r[6].type, E820_UNUSABLE);
	CHECK_INT(m.r[10].type, E820_ACPI);
	CHECK_INT(m.r[11].type, E820_NVS);
	CHECK_INT(m.r[13].type, E820_RESERVED); /* "Local APIC" */
	kexec_memmap_free(&m);

	CHECK_INT(kexec_memmap_read_crash(FIX "holes.iomem", &m), 0);
	CHECK_INT(m.n, 1);
	CHECK_INT(m.r[0].start, 0x10000000);
	CHECK_INT(m.r[0].end, 0x18000000);
	kexec_memmap_free(&m);

	CHECK_INT(kexec_memmap_read(FIX "efi-server-64g", &m, err, sizeof(err)),
		  0);
	CHECK_INT(m.n, 148);
	CHECK_INT(m.r[146].start, 0x100000000ull);
	CHECK_INT(m.r[146].end, 0x1080000000ull);
	CHECK_INT(m.r[147].type, E820_PMEM);
	for (size_t i = 1; i < m.n; i++)
		CHECK(m.r[i - 1].end <= m.r[i].start);
	kexec_memmap_free(&m);

	CHECK_INT(kexec_memmap_read(FIX "nonroot.iomem", &m, err, sizeof(err)),
		  -EPERM);
	CHECK_STR(err, "cannot read the memory map from " FIX "nonroot.iomem: "
		       "its addresses are hidden (not root)");
	CHECK_INT(kexec_memmap_read(FIX "absent", &m, err, sizeof(err)),
		  -ENOENT);
	CHECK_INT(kexec_e820_type("ACPI Non-volatile Storage"), E820_NVS);
	CHECK_INT(kexec_e820_type("PCI Bus 0000:00"), E820_RESERVED);
}

static unsigned long long progress_last;

static void progress(void *data, unsigned long long done,
		     unsigned long long total)
{
	progress_last = done;
	CHECK(done <= total);
}

/* kexec_blob_append(): after the initrds, padded to 4 bytes, keeping
 * the bytes already read; into an empty blob, the bytes alone. */
TEST(blob_append_after_initrds)
{
	struct kexec_blob b = {0}, e = {0};
	char *big = malloc(3 * 4096 + 5);

	CHECK(big != NULL);
	for (size_t i = 0; i < 3 * 4096 + 5; i++)
		big[i] = (char)(i * 13);
	CHECK_INT(kexec_blob_append(&e, "ab", 2), 0);
	CHECK_INT(e.len, 2);
	CHECK(!memcmp(e.buf, "ab", 2));
	/* an odd length: three zeros, then the archive */
	CHECK_INT(kexec_blob_append(&e, big, 3 * 4096 + 5), 0);
	CHECK_INT(e.len, 4 + 3 * 4096 + 5);
	CHECK(!memcmp(e.buf, "ab\0\0", 4));
	CHECK(!memcmp((const char *)e.buf + 4, big, 3 * 4096 + 5));
	CHECK_INT(kexec_blob_append(&e, "z", 1), 0);
	CHECK_INT(e.len, 4 + 3 * 4096 + 8 + 1);
	CHECK(!memcmp((const char *)e.buf + e.len - 4, "\0\0\0z", 4));
	kexec_blob_free(&e);
	kexec_blob_free(&b);
	free(big);
}

TEST(blob_concatenates_padded)
{
	struct kexec_progress pr = {progress, NULL, 0, 0};
	struct kexec_blob b;
	size_t l1, l2;
	char *a = test_slurp(FIX "holes.iomem", &l1),
	     *c = test_slurp(FIX "tiny.iomem", &l2);
	int fds[2] = {open(FIX "holes.iomem", O_RDONLY),
		      open(FIX "tiny.iomem", O_RDONLY)};
	size_t p1 = (l1 + 3) & ~(size_t)3;

	CHECK_INT(kexec_blob_read(fds, 2, NULL, &b), 0);
	CHECK_INT(b.len, p1 + ((l2 + 3) & ~(size_t)3));
	CHECK(memcmp(b.buf, a, l1) == 0);
	CHECK(memcmp((const char *)b.buf + p1, c, l2) == 0);
	for (size_t i = l1; i < p1; i++)
		CHECK_INT(((const char *)b.buf)[i], 0);
	kexec_blob_free(&b);
	CHECK(b.buf == NULL);
	lseek(fds[0], 0, SEEK_SET);
	CHECK_INT(kexec_blob_read(fds, 1, NULL, &b), 0);
	CHECK_INT(b.len, l1); /* one file: no padding */
	CHECK(memcmp(b.buf, a, l1) == 0);
	kexec_blob_free(&b);
	/* one file again, from its start whatever its offset, with progress */
	pr.total = l1;
	CHECK_INT(kexec_blob_read(fds, 1, &pr, &b), 0);
	CHECK_INT(pr.done, l1);
	CHECK_INT(progress_last, l1);
	CHECK(memcmp(b.buf, a, l1) == 0);
	kexec_blob_free(&b);
	/* several files read with progress, padding included */
	pr.done = 0;
	pr.total = p1 + ((l2 + 3) & ~(size_t)3);
	lseek(fds[1], 0, SEEK_SET);
	CHECK_INT(kexec_blob_read(fds, 2, &pr, &b), 0);
	CHECK_INT(progress_last, b.len);
	kexec_blob_free(&b);
	close(fds[0]);
	close(fds[1]);
	free(a);
	free(c);
}

static void check_e820(const struct kexec_plan *p, size_t i,
		       const struct kexec_range *want)
{
	size_t off = BP_E820_TABLE + i * E820_ENTRY_SIZE;

	CHECK_INT(bp64(p, off), want->start);
	CHECK_INT(bp64(p, off + 8), want->end - want->start);
	CHECK_INT(bp32(p, off + 16), want->type);
}

TEST(plan_bios_tiny_kernel)
{
	struct kexec_machine m;
	struct kexec_plan p;
	char err[256] = "", initrd[5000];
	size_t len;
	char *k = kernel_or_skip(TINY_KERNEL, &len, "plan_bios_tiny_kernel");
	const char *cmd = "console=ttyS0 root=/dev/vda marker=xyz";
	const struct kexec_seg *ks, *is, *ps, *gs;
	uint64_t v;

	if (!k || machine(&m, FIX "bios-small", NULL, NULL, NULL)) {
		free(k);
		return;
	}
	memset(initrd, 'i', sizeof(initrd));
	struct kexec_plan_in in = {
	    {k, len}, {initrd, sizeof(initrd)}, cmd, &m, false, false};
	CHECK_INT(kexec_plan_build(&in, &p, err, sizeof(err)), 0);
	CHECK_STR(err, "");
	check_segments(&p, &m.mm);
	CHECK_INT(p.n_seg, 4);
	ks = seg_named(&p, "kernel");
	is = seg_named(&p, "initrd");
	ps = seg_named(&p, "boot_params+cmdline");
	gs = seg_named(&p, "purgatory");
	CHECK(ks && is && ps && gs);
	if (!ks || !is || !ps || !gs)
		goto out;
	CHECK_INT(ks->mem, 0x1000000); /* pref_address, 2 MiB aligned */
	/* lean: the segment is the file's pages, the init_size room is kept
	 * free of every other segment */
	CHECK(p.lean);
	CHECK_INT(ks->memsz,
		  (p.bz.pm_size + KEXEC_PAGE - 1) & ~(KEXEC_PAGE - 1ull));
	CHECK(p.kernel_room >= p.bz.init_size);
	for (size_t i = 0; i < p.n_seg; i++)
		if (&p.seg[i] != ks)
			CHECK(p.seg[i].mem >= ks->mem + p.kernel_room ||
			      p.seg[i].mem + p.seg[i].memsz <= ks->mem);
	CHECK_INT(ks->bufsz, p.bz.pm_size);
	CHECK(ks->buf == k + p.bz.pm_off);
	CHECK_INT(p.kernel_entry, ks->mem + 0x200);
	CHECK_INT(p.entry, gs->mem);
	CHECK_INT(p.params_addr, ps->mem);
	/* the initrd sits as high as initrd_addr_max and RAM allow */
	CHECK_INT(is->mem + is->memsz, 0x1ffe0000);
	CHECK_INT(p.initrd_size, sizeof(initrd));
	/* boot_params */
	CHECK_INT(p.params[BZ_TYPE_OF_LOADER], 0xff);
	CHECK_INT(bp32(&p, BZ_CMD_LINE_PTR), p.cmdline_addr);
	CHECK_INT(bp32(&p, BP_EXT_CMD_LINE_PTR), 0);
	CHECK_STR((const char *)p.params + (p.cmdline_addr - p.params_addr),
		  cmd);
	CHECK_INT(bp32(&p, BZ_RAMDISK_IMAGE), is->mem);
	CHECK_INT(bp32(&p, BZ_RAMDISK_SIZE), sizeof(initrd));
	CHECK_INT(bp32(&p, BP_EXT_RAMDISK_IMAGE), 0);
	CHECK_INT(bp32(&p, BZ_CODE32_START), ks->mem);
	CHECK_INT(p.params[BP_E820_ENTRIES], 7);
	for (size_t i = 0; i < 7; i++)
		check_e820(&p, i, &m.mm.r[i]);
	CHECK_INT(bp64(&p, BZ_SETUP_DATA), 0);
	CHECK_INT(p.params[BP_SENTINEL], 0);
	CHECK_INT(bp32(&p, BP_EFI_INFO), 0);
	CHECK_INT(bp32(&p, BP_ALT_MEM_K), (0x1ffe0000 - MIB) >> 10);
	CHECK(memcmp(p.params + BZ_HEADER, k + BZ_HEADER, 8) == 0);
	CHECK(memcmp(p.params + BZ_INIT_SIZE, k + BZ_INIT_SIZE, 4) == 0);
	CHECK(!p.efi);
	CHECK_INT(p.e820_entries, 7);
	/* the purgatory's fields */
	CHECK_INT(get_le64(p.purg, p.purg_len, PURG_RSI, &v), 0);
	CHECK_INT(v, p.params_addr);
	get_le64(p.purg, p.purg_len, PURG_RIP, &v);
	CHECK_INT(v, p.kernel_entry);
	get_le64(p.purg, p.purg_len, PURG_GDTR + 2, &v);
	CHECK_INT(v, gs->mem + PURG_GDT);
	get_le64(p.purg, p.purg_len, PURG_STACK, &v);
	CHECK(v > gs->mem + p.purg_len && v < gs->mem + gs->memsz);
	CHECK_INT(v % 16, 0);
	CHECK_INT(p.purg[PURG_SHA_ON], 0);
	CHECK_INT(p.purg[PURG_NREGIONS], 3);
	/* its page tables: PML5 -> PML4 -> PDPT -> 4 PDs, 0-4 GiB in 2 MiB */
	{
		size_t t = p.purg_len - PURG_PT_PAGES * KEXEC_PAGE;
		uint64_t base = gs->mem + t;

		get_le64(p.purg, p.purg_len, PURG_PML4, &v);
		CHECK_INT(v, base + KEXEC_PAGE);
		get_le64(p.purg, p.purg_len, t, &v);
		CHECK_INT(v, (base + KEXEC_PAGE) | 3);
		get_le64(p.purg, p.purg_len, t + KEXEC_PAGE, &v);
		CHECK_INT(v, (base + 2 * KEXEC_PAGE) | 3);
		get_le64(p.purg, p.purg_len, t + 2 * KEXEC_PAGE + 24, &v);
		CHECK_INT(v, (base + 6 * KEXEC_PAGE) | 3);
		get_le64(p.purg, p.purg_len, t + 3 * KEXEC_PAGE, &v);
		CHECK_INT(v, 0x83);
		get_le64(p.purg, p.purg_len, t + 7 * KEXEC_PAGE - 8, &v);
		CHECK_INT(v,
			  0xffe00000ull | 0x83); /* the last 2 MiB below 4G */
		CHECK_INT(gs->bufsz, p.purg_len);
		CHECK(gs->mem + gs->memsz <= 4 * GIB);
	}
out:
	kexec_plan_free(&p);
	kexec_machine_free(&m);
	free(k);
}

/* Walk the setup_data chain; returns the offset of @type's header. */
static size_t setup_data_find(const struct kexec_plan *p, uint32_t type)
{
	uint64_t at = bp64(p, BZ_SETUP_DATA);

	for (int hops = 0; at && hops < 8; hops++) {
		size_t off = (size_t)(at - p->params_addr);

		CHECK(at >= p->params_addr && off < p->params_len);
		if (off >= p->params_len)
			return 0;
		if (bp32(p, off + 8) == type)
			return off;
		at = bp64(p, off);
	}
	return 0;
}

TEST(plan_efi_server_debian)
{
	struct kexec_machine m;
	struct kexec_plan p;
	char err[256] = "", initrd[100];
	size_t len, off;
	char *k = kernel_or_skip(DEB_KERNEL, &len, "plan_efi_server_debian");

	if (!k ||
	    machine(&m, FIX "efi-server-64g", FIX "efi-server-64g.boot_params",
		    FIX "efi-server-64g.efi", NULL)) {
		free(k);
		return;
	}
	CHECK(m.efi && m.have_params);
	CHECK_INT(m.n_efi_map, 3);
	memset(initrd, 'r', sizeof(initrd));
	struct kexec_plan_in in = {
	    {k, len}, {initrd, sizeof(initrd)}, "quiet", &m, false, false};
	CHECK_INT(kexec_plan_build(&in, &p, err, sizeof(err)), 0);
	CHECK_STR(err, "");
	check_segments(&p, &m.mm);
	CHECK_INT(p.e820_entries, 148);
	CHECK_INT(p.params[BP_E820_ENTRIES], 128);
	check_e820(&p, 127, &m.mm.r[127]);
	off = setup_data_find(&p, SETUP_E820_EXT);
	CHECK(off != 0);
	if (off) {
		CHECK_INT(bp32(&p, off + 12), 20 * E820_ENTRY_SIZE);
		CHECK_INT(bp64(&p, off + SETUP_HDR), m.mm.r[128].start);
		CHECK_INT(bp64(&p, off + SETUP_HDR + 19 * 20),
			  m.mm.r[147].start);
		CHECK_INT(bp64(&p, off + SETUP_HDR + 19 * 20 + 8),
			  m.mm.r[147].end - m.mm.r[147].start);
		CHECK_INT(bp32(&p, off + SETUP_HDR + 19 * 20 + 16), E820_PMEM);
	}
	/* EFI: efi_info from the running kernel, the runtime map, SETUP_EFI */
	CHECK(p.efi);
	CHECK(memcmp(p.params + BP_EFI_INFO, "EL64", 4) == 0);
	CHECK_INT(bp32(&p, BP_EFI_SYSTAB), 0x6f8ee018);
	CHECK_INT(bp32(&p, BP_EFI_MEMDESC_SIZE), 48);
	CHECK_INT(bp32(&p, BP_EFI_MEMMAP_SIZE), 3 * 48);
	off = (size_t)(bp32(&p, BP_EFI_MEMMAP) - p.params_addr);
	CHECK_INT(bp32(&p, BP_EFI_MEMMAP_HI), 0);
	CHECK_INT(bp32(&p, off), 5);
	CHECK_INT(bp64(&p, off + 8), 0x6f800000);
	CHECK_INT(bp64(&p, off + 16), 0xfffffffeffc00000ull);
	CHECK_INT(bp64(&p, off + 48 + 24), 0x80);
	CHECK_INT(bp32(&p, off + 96), 11);
	off = setup_data_find(&p, SETUP_EFI);
	CHECK(off != 0);
	if (off) {
		CHECK_INT(bp32(&p, off + 12), EFI_SETUP_SIZE);
		CHECK_INT(bp64(&p, off + SETUP_HDR), 0x6f8d4018);
		CHECK_INT(bp64(&p, off + SETUP_HDR + 16), 0x6f8ed018);
		CHECK_INT(bp64(&p, off + SETUP_HDR + 24), 0x6f9c1000);
	}
	CHECK_INT(bp64(&p, BP_ACPI_RSDP), 0x6fb7e014);
	CHECK_INT(p.params[0x0f], 0x23); /* screen_info carried over */
	CHECK_INT(p.params[BP_SENTINEL], 0);
	kexec_plan_free(&p);

	/* booted by BIOS as far as we know: no EFI for the new kernel */
	m.efi = false;
	CHECK_INT(kexec_plan_build(&in, &p, err, sizeof(err)), 0);
	CHECK(!p.efi);
	CHECK_INT(bp32(&p, BP_EFI_INFO), 0);
	CHECK_INT(setup_data_find(&p, SETUP_EFI), 0);
	CHECK(setup_data_find(&p, SETUP_E820_EXT) != 0);
	kexec_plan_free(&p);
	kexec_machine_free(&m);
	free(k);
}

static int build(const char *memmap, const char *iomem, const char *cmd,
		 uint64_t initrd_len, bool crash, struct kexec_plan *p,
		 char *err, size_t errlen)
{
	static char fake[8192]; /* commit tests write up to this much */
	struct kexec_machine m;
	int rc = machine(&m, memmap, NULL, NULL, iomem);

	if (rc)
		return rc;
	/* the plan only points at the initrd: a short buffer stands in for
	 * a huge one as long as nothing hashes it */
	struct kexec_plan_in in = {
	    {syn, SYN_LEN}, {fake, initrd_len}, cmd, &m, crash, false};
	rc = kexec_plan_build(&in, p, err, errlen);
	if (!rc)
		check_segments(p, crash ? &m.crash : &m.mm);
	kexec_machine_free(&m);
	return rc;
}

TEST(plan_initrd_above_4g)
{
	struct kexec_plan p;
	char err[256] = "";
	uint64_t big = 3 * GIB + GIB / 2;

	syn_make();
	CHECK_INT(build(FIX "efi-server-64g", NULL, "", big, false, &p, err,
			sizeof(err)),
		  0);
	CHECK(p.initrd_addr >= 4 * GIB);
	CHECK_INT(p.initrd_addr + ((big + 4095) & ~4095ull), 0x1080000000ull);
	CHECK_INT(bp32(&p, BZ_RAMDISK_IMAGE), (uint32_t)p.initrd_addr);
	CHECK_INT(bp32(&p, BP_EXT_RAMDISK_IMAGE), p.initrd_addr >> 32);
	CHECK_INT(bp32(&p, BZ_RAMDISK_SIZE), (uint32_t)big);
	CHECK_INT(bp32(&p, BP_EXT_RAMDISK_SIZE), big >> 32);
	kexec_plan_free(&p);

	/* without XLF_CAN_BE_LOADED_ABOVE_4G it must stay below 2 GiB */
	put_le16(syn, SYN_LEN, BZ_XLOADFLAGS, XLF_KERNEL_64);
	CHECK_INT(build(FIX "efi-server-64g", NULL, "", big, false, &p, err,
			sizeof(err)),
		  -ENOSPC);
	CHECK_STR(err, "the initrd is too large: 3758096384 bytes do not fit "
		       "in the free RAM below 0x80000000");
	CHECK_INT(build(FIX "efi-server-64g", NULL, "", 300 * MIB, false, &p,
			err, sizeof(err)),
		  0);
	CHECK(p.initrd_addr + p.initrd_size <= 0x80000000ull);
	CHECK(p.kernel_addr < 4 * GIB);
	kexec_plan_free(&p);
	syn_make();
}

TEST(plan_refusals)
{
	struct kexec_plan p;
	char err[256] = "", cmd[301];

	syn_make();
	memset(cmd, 'c', 300);
	cmd[300] = '\0';
	CHECK_INT(
	    build(FIX "bios-small", NULL, cmd, 0, false, &p, err, sizeof(err)),
	    -E2BIG);
	CHECK_STR(err, "the command line is too long: 300 bytes, this kernel "
		       "takes at most 255 (cmdline_size)");
	cmd[255] = '\0';
	CHECK_INT(
	    build(FIX "bios-small", NULL, cmd, 0, false, &p, err, sizeof(err)),
	    0);
	CHECK_INT(p.initrd_size, 0);
	CHECK_INT(bp32(&p, BZ_RAMDISK_IMAGE), 0);
	CHECK_INT(p.n_seg, 3);
	kexec_plan_free(&p);

	CHECK_INT(build(FIX "bios-small", NULL, "", 600 * MIB, false, &p, err,
			sizeof(err)),
		  -ENOSPC);
	CHECK(strstr(err, "the initrd is too large: 629145600 bytes") != NULL);

	put_le32(syn, SYN_LEN, BZ_INIT_SIZE, 0x1000000);
	CHECK_INT(
	    build(FIX "tiny.iomem", NULL, "", 0, false, &p, err, sizeof(err)),
	    -ENOSPC);
	CHECK_STR(err, "no room in RAM for the kernel: it needs 17 MiB "
		       "(init_size) at or above 0x1000000 aligned to 0x200000");
	syn_make();

	CHECK_INT(
	    build(FIX "bios-small", NULL, "", 0, true, &p, err, sizeof(err)),
	    -EADDRNOTAVAIL);
	CHECK_STR(err, "no memory is reserved for a panic kernel (boot the "
		       "running kernel with crashkernel=)");
}

TEST(plan_holes_and_crash)
{
	struct kexec_plan p;
	char err[256] = "";
	size_t n_ram = 0;

	syn_make();
	CHECK_INT(build(FIX "holes.iomem", NULL, "x", 40 * MIB, false, &p, err,
			sizeof(err)),
		  0);
	/* initrd top-down below 2 GiB: the 256 MiB at 0x30000000 */
	CHECK_INT(p.initrd_addr + 40 * MIB, 0x40000000);
	kexec_plan_free(&p);

	CHECK_INT(build(FIX "holes.iomem", FIX "holes.iomem", "x", 40 * MIB,
			true, &p, err, sizeof(err)),
		  0);
	CHECK(p.crash);
	CHECK(!p.lean); /* a panic kernel keeps its whole init_size room */
	CHECK(seg_named(&p, "kernel") &&
	      seg_named(&p, "kernel")->memsz >= p.bz.init_size);
	for (size_t i = 0; i < p.n_seg; i++)
		CHECK(p.seg[i].mem >= 0x10000000 &&
		      p.seg[i].mem + p.seg[i].memsz <= 0x18000000);
	/* the panic kernel sees RAM below 640 KiB and its reservation only */
	for (size_t i = 0; i < p.params[BP_E820_ENTRIES]; i++) {
		size_t off = BP_E820_TABLE + i * E820_ENTRY_SIZE;

		if (bp32(&p, off + 16) != E820_RAM)
			continue;
		n_ram++;
		CHECK(
		    (bp64(&p, off) == 0x1000 && bp64(&p, off + 8) == 0x9e000) ||
		    (bp64(&p, off) == 0x10000000 &&
		     bp64(&p, off + 8) == 0x8000000));
	}
	CHECK_INT(n_ram, 2);
	kexec_plan_free(&p);
}

TEST(sha256_vectors)
{
	static const uint8_t abc[32] = {
	    0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea, 0x41, 0x41, 0x40,
	    0xde, 0x5d, 0xae, 0x22, 0x23, 0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17,
	    0x7a, 0x9c, 0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad};
	static const uint8_t empty[4] = {0xe3, 0xb0, 0xc4, 0x42};
	struct sha256 s;
	uint8_t d[32];

	sha256_init(&s);
	sha256_update(&s, "a", 1);
	sha256_update(&s, "bc", 2);
	sha256_final(&s, d);
	CHECK(memcmp(d, abc, 32) == 0);
	sha256_init(&s);
	sha256_final(&s, d);
	CHECK(memcmp(d, empty, 4) == 0);
}

/* Run the purgatory's own check(), for real, over user-space copies. */
static int purg_run_check(const struct kexec_plan *p, const void *const *bufs,
			  const size_t *lens, size_t n)
{
	size_t len = p->purg_len;
	uint8_t *code = mmap(NULL, len, PROT_READ | PROT_WRITE | PROT_EXEC,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int (*check)(const void *);
	int rc;

	if (code == MAP_FAILED)
		return -errno;
	memcpy(code, p->purg, len);
	put_le32(code, len, PURG_NREGIONS, (uint32_t)n);
	for (size_t i = 0; i < n; i++) {
		put_le64(code, len, PURG_REGIONS + 16 * i, (uintptr_t)bufs[i]);
		put_le64(code, len, PURG_REGIONS + 16 * i + 8, lens[i]);
	}
	check = (int (*)(const void *))(void *)(code + PURG_CHECK);
	rc = check(code);
	munmap(code, len);
	return rc;
}

TEST(purgatory_sha256_check_runs)
{
	struct kexec_machine m;
	struct kexec_plan p;
	char err[256] = "", initrd[70001];
	const void *bufs[KEXEC_SEGMENT_MAX];
	size_t lens[KEXEC_SEGMENT_MAX], n = 0;
	struct sha256 s;
	uint8_t d[32];

	syn_make();
	for (size_t i = 0; i < sizeof(initrd); i++)
		initrd[i] = (char)(i * 7 + 3);
	if (machine(&m, FIX "bios-small", NULL, NULL, NULL))
		return;
	struct kexec_plan_in in = {
	    {syn, SYN_LEN}, {initrd, sizeof(initrd)}, "sha", &m, false, true};
	CHECK_INT(kexec_plan_build(&in, &p, err, sizeof(err)), 0);
	CHECK_INT(p.purg[PURG_SHA_ON], 1);
	sha256_init(&s);
	for (size_t i = 0; i < p.n_seg; i++) {
		if (p.seg[i].buf == p.purg)
			continue;
		bufs[n] = p.seg[i].buf;
		lens[n++] = p.seg[i].bufsz;
		sha256_update(&s, p.seg[i].buf, p.seg[i].bufsz);
	}
	sha256_final(&s, d);
	CHECK(memcmp(d, p.digest, 32) == 0);
	CHECK(memcmp(d, p.purg + PURG_DIGEST, 32) == 0);
	CHECK_INT(n, 3);
	CHECK_INT(purg_run_check(&p, bufs, lens, n), 0);
	initrd[12345] ^= 1; /* a segment changed after the plan */
	CHECK_INT(purg_run_check(&p, bufs, lens, n), 1);
	initrd[12345] ^= 1;
	CHECK_INT(purg_run_check(&p, bufs, lens, n - 1), 1);
	kexec_plan_free(&p);
	kexec_machine_free(&m);
}

/* The ops seam: record calls, fail on demand. */
static struct {
	int load_rc, file_rc, reboot_rc;
	int loads, unloads, files, reboots;
	int load_calls; /* every kexec_load, unloads included */
	uint64_t entry;
	unsigned long nr, flags, file_flags, cmdline_len;
	struct kexec_sys_segment segs[KEXEC_SEGMENT_MAX];
	char cmdline[64];
	bool initrd_fd;
	off_t kernel_size; /* of the fd kexec_file_load got */
} rec;

static int rec_load(uint64_t entry, unsigned long nr,
		    const struct kexec_sys_segment *segs, unsigned long flags)
{
	rec.load_calls++;
	if (nr == 0) {
		rec.unloads++;
		return 0;
	}
	rec.loads++;
	rec.entry = entry;
	rec.nr = nr;
	rec.flags = flags;
	memcpy(rec.segs, segs, nr * sizeof(*segs));
	return rec.load_rc;
}

static int rec_file(int kfd, int ifd, unsigned long len, const char *cmdline,
		    unsigned long flags)
{
	if (flags & KEXEC_FILE_UNLOAD) {
		rec.unloads++;
		return 0;
	}
	rec.files++;
	rec.kernel_size = lseek(kfd, 0, SEEK_END);
	rec.file_flags = flags;
	rec.cmdline_len = len;
	rec.initrd_fd = ifd >= 0;
	snprintf(rec.cmdline, sizeof(rec.cmdline), "%s", cmdline);
	return rec.file_rc;
}

static int rec_reboot(void)
{
	rec.reboots++;
	return rec.reboot_rc;
}

static struct kexec_sys_ops rec_ops = {.load = rec_load,
				       .file_load = rec_file,
				       .reboot_kexec = rec_reboot,
				       .lockdown_path = FIX "lockdown-none"};

static int commit(struct kexec_plan *p, enum kexec_syscall want,
		  enum kexec_syscall *used, char *err, size_t errlen)
{
	kexec_sys_set_ops(&rec_ops);
	int rc = kexec_commit(p, want, used, err, errlen);

	kexec_sys_set_ops(NULL);
	return rc;
}

/* Under lockdown kexec_load is never called, whatever kexec_file_load
 * answers and whichever syscall was asked for (issue #39): the errors of
 * the file syscall come back as they are, ENOEXEC with what it takes. */
TEST(locked_down_never_calls_kexec_load)
{
	static const int errs[] = {0,	    -EPERM,   -EBUSY,	     -ENOMEM,
				   -EINVAL, -ENOSYS,  -ENOEXEC,	     -EACCES,
				   -ENOKEY, -EBADMSG, -EKEYREJECTED, -EIO};
	static const enum kexec_syscall wants[] = {
	    KEXEC_SYSCALL_AUTO, KEXEC_SYSCALL_FILE, KEXEC_SYSCALL_LOAD};
	struct kexec_plan p;
	char err[256] = "";
	enum kexec_syscall used;

	syn_make();
	CHECK_INT(build(FIX "bios-small", NULL, "cmd=1", 4096, false, &p, err,
			sizeof(err)),
		  0);
	rec_ops.lockdown_path = FIX "lockdown-integrity";
	for (size_t w = 0; w < sizeof(wants) / sizeof(wants[0]); w++)
		for (size_t i = 0; i < sizeof(errs) / sizeof(errs[0]); i++) {
			memset(&rec, 0, sizeof(rec));
			rec.file_rc = errs[i];
			rec.load_rc = 0; /* kexec_load would "work" */
			int rc = commit(&p, wants[w], &used, err, sizeof(err));

			CHECK_INT(rec.load_calls, 0);
			if (wants[w] == KEXEC_SYSCALL_LOAD) {
				CHECK_INT(rc, -EPERM);
				CHECK_INT(rec.files, 0);
				continue;
			}
			CHECK_INT(rc, errs[i]);
			CHECK_INT(used, KEXEC_SYSCALL_FILE);
			/* a failure unloads, through the file syscall */
			CHECK_INT(rec.files, 1);
			CHECK_INT(rec.unloads, errs[i] ? 1 : 0);
			if (errs[i] == -ENOEXEC)
				CHECK_STR(err,
					  "kexec_file_load cannot take this "
					  "image (ENOEXEC): under lockdown "
					  "only a bzImage with a PE signature "
					  "boots, and kexec_load is not "
					  "allowed");
		}
	/* an unload alone: the file syscall only */
	memset(&rec, 0, sizeof(rec));
	kexec_sys_set_ops(&rec_ops);
	CHECK_INT(kexec_unload(false, err, sizeof(err)), 0);
	kexec_sys_set_ops(NULL);
	CHECK_INT(rec.load_calls, 0);
	CHECK_INT(rec.unloads, 1);
	rec_ops.lockdown_path = FIX "lockdown-none";
	kexec_plan_free(&p);
}

TEST(commit_chooses_the_syscall)
{
	struct kexec_plan p;
	char err[256] = "";
	enum kexec_syscall used;

	syn_make();
	CHECK_INT(build(FIX "bios-small", NULL, "cmd=1", 4096, false, &p, err,
			sizeof(err)),
		  0);
	memset(&rec, 0, sizeof(rec));
	CHECK_INT(commit(&p, KEXEC_SYSCALL_AUTO, &used, err, sizeof(err)), 0);
	CHECK_INT(used, KEXEC_SYSCALL_LOAD);
	CHECK_INT(rec.loads, 1);
	CHECK_INT(rec.files, 0);
	CHECK_INT(rec.entry, p.entry);
	CHECK_INT(rec.nr, p.n_seg);
	CHECK_INT(rec.flags, KEXEC_ARCH_X86_64);
	for (size_t i = 0; i < p.n_seg; i++) {
		CHECK_INT(rec.segs[i].mem, p.seg[i].mem);
		CHECK_INT(rec.segs[i].memsz, p.seg[i].memsz);
		CHECK(rec.segs[i].buf == p.seg[i].buf);
	}

	/* EPERM from kexec_load: the file syscall, with the command line */
	memset(&rec, 0, sizeof(rec));
	rec.load_rc = -EPERM;
	CHECK_INT(commit(&p, KEXEC_SYSCALL_AUTO, &used, err, sizeof(err)), 0);
	CHECK_INT(used, KEXEC_SYSCALL_FILE);
	CHECK_INT(rec.files, 1);
	CHECK_STR(rec.cmdline, "cmd=1");
	CHECK_INT(rec.cmdline_len, 6);
	CHECK(rec.initrd_fd);
	CHECK_INT(rec.file_flags, 0);

	/* asked for kexec_load: no fallback, a sentence, nothing left */
	memset(&rec, 0, sizeof(rec));
	rec.load_rc = -EBUSY;
	CHECK_INT(commit(&p, KEXEC_SYSCALL_LOAD, &used, err, sizeof(err)),
		  -EBUSY);
	CHECK_INT(rec.files, 0);
	CHECK_INT(rec.unloads, 1);
	CHECK_STR(err,
		  "kexec_load refused: a kexec load is already in progress "
		  "or the loaded kernel is in use (EBUSY); try again");
	rec.load_rc = -ENOMEM;
	CHECK_INT(commit(&p, KEXEC_SYSCALL_LOAD, &used, err, sizeof(err)),
		  -ENOMEM);
	CHECK_STR(err, "kexec_load failed: the running kernel is out of memory "
		       "for the segments (ENOMEM)");

	/* ENOSYS from kexec_load, not locked down: the file syscall instead */
	memset(&rec, 0, sizeof(rec));
	rec.load_rc = -ENOSYS;
	CHECK_INT(commit(&p, KEXEC_SYSCALL_AUTO, &used, err, sizeof(err)), 0);
	CHECK_INT(rec.loads, 1);
	CHECK_INT(rec.files, 1);
	CHECK_INT(used, KEXEC_SYSCALL_FILE);

	/* locked down and asked for kexec_load: refused before any call */
	rec_ops.lockdown_path = FIX "lockdown-integrity";
	memset(&rec, 0, sizeof(rec));
	CHECK_INT(commit(&p, KEXEC_SYSCALL_LOAD, &used, err, sizeof(err)),
		  -EPERM);
	CHECK_INT(rec.load_calls + rec.files, 0);
	CHECK_STR(err, "the kernel is locked down (integrity, Secure Boot): "
		       "kexec_load is not allowed; only kexec_file_load "
		       "with a signed kernel (-s, or no choice)");
	rec_ops.lockdown_path = FIX "lockdown-none";
	kexec_plan_free(&p);

	/* a panic kernel */
	CHECK_INT(build(FIX "holes.iomem", FIX "holes.iomem", "", 0, true, &p,
			err, sizeof(err)),
		  0);
	memset(&rec, 0, sizeof(rec));
	CHECK_INT(commit(&p, KEXEC_SYSCALL_AUTO, &used, err, sizeof(err)), 0);
	CHECK_INT(rec.flags, KEXEC_ARCH_X86_64 | KEXEC_ON_CRASH);
	memset(&rec, 0, sizeof(rec));
	CHECK_INT(commit(&p, KEXEC_SYSCALL_FILE, &used, err, sizeof(err)), 0);
	CHECK_INT(rec.file_flags,
		  KEXEC_FILE_ON_CRASH | KEXEC_FILE_NO_INITRAMFS);
	kexec_plan_free(&p);
}

TEST(fault_env_and_jump)
{
	struct kexec_plan p;
	char err[256] = "";
	enum kexec_syscall used;

	syn_make();
	CHECK_INT(
	    build(FIX "bios-small", NULL, "", 0, false, &p, err, sizeof(err)),
	    0);
	/* the real wrappers, failing before they reach the kernel */
	setenv(KEXEC_FAULT_ENV, "EBUSY", 1);
	CHECK_INT(kexec_commit(&p, KEXEC_SYSCALL_AUTO, &used, err, sizeof(err)),
		  -EBUSY);
	CHECK(strstr(err, "(EBUSY)") != NULL);
	setenv(KEXEC_FAULT_ENV,
	       "load:EPERM,file:ENOMEM,reboot:EINVAL,"
	       "unload:EPERM",
	       1);
	CHECK_INT(kexec_commit(&p, KEXEC_SYSCALL_AUTO, &used, err, sizeof(err)),
		  -ENOMEM);
	CHECK_INT(used, KEXEC_SYSCALL_FILE);
	CHECK_STR(err, "kexec_file_load failed: the running kernel is out of "
		       "memory for the segments (ENOMEM)");
	/* /N: only the first N calls; the items in turn, then the bare one */
	setenv(KEXEC_FAULT_ENV,
	       "load:EBUSY/1,load:EINVAL/1,load:ENOMEM/0,"
	       "EACCES",
	       1);
	CHECK_INT(kexec_commit(&p, KEXEC_SYSCALL_AUTO, &used, err, sizeof(err)),
		  -EBUSY);
	CHECK_INT(kexec_commit(&p, KEXEC_SYSCALL_AUTO, &used, err, sizeof(err)),
		  -EINVAL);
	CHECK_INT(kexec_commit(&p, KEXEC_SYSCALL_AUTO, &used, err, sizeof(err)),
		  -EACCES);
	setenv(KEXEC_FAULT_ENV, "load:EBUSY/1,EACCES", 1); /* counts anew */
	CHECK_INT(kexec_commit(&p, KEXEC_SYSCALL_AUTO, &used, err, sizeof(err)),
		  -EBUSY);
	CHECK_INT(kexec_commit(&p, KEXEC_SYSCALL_AUTO, &used, err, sizeof(err)),
		  -EACCES);
	unsetenv(KEXEC_FAULT_ENV);
	kexec_plan_free(&p);

	/* the jump through the seam: sync, the unmount hook, reboot */
	memset(&rec, 0, sizeof(rec));
	rec.reboot_rc = -EPERM;
	kexec_sys_set_ops(&rec_ops);
	CHECK_INT(kexec_jump(NULL, NULL, err, sizeof(err)), -EPERM);
	kexec_sys_set_ops(NULL);
	CHECK_INT(rec.reboots, 1);
	CHECK_STR(err, "reboot(LINUX_REBOOT_CMD_KEXEC) refused: booting a "
		       "kernel needs root (CAP_SYS_BOOT)");
}

/* Run kexload; returns its exit status, output (both streams) in @out. */
static int kexload(const char *args, char *out, size_t len)
{
	char cmd[4096];
	FILE *f;
	size_t n;
	int st;

	snprintf(cmd, sizeof(cmd), "build/host/kexload-fault %s 2>&1", args);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	n = fread(out, 1, len - 1, f);
	out[n] = '\0';
	st = pclose(f);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

#define DRY                                                                    \
	"--dry-run --memmap " FIX "bios-small --boot-params " FIX              \
	"absent --efi-dir " FIX "absent "

TEST(kexload_exit_status_and_messages)
{
	static char out[65536], args[8192];

	if (access("build/host/kexload-fault", X_OK)) {
		test_skip("build/host/kexload-fault absent (run make)");
		return;
	}
	if (access(TINY_KERNEL, R_OK) == 0) {
		CHECK_INT(kexload(DRY "-l " TINY_KERNEL " --initrd " FIX
				      "holes.iomem --append 'a=1 b=2'",
				  out, sizeof(out)),
			  0);
		CHECK(strstr(out, "cmdline:  \"a=1 b=2\"") != NULL);
		CHECK(strstr(out, "syscall:  kexec_load\n") != NULL);
		CHECK(strstr(out, "segment 3: ") != NULL);
		CHECK(strstr(out, "kernel (") != NULL);
		CHECK_INT(kexload(DRY "-s -l " TINY_KERNEL, out, sizeof(out)),
			  0);
		CHECK(strstr(out, "syscall:  kexec_file_load") != NULL);
		memset(args, 0, sizeof(args));
		strcpy(args, DRY "-l " TINY_KERNEL " --append ");
		memset(args + strlen(args), 'x', 3000);
		CHECK_INT(kexload(args, out, sizeof(out)), 1);
		CHECK(strstr(out, "the command line is too long: 3000 bytes, "
				  "this kernel takes at most 2047") != NULL);
	}
	CHECK_INT(kexload(DRY "-l " FIX "holes.iomem", out, sizeof(out)), 1);
	CHECK(strstr(out, "kexload: " FIX "holes.iomem: not a bzImage") !=
	      NULL);
	CHECK_INT(kexload(DRY "-l " FIX "absent", out, sizeof(out)), 1);
	CHECK(strstr(out, "cannot open " FIX "absent") != NULL);
	CHECK_INT(kexload("--bogus", out, sizeof(out)), 2);
	CHECK_INT(kexload("", out, sizeof(out)), 2);
	CHECK_INT(kexload("-h", out, sizeof(out)), 0);
	CHECK(strstr(out, "usage: kexload -l KERNEL") != NULL);
	CHECK_INT(kexload("--version", out, sizeof(out)), 0);
	CHECK(strncmp(out, "kexload ", 8) == 0);
	if (access(TINY_KERNEL, R_OK) == 0) {
		CHECK_INT(kexload("--dry-run --memmap " FIX
				  "nonroot.iomem -l " TINY_KERNEL,
				  out, sizeof(out)),
			  1);
		CHECK(strstr(out, "its addresses are hidden (not root)") !=
		      NULL);
	}
	/* the syscalls fail in the wrapper: nothing reaches this host */
	setenv(KEXEC_FAULT_ENV, "EPERM", 1);
	CHECK_INT(kexload("-u", out, sizeof(out)), 1);
	CHECK(strstr(out, "kexload: unload: kexec_") != NULL);
	CHECK_INT(kexload("-e", out, sizeof(out)), 1);
	CHECK(strstr(out, "kexload: exec: ") != NULL);
	unsetenv(KEXEC_FAULT_ENV);
}

/* --- bad input through kexload: message and exit status for each ----- */

#define SCRATCH "/tmp/test_kexec_scratch"

static int put_file(const char *path, const void *buf, size_t len)
{
	FILE *f = fopen(path, "wb");
	int ok = f && fwrite(buf, 1, len, f) == len;

	if (f)
		fclose(f);
	return ok ? 0 : -1;
}

/* kexload's exit status must be @status and its output hold @want. */
static void kexload_says(const char *args, int status, const char *want)
{
	static char out[65536];
	int st = kexload(args, out, sizeof(out));

	CHECK_INT(st, status);
	if (!strstr(out, want))
		printf("  kexload %.80s...\n  said \"%s\"\n  want \"%s\"\n",
		       args, out, want);
	CHECK(strstr(out, want) != NULL);
}

/* the rest of a command line running kexload as nobody, no capabilities */
#define NOBODY                                                                 \
	"setpriv --reuid=65534 --regid=65534 --clear-groups "                  \
	"--inh-caps=-all --bounding-set=-all build/host/kexload-fault "

#define PLAN_ON                                                                \
	"--memmap " FIX "bios-small --boot-params " FIX "absent "              \
	"--efi-dir " FIX "absent "

/* the same plan for nobody: nothing read from the checkout */
#define NOBODY_PLAN                                                            \
	"--memmap " SCRATCH "/iomem --boot-params " SCRATCH "/absent "         \
	"--efi-dir " SCRATCH "/absent "

TEST(kexload_refuses_each_bad_input)
{
	static char args[8192];
	size_t len = 0;
	char *k;

	if (access("build/host/kexload-fault", X_OK) || mkdir(SCRATCH, 0755) < 0
		? errno != EEXIST
		: 0) {
		test_skip("build/host/kexload-fault absent (run make)");
		return;
	}
	syn_make();
	put_file(SCRATCH "/syn", syn, SYN_LEN);
	put_le16(syn, SYN_LEN, BZ_VERSION, 0x0206);
	put_file(SCRATCH "/old", syn, SYN_LEN);
	syn_make();
	put_le16(syn, SYN_LEN, BZ_XLOADFLAGS, 0);
	put_file(SCRATCH "/i386", syn, SYN_LEN);
	syn_make();
	put_le32(syn, SYN_LEN, BZ_SYSSIZE, 65536 / 16);
	put_file(SCRATCH "/short", syn, 4000);
	syn_make();
	put_le32(syn, SYN_LEN, BZ_INIT_SIZE, 0x1000000);
	put_file(SCRATCH "/big-init", syn, SYN_LEN);
	syn_make();
	/* not a bzImage, truncated, protocol too old, 32-bit only */
	kexload_says(DRY "-l " FIX "bios-small/0/type", 1,
		     "kexload: " FIX
		     "bios-small/0/type: not a bzImage (no boot sector "
		     "signature or \"HdrS\" setup header)");
	kexload_says(
	    DRY "-l " SCRATCH "/short", 1,
	    SCRATCH "/short: the "
		    "bzImage is truncated (4000 bytes, its header says 68096)");
	kexload_says(DRY "-l " SCRATCH "/old", 1,
		     "boot protocol 2.06 is too "
		     "old: 2.12 or later is needed for a 64-bit kexec");
	kexload_says(DRY "-l " SCRATCH "/i386", 1,
		     "a 32-bit-only kernel: it "
		     "has no 64-bit entry point (XLF_KERNEL_64)");
	/* a command line over cmdline_size (255 in the synthetic kernel) */
	strcpy(args, DRY "-l " SCRATCH "/syn --append ");
	memset(args + strlen(args), 'y', 256);
	kexload_says(args, 1,
		     "the command line is too long: 256 bytes, this "
		     "kernel takes at most 255 (cmdline_size)");
	/* an initrd larger than the 511 MiB of RAM (sparse: costs no disk) */
	if (truncate(SCRATCH "/big", 0) == 0 || errno == ENOENT) {
		int fd = open(SCRATCH "/big", O_WRONLY | O_CREAT, 0644);

		CHECK(fd >= 0 && ftruncate(fd, 520 * MIB) == 0);
		close(fd);
	}
	kexload_says(DRY "-l " SCRATCH "/syn --initrd " SCRATCH "/big", 1,
		     "the initrd is too large: 545259520 bytes do not fit in "
		     "the free RAM below 0x80000000 nor above 4 GiB");
	unlink(SCRATCH "/big");
	/* no room: 23 MiB of RAM, the kernel wants 16 MiB at 16 MiB */
	kexload_says(
	    "--dry-run --memmap " FIX "tiny.iomem --boot-params " FIX
	    "absent --efi-dir " FIX "absent -l " SCRATCH "/big-init",
	    1,
	    "no room in RAM for the kernel: it needs 17 MiB (init_size) "
	    "at or above 0x1000000 aligned to 0x200000");

	/* the syscalls' refusals, through the fault seam (never this host) */
	setenv(KEXEC_FAULT_ENV, "EBUSY", 1);
	kexload_says(PLAN_ON "-c -l " SCRATCH "/syn", 1,
		     "kexec_load refused: a "
		     "kexec load is already in progress or the loaded kernel "
		     "is in use (EBUSY); try again");
	setenv(KEXEC_FAULT_ENV, "ENOMEM", 1);
	kexload_says(
	    PLAN_ON "-l " SCRATCH "/syn", 1,
	    "kexec_load failed: the "
	    "running kernel is out of memory for the segments (ENOMEM)");
	kexload_says(PLAN_ON "-s -l " SCRATCH "/syn", 1,
		     "kexec_file_load "
		     "failed: the running kernel is out of memory");
	/* locked down: -c is refused before any syscall (no fault needed:
	 * the seam would fail a call that was made), and an image that
	 * kexec_file_load cannot take says so before it is tried */
	unsetenv(KEXEC_FAULT_ENV);
	setenv(KEXEC_LOCKDOWN_ENV, FIX "lockdown-integrity", 1);
	kexload_says(PLAN_ON "-c -l " SCRATCH "/syn", 1,
		     "kexload: " SCRATCH "/syn: the kernel is locked down "
		     "(integrity, Secure Boot): kexec_load is not allowed");
	kexload_says(PLAN_ON "-l " SCRATCH "/syn", 1,
		     "kexload: " SCRATCH "/syn: the kernel is locked down "
		     "(Secure Boot): only a bzImage with a PE signature "
		     "boots, and this image is not a PE file");
	unsetenv(KEXEC_LOCKDOWN_ENV);

	/* not root: as nobody, through the seam (the sentence), then the
	 * real syscall where this host's kernel has kexec: it refuses */
	if (geteuid() != 0) {
		setenv(KEXEC_FAULT_ENV, "EPERM", 1);
		kexload_says(
		    PLAN_ON "-c -l " SCRATCH "/syn", 1,
		    "kexec_load "
		    "refused: loading a kernel needs root (CAP_SYS_BOOT)");
		unsetenv(KEXEC_FAULT_ENV);
	} else if (access("/usr/bin/setpriv", X_OK) == 0) {
		/* nobody may not read the checkout (a clone in a 0700
		 * directory): its memory map is a file in the scratch */
		static const char ram[] = "00000000-00000fff : Reserved\n"
					  "00001000-0009efff : System RAM\n"
					  "00100000-1ffdffff : System RAM\n";

		chmod(SCRATCH, 0755);
		chmod(SCRATCH "/syn", 0644);
		CHECK(put_file(SCRATCH "/iomem", ram, sizeof(ram) - 1) == 0);
		chmod(SCRATCH "/iomem", 0644);
		kexload_says(
		    "--version; BOOTMENU_KEXEC_FAULT=EPERM " NOBODY NOBODY_PLAN
		    "-c -l " SCRATCH "/syn",
		    1,
		    "kexec_load "
		    "refused: loading a kernel needs root (CAP_SYS_BOOT)");
	} else {
		test_skip("no setpriv: the not-root case is not tried");
	}
	k = kernel_or_skip(TINY_KERNEL, &len, "truncated real kernel");
	if (k) {
		put_file(SCRATCH "/tiny-cut", k, len / 2);
		kexload_says(DRY "-l " SCRATCH "/tiny-cut", 1,
			     "the bzImage is "
			     "truncated");
		unlink(SCRATCH "/tiny-cut");
		free(k);
	}
	unlink(SCRATCH "/syn");
	unlink(SCRATCH "/old");
	unlink(SCRATCH "/i386");
	unlink(SCRATCH "/short");
	unlink(SCRATCH "/big-init");
	unlink(SCRATCH "/iomem");
	rmdir(SCRATCH);
}

/* The real kexec_load refusing nobody (no capabilities), where this
 * host's kernel has kexec. */
TEST(kexload_real_refusal_as_nobody)
{
	static const char ram[] = "00000000-00000fff : Reserved\n"
				  "00001000-0009efff : System RAM\n"
				  "00100000-1ffdffff : System RAM\n";

	if (geteuid() != 0 || access("/usr/bin/setpriv", X_OK) ||
	    access("build/host/kexload-fault", X_OK)) {
		test_skip("needs root, setpriv and build/host/kexload-fault");
		return;
	}
	if (access(KEXEC_LOADED_PATH, F_OK)) {
		test_skip("this host's kernel has no kexec (no %s)",
			  KEXEC_LOADED_PATH);
		return;
	}
	CHECK(mkdir(SCRATCH, 0755) == 0 || errno == EEXIST);
	syn_make();
	chmod(SCRATCH, 0755);
	chmod(SCRATCH "/syn", 0644);
	CHECK(put_file(SCRATCH "/iomem", ram, sizeof(ram) - 1) == 0);
	chmod(SCRATCH "/iomem", 0644);
	kexload_says("--version; " NOBODY NOBODY_PLAN "-c -l " SCRATCH "/syn",
		     1,
		     "kexec_load refused: loading a "
		     "kernel needs root (CAP_SYS_BOOT)");
	unlink(SCRATCH "/syn");
	unlink(SCRATCH "/iomem");
	rmdir(SCRATCH);
}

/* A plan that fails makes no syscall, whichever syscall was asked for
 * (kexec_file_load gets only image faults: it places segments itself). */
TEST(failed_plan_makes_no_syscall)
{
	static char junk[8192];
	struct kexec_machine_paths paths = {
	    FIX "bios-small", NULL, FIX "absent",
	    FIX "absent",     NULL, FIX "absent"};
	struct kexec_request rq = {.kernel = {junk, sizeof(junk)},
				   .cmdline = "x",
				   .syscall = KEXEC_SYSCALL_AUTO,
				   .paths = &paths};
	enum kexec_syscall asks[] = {KEXEC_SYSCALL_AUTO, KEXEC_SYSCALL_LOAD,
				     KEXEC_SYSCALL_FILE};
	char err[256];

	memset(junk, 'j', sizeof(junk));
	kexec_sys_set_ops(&rec_ops);
	for (size_t i = 0; i < 3; i++) {
		memset(&rec, 0, sizeof(rec));
		rq.syscall = asks[i];
		CHECK_INT(kexec_load_request(&rq, NULL, err, sizeof(err)),
			  -ENOEXEC);
		CHECK_INT(rec.loads + rec.files + rec.unloads, 0);
	}
	/* no room for the initrd: refused before any syscall with -c */
	syn_make();
	rq.kernel = (struct kexec_blob){syn, SYN_LEN};
	rq.initrd = (struct kexec_blob){junk, 600 * MIB}; /* never read */
	rq.syscall = KEXEC_SYSCALL_LOAD;
	memset(&rec, 0, sizeof(rec));
	CHECK_INT(kexec_load_request(&rq, NULL, err, sizeof(err)), -ENOSPC);
	CHECK_INT(rec.loads + rec.files + rec.unloads, 0);
	kexec_sys_set_ops(NULL);
}

static long long file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (long long)st.st_size : -1;
}

/* The kernel refuses segments over half of MemTotal (sanity_check_segment_
 * list): at QEMU -m 208, Debian's kernel (init_size 64 MiB) with a 40 MiB
 * initrd through kexec_file_load is refused with a sentence before any
 * syscall; through kexec_load (our lean kernel segment) it loads, and an
 * 88 MiB initrd is refused; with MemTotal unknown nothing is refused. */
TEST(half_of_memory_refused_before_the_syscall)
{
	static char out[65536];
	struct kexec_machine_paths paths = {FIX "bios-small",	NULL,
					    FIX "absent",	FIX "absent",
					    FIX "meminfo-208m", FIX "absent"};
	struct kexec_request rq = {.initrd = {NULL, 40 * MIB},
				   .cmdline = "",
				   .syscall = KEXEC_SYSCALL_AUTO,
				   .paths = &paths};
	char err[512] = "", *k, *initrd = calloc(1, 40 * MIB);
	size_t len = 0;

	k = kernel_or_skip(DEB_KERNEL, &len,
			   "half_of_memory (Debian's kernel)");
	if (!k || !initrd) {
		free(initrd);
		return;
	}
	rq.kernel = (struct kexec_blob){k, len};
	rq.initrd.buf = initrd;
	kexec_sys_set_ops(&rec_ops);
	/* kexec_file_load: the kernel's segment spans init_size, refused */
	memset(&rec, 0, sizeof(rec));
	rq.syscall = KEXEC_SYSCALL_FILE;
	CHECK_INT(kexec_load_request(&rq, NULL, err, sizeof(err)), -EFBIG);
	CHECK_INT(rec.loads + rec.files + rec.unloads, 0);
	CHECK_STR(err,
		  "the new kernel needs 104 MiB to load (the kernel 64 "
		  "MiB with its init_size room, the initrd 40 MiB), more than "
		  "half of the running kernel's 190 MiB (MemTotal), and kexec "
		  "refuses that: give the machine more memory or use a "
		  "smaller initrd");
	/* kexec_load: our lean kernel segment is the file's 8 MiB: loads */
	memset(&rec, 0, sizeof(rec));
	rq.syscall = KEXEC_SYSCALL_LOAD;
	CHECK_INT(kexec_load_request(&rq, NULL, err, sizeof(err)), 0);
	CHECK_INT(rec.loads, 1);
	/* ... up to half: an 88 MiB initrd is refused, before the syscall */
	free(initrd);
	initrd = calloc(1, 88 * MIB);
	rq.initrd = (struct kexec_blob){initrd, 88 * MIB};
	memset(&rec, 0, sizeof(rec));
	CHECK_INT(kexec_load_request(&rq, NULL, err, sizeof(err)), -EFBIG);
	CHECK_INT(rec.loads + rec.files + rec.unloads, 0);
	CHECK_STR(err,
		  "the new kernel needs 96 MiB to load (the kernel 8 "
		  "MiB, the initrd 88 MiB), more than half of the running "
		  "kernel's 190 MiB (MemTotal), and kexec refuses that: give "
		  "the machine more memory or use a smaller initrd");
	/* unknown MemTotal (a fixture map without meminfo): no such check */
	paths.meminfo = NULL;
	memset(&rec, 0, sizeof(rec));
	rq.syscall = KEXEC_SYSCALL_LOAD;
	CHECK_INT(kexec_load_request(&rq, NULL, err, sizeof(err)), 0);
	CHECK_INT(rec.loads, 1);
	kexec_sys_set_ops(NULL);
	if (access("build/host/kexload-fault", X_OK) == 0) {
		CHECK_INT(kexload(DRY "--meminfo " FIX
				      "meminfo-208m -l " DEB_KERNEL
				      " --initrd " FIX "meminfo-208m",
				  out, sizeof(out)),
			  0);
		CHECK(strstr(out, "segment 3: ") != NULL);
	}
	free(initrd);
	free(k);
}

/* Files past the free RAM (MemAvailable, less a 16 MiB margin) are refused
 * before they are read: the OOM killer would end the reader half-way. */
TEST(files_past_free_ram_refused_before_reading)
{
	unsigned long long avail = 1;
	int fd;

	/* no MemAvailable line, or no file: unknown, nothing refused */
	CHECK_INT(kexec_machine_room(FIX "meminfo-208m", 1ull << 40, &avail),
		  0);
	CHECK(avail == 0);
	CHECK_INT(kexec_machine_room(FIX "absent", 1ull << 40, &avail), 0);
	CHECK_INT(kexec_machine_room(FIX "meminfo-avail-64m", 48 * MIB, &avail),
		  0);
	CHECK(avail == 64 * MIB);
	CHECK_INT(
	    kexec_machine_room(FIX "meminfo-avail-64m", 48 * MIB + 1, &avail),
	    -ENOMEM);
	if (access("build/host/kexload-fault", X_OK) ||
	    (mkdir(SCRATCH, 0755) < 0 && errno != EEXIST)) {
		test_skip("build/host/kexload-fault absent (run make)");
		return;
	}
	/* kexload: the check comes before reading; a file that fits goes on
	 * to be read and parsed (and is not a bzImage) */
	fd = open(SCRATCH "/avail-big", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	CHECK(fd >= 0 && ftruncate(fd, 50 * MIB) == 0);
	close(fd);
	kexload_says(DRY "--meminfo " FIX "meminfo-avail-64m -l " SCRATCH
			 "/avail-big",
		     1,
		     "kexload: the kernel (50 MiB) does not fit "
		     "in the free RAM (64 MiB)\n");
	kexload_says(
	    DRY "--meminfo " FIX "meminfo-avail-64m -l " FIX
		"holes.iomem --initrd " SCRATCH "/avail-big",
	    1,
	    "kexload: "
	    "the kernel and initrds (50 MiB) do not fit in the free RAM "
	    "(64 MiB)\n");
	kexload_says(DRY "--meminfo " FIX "meminfo-avail-64m -l " FIX
			 "holes.iomem",
		     1, FIX "holes.iomem: not a bzImage");
	unlink(SCRATCH "/avail-big");
}

/* Compressed kernel files: found by magic, gzip inflated, others named. */
TEST(compressed_kernels)
{
	static char out1[65536], out2[65536];
	static const uint8_t xz[] = {0xfd, '7', 'z', 'X', 'Z', 0, 1, 2};
	static const uint8_t zst[] = {0x28, 0xb5, 0x2f, 0xfd, 1, 2, 3, 4};
	struct kexec_blob in, out;
	uint8_t *owned;
	const char *fmt;
	char err[512] = "", *p1, *p2, *gz;
	size_t glen = 0;

	in = (struct kexec_blob){xz, sizeof(xz)};
	CHECK_INT(kexec_unpack(&in, &out, &owned, &fmt, err, sizeof(err)),
		  -ENOEXEC);
	CHECK_STR(fmt, "xz");
	CHECK_STR(err,
		  "the kernel file is xz-compressed, and only gzip is "
		  "decompressed here: decompress it first (xz -dk FILE) and "
		  "load the result");
	in = (struct kexec_blob){zst, sizeof(zst)};
	CHECK_INT(kexec_unpack(&in, &out, &owned, &fmt, err, sizeof(err)),
		  -ENOEXEC);
	CHECK_STR(err,
		  "the kernel file is zstd-compressed, and only gzip is "
		  "decompressed here: decompress it first (zstd -d FILE) and "
		  "load the result");
	CHECK_STR(kexec_compression("BZh91AY", 7), "bzip2");
	CHECK(kexec_compression(syn, SYN_LEN) == NULL);
	in = (struct kexec_blob){"\x1f\x8b\x08\0\0\0\0\0\0\3\7\0", 12};
	CHECK_INT(kexec_unpack(&in, &out, &owned, &fmt, err, sizeof(err)),
		  -ENOEXEC);
	CHECK_STR(err, "the gzip-compressed kernel cannot be decompressed: "
		       "corrupt deflate data");
	CHECK(owned == NULL);

	if (access("build/host/kexload-fault", X_OK) ||
	    access(TINY_KERNEL, R_OK)) {
		test_skip("build/host/kexload-fault or " TINY_KERNEL
			  " absent, the rest not tried (run make)");
		return;
	}
	CHECK_INT(system("gzip -n -c " TINY_KERNEL " > /tmp/test_kexec.gz && "
			 "gzip -n -c tests/fixtures/memmap/README > "
			 "/tmp/test_kexec_junk.gz && printf '\\375\\067\\172"
			 "\\130\\132\\000rest' > /tmp/test_kexec.xz"),
		  0);
	/* the same plan as the plain kernel, and a line saying so */
	CHECK_INT(
	    kexload(DRY "-l " TINY_KERNEL " --append a=1", out1, sizeof(out1)),
	    0);
	CHECK_INT(kexload(DRY "-l /tmp/test_kexec.gz --append a=1", out2,
			  sizeof(out2)),
		  0);
	p1 = strstr(out1, "cmdline:");
	p2 = strstr(out2, "cmdline:");
	CHECK(p1 && p2 && strcmp(p1, p2) == 0);
	snprintf(out1, sizeof(out1),
		 "kernel:   gzip-compressed, %lld bytes "
		 "once decompressed\n",
		 (long long)file_size(TINY_KERNEL));
	CHECK(strstr(out2, out1) != NULL);
	kexload_says(DRY "-l /tmp/test_kexec_junk.gz", 1,
		     "inside the "
		     "gzip-compressed file: not a bzImage");
	kexload_says(DRY "-l /tmp/test_kexec.xz", 1,
		     "/tmp/test_kexec.xz: the "
		     "kernel file is xz-compressed");
	/* kexec_file_load gets the decompressed kernel */
	gz = test_slurp("/tmp/test_kexec.gz", &glen);
	if (gz) {
		struct kexec_machine_paths paths = {
		    FIX "bios-small", NULL, FIX "absent",
		    FIX "absent",     NULL, FIX "absent"};
		struct kexec_request rq = {.kernel = {gz, glen},
					   .cmdline = "",
					   .syscall = KEXEC_SYSCALL_FILE,
					   .paths = &paths};

		memset(&rec, 0, sizeof(rec));
		kexec_sys_set_ops(&rec_ops);
		CHECK_INT(kexec_load_request(&rq, NULL, err, sizeof(err)), 0);
		kexec_sys_set_ops(NULL);
		CHECK_INT(rec.files, 1);
		CHECK_INT(rec.kernel_size, file_size(TINY_KERNEL));
		free(gz);
	}
	unlink("/tmp/test_kexec.gz");
	unlink("/tmp/test_kexec_junk.gz");
	unlink("/tmp/test_kexec.xz");
}

/* A gzip-compressed ELF vmlinux plans as the vmlinux itself. */
TEST(compressed_elf_vmlinux)
{
	size_t len = 0, glen = 0;
	char *k = kernel_or_skip(VMLINUX, &len, "compressed_elf_vmlinux"), *gz;
	struct kexec_blob in, out;
	uint8_t *owned = NULL;
	const char *fmt;
	char err[256] = "";

	if (!k)
		return;
	free(k);
	if (system("gzip -1 -n -c " VMLINUX " > /tmp/test_kexec_vmlinux.gz")) {
		CHECK(0);
		return;
	}
	gz = test_slurp("/tmp/test_kexec_vmlinux.gz", &glen);
	unlink("/tmp/test_kexec_vmlinux.gz");
	k = test_slurp(VMLINUX, &len);
	CHECK(gz && k);
	if (gz && k) {
		in = (struct kexec_blob){gz, glen};
		CHECK_INT(
		    kexec_unpack(&in, &out, &owned, &fmt, err, sizeof(err)), 0);
		CHECK_STR(fmt, "gzip");
		CHECK_INT(out.len, len);
		CHECK(owned && out.buf == owned && memcmp(owned, k, len) == 0);
		CHECK(kexec_elf_is(out.buf, out.len));
	}
	free(owned);
	free(gz);
	free(k);
}

/* A one-segment ELF64 x86_64 executable: 8 KiB at p_paddr 16 MiB. */
#define ELF_LEN 0x3000
static uint8_t elf[ELF_LEN];

static void elf_make(void)
{
	memset(elf, 0, sizeof(elf));
	memcpy(elf, "\177ELF", 4);
	elf[4] = 2;			/* ELFCLASS64 */
	elf[5] = 1;			/* little-endian */
	put_le16(elf, ELF_LEN, 16, 2);	/* ET_EXEC */
	put_le16(elf, ELF_LEN, 18, 62); /* EM_X86_64 */
	put_le64(elf, ELF_LEN, 24, 0xffffffff81000040ull);
	put_le64(elf, ELF_LEN, 32, 64);
	put_le16(elf, ELF_LEN, 54, 56);
	put_le16(elf, ELF_LEN, 56, 1);
	put_le32(elf, ELF_LEN, 64, 1); /* PT_LOAD */
	put_le64(elf, ELF_LEN, 64 + 8, 0x1000);
	put_le64(elf, ELF_LEN, 64 + 16, 0xffffffff81000000ull);
	put_le64(elf, ELF_LEN, 64 + 24, 0x1000000);
	put_le64(elf, ELF_LEN, 64 + 32, 0x2000);
	put_le64(elf, ELF_LEN, 64 + 40, 0x5000);
}

static void elf_refuse(size_t len, const char *want)
{
	struct kexec_elf el;
	char err[256] = "";

	CHECK_INT(kexec_elf_parse(elf, len, &el, err, sizeof(err)), -ENOEXEC);
	CHECK_STR(err, want);
	elf_make();
}

TEST(elf_vmlinux)
{
	struct kexec_machine m;
	struct kexec_plan p;
	struct kexec_elf el;
	char err[256] = "";
	size_t len;
	char *k;

	elf_make();
	CHECK_INT(kexec_elf_parse(elf, ELF_LEN, &el, err, sizeof(err)), 0);
	CHECK_INT(el.n_load, 1);
	CHECK_INT(el.entry, 0x1000040); /* virtual e_entry made physical */
	CHECK_INT(el.load[0].paddr, 0x1000000);
	CHECK_INT(el.load[0].filesz, 0x2000);
	CHECK_INT(el.load[0].memsz, 0x5000);
	elf[4] = 1;
	elf_refuse(ELF_LEN, "not an x86_64 ELF kernel (ELF64, little-endian)");
	put_le16(elf, ELF_LEN, 18, 3);
	elf_refuse(ELF_LEN, "not an x86_64 ELF kernel (type 2, machine 3)");
	put_le64(elf, ELF_LEN, 24, 0x4000000);
	elf_refuse(ELF_LEN, "the ELF kernel's entry point 0x4000000 is in none "
			    "of its 1 segments");
	elf_refuse(0x2000, "the ELF kernel is truncated or its program headers "
			   "are malformed");

	k = kernel_or_skip(VMLINUX, &len, "elf_vmlinux (real kernel)");
	if (!k || machine(&m, FIX "bios-small", NULL, NULL, NULL)) {
		free(k);
		return;
	}
	struct kexec_plan_in in = {{k, len}, {NULL, 0}, "elf=1",
				   &m,	     false,	false};
	CHECK_INT(kexec_plan_build(&in, &p, err, sizeof(err)), 0);
	CHECK_STR(err, "");
	check_segments(&p, &m.mm);
	CHECK(p.elf);
	CHECK_INT(p.kernel_entry, 0x1000000); /* phys_startup_64 */
	CHECK_INT(p.kernel_addr, 0x1000000);
	CHECK(memcmp(p.params + BZ_HEADER, "HdrS", 4) == 0);
	CHECK_INT(bp32(&p, BZ_CMDLINE_SIZE), 2047);
	CHECK_INT(p.params[BZ_TYPE_OF_LOADER], 0xff);
	CHECK_STR((const char *)p.params + (p.cmdline_addr - p.params_addr),
		  "elf=1");
	kexec_plan_free(&p);
	kexec_machine_free(&m);
	free(k);
}

TEST_MAIN("test_kexec", bzimage_real_kernels, elf_vmlinux, bzimage_refusals,
	  memmap_readers, blob_concatenates_padded, blob_append_after_initrds,
	  plan_bios_tiny_kernel, plan_efi_server_debian, plan_initrd_above_4g,
	  plan_refusals, plan_holes_and_crash, sha256_vectors,
	  purgatory_sha256_check_runs, commit_chooses_the_syscall,
	  locked_down_never_calls_kexec_load, fault_env_and_jump,
	  kexload_exit_status_and_messages, kexload_refuses_each_bad_input,
	  kexload_real_refusal_as_nobody, failed_plan_makes_no_syscall,
	  half_of_memory_refused_before_the_syscall,
	  files_past_free_ram_refused_before_reading, compressed_kernels,
	  compressed_elf_vmlinux)
