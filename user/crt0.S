/* SPDX-License-Identifier: GPL-2.0-only */
/* Entry of a Graft user program: %rdi holds its command line (kern/bootstrap.h). */
	.text
	.globl _start
_start:
	xorl %ebp, %ebp
	andq $-16, %rsp
	call graft_start
	ud2

	.section .note.GNU-stack, "", @progbits
