/* SPDX-License-Identifier: GPL-2.0-only */
/* Page faults taken in user mode, until kern/task.c handles them. */
#include <stdint.h>

#include "kern/kprintf.h"
#include "kern/panic.h"
#include "vm/vm_map.h"
#include "x86_64/trap.h"

/*
 * Temporary: demand paging of the active map, and a panic for a fault it
 * cannot resolve.  To be replaced by kern/task.c, which terminates the
 * faulting task instead.
 */
void trap_user_fault(struct trap_frame *f, uint64_t cr2)
{
	struct vm_map *map = vm_map_active();

	if (map != NULL && !(f->error & TRAP_PF_RSVD) &&
	    vm_map_fault(map, cr2, trap_pf_access(f->error)) == KERN_SUCCESS)
		return;
	kprintf("user page fault at 0x%llx (rip 0x%llx, error 0x%llx) not "
		"resolved\n", (unsigned long long)cr2,
		(unsigned long long)f->rip, (unsigned long long)f->error);
	panic("user fault without task support");
}
