/* SPDX-License-Identifier: GPL-2.0-only */
/* Task address spaces: regions of anonymous or physical memory over a pmap. */
#ifndef VM_VM_MAP_H
#define VM_VM_MAP_H

#include <stdbool.h>
#include <stdint.h>

#include <mach/kern_return.h>
#include <mach/vm_prot.h>

/* User addresses are [VM_MIN_ADDRESS, VM_MAX_ADDRESS): page 0 is never
 * mapped, and the top is the end of the lower canonical half. */
#define VM_MIN_ADDRESS	0x1000ull
#define VM_MAX_ADDRESS	0x0000800000000000ull

struct vm_map;
struct vm_map_copy;

/*
 * Locking: one CPU; every function disables interrupts around its changes,
 * and none may be called from an interrupt handler (they allocate).
 * Sizes and addresses are rounded to pages as Mach does (addr down,
 * addr + size up); a range that wraps or leaves [VM_MIN_ADDRESS,
 * VM_MAX_ADDRESS) is KERN_INVALID_ADDRESS, never a panic.  A NULL map (or
 * NULL result pointer) is KERN_INVALID_ARGUMENT.  Every call that fails
 * leaves the map as it was.
 */

/* A new empty address space sharing the kernel's half; NULL if out of
 * memory. */
struct vm_map *vm_map_create(void);

/* Free every page, page table and region of @map.  @map must not be
 * active (a kernel bug: panic).  NULL is ignored. */
void vm_map_destroy(struct vm_map *map);

/*
 * vm_map_allocate - reserve zero-filled memory, VM_PROT_DEFAULT (read,
 * write), max VM_PROT_ALL.  With @anywhere the kernel picks *@addr;
 * otherwise *@addr is the requested start.  Returns KERN_SUCCESS,
 * KERN_INVALID_ARGUMENT (size 0), KERN_INVALID_ADDRESS (range outside user
 * space), KERN_NO_SPACE (range taken, or no hole big enough) or
 * KERN_RESOURCE_SHORTAGE.  Pages are allocated on first touch.
 */
kern_return_t vm_map_allocate(struct vm_map *map, uint64_t *addr,
			      uint64_t size, bool anywhere);

/*
 * vm_map_allocate_physical - map @size bytes of physical memory from @pa
 * (page aligned) read-write (max VM_PROT_ALL) at a kernel-chosen *@addr;
 * pages are entered on first touch.  With @owned the pages belong to the
 * map and are freed with the region, or with any part of it deallocated
 * (this is vm_allocate_contiguous; they must come from vm_page); otherwise
 * they are only mapped.  Returns as vm_map_allocate(), and
 * KERN_INVALID_ARGUMENT for an unaligned @pa or a run beyond 52 bits;
 * on failure owned pages stay the caller's.
 */
kern_return_t vm_map_allocate_physical(struct vm_map *map, uint64_t *addr,
				       uint64_t pa, uint64_t size, bool owned);

/*
 * vm_map_lend - map the @size bytes (whole pages) at @pa (page aligned)
 * read-write at a kernel-chosen *@addr, lent by a kernel object that
 * keeps them (a driver's claim, kernel/device/dev_claim.c): device
 * memory (@device: uncached) or RAM (DMA buffers).  A lent region is
 * never copied: vm_read, vm_write and out-of-line copies of it answer
 * KERN_PROTECTION_FAILURE, and vm_map_fork leaves it out.  Returns as
 * vm_map_allocate_physical.
 * vm_map_lend_at - the same for RAM at the fixed address @addr (page
 * aligned): KERN_NO_SPACE if any of it is mapped, KERN_INVALID_ADDRESS
 * outside user space.
 * vm_map_take_back - remove the region at @addr if it is still that
 * whole lent mapping of @pa (the task may have removed or replaced it):
 * whether it did.
 */
kern_return_t vm_map_lend(struct vm_map *map, uint64_t *addr, uint64_t pa,
			  uint64_t size, bool device);
kern_return_t vm_map_lend_at(struct vm_map *map, uint64_t addr, uint64_t pa,
			     uint64_t size);
bool vm_map_take_back(struct vm_map *map, uint64_t addr, uint64_t pa,
		      uint64_t size);

/* vm_map_remove - remove [addr, addr+size); unmapped parts are ignored
 * (as Mach does), and a size of 0 does nothing.  KERN_SUCCESS,
 * KERN_INVALID_ADDRESS, or KERN_RESOURCE_SHORTAGE when a region must be
 * split and no memory is left for its second half. */
kern_return_t vm_map_remove(struct vm_map *map, uint64_t addr,
				uint64_t size);

/*
 * vm_map_protect - set the current (or with @set_max the maximum)
 * protection of a fully mapped range; setting the maximum also lowers the
 * current protection to it.  A size of 0 does nothing.  KERN_SUCCESS,
 * KERN_INVALID_ARGUMENT (@prot beyond VM_PROT_ALL), KERN_INVALID_ADDRESS
 * (a hole in the range), KERN_PROTECTION_FAILURE (above the maximum, the
 * new maximum included) or KERN_RESOURCE_SHORTAGE (no memory to split a
 * region).
 */
kern_return_t vm_map_protect(struct vm_map *map, uint64_t addr,
			     uint64_t size, bool set_max, vm_prot_t prot);

/*
 * vm_map_fault - resolve a fault at @va in @map for an access of @type
 * (VM_PROT_READ, VM_PROT_WRITE or VM_PROT_EXECUTE; 0 counts as read): maps
 * a zero page (anonymous) or the region's frame (physical) if the region
 * allows the access, or enters a resident page again.  KERN_SUCCESS,
 * KERN_INVALID_ADDRESS (no region), KERN_PROTECTION_FAILURE or
 * KERN_RESOURCE_SHORTAGE.  Called by trap_dispatch() with interrupts off.
 */
kern_return_t vm_map_fault(struct vm_map *map, uint64_t va, vm_prot_t type);

/*
 * Make @map the current address space (loads its page tables unless they
 * are loaded already), or with NULL none: user addresses are then no
 * one's (copyin, copyout and faults refuse them), but the page tables
 * loaded stay, since every one maps the same kernel half, so a kernel
 * thread runs on the last task's (as Linux's lazy TLB) and a switch from
 * a task to a kernel thread and back reloads no CR3: under QEMU TCG each
 * reload empties the whole software TLB.  vm_map_destroy() unloads a
 * map's tables that are still loaded so.  Allocates nothing, so unlike
 * the rest it may be called from the scheduler's switch path with
 * interrupts off.
 */
void vm_map_activate(struct vm_map *map);

/* The current address space (the last vm_map_activate()), or NULL. */
struct vm_map *vm_map_active(void);

/*
 * Out-of-line memory in messages.  vm_map_copyin takes a snapshot of
 * [addr, addr+size) of @map (removing it from @map if @dealloc);
 * vm_map_copyout maps a snapshot anywhere in @map and consumes it;
 * vm_map_copy_discard frees one that is not delivered.  A size of 0 gives
 * a NULL copy, which copyout maps at address 0 without error.  Copyin
 * returns KERN_SUCCESS, KERN_INVALID_ADDRESS (hole, or outside user space),
 * KERN_PROTECTION_FAILURE (unreadable, or physical memory beyond the
 * direct map) or KERN_RESOURCE_SHORTAGE; copyout KERN_SUCCESS,
 * KERN_NO_SPACE or KERN_RESOURCE_SHORTAGE (and then the copy is still the
 * caller's).  A copy holds whole pages: copyout maps them at a
 * page boundary and returns in *@addr that boundary plus the offset of the
 * data in its first page, so the bytes around the data within those pages
 * travel too (as in Mach).  With @dealloc, resident anonymous pages move
 * into the copy instead of being copied (but for a page lent to another
 * copy: vm_map_copyin_bytes); the rest is copied at once (no
 * copy-on-write between tasks).  Pages never touched travel as zero pages.
 */
kern_return_t vm_map_copyin(struct vm_map *map, uint64_t addr, uint64_t size,
			    bool dealloc, struct vm_map_copy **copy);
kern_return_t vm_map_copyout(struct vm_map *map, struct vm_map_copy *copy,
			     uint64_t *addr);
void vm_map_copy_discard(struct vm_map_copy *copy);

/*
 * vm_map_copyin_bytes - vm_map_copyin without @dealloc for a message the
 * kernel receives: a snapshot of [addr, addr+size) of @map, the same
 * checks and returns (a range failing two of them gets the error of its
 * first failing page), but when @size is at most VM_MAP_COPY_BYTES_MAX
 * only those bytes are copied, into a kernel buffer of the copy, and no
 * page is taken (a 60-byte device_write copies 60 bytes, not a page).
 * The kernel reads such a copy with vm_map_copy_kernel_read; whoever
 * needs its pages calls vm_map_copy_pages, and vm_map_copyout and
 * vm_map_copy_overwrite do so themselves: the bytes of those pages
 * around the data are then zero, not the sender's.  Larger sizes are
 * snapshots of whole pages as vm_map_copyin's, whose resident frames the
 * sender lends (vm_map_copyin_loan) rather than copies.
 * vm_map_copy_pages - give a copy of bytes its pages (the data at its
 * offset, zeros around it), and a copy whose frames are lent by the
 * sender's map (larger sizes: vm_map.c, "Copies") frames of its own with
 * the same contents; any other copy is left as it is.  KERN_SUCCESS or
 * KERN_RESOURCE_SHORTAGE (the copy unchanged).
 * vm_map_copy_frames - the same for a copy of bytes, but a copy with
 * lent frames keeps them: for a kernel consumer that only reads the
 * frames (a disk's DMA) and is done with them when it discards the
 * copy.  The sender cannot change a lent frame meanwhile.
 */
#define VM_MAP_COPY_BYTES_MAX	2048
kern_return_t vm_map_copyin_bytes(struct vm_map *map, uint64_t addr,
				  uint64_t size, struct vm_map_copy **copy);
kern_return_t vm_map_copy_pages(struct vm_map_copy *copy);
kern_return_t vm_map_copy_frames(struct vm_map_copy *copy);

/*
 * vm_map_copy_bytes - the data of a copy of bytes (vm_map_copyin_bytes,
 * no pages given yet) as its size's contiguous bytes of kernel memory,
 * valid until the copy is discarded or given pages; NULL for any other
 * copy (read it with vm_map_copy_kernel_read).  Any context.
 */
const void *vm_map_copy_bytes(const struct vm_map_copy *copy);

/*
 * vm_map_copy_from_kernel - a copy holding @size bytes of kernel memory
 * at @data, for a kernel routine that answers with out-of-line data (a
 * MIG reply's vm_map_copy pointer, which the receiver's copyout maps).
 * The rest of the last page reads zero.  Size 0 gives a NULL copy.
 * KERN_SUCCESS or KERN_RESOURCE_SHORTAGE (nothing made).  Never blocks.
 */
kern_return_t vm_map_copy_from_kernel(const void *data, uint64_t size,
				      struct vm_map_copy **copy);
uint64_t vm_map_copy_size(const struct vm_map_copy *copy);

/*
 * vm_map_pin - the frames of [@addr, @addr + @size) of @map (@size > 0),
 * for a device to write into (device_read_into): every page must be in a
 * writable anonymous region; one never touched gets a zeroed frame, one
 * write-protected (lent to a device_write) a frame of its own, as a
 * write fault would.  The copy holds each frame in the loan registry
 * while the map keeps it mapped, writable (vm_map_pin.c); discarding
 * the copy gives the holds back.  Writing it: vm_map_copy_kernel_write,
 * or a device's DMA into c->frames.  KERN_SUCCESS; KERN_INVALID_ARGUMENT
 * (@size 0, physical or device memory), KERN_INVALID_ADDRESS (a hole, or
 * beyond user space), KERN_PROTECTION_FAILURE (not writable),
 * KERN_RESOURCE_SHORTAGE (no memory, or the registry has no room for
 * the pages): then nothing is held (pages faulted in stay).  Interrupts
 * on or off.
 */
kern_return_t vm_map_pin(struct vm_map *map, uint64_t addr, uint64_t size,
			 struct vm_map_copy **copy);

/*
 * vm_map_copy_overwrite - write the snapshot @copy over [@addr, @addr +
 * its size) of @map, which must be mapped writable, and consume @copy
 * (vm_write).  As GNU Mach, the copy must be whole pages at a page
 * boundary: @addr and the copy's size page aligned, its data at offset 0.
 * Pages of @map not yet touched take the copy's frames; the others get
 * the contents copied.  Returns KERN_SUCCESS (a NULL copy writes
 * nothing), KERN_INVALID_ARGUMENT (NULL map, alignment), KERN_INVALID_
 * ADDRESS (outside user space, or a hole), KERN_PROTECTION_FAILURE (not
 * writable, or physical memory beyond the direct map) or
 * KERN_RESOURCE_SHORTAGE (no page table); on failure @map is unchanged
 * and @copy is still the caller's.
 */
kern_return_t vm_map_copy_overwrite(struct vm_map *map, uint64_t addr,
				    struct vm_map_copy *copy);

/*
 * vm_map_fork - a new map holding a copy of @src (task_create with
 * inherit_memory): every region at the same place with the same
 * protections; the resident pages of anonymous and owned physical regions
 * are copied into new anonymous pages at once (no copy-on-write yet),
 * pages never touched stay demand-zero, and physical regions not owned
 * (device memory) are mapped again, shared.  KERN_SUCCESS,
 * KERN_INVALID_ARGUMENT (NULL) or KERN_RESOURCE_SHORTAGE (nothing made).
 */
kern_return_t vm_map_fork(struct vm_map *src, struct vm_map **out);

/* Bytes covered by regions of @map (task_info's virtual size). */
uint64_t vm_map_virtual_size(const struct vm_map *map);

/* Pages currently resident in @map: anonymous pages touched and physical
 * pages entered (for tests and leak checks). */
uint64_t vm_map_resident_pages(const struct vm_map *map);

#endif
