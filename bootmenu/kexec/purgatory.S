/* purgatory.S - the stub between the old kernel and the new one.
 *
 * Position-independent x86_64 code, assembled into the lib as data in
 * .rodata between kexec_purgatory_start and kexec_purgatory_end; the plan
 * copies it into a segment and fills its fields (purgatory.h). Entered at
 * its first byte by the old kernel's relocate_kernel: 64-bit mode,
 * identity mapped, interrupts off, GDT and IDT invalid (machine_kexec()
 * zaps them), so nothing here may fault or touch a segment register
 * before our own GDT is loaded.
 */
#include "kexec/purgatory.h"

#define FIELD(off) (kexec_purgatory_start + (off))(%rip)

	.section .rodata
	.balign 16
	.globl kexec_purgatory_start
	.globl kexec_purgatory_end
kexec_purgatory_start:
	jmp	purg_main
	. = kexec_purgatory_start + PURG_RSI
	.quad	0			/* boot_params */
	.quad	0			/* kernel entry */
	.quad	0			/* stack top */
	. = kexec_purgatory_start + PURG_GDTR
	.word	PURG_GDT_LIMIT
	.quad	0			/* GDT base: the plan fills it */
	. = kexec_purgatory_start + PURG_GDT
	.quad	0
	.quad	0x00cf9a000000ffff	/* 0x08: flat 32-bit code, multiboot */
	.quad	0x00af9a000000ffff	/* 0x10: 64-bit code, boot.rst __BOOT_CS */
	.quad	0x00cf92000000ffff	/* 0x18: data, __BOOT_DS */
	. = kexec_purgatory_start + PURG_SHA_ON
	.long	0
	.long	0
	. = kexec_purgatory_start + PURG_PML4
	.quad	0			/* our PML4, or 0: keep the old tables */
	. = kexec_purgatory_start + PURG_MAGIC
	.long	0			/* multiboot magic, or 0: Linux */
	. = kexec_purgatory_start + PURG_CHECK

/* int check(const void *stub): SHA-256 over every region, in order, as
 * one message, compared with the digest. Returns 0 on a match. Keeps the
 * SysV callee-saved registers, so the unit tests can call it too. */
purg_check:
	pushq	%rbx
	pushq	%rbp
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	subq	$0x1a0, %rsp
	movq	%rsp, %rbx		/* ctx: H[8] 0, buf 0x20, n 0x60, W 0xa0 */
	movq	%rdi, 0x68(%rbx)	/* the stub */
	leaq	sha_h0(%rip), %rsi
	movq	%rbx, %rdi
	movl	$8, %ecx
	rep movsl
	movq	$0, 0x60(%rbx)
	movq	0x68(%rbx), %rbp
	movl	PURG_NREGIONS(%rbp), %eax
	movq	%rax, 0x70(%rbx)	/* regions left */
	leaq	PURG_REGIONS(%rbp), %rax
	movq	%rax, 0x78(%rbx)	/* next region */
1:	cmpq	$0, 0x70(%rbx)
	je	3f
	movq	0x78(%rbx), %rax
	movq	(%rax), %rsi		/* addr */
	movq	8(%rax), %rdx		/* len */
	addq	$16, 0x78(%rbx)
	decq	0x70(%rbx)
	movq	%rsi, 0x80(%rbx)
	movq	%rdx, 0x88(%rbx)
2:	cmpq	$0, 0x88(%rbx)
	je	1b
	movq	0x80(%rbx), %rsi
	movzbl	(%rsi), %eax
	incq	0x80(%rbx)
	decq	0x88(%rbx)
	call	sha_byte
	jmp	2b
3:	/* padding: 0x80, zeros to 56 mod 64, the bit length big-endian */
	movq	0x60(%rbx), %rax
	shlq	$3, %rax
	movq	%rax, 0x90(%rbx)
	movl	$0x80, %eax
	call	sha_byte
4:	movq	0x60(%rbx), %rax
	andl	$63, %eax
	cmpl	$56, %eax
	je	5f
	xorl	%eax, %eax
	call	sha_byte
	jmp	4b
5:	movl	$8, %ecx
6:	movq	0x90(%rbx), %rax
	leal	-1(,%rcx,8), %edx
	pushq	%rcx
	movl	%edx, %ecx
	subl	$7, %ecx
	shrq	%cl, %rax
	popq	%rcx
	andl	$0xff, %eax
	pushq	%rcx
	call	sha_byte
	popq	%rcx
	loop	6b
	/* compare H (big-endian words) with the digest */
	movq	0x68(%rbx), %rbp
	xorl	%edx, %edx
	xorl	%ecx, %ecx
7:	movl	(%rbx,%rcx,4), %eax
	bswapl	%eax
	xorl	PURG_DIGEST(%rbp,%rcx,4), %eax
	orl	%eax, %edx
	incl	%ecx
	cmpl	$8, %ecx
	jne	7b
	xorl	%eax, %eax
	testl	%edx, %edx
	setnz	%al
	addq	$0x1a0, %rsp
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbp
	popq	%rbx
	ret

/* Append the byte in %al to the message; a full block is compressed. */
sha_byte:
	movq	0x60(%rbx), %rdx
	andl	$63, %edx
	movb	%al, 0x20(%rbx,%rdx)
	incq	0x60(%rbx)
	cmpl	$63, %edx
	jne	1f
	call	sha_block
1:	ret

/* FIPS 180-4 6.2.2: compress the block at 0x20(%rbx) into H. */
sha_block:
	xorl	%ecx, %ecx
1:	movl	0x20(%rbx,%rcx,4), %eax
	bswapl	%eax
	movl	%eax, 0xa0(%rbx,%rcx,4)
	incl	%ecx
	cmpl	$16, %ecx
	jne	1b
2:	movl	0xa0-60(%rbx,%rcx,4), %eax	/* W[i-15] */
	movl	%eax, %edx
	rorl	$7, %eax
	movl	%edx, %esi
	rorl	$18, %esi
	xorl	%esi, %eax
	shrl	$3, %edx
	xorl	%edx, %eax			/* s0 */
	movl	0xa0-8(%rbx,%rcx,4), %edx	/* W[i-2] */
	movl	%edx, %esi
	rorl	$17, %esi
	movl	%edx, %edi
	rorl	$19, %edi
	xorl	%edi, %esi
	shrl	$10, %edx
	xorl	%edx, %esi			/* s1 */
	addl	%esi, %eax
	addl	0xa0-64(%rbx,%rcx,4), %eax	/* W[i-16] */
	addl	0xa0-28(%rbx,%rcx,4), %eax	/* W[i-7] */
	movl	%eax, 0xa0(%rbx,%rcx,4)
	incl	%ecx
	cmpl	$64, %ecx
	jne	2b
	movl	0(%rbx), %r8d
	movl	4(%rbx), %r9d
	movl	8(%rbx), %r10d
	movl	12(%rbx), %r11d
	movl	16(%rbx), %r12d
	movl	20(%rbx), %r13d
	movl	24(%rbx), %r14d
	movl	28(%rbx), %r15d
	leaq	sha_k(%rip), %rbp
	xorl	%ecx, %ecx
3:	movl	%r12d, %eax		/* S1(e) */
	rorl	$6, %eax
	movl	%r12d, %edx
	rorl	$11, %edx
	xorl	%edx, %eax
	movl	%r12d, %edx
	rorl	$25, %edx
	xorl	%edx, %eax
	movl	%r12d, %edx		/* ch(e,f,g) */
	andl	%r13d, %edx
	movl	%r12d, %esi
	notl	%esi
	andl	%r14d, %esi
	xorl	%esi, %edx
	addl	%edx, %eax
	addl	%r15d, %eax
	addl	(%rbp,%rcx,4), %eax
	addl	0xa0(%rbx,%rcx,4), %eax	/* t1 */
	movl	%r8d, %edx		/* S0(a) */
	rorl	$2, %edx
	movl	%r8d, %esi
	rorl	$13, %esi
	xorl	%esi, %edx
	movl	%r8d, %esi
	rorl	$22, %esi
	xorl	%esi, %edx
	movl	%r8d, %esi		/* maj(a,b,c) */
	andl	%r9d, %esi
	movl	%r8d, %edi
	andl	%r10d, %edi
	xorl	%edi, %esi
	movl	%r9d, %edi
	andl	%r10d, %edi
	xorl	%edi, %esi
	addl	%esi, %edx		/* t2 */
	movl	%r14d, %r15d
	movl	%r13d, %r14d
	movl	%r12d, %r13d
	movl	%r11d, %r12d
	addl	%eax, %r12d
	movl	%r10d, %r11d
	movl	%r9d, %r10d
	movl	%r8d, %r9d
	movl	%eax, %r8d
	addl	%edx, %r8d
	incl	%ecx
	cmpl	$64, %ecx
	jne	3b
	addl	%r8d, 0(%rbx)
	addl	%r9d, 4(%rbx)
	addl	%r10d, 8(%rbx)
	addl	%r11d, 12(%rbx)
	addl	%r12d, 16(%rbx)
	addl	%r13d, 20(%rbx)
	addl	%r14d, 24(%rbx)
	addl	%r15d, 28(%rbx)
	ret

purg_main:
	cli
	cld
	lgdt	FIELD(PURG_GDTR)
	movq	FIELD(PURG_STACK), %rsp
	leaq	1f(%rip), %rax
	pushq	$PURG_CS
	pushq	%rax
	lretq
1:	movl	$PURG_DS, %eax
	movl	%eax, %ds
	movl	%eax, %es
	movl	%eax, %ss
	movl	%eax, %fs
	movl	%eax, %gs
	cmpl	$0, FIELD(PURG_SHA_ON)
	je	2f
	leaq	kexec_purgatory_start(%rip), %rdi
	call	purg_check
	testl	%eax, %eax
	jnz	3f
2:	cmpl	$0, FIELD(PURG_MAGIC)
	jne	purg_mb32
	/* after the check (it reads segments above 4 GiB through the old
	 * tables): our identity map of 0-4 GiB, one level more under LA57 */
	movq	FIELD(PURG_PML4), %rax
	testq	%rax, %rax
	jz	4f
	movq	%cr4, %rdx
	btq	$12, %rdx
	jnc	5f
	subq	$0x1000, %rax
5:	movq	%rax, %cr3
4:	movq	FIELD(PURG_RSI), %rsi
	movq	FIELD(PURG_RIP), %rax
	xorl	%ebx, %ebx
	xorl	%ebp, %ebp
	xorl	%edi, %edi
	jmpq	*%rax
3:	hlt				/* a segment changed: never boot it */
	jmp	3b

/* A multiboot kernel: Intel SDM vol. 3, 9.8.5.4 "Switching out of IA-32e
 * mode": into compatibility mode through the 32-bit code segment, paging
 * off (this code is identity mapped and below 4 GiB), EFER.LME off; then
 * what multiboot2 spec 3.3 asks: flat 32-bit segments, the magic in %eax,
 * the boot information in %ebx, interrupts off. */
purg_mb32:
	movl	FIELD(PURG_MAGIC), %ebp
	movl	FIELD(PURG_RSI), %ebx
	movl	FIELD(PURG_RIP), %edi
	leaq	6f(%rip), %rax
	pushq	$PURG_CS32
	pushq	%rax
	lretq
	.code32
6:	movl	%cr0, %eax
	andl	$0x7fffffff, %eax	/* CR0.PG: long mode is left */
	movl	%eax, %cr0
	movl	$0xc0000080, %ecx	/* IA32_EFER */
	rdmsr
	andl	$0xfffffeff, %eax	/* LME */
	wrmsr
	xorl	%eax, %eax
	movl	%eax, %cr4		/* no PAE, no LA57: plain paging off */
	movl	$PURG_DS, %eax
	movl	%eax, %ds
	movl	%eax, %es
	movl	%eax, %fs
	movl	%eax, %gs
	movl	%eax, %ss
	movl	%ebp, %eax
	xorl	%ecx, %ecx
	xorl	%edx, %edx
	xorl	%esi, %esi
	xorl	%ebp, %ebp
	jmp	*%edi
	.code64

	.balign 4
sha_h0:
	.long	0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a
	.long	0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19
sha_k:
	.long	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5
	.long	0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5
	.long	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3
	.long	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174
	.long	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc
	.long	0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da
	.long	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7
	.long	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967
	.long	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13
	.long	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85
	.long	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3
	.long	0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070
	.long	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5
	.long	0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3
	.long	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208
	.long	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
kexec_purgatory_end:

	.section .note.GNU-stack, "", @progbits
