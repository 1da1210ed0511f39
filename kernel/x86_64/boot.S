/* SPDX-License-Identifier: GPL-2.0-only */
/* Multiboot entry: from 32-bit protected mode to the higher-half kernel. */
/*
 * The loader enters _start32 in 32-bit protected mode, paging off, with
 * EAX = multiboot magic and EBX = physical address of the multiboot info.
 * We check for long mode, build page tables that map the first 4 GiB three
 * times (identity, higher half, direct map) with 2 MiB pages, enable PAE,
 * long mode and paging, and jump to kmain(magic, info) in the higher half.
 * Code here runs at physical addresses, so kernel symbols are used through
 * PHYS().
 */
#include "x86_64/layout.h"

#define MB_MAGIC	0x1BADB002
#define MB_FLAGS	((1 << 0) | (1 << 1) | (1 << 16))

#define PTE_P		0x001
#define PTE_W		0x002
#define PTE_PS		0x080

#define CR0_PE		(1 << 0)
#define CR0_WP		(1 << 16)
#define CR0_PG		(1 << 31)
#define CR4_PAE		(1 << 5)
#define MSR_EFER	0xc0000080
#define EFER_LME	(1 << 8)
#define EFER_NXE	(1 << 11)

	.section .boot.header, "a"
	.balign 4
mb_header:
	.long MB_MAGIC
	.long MB_FLAGS
	.long -(MB_MAGIC + MB_FLAGS)
	.long mb_header
	.long _load_start_phys
	.long _load_end_phys
	.long _bss_end_phys
	.long _start32

	.section .boot.text, "ax"
	.code32
	.globl _start32
_start32:
	cli
	cld
	movl %eax, %edi
	movl %ebx, %esi
	movl $PHYS(boot_stack_top), %esp

	/* Long mode available?  CPUID clobbers EBX and EDX only. */
	movl $0x80000000, %eax
	cpuid
	cmpl $0x80000001, %eax
	jb no_long_mode
	movl $0x80000001, %eax
	cpuid
	btl $29, %edx
	jnc no_long_mode

	/* 2048 2 MiB pages: physical [0, 4 GiB) in four page directories. */
	xorl %ecx, %ecx
1:	movl %ecx, %eax
	shll $21, %eax
	orl $(PTE_P | PTE_W | PTE_PS), %eax
	movl %eax, PHYS(boot_pd)(, %ecx, 8)
	movl $0, PHYS(boot_pd) + 4(, %ecx, 8)
	incl %ecx
	cmpl $2048, %ecx
	jne 1b

	/* Direct map: one PDPT entry per page directory. */
	xorl %ecx, %ecx
	movl $PHYS(boot_pd) + (PTE_P | PTE_W), %eax
2:	movl %eax, PHYS(boot_pdpt_direct)(, %ecx, 8)
	addl $4096, %eax
	incl %ecx
	cmpl $4, %ecx
	jne 2b

	/* Identity and higher half share the first page directory. */
	movl $PHYS(boot_pd) + (PTE_P | PTE_W), %eax
	movl %eax, PHYS(boot_pdpt_low)
	movl %eax, PHYS(boot_pdpt_high) + 510 * 8

	movl $PHYS(boot_pdpt_low) + (PTE_P | PTE_W), %eax
	movl %eax, PHYS(boot_pml4)
	movl $PHYS(boot_pdpt_direct) + (PTE_P | PTE_W), %eax
	movl %eax, PHYS(boot_pml4) + DIRECT_MAP_PML4 * 8
	movl $PHYS(boot_pdpt_high) + (PTE_P | PTE_W), %eax
	movl %eax, PHYS(boot_pml4) + 511 * 8

	movl $PHYS(boot_pml4), %eax
	movl %eax, %cr3
	movl %cr4, %eax
	orl $CR4_PAE, %eax
	movl %eax, %cr4
	movl $MSR_EFER, %ecx
	rdmsr
	orl $(EFER_LME | EFER_NXE), %eax
	wrmsr
	movl %cr0, %eax
	orl $(CR0_PE | CR0_PG | CR0_WP), %eax
	movl %eax, %cr0

	lgdt boot_gdt_desc
	ljmp $0x08, $start64_low

	/* No long mode: say so on the VGA screen and COM1, then stop. */
no_long_mode:
	movl $no_lm_msg, %esi
	movl $0xb8000, %edi
3:	movb (%esi), %al
	testb %al, %al
	jz 5f
	movb %al, (%edi)
	movb $0x4f, 1(%edi)
	addl $2, %edi
	movw $0x3fd, %dx
4:	inb %dx, %al
	testb $0x20, %al
	jz 4b
	movb (%esi), %al
	movw $0x3f8, %dx
	outb %al, %dx
	incl %esi
	jmp 3b
5:	hlt
	jmp 5b

	.code64
start64_low:
	movabsq $start64_high, %rax
	jmp *%rax

	.section .boot.data, "a"
no_lm_msg:
	.asciz "Graft: this CPU has no long mode (x86_64); stopping.\r\n"
	.balign 8
boot_gdt:
	.quad 0
	.quad 0x00af9a000000ffff	/* 0x08: 64-bit code */
	.quad 0x00cf92000000ffff	/* 0x10: data */
boot_gdt_end:
boot_gdt_desc:
	.word boot_gdt_end - boot_gdt - 1
	.long boot_gdt

	.text
start64_high:
	movabsq $boot_stack_top, %rsp
	xorl %ebp, %ebp
	movl $0x10, %eax
	movl %eax, %ds
	movl %eax, %es
	movl %eax, %ss
	xorl %eax, %eax
	movl %eax, %fs
	movl %eax, %gs
	/* Upper halves are undefined after the mode switch. */
	movl %edi, %edi
	movl %esi, %esi
	call kmain
6:	cli
	hlt
	jmp 6b

	.bss
	.balign 4096
	.globl boot_pml4
boot_pml4:
	.skip 4096
boot_pdpt_low:
	.skip 4096
boot_pdpt_high:
	.skip 4096
boot_pdpt_direct:
	.skip 4096
boot_pd:
	.skip 4 * 4096
	.balign 16
boot_stack:
	.skip 16384
	.globl boot_stack_top
boot_stack_top:

	.section .note.GNU-stack, "", @progbits
