/* SPDX-License-Identifier: GPL-2.0-only */
/* CPU exceptions: the saved register frame, the report, and catching a trap in tests. */
#ifndef X86_64_TRAP_H
#define X86_64_TRAP_H

#include <stdint.h>

#include <mach/vm_prot.h>

#include "x86_64/jmp.h"

#define TRAP_DE		0
#define TRAP_DB		1
#define TRAP_NMI	2
#define TRAP_BP		3
#define TRAP_UD		6
#define TRAP_DF		8
#define TRAP_GP		13
#define TRAP_PF		14

/* Page-fault error code bits. */
#define TRAP_PF_PRESENT	(1u << 0)	/* protection, not a missing page */
#define TRAP_PF_WRITE	(1u << 1)
#define TRAP_PF_USER	(1u << 2)
#define TRAP_PF_RSVD	(1u << 3)	/* a reserved bit set in an entry */
#define TRAP_PF_FETCH	(1u << 4)

/* What trap_entry.S saves, lowest address first. */
struct trap_frame {
	uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
	uint64_t rbp, rdi, rsi, rdx, rcx, rbx, rax;
	uint64_t vector, error;
	uint64_t rip, cs, rflags, rsp, ss;	/* pushed by the CPU */
};

/*
 * A catch point for the next CPU exception, for tests that fault on
 * purpose.  While armed, an exception prints its report under an
 * "expected trap" heading (not "*** PANIC"), records what happened here and
 * resumes at trap_catch_enter(), which then returns 1 with interrupts on
 * again if they were on when the catch was armed.
 */
struct trap_catch {
	struct jmp_buf jb;
	uint64_t vector, error, rip, cr2;
	uint64_t rflags;	/* at arming, for its IF */
};

/* Arm @c; use through trap_catch_enter().  Only one catch is armed at once. */
void trap_catch_arm(struct trap_catch *c);

/* Disarm the current catch (call when the expected trap did not come). */
void trap_catch_disarm(void);

/* 0 on arming, 1 when resumed after a caught trap (then @c is filled). */
#define trap_catch_enter(c) (trap_catch_arm(c), jmp_save(&(c)->jb))

/*
 * Called by trap_entry.S with interrupts off.  Vectors INTR_VECTOR_BASE to
 * INTR_VECTOR_BASE + 15 go to intr_dispatch() and return.  A page fault
 * from user mode goes to trap_user_fault().  A kernel-mode page fault at a
 * user address (below VM_MAX_ADDRESS) is first offered to vm_map_fault()
 * on the active map (demand paging under copyin/copyout), then to
 * copy_fault_fixup() (the copy fails with -1); only if neither takes it
 * does it go on like any other exception.  A kernel-mode #UD is first
 * offered to the trap_ud_fixup_set() function.  An exception a trap_catch does
 * not take, or any other vector, prints the panic report and ends the boot
 * with status panic; it never returns.
 */
void trap_dispatch(struct trap_frame *f);

/*
 * trap_user_fault - a page fault at @cr2 taken in user mode (frame @f).
 * Returns to resume the thread (the fault was resolved, or the task's
 * exception port took it: EXC_BAD_ACCESS); otherwise ends the task.
 * Called with interrupts off.
 */
void trap_user_fault(struct trap_frame *f, uint64_t cr2);

/*
 * A fixup for kernel-mode invalid opcodes placed on purpose (Linux's
 * WARN and BUG are ud2 instructions): trap_ud_fixup_set(@fn) installs
 * @fn, NULL removes it; one at a time.  On a kernel-mode #UD, @fn(rip,
 * rsp) runs with interrupts off on the interrupted stack and returns the
 * address to resume at, or 0 when the trap is not one it resumes (the
 * trap then ends the boot as any other).  Interrupts on or off.
 */
typedef uint64_t (*trap_ud_fixup_t)(uint64_t rip, uint64_t rsp);
void trap_ud_fixup_set(trap_ud_fixup_t fn);

/* A user-mode exception other than a page fault: offered to the task's
 * exception port (kern/exception.h), else the task ends.  Called by
 * trap_dispatch with interrupts off. */
void trap_user_exception(struct trap_frame *f);

/* The access a page-fault error code @error describes: VM_PROT_EXECUTE,
 * VM_PROT_WRITE or VM_PROT_READ. */
vm_prot_t trap_pf_access(uint64_t error);

/* The mnemonic of exception @vector ("#PF"), or "IRQ"/"INT" beyond 31. */
const char *trap_name(uint64_t vector);

#endif
