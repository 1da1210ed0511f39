/* SPDX-License-Identifier: GPL-2.0-only */
/* mach.defs and gnumach.defs routines on tasks and their memory. */
#include <stddef.h>

#include <mach/task_special_ports.h>
#include <mach/vm_prot.h>

#include "graft_mig.h"
#include "ipc/ipc_port.h"
#include "kern/string.h"
#include "kern/task.h"
#include "vm/vm_map.h"
#include "vm/vm_page.h"
#include "x86_64/layout.h"

/* vm_map_* answer KERN_INVALID_ARGUMENT for a NULL map (a port that names
 * no task), so the routines below pass it on unchecked. */

/*
 * task_terminate.  A task ending itself is marked here and ends when its
 * mach_msg returns to user mode (syscall_dispatch), because a kernel
 * object's handler must not block or switch.  Another task is marked too
 * and ends at its next return to user mode; until thread_abort exists, a
 * target blocked in the kernel ends only when its wait does.
 */
kern_return_t mig_task_terminate(task_t target_task)
{
	struct task *task = (struct task *)target_task;

	if (task == NULL)
		return KERN_INVALID_ARGUMENT;
	task->terminating = true;
	return KERN_SUCCESS;
}

kern_return_t mig_task_get_special_port(task_t target_task, int which_port,
					ipc_port_t *special_port)
{
	struct task *task = (struct task *)target_task;

	if (task == NULL)
		return KERN_INVALID_ARGUMENT;
	switch (which_port) {
	case TASK_KERNEL_PORT:
		*special_port = ipc_port_make_send(task->itk_self);
		return KERN_SUCCESS;
	case TASK_BOOTSTRAP_PORT:
		*special_port = task->itk_bootstrap != NULL ?
			ipc_port_copy_send(task->itk_bootstrap) : NULL;
		return KERN_SUCCESS;
	case TASK_EXCEPTION_PORT:
		*special_port = NULL;	/* no exception ports yet */
		return KERN_SUCCESS;
	default:
		return KERN_INVALID_ARGUMENT;
	}
}

kern_return_t mig_vm_allocate(vm_map_t target_task, vm_address_t *address,
			      vm_size_t size, boolean_t anywhere)
{
	uint64_t addr = *address;
	kern_return_t kr;

	kr = vm_map_allocate(target_task, &addr, size, anywhere);
	if (kr == KERN_SUCCESS)
		*address = addr;
	return kr;
}

kern_return_t mig_vm_deallocate(vm_map_t target_task, vm_address_t address,
				vm_size_t size)
{
	return vm_map_remove(target_task, address, size);
}

kern_return_t mig_vm_protect(vm_map_t target_task, vm_address_t address,
			     vm_size_t size, boolean_t set_maximum,
			     vm_prot_t new_protection)
{
	return vm_map_protect(target_task, address, size, set_maximum,
			      new_protection);
}

/*
 * vm_allocate_contiguous: physically contiguous, zero-filled pages in
 * [pmin, pmax) (pmax 0: no upper bound), aligned to palign, mapped
 * anywhere in the task; *paddr gets the physical address.
 */
kern_return_t mig_vm_allocate_contiguous(host_t host_priv,
					 vm_map_t target_task,
					 vm_address_t *vaddr,
					 rpc_phys_addr_t *paddr,
					 vm_size_t size, rpc_phys_addr_t pmin,
					 rpc_phys_addr_t pmax,
					 rpc_phys_addr_t palign)
{
	uint64_t npages, pa, va;
	kern_return_t kr;

	if (!host_priv)
		return KERN_INVALID_HOST;
	if (target_task == NULL || size == 0 || size > (1ull << 40))
		return KERN_INVALID_ARGUMENT;
	npages = (size + VM_PAGE_SIZE - 1) / VM_PAGE_SIZE;
	kr = vm_page_alloc_contig(npages, palign, pmin,
				  pmax != 0 ? pmax : ~0ull, &pa);
	if (kr != KERN_SUCCESS)
		return kr;
	memset(phys_to_virt(pa), 0, npages * VM_PAGE_SIZE);
	kr = vm_map_allocate_physical(target_task, &va, pa,
				      npages * VM_PAGE_SIZE, true);
	if (kr != KERN_SUCCESS) {
		vm_page_free_contig(pa, npages);
		return kr;
	}
	*vaddr = va;
	*paddr = pa;
	return KERN_SUCCESS;
}
