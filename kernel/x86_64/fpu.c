/* SPDX-License-Identifier: GPL-2.0-only */
/* Enabling SSE and saving x87/SSE registers with FXSAVE/FXRSTOR. */
/*
 * Saved eagerly at every switch away from a user thread and restored at
 * every switch to one; kernel threads have no state and leave the
 * registers alone (the kernel is built with -mgeneral-regs-only).
 */
#include "kern/string.h"
#include "x86_64/cpu.h"
#include "x86_64/fpu.h"

#define CR0_MP		(1ul << 1)
#define CR0_EM		(1ul << 2)
#define CR0_TS		(1ul << 3)
#define CR4_OSFXSR	(1ul << 9)
#define CR4_OSXMMEXCPT	(1ul << 10)

static struct fpu_state initial;

void fpu_init(void)
{
	uint64_t cr0 = read_cr0(), cr4 = read_cr4();

	cr0 = (cr0 | CR0_MP) & ~(CR0_EM | CR0_TS);
	cr4 |= CR4_OSFXSR | CR4_OSXMMEXCPT;
	__asm__ volatile("mov %0, %%cr0" : : "r"(cr0));
	__asm__ volatile("mov %0, %%cr4" : : "r"(cr4));
	__asm__ volatile("fninit");
	fpu_save(&initial);
}

void fpu_state_init(struct fpu_state *s)
{
	memcpy(s, &initial, sizeof(*s));
}

void fpu_save(struct fpu_state *s)
{
	__asm__ volatile("fxsave64 %0" : "=m"(*s));
}

void fpu_restore(const struct fpu_state *s)
{
	__asm__ volatile("fxrstor64 %0" : : "m"(*s));
}
