/* SPDX-License-Identifier: GPL-2.0-only */
/* lxdrv_switch, lxdrv_thread_entry: the context switch between the server's threads (sched.c). */
/*
 * lxdrv_switch(&from_sp, to_sp): push the callee-saved registers on the
 * current stack, store %rsp in *from_sp, load to_sp and pop the other
 * thread's; it returns in that thread.  A new thread's stack is laid
 * out by sched.c as if it had switched away at the start of
 * lxdrv_thread_entry, which calls lxdrv_thread_main() (never returns).
 */
	.text

	.globl	lxdrv_switch
	.type	lxdrv_switch, @function
lxdrv_switch:
	pushq	%rbp
	pushq	%rbx
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	movq	%rsp, (%rdi)
	movq	%rsi, %rsp
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbx
	popq	%rbp
	ret
	.size	lxdrv_switch, . - lxdrv_switch

	.globl	lxdrv_thread_entry
	.type	lxdrv_thread_entry, @function
lxdrv_thread_entry:
	xorl	%ebp, %ebp
	call	lxdrv_thread_main
	ud2
	.size	lxdrv_thread_entry, . - lxdrv_thread_entry

	.section .note.GNU-stack, "", @progbits
