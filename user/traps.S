/* SPDX-License-Identifier: GPL-2.0-only */
/* Mach trap stubs: the syscall instruction with GNU Mach's x86_64 numbers. */
/*
 * Arguments arrive in the System V registers; the fourth moves from %rcx
 * to %r10 because syscall overwrites %rcx.  A seventh argument stays on the
 * stack just above our return address, where the kernel reads it.
 */
#define TRAP(name, number)	\
	.globl name;		\
	.type name, @function;	\
name:				\
	movq %rcx, %r10;	\
	movl $number, %eax;	\
	syscall;		\
	ret

	.text
TRAP(mach_msg_trap, -25)
TRAP(mach_reply_port, -26)
TRAP(mach_thread_self, -27)
TRAP(mach_task_self_trap, -28)
TRAP(mach_host_self_trap, -29)
TRAP(mach_print, -30)
TRAP(swtch_pri, -59)
TRAP(swtch, -60)
TRAP(thread_switch, -61)
TRAP(syscall_vm_deallocate, -66)

	.section .note.GNU-stack, "", @progbits
