/* SPDX-License-Identifier: GPL-2.0-only */
/* Exceptions taken in user mode: demand paging, or the end of the task. */
/*
 * Until exception ports exist, a user-mode exception that is not a
 * resolvable page fault terminates the task with a line on the console,
 * as GNU Mach does for a task whose exception port nobody serves.
 */
#include <stddef.h>
#include <stdint.h>

#include "kern/task.h"
#include "vm/vm_map.h"
#include "x86_64/trap.h"

void trap_user_fault(struct trap_frame *f, uint64_t cr2)
{
	struct vm_map *map = vm_map_active();

	if (map != NULL && !(f->error & TRAP_PF_RSVD) &&
	    vm_map_fault(map, cr2, trap_pf_access(f->error)) == KERN_SUCCESS)
		return;
	task_terminate_current("page fault at 0x%llx (rip 0x%llx, error 0x%llx)",
			       (unsigned long long)cr2,
			       (unsigned long long)f->rip,
			       (unsigned long long)f->error);
}

void trap_user_exception(struct trap_frame *f)
{
	task_terminate_current("%s at rip 0x%llx (error code 0x%llx)",
			       trap_name(f->vector),
			       (unsigned long long)f->rip,
			       (unsigned long long)f->error);
}
