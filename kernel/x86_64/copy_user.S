/* SPDX-License-Identifier: GPL-2.0-only */
/* The user-memory copy loop, at known addresses so its faults can fail. */
/*
 * copy_user_bytes(dst, src, n) copies @n bytes with rep movsq, then rep
 * movsb for the last n % 8, and returns 0.  A page fault at a user address inside [copy_user_loop,
 * copy_user_loop_end) that vm_map_fault() cannot resolve is resumed at
 * copy_user_fail (see copy_fault_fixup() in copy.c), which returns -1; a
 * fault it resolves resumes the rep movs where it stopped.  Only copy.c
 * calls it, after checking the user range.
 */
	.text
	.globl copy_user_bytes
	.globl copy_user_loop
	.globl copy_user_loop_end
	.globl copy_user_fail
copy_user_bytes:
	movq %rdx, %rcx
	shrq $3, %rcx
	andl $7, %edx
copy_user_loop:
	rep movsq
	movq %rdx, %rcx
	rep movsb
copy_user_loop_end:
	xorl %eax, %eax
	ret
copy_user_fail:
	movl $-1, %eax
	ret

	.section .note.GNU-stack, "", @progbits
