/* SPDX-License-Identifier: GPL-2.0-only */
/* The server's exception port: Linux's WARN resumed after its report, every other exception left to end the server. */
/*
 * A Linux WARN (or BUG) is a ud2 with an entry in the bug table
 * (linux-emu/lx_bug.c).  The server's task has an exception port,
 * served by a Mach thread of its own (the event loop's thread is the one
 * that faults): an invalid opcode at an address lx_emul_bug_trap()
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
#include <mach/task_special_ports.h>
#include <mach/x86_64/exception.h>
#include <stdio.h>

#include <graft_user.h>
#include <mach_interface.h>

#include <lx_emul.h>

#include "exc_server.h"
#include "lxdrv.h"

#define EXC_STACK_SIZE	(64u << 10)
#define EXC_MSG_SIZE	256

/* exc.defs's demux (user/mig/exc_server.c; its header declares only
 * the routines). */
boolean_t exc_server(mach_msg_header_t *in, mach_msg_header_t *out);

static mach_port_t exc_port;
static uint64_t exc_stack[EXC_STACK_SIZE / 8] __attribute__((aligned(16)));

kern_return_t catch_exception_raise(mach_port_t port, mach_port_t thread,
				    mach_port_t task, integer_t exception,
				    integer_t code, integer_t subcode)
{
	struct graft_thread_state_x86_64 s;
	mach_msg_type_number_t n = GRAFT_THREAD_STATE_X86_64_COUNT;
	unsigned long resume;
	kern_return_t kr;

	(void)port;
	(void)subcode;
	if (task != lxdrv_task || exception != EXC_BAD_INSTRUCTION ||
	    code != EXC_I386_INVOP)
		return KERN_FAILURE;
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

static void __attribute__((noreturn)) exc_loop(void)
{
	union {
		mach_msg_header_t head;
		char bytes[EXC_MSG_SIZE];
	} in, out;

	for (;;) {
		if (mach_msg(&in.head, MACH_RCV_MSG, 0, sizeof(in), exc_port,
			     MACH_MSG_TIMEOUT_NONE, MACH_PORT_NULL) !=
		    MACH_MSG_SUCCESS)
			continue;
		(void)exc_server(&in.head, &out.head);
		(void)mach_msg(&out.head, MACH_SEND_MSG, out.head.msgh_size, 0,
			       MACH_PORT_NULL, MACH_MSG_TIMEOUT_NONE,
			       MACH_PORT_NULL);
	}
}

int lxdrv_exc_start(void)
{
	struct graft_thread_state_x86_64 s;
	mach_msg_type_number_t n = GRAFT_THREAD_STATE_X86_64_COUNT;
	mach_port_t th;

	if (mach_port_allocate(lxdrv_task, MACH_PORT_RIGHT_RECEIVE,
			       &exc_port) != KERN_SUCCESS ||
	    mach_port_insert_right(lxdrv_task, exc_port, exc_port,
				   MACH_MSG_TYPE_MAKE_SEND) != KERN_SUCCESS ||
	    thread_create(lxdrv_task, &th) != KERN_SUCCESS ||
	    thread_get_state(th, GRAFT_THREAD_STATE_X86_64, (natural_t *)&s,
			     &n) != KERN_SUCCESS)
		return -1;
	s.rip = (uint64_t)(uintptr_t)exc_loop;
	s.rsp = (uint64_t)(uintptr_t)&exc_stack[EXC_STACK_SIZE / 8] - 8;
	if (thread_set_state(th, GRAFT_THREAD_STATE_X86_64, (natural_t *)&s,
			     GRAFT_THREAD_STATE_X86_64_COUNT) != KERN_SUCCESS ||
	    thread_resume(th) != KERN_SUCCESS ||
	    task_set_special_port(lxdrv_task, TASK_EXCEPTION_PORT,
				  exc_port) != KERN_SUCCESS)
		return -1;
	return 0;
}
