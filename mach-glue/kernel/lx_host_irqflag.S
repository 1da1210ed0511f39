/* SPDX-License-Identifier: GPL-2.0-only */
/* lx_host_irq_save_fl, lx_host_irq_disable, lx_host_irq_enable inside the kernel: the CPU's own interrupt flag, touching no register but %rax. */
	.text

	.globl	lx_host_irq_save_fl
	.type	lx_host_irq_save_fl, @function
lx_host_irq_save_fl:
	pushfq
	popq	%rax
	andl	$0x200, %eax
	ret
	.size	lx_host_irq_save_fl, . - lx_host_irq_save_fl

	.globl	lx_host_irq_disable
	.type	lx_host_irq_disable, @function
lx_host_irq_disable:
	cli
	ret
	.size	lx_host_irq_disable, . - lx_host_irq_disable

	.globl	lx_host_irq_enable
	.type	lx_host_irq_enable, @function
lx_host_irq_enable:
	sti
	ret
	.size	lx_host_irq_enable, . - lx_host_irq_enable

	.section .note.GNU-stack, "", @progbits
