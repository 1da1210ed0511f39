/* SPDX-License-Identifier: GPL-2.0-only */
/* thread_get_state / thread_set_state flavour GRAFT_THREAD_STATE_X86_64: a user thread's 64-bit registers. */
#ifndef GRAFT_THREAD_STATE_H
#define GRAFT_THREAD_STATE_H

#include <stdint.h>

/*
 * gnumach-dev's x86_64 headers define only the 32-bit i386_THREAD_STATE,
 * whose registers are the low halves of a 64-bit thread's.  This flavour
 * carries the whole general registers, the instruction pointer, the
 * flags and the stack pointer, as GRAFT_THREAD_STATE_X86_64_COUNT words
 * (copy it with memcpy: the words are only 4-byte aligned).
 *
 * thread_get_state with a count below the flavour's is
 * KERN_INVALID_ARGUMENT; thread_set_state validates before it writes:
 * a count below the flavour's, an rip at or above the top of user space
 * or an rsp above it is KERN_INVALID_ARGUMENT, the thread unchanged.  Of
 * rflags only what a thread may set for itself is taken (CF PF AF ZF SF
 * DF OF AC ID); interrupts stay enabled.  The segment registers are not
 * part of it: a user thread's are fixed.
 */
#define GRAFT_THREAD_STATE_X86_64	(('g' << 16) + 2)

struct graft_thread_state_x86_64 {
	uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
	uint64_t rbp, rdi, rsi, rdx, rcx, rbx, rax;
	uint64_t rip, rflags, rsp;
};

#define GRAFT_THREAD_STATE_X86_64_COUNT \
	(sizeof(struct graft_thread_state_x86_64) / sizeof(unsigned int))

#endif
