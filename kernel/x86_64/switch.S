/* SPDX-License-Identifier: GPL-2.0-only */
/* switch_context and switch_stack_init: see x86_64/switch.h. */
	.text
	.globl switch_context
switch_context:
	pushq %rbp
	movq %rsp, %rbp
	pushfq
	pushq %rbx
	pushq %r12
	pushq %r13
	pushq %r14
	pushq %r15
	movq %rsp, (%rdi)
	movq %rsi, %rsp
	popq %r15
	popq %r14
	popq %r13
	popq %r12
	popq %rbx
	popfq
	popq %rbp
	ret

/*
 * A new stack holds, from its top: a zero (end of the frame chain), the
 * start function as return address, a zero %rbp, RFLAGS with interrupts
 * off, and zeros for %rbx and %r12-%r15: what switch_context pops.
 */
	.globl switch_stack_init
switch_stack_init:
	leaq (%rdi, %rsi), %rax
	andq $-16, %rax
	movq $0, -8(%rax)
	movq %rdx, -16(%rax)
	movq $0, -24(%rax)	/* rbp */
	movq $0x2, -32(%rax)	/* rflags: IF clear */
	movq $0, -40(%rax)	/* rbx */
	movq $0, -48(%rax)	/* r12 */
	movq $0, -56(%rax)	/* r13 */
	movq $0, -64(%rax)	/* r14 */
	movq $0, -72(%rax)	/* r15 */
	subq $72, %rax
	ret

	.section .note.GNU-stack, "", @progbits
