/* SPDX-License-Identifier: GPL-2.0-only */
/* The page allocator's core, free of hardware so host tests can run it. */
#ifndef VM_VM_PAGE_CORE_H
#define VM_VM_PAGE_CORE_H

#include <stddef.h>
#include <stdint.h>

#include <mach/kern_return.h>

#include "vm/vm_page.h"

/*
 * A core manages the pages of a list of physical ranges.  It never touches
 * the memory it manages: all its state lives in a struct vm_page_core and a
 * metadata buffer the caller provides, so it runs unchanged in host tests.
 * Nothing here disables interrupts or takes locks: vm_page.c wraps the
 * kernel's core (vm_page_kernel_core) with cpu_intr_save/restore.
 */

/* Physical addresses [base, end); the core uses the whole pages inside. */
struct vm_page_range {
	uint64_t base;
	uint64_t end;
};

/* What a page is, as vm_page_core_page_state() reports it. */
enum vm_page_state {
	VM_PAGE_UNMANAGED,	/* never handed to the core */
	VM_PAGE_FREE,
	VM_PAGE_ALLOCATED,
};

/*
 * One bit per page of the span (lowest managed page to highest), in three
 * bitmaps inside the metadata buffer: free (1 = free), managed (1 = handed
 * over at init) and summary (bit w set iff free word w is not zero).
 * Zones are ranges of page indices into the same bitmaps.
 */
struct vm_page_core {
	uint64_t base_pfn;		/* page frame number of index 0 */
	uint64_t npages;		/* span length in pages */
	uint64_t nwords;		/* 64-bit words per page bitmap */
	uint64_t *free_map;
	uint64_t *managed_map;
	uint64_t *summary;
	void *meta;			/* the caller's buffer */
	uint64_t meta_size;		/* bytes of it in use */
	uint64_t zone_lo[VM_ZONE_COUNT];	/* page indices [lo, hi) */
	uint64_t zone_hi[VM_ZONE_COUNT];
	uint64_t free_pages[VM_ZONE_COUNT];
	uint64_t total_pages[VM_ZONE_COUNT];
};

/* The kernel's core, filled by vm_page_init() (vm_page_boot.c). */
extern struct vm_page_core vm_page_kernel_core;

/*
 * vm_page_core_metadata_size - bytes of metadata a core managing the
 * @nranges ranges at @ranges needs (a multiple of 8; 0 when they hold no
 * whole page).  Removing pages from the ranges never makes it larger.
 */
uint64_t vm_page_core_metadata_size(const struct vm_page_range *ranges,
				    size_t nranges);

/*
 * vm_page_core_init - make @c manage the whole pages of @ranges, all free.
 * @meta: @meta_size bytes, 8-byte aligned, owned by @c from now on; at
 *        least vm_page_core_metadata_size(@ranges, @nranges).
 *
 * Ranges may come in any order and may overlap; empty or inverted ones
 * are ignored.  Returns KERN_SUCCESS, or KERN_INVALID_ARGUMENT (metadata
 * too small, misaligned or NULL while needed) leaving @c untouched.
 */
kern_return_t vm_page_core_init(struct vm_page_core *c,
				const struct vm_page_range *ranges,
				size_t nranges, void *meta, uint64_t meta_size);

/*
 * vm_page_core_alloc_contig - vm_page_alloc_contig() on @c.
 *
 * The run is the lowest-addressed fit inside the highest zone that holds
 * one within the window; only if no single zone does is a run straddling a
 * zone boundary taken (the lowest such fit).  Also KERN_INVALID_ARGUMENT
 * when @pa is NULL.  On failure nothing changes.
 */
kern_return_t vm_page_core_alloc_contig(struct vm_page_core *c,
					uint64_t npages, uint64_t align,
					uint64_t lo, uint64_t hi, uint64_t *pa);

/*
 * vm_page_core_alloc - vm_page_alloc() on @c: the lowest free page of the
 * highest zone, from @highest down, that has one.  KERN_INVALID_ARGUMENT
 * when @highest is not a zone or @pa is NULL.
 */
kern_return_t vm_page_core_alloc(struct vm_page_core *c,
				 enum vm_zone highest, uint64_t *pa);

/*
 * vm_page_core_alloc_pages - vm_page_alloc_pages() on @c: the @n pages @n
 * calls of vm_page_core_alloc would give, in that order, in @pas, all or
 * none.  KERN_INVALID_ARGUMENT when @highest is not a zone or @pas is
 * NULL; KERN_RESOURCE_SHORTAGE (nothing changed) when fewer than @n are
 * free in @highest and below.
 */
kern_return_t vm_page_core_alloc_pages(struct vm_page_core *c,
				       enum vm_zone highest, uint64_t n,
				       uint64_t *pas);

/*
 * vm_page_core_free - vm_page_free_contig() on @c.  panic()s, changing
 * nothing, if @pa is not page aligned, @npages is 0, or any page of the run
 * is unmanaged or already free.
 */
void vm_page_core_free(struct vm_page_core *c, uint64_t pa, uint64_t npages);

/* Free and managed page counts of zone @z in @c; 0 for a bad @z. */
uint64_t vm_page_core_free_count(const struct vm_page_core *c,
				 enum vm_zone z);
uint64_t vm_page_core_total_count(const struct vm_page_core *c,
				  enum vm_zone z);

/* The state of the page holding physical address @pa. */
enum vm_page_state vm_page_core_page_state(const struct vm_page_core *c,
					   uint64_t pa);

/*
 * vm_page_ranges_subtract - remove [@lo, @hi) from the @*nranges ranges at
 * @ranges (capacity @cap), trimming, dropping or splitting ranges; a split
 * appends the upper part.  Returns KERN_SUCCESS, or KERN_RESOURCE_SHORTAGE
 * if the splits would exceed @cap, leaving the list untouched.  An empty
 * [@lo, @hi) changes nothing.
 */
kern_return_t vm_page_ranges_subtract(struct vm_page_range *ranges,
				      size_t *nranges, size_t cap,
				      uint64_t lo, uint64_t hi);

#endif
