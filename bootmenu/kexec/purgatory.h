/* purgatory.h - layout of our purgatory stub (purgatory.S).
 *
 * The stub runs between the old kernel and the new one: the old kernel's
 * relocate_kernel copies the segments into place and jumps to the stub's
 * first byte in 64-bit mode, identity mapped, interrupts off, with the
 * GDT and IDT made unusable. The stub loads its own GDT, a stack, checks
 * the segments' SHA-256 when asked, switches to its own identity map of
 * the low 4 GiB when the plan gave it one (PURG_PML4), puts boot_params in
 * %rsi and jumps to the kernel's 64-bit entry (boot.rst: load address +
 * 0x200), or, for a multiboot kernel (PURG_MAGIC), to its 32-bit entry. With
 * its own page tables the old kernel's may lie anywhere, even in the room the
 * new kernel decompresses into.
 *
 * The plan copies [kexec_purgatory_start, kexec_purgatory_end) into a
 * buffer it owns and fills the fields below (little-endian, offsets from
 * the stub's start). Included by purgatory.S, so only #defines here.
 */
#ifndef BM_KEXEC_PURGATORY_H
#define BM_KEXEC_PURGATORY_H

#define PURG_RSI 0x08	/* u64: boot_params physical address */
#define PURG_RIP 0x10	/* u64: kernel 64-bit entry */
#define PURG_STACK 0x18 /* u64: initial %rsp (top of the stack) */
#define PURG_GDTR 0x22	/* lgdt operand: u16 limit, then u64 base at 0x24 */
/* 4 descriptors: null, 32-bit code 0x08, code 0x10, data 0x18 */
#define PURG_GDT 0x30
#define PURG_SHA_ON 0x50   /* u32: 1 = check the regions before the jump */
#define PURG_NREGIONS 0x54 /* u32: how many regions follow */
#define PURG_DIGEST 0x58   /* 32 bytes: expected SHA-256 of the regions */
#define PURG_REGIONS 0x78  /* PURG_REGIONS_MAX x { u64 addr, u64 len } */
#define PURG_REGIONS_MAX 16
/* u64: physical address of our own PML4, 0 to keep the old kernel's page
 * tables; a PML5 pointing to it sits one page below (for CR4.LA57). */
#define PURG_PML4 0x178
/* u32: 0 enters a Linux kernel in 64-bit mode (above); otherwise the
 * multiboot magic: the stub leaves long mode through its 32-bit code
 * segment, turns paging off and jumps to PURG_RIP in 32-bit protected
 * mode with this in %eax and PURG_RSI (the boot information) in %ebx
 * (multiboot2 spec 3.3, multiboot spec 3.2). */
#define PURG_MAGIC 0x180
/* At PURG_CHECK: int check(const void *stub) in the SysV ABI, 0 when the
 * regions hash to the digest; the stub calls it, and so do the tests. */
#define PURG_CHECK 0x188

#define PURG_GDT_LIMIT 31
#define PURG_CS 0x10
#define PURG_CS32 0x08
#define PURG_DS 0x18

/* Bytes the purgatory segment reserves past the stub for its stack. */
#define PURG_STACK_SIZE 0x2000
/* Pages of page tables after the stub (when the plan asks for them):
 * PML5, PML4, PDPT and four PDs mapping 0-4 GiB in 2 MiB pages. */
#define PURG_PT_PAGES 7

#ifndef __ASSEMBLER__
extern const unsigned char kexec_purgatory_start[];
extern const unsigned char kexec_purgatory_end[];
#endif

#endif
