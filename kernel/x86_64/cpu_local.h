/* SPDX-License-Identifier: GPL-2.0-only */
/* Per-CPU data, reached through %gs in kernel mode. */
#ifndef X86_64_CPU_LOCAL_H
#define X86_64_CPU_LOCAL_H

/*
 * In kernel mode MSR_GS_BASE points at this CPU's struct cpu_local; user
 * mode has its own GS base, exchanged with swapgs on every entry from and
 * exit to user mode (trap_entry.S, syscall_entry.S).  Linux code linked
 * later reads its per-CPU data through %gs as well.
 */
#define CPU_LOCAL_KERNEL_RSP	0	/* offsets, for assembly */
#define CPU_LOCAL_USER_RSP	8

#define MSR_GS_BASE		0xc0000101
#define MSR_KERNEL_GS_BASE	0xc0000102

#ifndef __ASSEMBLER__
#include <stdint.h>

struct cpu_local {
	uint64_t kernel_rsp;	/* top of the running thread's kernel stack */
	uint64_t user_rsp;	/* scratch for the syscall entry */
};

/* The boot CPU's area. */
extern struct cpu_local cpu_local_boot;

/* Point GS at cpu_local_boot (kernel) and zero the user GS base.  Once, at
 * boot, before any user code runs. */
void cpu_local_init(void);

/* Set the stack the CPU switches to on entry from user mode (TSS rsp0 and
 * the syscall entry's stack).  Interrupts off. */
void cpu_local_set_kernel_stack(uint64_t top);
#endif

#endif
