/* SPDX-License-Identifier: GPL-2.0-only */
/* mach_port.defs routines whose replies carry arrays out of line. */
/*
 * The arrays are built in kalloc()ed buffers from kernel/ipc/mach_port.c
 * (sized by a first call, filled by a second, with interrupts off in
 * between so that the space cannot change), then copied into pages that
 * the reply carries (mig_ool_from_kernel).  A task port that names no
 * task converts to a NULL space: KERN_INVALID_TASK.
 */
#include <stddef.h>

#include "graft_mig.h"
#include "ipc/mach_port.h"
#include "kern/kalloc.h"
#include "mig/mig_vm.h"
#include "x86_64/cpu.h"

#define SPACE(s)	((struct ipc_space *)(s))

/*
 * mach_port_names - every name of @task's space and its type, as two
 * out-of-line arrays of *@names_count (= *@types_count) entries.
 * KERN_INVALID_TASK, KERN_RESOURCE_SHORTAGE.
 */
kern_return_t mig_mach_port_names(ipc_space_t task,
				  mach_port_name_array_t *names,
				  mach_msg_type_number_t *names_count,
				  mach_port_type_array_t *types,
				  mach_msg_type_number_t *types_count)
{
	mach_port_name_t *name_buf = NULL;
	mach_port_type_t *type_buf = NULL;
	vm_offset_t name_ool = 0, type_ool = 0;
	unsigned int n = 0;
	uint64_t flags;
	kern_return_t kr;

	if (task == 0)
		return KERN_INVALID_TASK;
	flags = cpu_intr_save();
	kr = mach_port_names(SPACE(task), NULL, NULL, 0, &n);
	if (kr == KERN_SUCCESS && n != 0) {
		name_buf = kalloc(n * sizeof(*name_buf));
		type_buf = kalloc(n * sizeof(*type_buf));
		if (name_buf == NULL || type_buf == NULL)
			kr = KERN_RESOURCE_SHORTAGE;
		else
			kr = mach_port_names(SPACE(task), name_buf, type_buf,
					     n, &n);
	}
	cpu_intr_restore(flags);
	if (kr != KERN_SUCCESS)
		goto out;
	kr = mig_ool_from_kernel(name_buf, n * sizeof(*name_buf), &name_ool);
	if (kr != KERN_SUCCESS)
		goto out;
	kr = mig_ool_from_kernel(type_buf, n * sizeof(*type_buf), &type_ool);
	if (kr != KERN_SUCCESS) {
		mig_ool_discard(name_ool);
		goto out;
	}
	*names = (mach_port_name_array_t)name_ool;
	*types = (mach_port_type_array_t)type_ool;
	*names_count = n;
	*types_count = n;
out:
	kfree(name_buf);
	kfree(type_buf);
	return kr;
}

/*
 * mach_port_get_set_status - the member names of port set @name, out of
 * line.  KERN_INVALID_TASK, KERN_INVALID_NAME, KERN_INVALID_RIGHT (not a
 * port set), KERN_RESOURCE_SHORTAGE.
 */
kern_return_t mig_mach_port_get_set_status(ipc_space_t task,
					   mach_port_name_t name,
					   mach_port_name_array_t *members,
					   mach_msg_type_number_t *count)
{
	mach_port_name_t *buf = NULL;
	vm_offset_t ool = 0;
	unsigned int n = 0;
	uint64_t flags;
	kern_return_t kr;

	if (task == 0)
		return KERN_INVALID_TASK;
	flags = cpu_intr_save();
	kr = mach_port_get_set_status(SPACE(task), name, NULL, 0, &n);
	if (kr == KERN_SUCCESS && n != 0) {
		buf = kalloc(n * sizeof(*buf));
		kr = buf == NULL ? KERN_RESOURCE_SHORTAGE :
			mach_port_get_set_status(SPACE(task), name, buf, n, &n);
	}
	cpu_intr_restore(flags);
	if (kr == KERN_SUCCESS)
		kr = mig_ool_from_kernel(buf, n * sizeof(*buf), &ool);
	if (kr == KERN_SUCCESS) {
		*members = (mach_port_name_array_t)ool;
		*count = n;
	}
	kfree(buf);
	return kr;
}
