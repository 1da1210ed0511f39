/* SPDX-License-Identifier: GPL-2.0-only */
/* Mach traps through the syscall instruction, as GNU Mach's x86_64 ABI has them. */
#ifndef X86_64_SYSCALL_H
#define X86_64_SYSCALL_H

/*
 * A task executes syscall with %eax = the negative trap number of
 * mach/syscall_sw.h (mach_msg_trap is -25) and the arguments in %rdi,
 * %rsi, %rdx, %r10, %r8, %r9; a seventh lies on the user stack just above
 * the return address ([%rsp + 8]), where the caller of the trap stub put
 * it.  The result comes back in %rax; %rcx and %r11 are clobbered, every
 * other register is preserved.
 */
#define SYSCALL_VECTOR	0x100	/* struct trap_frame.vector of a syscall */

#ifndef __ASSEMBLER__
#include "x86_64/trap.h"

/* Program the syscall MSRs (STAR, LSTAR, SFMASK, EFER.SCE).  Once, at
 * boot, after gdt_init() and cpu_local_init(). */
void syscall_init(void);

/* Called by syscall_entry with interrupts on: runs trap number
 * (int32_t)f->rax and stores its result in f->rax. */
void syscall_dispatch(struct trap_frame *f);
#endif

#endif
