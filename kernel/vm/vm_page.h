/* SPDX-License-Identifier: GPL-2.0-only */
/* Physical pages in zones: DMA (<16 MiB), DMA32 (<4 GiB), NORMAL. */
#ifndef VM_VM_PAGE_H
#define VM_VM_PAGE_H

#include <stdint.h>

#include <mach/kern_return.h>

#include "kern/bootinfo.h"

#define VM_PAGE_SIZE		4096ull
#define VM_ZONE_DMA_LIMIT	(16ull << 20)
#define VM_ZONE_DMA32_LIMIT	(4ull << 30)

enum vm_zone {
	VM_ZONE_DMA,		/* [0, 16 MiB): ISA DMA, Linux GFP_DMA */
	VM_ZONE_DMA32,		/* [16 MiB, 4 GiB): Linux GFP_DMA32 */
	VM_ZONE_NORMAL,		/* [4 GiB, ...) */
	VM_ZONE_COUNT,
};

/*
 * vm_page_init - hand the usable RAM of @bi to the allocator.
 *
 * Everything the kernel already uses is kept out: page 0, the kernel image,
 * the modules and the loader's command lines, and whatever the memory map
 * does not call usable.  RAM at or above 4 GiB is left out (with one line
 * saying how much) until the direct map reaches it.  The allocator's
 * metadata is carved from the usable RAM.  Called once at boot with
 * interrupts off, before any other vm_page_* call; a second call panics.
 */
void vm_page_init(const struct bootinfo *bi);

/*
 * vm_page_alloc_contig - allocate @npages physically contiguous pages.
 * @align: alignment of the first page in bytes, a power of two (0 or
 *         anything below VM_PAGE_SIZE means page alignment).
 * @lo, @hi: the whole run must lie in [lo, hi) (physical addresses).
 * @pa: receives the physical address of the first page.
 *
 * The run is the lowest fit in the highest zone that has one inside the
 * window (so DMA memory is used last); a run crossing a zone boundary is
 * taken only when no single zone holds one.
 *
 * Returns KERN_SUCCESS; KERN_INVALID_ARGUMENT if @npages is 0, @align is
 * not a power of two, the window is empty (@lo >= @hi) or @pa is NULL;
 * KERN_RESOURCE_SHORTAGE if no free run fits.  On failure nothing changes.
 * The pages are not zeroed.  Interrupts may be on or off: the allocator
 * disables them while it works.
 */
kern_return_t vm_page_alloc_contig(uint64_t npages, uint64_t align,
				   uint64_t lo, uint64_t hi, uint64_t *pa);

/*
 * vm_page_alloc - allocate one page from @highest or a lower zone,
 * highest first (so that DMA memory is used last); the lowest free page of
 * that zone.  Returns KERN_SUCCESS, KERN_RESOURCE_SHORTAGE, or
 * KERN_INVALID_ARGUMENT if @highest is not a zone or @pa is NULL.
 * Interrupt-safe like vm_page_alloc_contig().
 */
kern_return_t vm_page_alloc(enum vm_zone highest, uint64_t *pa);

/*
 * vm_page_alloc_pages - @n single pages in @pas, all or none: the pages @n
 * calls of vm_page_alloc(@highest) would give, taken a bitmap word at a
 * time.  KERN_SUCCESS, KERN_RESOURCE_SHORTAGE (nothing allocated), or
 * KERN_INVALID_ARGUMENT if @highest is not a zone or @pas is NULL.
 * Interrupt-safe like vm_page_alloc_contig().
 */
kern_return_t vm_page_alloc_pages(enum vm_zone highest, uint64_t n,
				  uint64_t *pas);

/*
 * vm_page_free_contig - give back @npages pages from @pa, allocated by the
 * calls above (any run of allocated pages, from one allocation or
 * several).
 * Freeing what is not allocated (a free, unmanaged or unaligned page, or 0
 * pages) is a kernel bug: panic(), before anything changes.
 * Interrupt-safe like vm_page_alloc_contig().
 */
void vm_page_free_contig(uint64_t pa, uint64_t npages);

/*
 * Frames to free, gathered one at a time and given back a run of
 * consecutive frames per vm_page_free_contig call: vm_page_run_add adds
 * @pa (allocated, not added before), first freeing what @r holds if @pa
 * does not follow it; vm_page_run_flush frees what @r holds.  Start
 * from a zeroed struct; flush before the frames may be looked at again.
 * Interrupt-safe like vm_page_alloc_contig().
 */
struct vm_page_run {
	uint64_t pa;
	uint64_t npages;
};

void vm_page_run_add(struct vm_page_run *r, uint64_t pa);
void vm_page_run_flush(struct vm_page_run *r);

/* Free and managed page counts of zone @z (for tests and leak checks);
 * 0 when @z is not a zone. */
uint64_t vm_page_free_count(enum vm_zone z);
uint64_t vm_page_total_count(enum vm_zone z);

#endif
