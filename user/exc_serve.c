/* SPDX-License-Identifier: GPL-2.0-only */
/* graft_exc_serve: a task's exception port served by a thread of its own, with exc.defs's server stubs; a second thread ends the task if that one faults. */
#include <graft/thread_state.h>
#include <mach/message.h>
#include <mach/task_special_ports.h>
#include <mach/thread_special_ports.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "exc_server.h"
#include "graft_user.h"

/* exc.defs's demux (user/mig/exc_server.c; its header declares only the
 * routines). */
boolean_t exc_server(mach_msg_header_t *in, mach_msg_header_t *out);

#define EXC_MSG_SIZE	256
#define GUARD_STACK	4096

static mach_port_t served, guard;
static uint64_t guard_stack[GUARD_STACK / 8] __attribute__((aligned(16)));

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

/* The exception port of exc_loop's thread: an exception there means the
 * handler itself faulted and can serve nothing more (its own exception
 * would otherwise wait on the port only it serves), so the task ends. */
static void __attribute__((noreturn)) guard_loop(void)
{
	static const char line[] =
		"graft_exc_serve: the exception handler faulted; "
		"ending the task\n";
	union {
		mach_msg_header_t head;
		char bytes[EXC_MSG_SIZE];
	} in;

	for (;;) {
		if (mach_msg(&in.head, MACH_RCV_MSG | MACH_RCV_LARGE, 0,
			     sizeof(in), guard, MACH_MSG_TIMEOUT_NONE,
			     MACH_PORT_NULL) != MACH_MSG_SUCCESS)
			continue;
		(void)write(1, line, sizeof(line) - 1);
		(void)task_terminate(mach_task_self());
	}
}

/* A new suspended thread of the task that will run @fn on @stack. */
static kern_return_t thread_at(void (*fn)(void), void *stack,
			       unsigned long size, mach_port_t *th)
{
	struct graft_thread_state_x86_64 s;
	mach_msg_type_number_t n = GRAFT_THREAD_STATE_X86_64_COUNT;
	kern_return_t kr;

	kr = thread_create(mach_task_self(), th);
	if (kr == KERN_SUCCESS)
		kr = thread_get_state(*th, GRAFT_THREAD_STATE_X86_64,
				      (natural_t *)&s, &n);
	if (kr != KERN_SUCCESS)
		return kr;
	s.rip = (uint64_t)(uintptr_t)fn;
	s.rsp = (((uint64_t)(uintptr_t)stack + size) & ~15ull) - 8;
	return thread_set_state(*th, GRAFT_THREAD_STATE_X86_64,
				(natural_t *)&s,
				GRAFT_THREAD_STATE_X86_64_COUNT);
}

/* A receive right named *@port with a send right of the same name. */
static kern_return_t port_with_send(mach_port_t *port)
{
	mach_port_t self = mach_task_self();
	kern_return_t kr;

	kr = mach_port_allocate(self, MACH_PORT_RIGHT_RECEIVE, port);
	if (kr == KERN_SUCCESS)
		kr = mach_port_insert_right(self, *port, *port,
					    MACH_MSG_TYPE_MAKE_SEND);
	return kr;
}

kern_return_t graft_exc_serve(void *stack, unsigned long size,
			      mach_port_t *port)
{
	mach_port_t handler, guarder;
	kern_return_t kr;

	if (served != MACH_PORT_NULL)
		return KERN_FAILURE;
	kr = port_with_send(&served);
	if (kr == KERN_SUCCESS)
		kr = port_with_send(&guard);
	if (kr == KERN_SUCCESS)
		kr = thread_at(exc_loop, stack, size, &handler);
	if (kr == KERN_SUCCESS)
		kr = thread_at(guard_loop, guard_stack, sizeof(guard_stack),
			       &guarder);
	if (kr == KERN_SUCCESS)
		kr = thread_set_special_port(handler, THREAD_EXCEPTION_PORT,
					     guard);
	if (kr == KERN_SUCCESS)
		kr = thread_resume(guarder);
	if (kr == KERN_SUCCESS)
		kr = thread_resume(handler);
	if (kr == KERN_SUCCESS)
		kr = task_set_special_port(mach_task_self(),
					   TASK_EXCEPTION_PORT, served);
	if (kr == KERN_SUCCESS && port != NULL)
		*port = served;
	return kr;
}
