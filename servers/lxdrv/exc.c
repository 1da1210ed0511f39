/* SPDX-License-Identifier: GPL-2.0-only */
/* The server's exception port: Linux's WARN resumed after its report, every other exception left to end the server. */
/*
 * A Linux WARN (or BUG) is a ud2 with an entry in the bug table
 * (linux-emu/lx_bug.c).  The server's task has an exception port,
 * served by a Mach thread of its own (graft_exc_serve; the event loop's
 * thread is the one that faults): an invalid opcode at an address lx_emul_bug_trap()
 * resumes is reported there and the faulting thread moved past it with
 * its 64-bit registers (GRAFT_THREAD_STATE_X86_64); anything else, a
 * BUG included, is refused, so the kernel ends the task with the
 * exception's line, as without an exception port, and a supervised
 * server is restarted.  The handler's MIG calls share the task's reply
 * port with the event loop's thread only while that thread waits in its
 * exception.
 */
#include <graft/thread_state.h>
#include <mach/exception.h>
#include <mach/x86_64/exception.h>
#include <stdio.h>

#include <graft_user.h>

#include <lx_emul.h>

#include "exc_server.h"
#include "lxdrv.h"

#define EXC_STACK_SIZE	(64u << 10)

static uint64_t exc_stack[EXC_STACK_SIZE / 8] __attribute__((aligned(16)));

/* A WARN's trap at @thread: resumed after its report, or KERN_FAILURE. */
static kern_return_t bug_trap(mach_port_t thread)
{
	struct graft_thread_state_x86_64 s;
	mach_msg_type_number_t n = GRAFT_THREAD_STATE_X86_64_COUNT;
	unsigned long resume;
	kern_return_t kr;

	kr = thread_get_state(thread, GRAFT_THREAD_STATE_X86_64,
			      (natural_t *)&s, &n);
	if (kr != KERN_SUCCESS)
		return kr;
	resume = lx_emul_bug_trap(s.rip, s.rsp);
	fflush(stdout);
	if (resume == 0)
		return KERN_FAILURE;
	s.rip = resume;
	return thread_set_state(thread, GRAFT_THREAD_STATE_X86_64,
				(natural_t *)&s, GRAFT_THREAD_STATE_X86_64_COUNT);
}

kern_return_t catch_exception_raise(mach_port_t port, mach_port_t thread,
				    mach_port_t task, integer_t exception,
				    integer_t code, integer_t subcode)
{
	kern_return_t kr = KERN_FAILURE;

	(void)port;
	(void)subcode;
	if (task == lxdrv_task && exception == EXC_BAD_INSTRUCTION &&
	    code == EXC_I386_INVOP)
		kr = bug_trap(thread);
	/* the message's send rights: one user reference each */
	(void)mach_port_deallocate(lxdrv_task, thread);
	(void)mach_port_deallocate(lxdrv_task, task);
	return kr;
}

int lxdrv_exc_start(void)
{
	return graft_exc_serve(exc_stack, sizeof(exc_stack), NULL) ==
	       KERN_SUCCESS ? 0 : -1;
}
