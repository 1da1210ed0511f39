/* SPDX-License-Identifier: GPL-2.0-only */
/* lx_host_irq_save_fl, lx_host_irq_disable, lx_host_irq_enable in the server: the running thread's interrupt flag, a variable (sched.c saves it per thread). */
/*
 * lxdrv_irq_flag is 0x200 (EFLAGS.IF) while interrupts are on for the
 * running thread.  The event loop delivers interrupts only between
 * threads and in lx_host_delay_ns while it is on (sched.c).  Only %rax
 * is touched, as Linux's paravirt call sites require.
 */
	.text

	.globl	lx_host_irq_save_fl
	.type	lx_host_irq_save_fl, @function
lx_host_irq_save_fl:
	movq	lxdrv_irq_flag(%rip), %rax
	ret
	.size	lx_host_irq_save_fl, . - lx_host_irq_save_fl

	.globl	lx_host_irq_disable
	.type	lx_host_irq_disable, @function
lx_host_irq_disable:
	movq	$0, lxdrv_irq_flag(%rip)
	ret
	.size	lx_host_irq_disable, . - lx_host_irq_disable

	.globl	lx_host_irq_enable
	.type	lx_host_irq_enable, @function
lx_host_irq_enable:
	movq	$0x200, lxdrv_irq_flag(%rip)
	ret
	.size	lx_host_irq_enable, . - lx_host_irq_enable

	.section .note.GNU-stack, "", @progbits
