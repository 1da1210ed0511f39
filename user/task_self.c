/* SPDX-License-Identifier: GPL-2.0-only */
/* mach_task_self and mach_host_self: the task's own and the host's port names, asked of the kernel once. */
#include "graft_user.h"

/*
 * Each call of the trap adds a user reference to the name, and a name
 * holds at most 65,535 (MACH_PORT_UREFS_MAX): a program that asked the
 * trap for every call it makes would find the name gone after that many.
 * So the name is asked for once and kept, as GNU's C library keeps
 * __mach_task_self_.  A thread a task starts in another task, on a copy
 * of its memory (task_create inheriting it), finds the first task's
 * names here: it asks the traps itself.
 */
static mach_port_t task_self = MACH_PORT_NULL;
static mach_port_t host_self = MACH_PORT_NULL;

mach_port_t mach_task_self(void)
{
	if (task_self == MACH_PORT_NULL)
		task_self = mach_task_self_trap();
	return task_self;
}

mach_port_t mach_host_self(void)
{
	if (host_self == MACH_PORT_NULL)
		host_self = mach_host_self_trap();
	return host_self;
}
