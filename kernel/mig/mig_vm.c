/* SPDX-License-Identifier: GPL-2.0-only */
/* vm_read and vm_write: a task's memory out of line in a reply, or overwritten. */
/*
 * In a kernel-layout message out-of-line memory is a struct vm_map_copy
 * pointer (kernel/ipc/ipc_kmsg.h), which MIG's stubs carry as a
 * vm_offset_t: a routine returns memory out of line by taking a snapshot
 * with vm_map_copyin and handing back the pointer; the reply's copyout
 * maps it into the receiver.  An incoming region is consumed the same way
 * (vm_map_copy_overwrite), or left to the dispatcher on failure.
 */
#include <stddef.h>

#include "graft_mig.h"
#include "mig/mig_vm.h"
#include "vm/vm_map.h"

kern_return_t mig_ool_from_map(vm_map_t map, vm_address_t address,
			       vm_size_t size, vm_offset_t *data,
			       mach_msg_type_number_t *count)
{
	struct vm_map_copy *copy;
	kern_return_t kr;

	if (map == NULL || size > MIG_OOL_MAX)
		return KERN_INVALID_ARGUMENT;
	kr = vm_map_copyin(map, address, size, false, &copy);
	if (kr != KERN_SUCCESS)
		return kr;
	*data = (vm_offset_t)(uintptr_t)copy;
	*count = (mach_msg_type_number_t)size;
	return KERN_SUCCESS;
}

kern_return_t mig_ool_from_kernel(const void *buf, vm_size_t size,
				  vm_offset_t *data)
{
	struct vm_map_copy *copy;
	kern_return_t kr;

	kr = vm_map_copy_from_kernel(buf, size, &copy);
	if (kr == KERN_SUCCESS)
		*data = (vm_offset_t)(uintptr_t)copy;
	return kr;
}

void mig_ool_discard(vm_offset_t data)
{
	vm_map_copy_discard((struct vm_map_copy *)(uintptr_t)data);
}

/*
 * vm_read - [@address, @address + @size) of @target_task out of line.
 * KERN_INVALID_ARGUMENT (not a task, size beyond 4 GiB - 1 bytes, which
 * the reply's count cannot say), KERN_INVALID_ADDRESS (a hole, or outside
 * user space), KERN_PROTECTION_FAILURE (not readable),
 * KERN_RESOURCE_SHORTAGE.
 */
kern_return_t mig_vm_read(vm_map_t target_task, vm_address_t address,
			  vm_size_t size, vm_offset_t *data,
			  mach_msg_type_number_t *data_count)
{
	return mig_ool_from_map(target_task, address, size, data, data_count);
}

/*
 * vm_write - overwrite [@address, @address + @count) of @target_task with
 * the out-of-line @data (consumed on success).  KERN_INVALID_ARGUMENT
 * (not a task; @address or @count not page aligned, as GNU Mach),
 * KERN_INVALID_ADDRESS, KERN_PROTECTION_FAILURE (not writable),
 * KERN_RESOURCE_SHORTAGE.
 */
kern_return_t mig_vm_write(vm_map_t target_task, vm_address_t address,
			   vm_offset_t data, mach_msg_type_number_t count)
{
	struct vm_map_copy *copy = (struct vm_map_copy *)(uintptr_t)data;

	if (vm_map_copy_size(copy) != count)
		return KERN_INVALID_ARGUMENT;
	return vm_map_copy_overwrite(target_task, address, copy);
}
