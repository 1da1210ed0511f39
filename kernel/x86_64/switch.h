/* SPDX-License-Identifier: GPL-2.0-only */
/* Switching kernel stacks between threads. */
#ifndef X86_64_SWITCH_H
#define X86_64_SWITCH_H

#include <stdint.h>

/*
 * switch_context - save the callee-saved registers and RFLAGS on the
 * current stack, store the stack pointer in *@old_rsp, load @new_rsp and
 * restore what is saved there.  Returns when something switches back.
 * Call with interrupts off; RFLAGS (and so the interrupt flag) is the
 * resumed thread's own.
 */
void switch_context(uint64_t *old_rsp, uint64_t new_rsp);

/*
 * switch_stack_init - prepare the top of a new stack [@base, @base+@size)
 * so that the first switch_context() to it calls @start() with interrupts
 * off.  Returns the stack pointer to pass as @new_rsp.  @start must never
 * return.
 */
uint64_t switch_stack_init(void *base, uint64_t size, void (*start)(void));

#endif
