/* SPDX-License-Identifier: GPL-2.0-only */
/* Port helpers the user test programs share. */
#ifndef TESTS_USER_USER_PORT_H
#define TESTS_USER_USER_PORT_H

#include <mach/kern_return.h>
#include <mach/port.h>

#include "mach_interface.h"

/* A new port whose receive right this task holds, or MACH_PORT_NULL if
 * mach_port_allocate refused. */
__attribute__((unused))
static mach_port_t new_receive(void)
{
	mach_port_t p = MACH_PORT_NULL;

	if (mach_port_allocate(mach_task_self(), MACH_PORT_RIGHT_RECEIVE,
			       &p) != KERN_SUCCESS)
		return MACH_PORT_NULL;
	return p;
}

#endif
