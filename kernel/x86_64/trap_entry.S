/* SPDX-License-Identifier: GPL-2.0-only */
/* One entry stub per vector; all save a struct trap_frame and call trap_dispatch. */
/*
 * Each stub pushes a zero where the CPU pushes no error code, then its
 * vector number, and jumps to trap_common, which saves the general
 * registers in the order of struct trap_frame (x86_64/trap.h) and calls
 * trap_dispatch(frame).  trap_stubs[] holds the address of every stub.
 */
#include "x86_64/trap_frame.h"

	.text
	.balign 16
	.globl trap_stub_0
trap_stub_0:
	vector = 0
	.rept 256
	.balign 16
	.if !(vector == 8 || vector == 10 || vector == 11 || vector == 12 || vector == 13 || vector == 14 || vector == 17 || vector == 21 || vector == 29 || vector == 30)
	pushq $0
	.endif
	pushq $vector
	jmp trap_common
	vector = vector + 1
	.endr

trap_common:
	/* From user mode (saved CS has RPL 3): take the kernel's GS base. */
	testb $3, 24(%rsp)
	jz 1f
	swapgs
1:	TRAP_FRAME_PUSH
	cld
	movq %rsp, %rdi
	/* Align the stack for C; the frame pointer chain continues into the
	 * interrupted code through the saved %rbp. */
	movq %rsp, %rbx
	andq $-16, %rsp
	call trap_dispatch
	movq %rbx, %rsp
	.globl trap_return
trap_return:
	TRAP_FRAME_POP
	addq $16, %rsp
	testb $3, 8(%rsp)
	jz 2f
	swapgs
2:	iretq

	.section .rodata
	.balign 8
	.globl trap_stubs
trap_stubs:
	vector = 0
	.rept 256
	.quad trap_stub_0 + vector * 16
	vector = vector + 1
	.endr

	.section .note.GNU-stack, "", @progbits
