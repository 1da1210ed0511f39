/* SPDX-License-Identifier: GPL-2.0-only */
/* Non-local jumps inside the kernel (resuming a test after a caught trap). */
#ifndef X86_64_JMP_H
#define X86_64_JMP_H

#include <stdint.h>

struct jmp_buf {
	uint64_t rbx, rbp, r12, r13, r14, r15, rsp, rip;
};

/* Save the callee-saved registers; returns 0 now, and @val (never 0) when
 * jmp_restore() later returns here.  The caller's frame must still exist. */
int jmp_save(struct jmp_buf *jb) __attribute__((returns_twice));

/* Resume at the jmp_save() that filled @jb, making it return @val. */
void jmp_restore(struct jmp_buf *jb, int val) __attribute__((noreturn));

#endif
