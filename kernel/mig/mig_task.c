/* SPDX-License-Identifier: GPL-2.0-only */
/* mach.defs and gnumach.defs routines on tasks and their memory. */
#include <stddef.h>

#include <mach/task_info.h>
#include <mach/task_special_ports.h>
#include <mach/vm_prot.h>

#include "graft_mig.h"
#include "ipc/ipc_port.h"
#include "kern/kalloc.h"
#include "kern/klog.h"
#include "kern/string.h"
#include "kern/task.h"
#include "kern/thread.h"
#include "mig/mig_time.h"
#include "vm/vm_map.h"
#include "vm/vm_page.h"
#include "x86_64/layout.h"

/* vm_map_* answer KERN_INVALID_ARGUMENT for a NULL map (a port that names
 * no task), so the routines below pass it on unchecked. */

/*
 * task_terminate.  Every thread of the task exits at its next way back
 * to user mode (the caller's own: once this reply is received), a thread
 * waiting in the kernel has its wait interrupted, and the last one frees
 * the task; a task without threads is freed here.
 */
kern_return_t mig_task_terminate(task_t target_task)
{
	struct task *task = (struct task *)target_task;

	if (task == NULL)
		return KERN_INVALID_ARGUMENT;
	task_terminate(task, "task_terminate");
	return KERN_SUCCESS;
}

/* task_create: no threads yet; with inherit_memory a plain copy of the
 * parent's memory (vm_map_fork: no copy-on-write). */
kern_return_t mig_task_create(task_t target_task, boolean_t inherit_memory,
			      task_t *child_task)
{
	struct task *parent = (struct task *)target_task, *child;
	kern_return_t kr;

	if (parent == NULL)
		return KERN_INVALID_ARGUMENT;
	kr = task_create_child(parent, inherit_memory != 0, &child);
	if (kr == KERN_SUCCESS)
		*child_task = (task_t)child;
	return kr;
}

kern_return_t mig_task_suspend(task_t target_task)
{
	struct task *task = (struct task *)target_task;

	if (task == NULL)
		return KERN_INVALID_ARGUMENT;
	task_suspend(task);
	return KERN_SUCCESS;
}

kern_return_t mig_task_resume(task_t target_task)
{
	struct task *task = (struct task *)target_task;

	if (task == NULL)
		return KERN_INVALID_ARGUMENT;
	return task_resume(task);
}

/*
 * task_info: TASK_BASIC_INFO.  Sizes are in bytes, as GNU Mach gives
 * them; run times are not accounted yet and read zero; the creation time
 * is the time since boot (there is no time of day yet).
 */
kern_return_t mig_task_info(task_t target_task, int flavor,
			    task_info_t task_info_out,
			    mach_msg_type_number_t *task_info_outCnt)
{
	struct task *task = (struct task *)target_task;
	struct task_basic_info info;

	if (task == NULL || flavor != TASK_BASIC_INFO ||
	    *task_info_outCnt < TASK_BASIC_INFO_COUNT)
		return KERN_INVALID_ARGUMENT;
	memset(&info, 0, sizeof(info));
	info.suspend_count = (integer_t)task->suspend_count;
	info.base_priority = THREAD_PRIORITY_DEFAULT;
	info.virtual_size = vm_map_virtual_size(task->map);
	info.resident_size = vm_map_resident_pages(task->map) * VM_PAGE_SIZE;
	mig_ticks_to_time(task->created, &info.creation_time);
	memcpy(task_info_out, &info, sizeof(info));
	*task_info_outCnt = TASK_BASIC_INFO_COUNT;
	return KERN_SUCCESS;
}

/* task_threads: an out-of-line array of send rights to the ports of the
 * task's threads that are not terminating (kernel layout: a kalloc()ed
 * array of port pointers, which the reply's copyout maps as names). */
kern_return_t mig_task_threads(task_t target_task, thread_array_t *thread_list,
			       mach_msg_type_number_t *thread_listCnt)
{
	struct task *task = (struct task *)target_task;
	struct ipc_port **ports;
	struct thread *t;
	unsigned int n = 0;

	if (task == NULL)
		return KERN_INVALID_ARGUMENT;
	for (t = task->threads; t != NULL; t = t->task_next)
		n += t->ith_self != NULL;
	ports = NULL;
	if (n > 0) {
		ports = kalloc(n * sizeof(*ports));
		if (ports == NULL)
			return KERN_RESOURCE_SHORTAGE;
	}
	n = 0;
	for (t = task->threads; t != NULL; t = t->task_next)
		if (t->ith_self != NULL)
			ports[n++] = ipc_port_make_send(t->ith_self);
	*thread_list = (thread_array_t)ports;
	*thread_listCnt = n;
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
		*special_port = task->itk_exception != NULL ?
			ipc_port_copy_send(task->itk_exception) : NULL;
		return KERN_SUCCESS;
	default:
		return KERN_INVALID_ARGUMENT;
	}
}

/* task_set_special_port: the bootstrap and the exception port (a null or
 * dead right clears it).  The kernel port cannot be replaced (loudly:
 * KERN_FAILURE). */
static KLOG_SOURCE(special_port_log, "mig");

kern_return_t mig_task_set_special_port(task_t task, int which_port,
					ipc_port_t special_port)
{
	struct task *t = (struct task *)task;
	struct ipc_port *old;

	if (t == NULL)
		return KERN_INVALID_ARGUMENT;
	switch (which_port) {
	case TASK_BOOTSTRAP_PORT:
		old = t->itk_bootstrap;
		t->itk_bootstrap = IPC_PORT_VALID(special_port) ?
			special_port : NULL;
		if (old != NULL)
			ipc_port_release_send(old);
		return KERN_SUCCESS;
	case TASK_EXCEPTION_PORT:
		old = t->itk_exception;
		t->itk_exception = IPC_PORT_VALID(special_port) ?
			special_port : NULL;
		if (old != NULL)
			ipc_port_release_send(old);
		return KERN_SUCCESS;
	case TASK_KERNEL_PORT:
		klog(&special_port_log,
		     "mig: task_set_special_port %d is not implemented\n",
		     which_port);
		return KERN_FAILURE;
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
