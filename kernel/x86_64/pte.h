/* SPDX-License-Identifier: GPL-2.0-only */
/* x86_64 page-table entry bits and the invalidation of one page's TLB entry. */
#ifndef X86_64_PTE_H
#define X86_64_PTE_H

#include <stdint.h>

#define PTE_P		(1ull << 0)	/* present */
#define PTE_W		(1ull << 1)	/* writable */
#define PTE_U		(1ull << 2)	/* user */
#define PTE_PWT		(1ull << 3)	/* write-through */
#define PTE_PCD		(1ull << 4)	/* cache disabled */
#define PTE_NX		(1ull << 63)	/* no execute */
#define PTE_ADDR	0x000ffffffffff000ull	/* the frame or table */

/* invlpg - drop this CPU's TLB entry of the page holding @va. */
static inline void invlpg(uint64_t va)
{
	__asm__ volatile("invlpg (%0)" : : "r"(va) : "memory");
}

#endif
