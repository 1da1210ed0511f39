/* SPDX-License-Identifier: GPL-2.0-only */
/* Graft's x86_64 virtual address layout; usable from C and assembly. */
#ifndef X86_64_LAYOUT_H
#define X86_64_LAYOUT_H

/*
 * 0xffffffff80000000 + [0, 1 GiB)  kernel image (linked for -mcmodel=kernel)
 * 0xffff888000000000 + [0, 4 GiB)  direct map of physical memory
 * [0, 0x0000800000000000)          user space (empty until tasks exist)
 *
 * Both windows sit where Linux 6.1 on x86_64 puts them (__START_KERNEL_map,
 * and PAGE_OFFSET without CONFIG_RANDOMIZE_MEMORY or 5-level paging), so
 * that the __pa/__va arithmetic compiled into unmodified Linux code holds
 * in Graft's address space too (with phys_base 0).
 *
 * The boot code maps both windows with 2 MiB pages and, once running in the
 * higher half, removes the identity map of low memory so that a NULL pointer
 * faults.
 */
#define KERNEL_BASE	0xffffffff80000000
#define KERNEL_PHYS	0x100000
#define DIRECT_MAP_BASE	0xffff888000000000
#define DIRECT_MAP_SIZE	0x100000000
/* The PML4 slot of the direct map (it must start on a 512 GiB boundary). */
#define DIRECT_MAP_PML4	((DIRECT_MAP_BASE >> 39) & 511)

#define PHYS(sym)	((sym) - KERNEL_BASE)

#ifndef __ASSEMBLER__
#include <stdint.h>

/* The direct-map address of physical address @pa (pa < DIRECT_MAP_SIZE). */
static inline void *phys_to_virt(uint64_t pa)
{
	return (void *)(DIRECT_MAP_BASE + pa);
}

/* The physical address of kernel-image address @va. */
static inline uint64_t kernel_virt_to_phys(const void *va)
{
	return (uint64_t)va - KERNEL_BASE;
}

extern char _kernel_start[], _etext[], _kernel_end[];
#endif

#endif
