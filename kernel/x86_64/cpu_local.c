/* SPDX-License-Identifier: GPL-2.0-only */
/* The boot CPU's per-CPU area and its kernel stack pointer for user entries. */
#include <stdint.h>

#include "x86_64/cpu_local.h"
#include "x86_64/gdt.h"

struct cpu_local cpu_local_boot;

static void wrmsr(uint32_t msr, uint64_t v)
{
	__asm__ volatile("wrmsr" : : "c"(msr), "a"((uint32_t)v),
			 "d"((uint32_t)(v >> 32)));
}

void cpu_local_init(void)
{
	wrmsr(MSR_GS_BASE, (uint64_t)&cpu_local_boot);
	wrmsr(MSR_KERNEL_GS_BASE, 0);
}

void cpu_local_set_kernel_stack(uint64_t top)
{
	cpu_local_boot.kernel_rsp = top;
	gdt_tss.rsp[0] = top;
}
