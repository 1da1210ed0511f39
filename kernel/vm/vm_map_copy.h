/* SPDX-License-Identifier: GPL-2.0-only */
/* The inside of an out-of-line memory snapshot, for kernel/vm/ only. */
#ifndef VM_VM_MAP_COPY_H
#define VM_VM_MAP_COPY_H

#include <stdbool.h>
#include <stdint.h>

#include <mach/kern_return.h>

struct vm_map;

/* Whole pages holding @size bytes that start @offset bytes into the
 * first one (vm_map.h describes how copies travel).  A copy of bytes
 * (vm_map_copyin_bytes) holds the data in @bytes, inside its own
 * allocation, and no frames (all 0) until vm_map_copy_pages gives it
 * some and clears @bytes.  A loaned copy (vm_map_copyin_bytes of more
 * than VM_MAP_COPY_BYTES_MAX bytes) holds the sender's own frames,
 * write-protected in the sender's map, until it is discarded or
 * vm_map_copy_pages gives it frames of its own. */
struct vm_map_copy {
	uint64_t size;		/* bytes asked for */
	uint64_t offset;	/* of the data in its first page */
	uint64_t npages;
	uint8_t *bytes;		/* a copy of bytes: its data; else NULL */
	bool loaned;		/* its frames are a map's, lent
				 * (vm_page_loan.h), not its own */
	uint64_t frames[];	/* 0: a page never touched (zeros) */
};

/*
 * vm_map_read_bytes - copy [@addr, @addr + @size) of @map (@size > 0)
 * into @dst, with vm_map_copyin's checks, in one pass: KERN_SUCCESS, or
 * KERN_INVALID_ADDRESS / KERN_PROTECTION_FAILURE for the first page
 * that fails them (@dst then partly written); pages never touched read
 * as zeros.  Interrupts on or off (vm_map.c).
 * vm_map_copy_free - free the record of a copy whose frames are gone
 * (given to a map or freed): the pool's or the heap's
 * (vm_map_copy_bytes.c).
 */
kern_return_t vm_map_read_bytes(struct vm_map *map, uint64_t addr,
				uint64_t size, void *dst);
void vm_map_copy_free(struct vm_map_copy *copy);

/*
 * vm_map_copy_record - the whole pages [*@start, *@end) of [@addr, @addr
 * + @size) of user space (@size > 0) and, in *@copy, a record for a copy
 * of them from the heap: size, offset and npages set, no bytes, not
 * loaned, frames unset (vm_map_copy_bytes.c).  KERN_SUCCESS,
 * KERN_INVALID_ADDRESS (beyond user space) or KERN_RESOURCE_SHORTAGE.
 */
kern_return_t vm_map_copy_record(uint64_t addr, uint64_t size,
				 uint64_t *start, uint64_t *end,
				 struct vm_map_copy **copy);

/*
 * vm_map_copyin_loan - vm_map_copyin without @dealloc of more than
 * VM_MAP_COPY_BYTES_MAX bytes for a kernel receiver (vm_map_copyin_bytes
 * calls it): the same checks and returns, but the copy borrows the
 * resident frames of the range (loaned, vm_map.c says how the map keeps
 * them unchanged) instead of copying them.  A range with a page that is
 * not anonymous, or more resident pages than the loan registry has room
 * for, is copied by vm_map_copyin.  Interrupts on or off.
 */
kern_return_t vm_map_copyin_loan(struct vm_map *map, uint64_t addr,
				 uint64_t size, struct vm_map_copy **copy);

#endif
