/* SPDX-License-Identifier: GPL-2.0-only */
/* Exceptions taken in user mode: demand paging, the task's exception port, or the end of the task. */
/*
 * A user-mode exception that is not a resolvable page fault is offered to
 * the task's exception port (kern/exception.h, with GNU Mach's codes for
 * x86); if nobody takes it, the task ends with a line on the console, as
 * GNU Mach does for a task whose exception port nobody serves.
 */
#include <stddef.h>
#include <stdint.h>

#include <mach/exception.h>
#include <mach/x86_64/exception.h>

#include "kern/exception.h"
#include "kern/task.h"
#include "vm/vm_map.h"
#include "x86_64/trap.h"

void trap_user_fault(struct trap_frame *f, uint64_t cr2)
{
	struct vm_map *map = vm_map_active();

	if (map != NULL && !(f->error & TRAP_PF_RSVD) &&
	    vm_map_fault(map, cr2, trap_pf_access(f->error)) == KERN_SUCCESS)
		return;
	if (exception_raise_current(EXC_BAD_ACCESS,
				    (f->error & TRAP_PF_PRESENT) ?
				    KERN_PROTECTION_FAILURE :
				    KERN_INVALID_ADDRESS, (int)cr2))
		return;
	task_terminate_current("page fault at 0x%llx (rip 0x%llx, error 0x%llx)",
			       (unsigned long long)cr2,
			       (unsigned long long)f->rip,
			       (unsigned long long)f->error);
}

/* GNU Mach's exception, code and subcode for x86 vector @f->vector. */
static void codes_of(const struct trap_frame *f, int *exc, int *code,
		     int *subcode)
{
	*subcode = 0;
	switch (f->vector) {
	case TRAP_DE:
		*exc = EXC_ARITHMETIC;
		*code = EXC_I386_DIV;
		return;
	case TRAP_DB:
		*exc = EXC_BREAKPOINT;
		*code = EXC_I386_SGL;
		return;
	case TRAP_BP:
		*exc = EXC_BREAKPOINT;
		*code = EXC_I386_BPT;
		return;
	case TRAP_UD:
		*exc = EXC_BAD_INSTRUCTION;
		*code = EXC_I386_INVOP;
		return;
	default:
		*exc = EXC_BAD_INSTRUCTION;
		*code = (int)f->vector;	/* EXC_I386_*FLT: the vector */
		*subcode = (int)f->error;
		return;
	}
}

void trap_user_exception(struct trap_frame *f)
{
	int exc, code, subcode;

	codes_of(f, &exc, &code, &subcode);
	if (exception_raise_current(exc, code, subcode))
		return;
	task_terminate_current("%s at rip 0x%llx (error code 0x%llx)",
			       trap_name(f->vector),
			       (unsigned long long)f->rip,
			       (unsigned long long)f->error);
}
