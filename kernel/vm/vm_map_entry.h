/* SPDX-License-Identifier: GPL-2.0-only */
/* The sorted region list of an address space (no page tables: host-tested). */
#ifndef VM_VM_MAP_ENTRY_H
#define VM_VM_MAP_ENTRY_H

#include <stdbool.h>
#include <stdint.h>

#include <mach/kern_return.h>
#include <mach/vm_prot.h>

#include "vm/vm_page.h"

/*
 * A list of non-overlapping regions [start, end) of page-aligned addresses
 * inside [min, max), kept sorted.  Nothing here allocates: the caller makes
 * the entries (so that it can allocate everything an operation needs
 * before changing anything) and frees those it unlinks.  Nothing here takes
 * locks or touches memory other than the entries.  Breaking a rule stated
 * as "a kernel bug" panics.
 */

enum vm_map_entry_kind {
	VM_MAP_ENTRY_ANON,		/* demand-zero; frames in the pmap */
	VM_MAP_ENTRY_PHYS,		/* physical memory, only mapped */
	VM_MAP_ENTRY_PHYS_OWNED,	/* physical memory freed with it */
	VM_MAP_ENTRY_DEVICE,		/* lent device memory (MMIO),
					 * uncached, only mapped; never
					 * copied */
	VM_MAP_ENTRY_LENT,		/* lent RAM (DMA buffers), only
					 * mapped; never copied */
};

struct vm_map_entry {
	struct vm_map_entry *prev, *next;
	uint64_t start, end;
	vm_prot_t prot, max_prot;
	enum vm_map_entry_kind kind;
	uint64_t phys;		/* physical address of start (physical kinds) */
};

struct vm_map_entry_list {
	struct vm_map_entry head;	/* sentinel of a circular list */
	uint64_t min, max;		/* where entries may lie */
	uint64_t count;
};

/* An empty list for [@min, @max) (page aligned, min < max). */
void vm_map_entry_list_init(struct vm_map_entry_list *l, uint64_t min,
			    uint64_t max);

/*
 * vm_map_entry_round - the pages of [@addr, @addr + @size), as Mach rounds
 * them: *@start = @addr rounded down, *@end = @addr + @size rounded up.
 * Returns KERN_SUCCESS, KERN_INVALID_ARGUMENT when @size is 0, or
 * KERN_INVALID_ADDRESS when the range wraps or leaves [@min, @max).
 */
static inline kern_return_t vm_map_entry_round(uint64_t min, uint64_t max,
						uint64_t addr, uint64_t size,
						uint64_t *start, uint64_t *end)
{
	uint64_t last, mask = VM_PAGE_SIZE - 1;

	if (size == 0)
		return KERN_INVALID_ARGUMENT;
	if (size - 1 > UINT64_MAX - addr)
		return KERN_INVALID_ADDRESS;
	last = addr + (size - 1);
	if ((addr & ~mask) < min || last >= max)
		return KERN_INVALID_ADDRESS;
	*start = addr & ~mask;
	*end = (last & ~mask) + VM_PAGE_SIZE;
	return KERN_SUCCESS;
}

/* The first entry, or the one after @e, or NULL past the last. */
struct vm_map_entry *vm_map_entry_first(const struct vm_map_entry_list *l);
struct vm_map_entry *vm_map_entry_next(const struct vm_map_entry_list *l,
				       const struct vm_map_entry *e);

/* The entry containing @addr, or NULL. */
struct vm_map_entry *vm_map_entry_lookup(const struct vm_map_entry_list *l,
					 uint64_t addr);

/* The first entry ending above @addr (containing it or after it), or
 * NULL. */
struct vm_map_entry *vm_map_entry_from(const struct vm_map_entry_list *l,
				       uint64_t addr);

/* True if no entry overlaps [@start, @end). */
bool vm_map_entry_range_free(const struct vm_map_entry_list *l,
			     uint64_t start, uint64_t end);

/* True if entries cover [@start, @end) without a hole (start < end). */
bool vm_map_entry_range_covered(const struct vm_map_entry_list *l,
				uint64_t start, uint64_t end);

/* vm_map_entry_find_space - the lowest start of a hole of @size bytes
 * (page multiple, not 0) in [min, max), in *@start: KERN_SUCCESS or
 * KERN_NO_SPACE. */
kern_return_t vm_map_entry_find_space(const struct vm_map_entry_list *l,
				      uint64_t size, uint64_t *start);

/* Insert @e (start < end, page aligned, inside [min, max)); overlapping
 * another entry or leaving [min, max) is a kernel bug. */
void vm_map_entry_insert(struct vm_map_entry_list *l, struct vm_map_entry *e);

/* Take @e off the list (the caller frees it). */
void vm_map_entry_unlink(struct vm_map_entry_list *l, struct vm_map_entry *e);

/* The number of entries vm_map_entry_clip(@l, @start, @end, ...) will
 * consume: 0, 1 or 2. */
unsigned int vm_map_entry_clip_needs(const struct vm_map_entry_list *l,
				     uint64_t start, uint64_t end);

/*
 * vm_map_entry_clip - split the entries straddling @start or @end so that
 * entries either lie inside [@start, @end) or outside it.  A split keeps
 * the lower part in the old entry and moves the upper part into a spare
 * taken from @spares[0], then @spares[1] (each taken one set to NULL);
 * running out of spares is a kernel bug (see vm_map_entry_clip_needs()).
 */
void vm_map_entry_clip(struct vm_map_entry_list *l, uint64_t start,
		       uint64_t end, struct vm_map_entry *spares[2]);

/*
 * vm_map_entry_merge_next - if @e and the entry after it touch and are
 * both anonymous with the same protections, extend @e over the next one,
 * unlink that and return it (the caller frees it); else NULL.  @e may be
 * the list head (then NULL).
 */
struct vm_map_entry *vm_map_entry_merge_next(struct vm_map_entry_list *l,
					     struct vm_map_entry *e);

#endif
