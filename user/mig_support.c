/* SPDX-License-Identifier: GPL-2.0-only */
/* The reply port cache and memory helpers MIG user stubs call. */
#include <stdbool.h>

#include <mach/mig_support.h>

#include "graft_user.h"

/* One thread per task so far: one cached reply port. */
static mach_port_t reply_port = MACH_PORT_NULL;

mach_port_t mig_get_reply_port(void)
{
	if (reply_port == MACH_PORT_NULL)
		reply_port = mach_reply_port();
	return reply_port;
}

/* The RPC that destroys the port is a MIG call too: when it fails (the
 * task's own port name out of references, say) its stub comes back
 * here; that nested call leaves the port, rather than recurse until the
 * stack ends. */
void mig_dealloc_reply_port(mach_port_t port)
{
	static bool inside;

	if (port == reply_port)
		reply_port = MACH_PORT_NULL;
	if (inside)
		return;
	inside = true;
	(void)mach_port_mod_refs(mach_task_self(), port,
				 MACH_PORT_RIGHT_RECEIVE, -1);
	inside = false;
}

void mig_put_reply_port(mach_port_t port)
{
	(void)port;
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
	reply_port = MACH_PORT_NULL;
}
