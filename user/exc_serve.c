/* SPDX-License-Identifier: GPL-2.0-only */
/* graft_exc_serve: a task's exception port served by a thread of its own, with exc.defs's server stubs. */
#include <graft/thread_state.h>
#include <mach/message.h>
#include <mach/task_special_ports.h>
#include <stdint.h>

#include "exc_server.h"
#include "graft_user.h"

/* exc.defs's demux (user/mig/exc_server.c; its header declares only the
 * routines). */
boolean_t exc_server(mach_msg_header_t *in, mach_msg_header_t *out);

#define EXC_MSG_SIZE	256

static mach_port_t served;

static void __attribute__((noreturn)) exc_loop(void)
{
	union {
		mach_msg_header_t head;
		char bytes[EXC_MSG_SIZE];
	} in, out;

	for (;;) {
		if (mach_msg(&in.head, MACH_RCV_MSG, 0, sizeof(in), served,
			     MACH_MSG_TIMEOUT_NONE, MACH_PORT_NULL) !=
		    MACH_MSG_SUCCESS)
			continue;
		(void)exc_server(&in.head, &out.head);
		(void)mach_msg(&out.head, MACH_SEND_MSG, out.head.msgh_size, 0,
			       MACH_PORT_NULL, MACH_MSG_TIMEOUT_NONE,
			       MACH_PORT_NULL);
	}
}

kern_return_t graft_exc_serve(void *stack, unsigned long size,
			      mach_port_t *port)
{
	struct graft_thread_state_x86_64 s;
	mach_msg_type_number_t n = GRAFT_THREAD_STATE_X86_64_COUNT;
	mach_port_t self = mach_task_self(), th;
	kern_return_t kr;

	if (served != MACH_PORT_NULL)
		return KERN_FAILURE;
	kr = mach_port_allocate(self, MACH_PORT_RIGHT_RECEIVE, &served);
	if (kr == KERN_SUCCESS)
		kr = mach_port_insert_right(self, served, served,
					    MACH_MSG_TYPE_MAKE_SEND);
	if (kr == KERN_SUCCESS)
		kr = thread_create(self, &th);
	if (kr == KERN_SUCCESS)
		kr = thread_get_state(th, GRAFT_THREAD_STATE_X86_64,
				      (natural_t *)&s, &n);
	if (kr != KERN_SUCCESS)
		return kr;
	s.rip = (uint64_t)(uintptr_t)exc_loop;
	s.rsp = (((uint64_t)(uintptr_t)stack + size) & ~15ull) - 8;
	kr = thread_set_state(th, GRAFT_THREAD_STATE_X86_64, (natural_t *)&s,
			      GRAFT_THREAD_STATE_X86_64_COUNT);
	if (kr == KERN_SUCCESS)
		kr = thread_resume(th);
	if (kr == KERN_SUCCESS)
		kr = task_set_special_port(self, TASK_EXCEPTION_PORT, served);
	if (kr == KERN_SUCCESS && port != NULL)
		*port = served;
	return kr;
}
