/* SPDX-License-Identifier: GPL-2.0-only */
/* Out-of-line memory in the replies of kernel MIG routines. */
#ifndef MIG_MIG_VM_H
#define MIG_MIG_VM_H

#include <mach/message.h>

#include "graft_mig.h"

/* The largest out-of-line region a reply carries: its count is a 32-bit
 * mach_msg_type_number_t of bytes. */
#define MIG_OOL_MAX	0xffffffffull

/*
 * mig_ool_from_map - a snapshot of [@address, @address + @size) of @map as
 * the out-of-line data of a reply: *@data is what the stub puts in the
 * message (a struct vm_map_copy pointer, NULL for size 0), *@count its
 * size in bytes.  The reply owns it (copyout maps it into the receiver;
 * a reply that is not delivered discards it).  KERN_INVALID_ARGUMENT
 * (NULL map, @size above MIG_OOL_MAX), and vm_map_copyin's codes.
 */
kern_return_t mig_ool_from_map(vm_map_t map, vm_address_t address,
			       vm_size_t size, vm_offset_t *data,
			       mach_msg_type_number_t *count);

/*
 * mig_ool_from_kernel - @size bytes at @buf (kernel memory, still the
 * caller's) copied into pages for a reply to carry out of line: *@data
 * as above (NULL for size 0).  KERN_SUCCESS or KERN_RESOURCE_SHORTAGE.
 */
kern_return_t mig_ool_from_kernel(const void *buf, vm_size_t size,
				  vm_offset_t *data);

/* mig_ool_discard - free out-of-line @data made above that no reply will
 * carry (0 is ignored). */
void mig_ool_discard(vm_offset_t data);

#endif
