/* SPDX-License-Identifier: GPL-2.0-only */
/* The syscall instruction's entry, and a thread's return to user mode through a given frame. */
/*
 * syscall leaves the user RIP in %rcx and RFLAGS in %r11, masks RFLAGS
 * (interrupts off) and loads the kernel CS/SS, but keeps the user stack.
 * We switch to the thread's kernel stack and build the same struct
 * trap_frame an exception builds (vector SYSCALL_VECTOR), so a thread in a
 * system call can be preempted, and report its state, like any other.
 * The way back is sysretq when the frame still holds what syscall left
 * (user selectors, the return address in %rcx and the flags in %r11,
 * which sysretq loads) and the return address is a user one (canonical:
 * sysretq to another faults in the kernel); else, for a thread whose
 * state was set meanwhile, the iretq of the exception path, which
 * restores every register of the frame.
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
	cmpq $SEL_UCODE, TRAP_FRAME_CS(%rsp)
	jne trap_return
	cmpq $SEL_UDATA, TRAP_FRAME_SS(%rsp)
	jne trap_return
	movq TRAP_FRAME_RIP(%rsp), %rcx
	cmpq %rcx, TRAP_FRAME_RCX(%rsp)
	jne trap_return
	movq TRAP_FRAME_RFLAGS(%rsp), %r11
	cmpq %r11, TRAP_FRAME_R11(%rsp)
	jne trap_return
	shrq $47, %rcx			/* a user address is below 2^47 */
	jnz trap_return
	TRAP_FRAME_POP			/* %rsp at the vector */
	movq TRAP_FRAME_RSP - TRAP_FRAME_VECTOR(%rsp), %rsp
	swapgs
	sysretq

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
