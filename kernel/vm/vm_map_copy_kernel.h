/* SPDX-License-Identifier: GPL-2.0-only */
/* Out-of-line memory made and read by the kernel (device I/O). */
#ifndef VM_VM_MAP_COPY_KERNEL_H
#define VM_VM_MAP_COPY_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include <mach/kern_return.h>

struct vm_map_copy;

/*
 * vm_map_copy_kernel_alloc - a copy of @size bytes (> 0) on fresh pages,
 * data at offset 0 of its first page, for the kernel to fill with
 * vm_map_copy_kernel_write and send in a message (the receiver maps the
 * pages themselves: no further copy).  The bytes of the last page past
 * @size are zeroed so that no kernel data travels; the rest is not.
 * KERN_SUCCESS, KERN_INVALID_ARGUMENT (@size 0) or KERN_RESOURCE_SHORTAGE
 * (nothing allocated).  Never blocks; not from an interrupt handler.
 */
kern_return_t vm_map_copy_kernel_alloc(uint64_t size,
				       struct vm_map_copy **copy);

/* vm_map_copy_from_kernel (vm_map.h), a copy of kernel memory in one
 * call, is defined next to these: alloc, then write. */

/*
 * vm_map_copy_kernel_write / _read - copy @len bytes into / out of @copy
 * at @off bytes from the start of its data, page by page through the
 * direct map.  The range must lie within the copy's size (a kernel bug
 * otherwise: panic).  Pages a sender never touched read as zeros; writing
 * is only for copies from vm_map_copy_kernel_alloc and vm_map_pin.
 * Never block.
 */
void vm_map_copy_kernel_write(struct vm_map_copy *copy, uint64_t off,
			      const void *src, size_t len);
void vm_map_copy_kernel_read(const struct vm_map_copy *copy, uint64_t off,
			     void *dst, size_t len);

#endif
