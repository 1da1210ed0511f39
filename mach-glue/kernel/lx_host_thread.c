/* SPDX-License-Identifier: GPL-2.0-only */
/* lx_host_thread_create, lx_host_thread_self and the wait/wakeup primitive inside the Graft kernel. */
/*
 * Linux-world threads are kernel threads of their own priority, a little
 * above the default one, so that a worker or an interrupt thread woken
 * from an interrupt runs before ordinary kernel threads.  Waiting is the
 * scheduler's assert_wait / thread_block / thread_wakeup, whose two steps
 * are exactly the prepare / wait split of the interface.
 */
#include <stdint.h>

#include "kern/sched.h"
#include "kern/thread.h"
#include "linux-emu/include/lx_host.h"

#define LX_THREAD_PRIORITY	(THREAD_PRIORITY_DEFAULT - 2)

int lx_host_thread_create(const char *name, void (*fn)(void *arg), void *arg)
{
	return kernel_thread_create(name, LX_THREAD_PRIORITY, fn, arg,
				    NULL) == KERN_SUCCESS ? 0 : -1;
}

unsigned long lx_host_thread_self(void)
{
	return (unsigned long)(uintptr_t)thread_current();
}

void lx_host_wait_prepare(const void *event)
{
	assert_wait(event);
}

int lx_host_wait(unsigned long ticks)
{
	if (ticks != 0)
		thread_set_timeout(ticks);
	return thread_block() == THREAD_TIMED_OUT ? 1 : 0;
}

void lx_host_wakeup(const void *event)
{
	thread_wakeup(event);
}
