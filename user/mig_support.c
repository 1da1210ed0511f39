/* SPDX-License-Identifier: GPL-2.0-only */
/* The reply port cache and memory helpers MIG user stubs call. */
#include <mach/mig_support.h>
#include <stdbool.h>

#include "graft_user.h"

/*
 * One cached reply port per task, which an RPC claims for its duration:
 * a thread that finds the cache empty (another thread's RPC holds the
 * port) makes a port of its own, and giving back a port when the cache
 * is full destroys it.  So concurrent RPCs of a task's threads never share
 * a reply port, and a single-threaded task keeps using one.
 */
static mach_port_t cached_reply_port = MACH_PORT_NULL;

static void destroy_reply_port(mach_port_t port)
{
	(void)mach_port_mod_refs(mach_task_self(), port,
				 MACH_PORT_RIGHT_RECEIVE, -1);
}

mach_port_t mig_get_reply_port(void)
{
	mach_port_t port = __atomic_exchange_n(&cached_reply_port,
					       MACH_PORT_NULL,
					       __ATOMIC_ACQ_REL);

	return port != MACH_PORT_NULL ? port : mach_reply_port();
}

void mig_dealloc_reply_port(mach_port_t port)
{
	mach_port_t cached = port;

	/* After mig_put_reply_port (a mismatched reply) it may be cached. */
	(void)__atomic_compare_exchange_n(&cached_reply_port, &cached,
					  MACH_PORT_NULL, false,
					  __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
	destroy_reply_port(port);
}

void mig_put_reply_port(mach_port_t port)
{
	mach_port_t empty = MACH_PORT_NULL;

	if (port == MACH_PORT_NULL)
		return;
	if (!__atomic_compare_exchange_n(&cached_reply_port, &empty, port,
					 false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE))
		destroy_reply_port(port);
}

void mig_allocate(vm_address_t *addr, vm_size_t size)
{
	if (vm_allocate(mach_task_self(), addr, size, TRUE) != KERN_SUCCESS)
		*addr = 0;
}

void mig_deallocate(vm_address_t addr, vm_size_t size)
{
	(void)vm_deallocate(mach_task_self(), addr, size);
}

vm_size_t mig_strncpy(char *dst, const char *src, vm_size_t len)
{
	vm_size_t i;

	if (len == 0)
		return 0;
	for (i = 0; i + 1 < len && src[i] != '\0'; i++)
		dst[i] = src[i];
	dst[i] = '\0';
	return i;
}

void mig_init(void *first)
{
	(void)first;
	cached_reply_port = MACH_PORT_NULL;
}
