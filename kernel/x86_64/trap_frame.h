/* SPDX-License-Identifier: GPL-2.0-only */
/* Saving and restoring the general registers of a struct trap_frame, for assembly. */
#ifndef X86_64_TRAP_FRAME_H
#define X86_64_TRAP_FRAME_H

/* Byte offsets of fields of struct trap_frame (x86_64/trap.h; checked in
 * thread_state.c). */
#define TRAP_FRAME_R11		32
#define TRAP_FRAME_RCX		96
#define TRAP_FRAME_VECTOR	120
#define TRAP_FRAME_RIP		136
#define TRAP_FRAME_CS		144
#define TRAP_FRAME_RFLAGS	152
#define TRAP_FRAME_RSP		160
#define TRAP_FRAME_SS		168

/* The order of struct trap_frame (x86_64/trap.h), last pushed first. */
#define TRAP_FRAME_PUSH	\
	pushq %rax;	\
	pushq %rbx;	\
	pushq %rcx;	\
	pushq %rdx;	\
	pushq %rsi;	\
	pushq %rdi;	\
	pushq %rbp;	\
	pushq %r8;	\
	pushq %r9;	\
	pushq %r10;	\
	pushq %r11;	\
	pushq %r12;	\
	pushq %r13;	\
	pushq %r14;	\
	pushq %r15

#define TRAP_FRAME_POP	\
	popq %r15;	\
	popq %r14;	\
	popq %r13;	\
	popq %r12;	\
	popq %r11;	\
	popq %r10;	\
	popq %r9;	\
	popq %r8;	\
	popq %rbp;	\
	popq %rdi;	\
	popq %rsi;	\
	popq %rdx;	\
	popq %rcx;	\
	popq %rbx;	\
	popq %rax

#endif
