/* SPDX-License-Identifier: GPL-2.0-only */
/* The syscall instruction's entry, and the first entry of a thread into user mode. */
/*
 * syscall leaves the user RIP in %rcx and RFLAGS in %r11, masks RFLAGS
 * (interrupts off) and loads the kernel CS/SS, but keeps the user stack.
 * We switch to the thread's kernel stack and build the same struct
 * trap_frame an exception builds (vector SYSCALL_VECTOR), so a thread in a
 * system call can be preempted, and report its state, like any other;
 * the way back is the iretq of the exception path.
 */
#include "x86_64/cpu_local.h"
#include "x86_64/gdt.h"
#include "x86_64/syscall.h"
#include "x86_64/trap_frame.h"

	.text
	.globl syscall_entry
syscall_entry:
	swapgs
	movq %rsp, %gs:CPU_LOCAL_USER_RSP
	movq %gs:CPU_LOCAL_KERNEL_RSP, %rsp
	pushq $SEL_UDATA
	pushq %gs:CPU_LOCAL_USER_RSP
	pushq %r11
	pushq $SEL_UCODE
	pushq %rcx
	pushq $0
	pushq $SYSCALL_VECTOR
	TRAP_FRAME_PUSH
	xorl %ebp, %ebp		/* end of the kernel's frame chain */
	movq %rsp, %rdi
	sti
	call syscall_dispatch
	cli
	jmp trap_return

/*
 * user_enter(rip, rsp, arg): leave the kernel for the first time in this
 * thread, at @rip with stack @rsp and @arg in %rdi; every other register
 * zero.  Interrupts are enabled by the RFLAGS loaded.
 */
	.globl user_enter
user_enter:
	cli
	pushq $SEL_UDATA
	pushq %rsi
	pushq $0x202
	pushq $SEL_UCODE
	pushq %rdi
	movq %rdx, %rdi
	xorl %eax, %eax
	xorl %ebx, %ebx
	xorl %ecx, %ecx
	xorl %edx, %edx
	xorl %esi, %esi
	xorl %ebp, %ebp
	xorl %r8d, %r8d
	xorl %r9d, %r9d
	xorl %r10d, %r10d
	xorl %r11d, %r11d
	xorl %r12d, %r12d
	xorl %r13d, %r13d
	xorl %r14d, %r14d
	xorl %r15d, %r15d
	swapgs
	iretq

	.section .note.GNU-stack, "", @progbits
