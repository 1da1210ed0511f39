/* SPDX-License-Identifier: GPL-2.0-only */
/* The syscall instruction's entry, and a thread's return to user mode through a given frame. */
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
 * thread_state_return(frame): leave for user mode through @frame, a
 * struct trap_frame (x86_64/thread_state.h), as a system call returns.
 */
	.globl thread_state_return
thread_state_return:
	cli
	movq %rdi, %rsp
	jmp trap_return

	.section .note.GNU-stack, "", @progbits
