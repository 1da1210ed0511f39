/* SPDX-License-Identifier: GPL-2.0-only */
/* The user registers of a user thread: where they live and how Mach reads and writes them. */
#ifndef X86_64_THREAD_STATE_H
#define X86_64_THREAD_STATE_H

#include <stdint.h>

#include <mach/kern_return.h>
#include <mach/machine/vm_types.h>

#include "x86_64/trap.h"

struct thread;

/*
 * A user thread that is not running user code is in the kernel, so its
 * user registers are the struct trap_frame at the top of its kernel stack
 * (what syscall_entry and trap_common save, and what trap_return loads).
 * A new user thread gets that frame before it first runs, so reading and
 * writing another thread's registers is reading and writing its frame.
 *
 * Flavours: gnumach-dev 1.8+git20221224 defines for x86_64 only the 32-bit
 * i386_THREAD_STATE / i386_REGS_SEGS_STATE (struct i386_thread_state,
 * unsigned int registers).  Reading truncates the 64-bit registers to
 * their low halves; writing zero-extends them (so a thread started this
 * way needs its code and stack below 4 GiB) and leaves %r8-%r15 as they
 * were.  Graft's GRAFT_THREAD_STATE_X86_64 (defs/graft/thread_state.h)
 * reads and writes the whole 64-bit registers.  Other flavours are
 * KERN_INVALID_ARGUMENT.
 */

/* The frame of user thread @t (its saved user registers). */
struct trap_frame *thread_state_frame(const struct thread *t);

/* thread_state_init - @f as a new user thread starts: every register
 * zero, the user code and data selectors, interrupts enabled. */
void thread_state_init(struct trap_frame *f);

/*
 * thread_state_set_entry - point @f at @rip with stack @rsp and @arg in
 * %rdi.  KERN_SUCCESS, or KERN_INVALID_ARGUMENT if @rip is not below
 * VM_MAX_ADDRESS or @rsp above it (kernel or non-canonical addresses);
 * @f is then unchanged.  Nothing user-supplied reaches iretq without
 * this check.  Page 0 is allowed: the thread then faults in user mode,
 * which ends its task, not the kernel (and a new thread's zero state
 * reads back and writes again unchanged).
 */
kern_return_t thread_state_set_entry(struct trap_frame *f, uint64_t rip,
				     uint64_t rsp, uint64_t arg);

/*
 * thread_state_get - copy @flavor of @f's registers into @state, which
 * has room for *@count words; *@count becomes the words written.
 * KERN_SUCCESS, or KERN_INVALID_ARGUMENT (unknown flavour, or *@count
 * too small).
 */
kern_return_t thread_state_get(const struct trap_frame *f, int flavor,
			       natural_t *state, natural_t *count);

/*
 * thread_state_set - load @flavor from @state (@count words) into @f.
 * Validates everything first: KERN_INVALID_ARGUMENT for an unknown
 * flavour, @count below the flavour's size, a code or stack selector
 * other than the user ones, a data selector other than 0 or the user
 * data selector, or an address thread_state_set_entry refuses; @f is then
 * unchanged.  RFLAGS keeps only the arithmetic flags, DF, AC and ID, with
 * interrupts always enabled (as GNU Mach does).
 */
kern_return_t thread_state_set(struct trap_frame *f, int flavor,
			       const natural_t *state, natural_t count);

/* thread_state_return - leave the kernel for user mode through @f (on
 * the current kernel stack).  Never returns. */
void thread_state_return(struct trap_frame *f) __attribute__((noreturn));

#endif
