/* SPDX-License-Identifier: GPL-2.0-only */
/* The intran/outtran/destructor functions mach_types.defs names. */
/*
 * Objects are not reference counted yet: a conversion returns the object
 * while the handler runs, which cannot block and runs with interrupts
 * disabled (mig_server_handle), so nothing can free a task, thread or map
 * meanwhile on one CPU (only the routine itself may: task_terminate of a
 * task without threads), and destructors have nothing to drop.
 * Conversions of objects Graft does not have (processor sets, memory
 * objects) give NULL, which the routines that take them refuse.
 */
#include <stddef.h>

#include "graft_mig.h"
#include "ipc/ipc_port.h"
#include "kern/task.h"
#include "kern/task_port.h"
#include "kern/thread.h"

task_t convert_port_to_task(ipc_port_t port)
{
	return (task_t)task_port_task(port);
}

ipc_port_t convert_task_to_port(task_t task)
{
	struct task *t = (struct task *)task;

	if (t == NULL || t->itk_self == NULL)
		return NULL;
	return ipc_port_make_send(t->itk_self);
}

void task_deallocate(task_t task)
{
	(void)task;
}

thread_t convert_port_to_thread(ipc_port_t port)
{
	return (thread_t)task_port_thread(port);
}

ipc_port_t convert_thread_to_port(thread_t thread)
{
	struct thread *t = (struct thread *)thread;

	if (t == NULL || t->ith_self == NULL)
		return NULL;
	return ipc_port_make_send(t->ith_self);
}

void thread_deallocate(thread_t thread)
{
	(void)thread;
}

vm_map_t convert_port_to_map(ipc_port_t port)
{
	struct task *t = task_port_task(port);

	return t != NULL ? t->map : NULL;
}

void vm_map_deallocate(vm_map_t map)
{
	(void)map;
}

ipc_space_t convert_port_to_space(ipc_port_t port)
{
	struct task *t = task_port_task(port);

	return t != NULL ? (ipc_space_t)t->itk_space : 0;
}

void space_deallocate(ipc_space_t space)
{
	(void)space;
}

host_t convert_port_to_host(ipc_port_t port)
{
	return task_port_is_host(port, 0) ? 1 : 0;
}

host_t convert_port_to_host_priv(ipc_port_t port)
{
	return task_port_is_host(port, 1) ? 1 : 0;
}

ipc_port_t convert_host_to_port(host_t host)
{
	return host ? ipc_port_make_send(host_port) : NULL;
}


processor_set_t convert_port_to_pset(ipc_port_t port)
{
	(void)port;
	return 0;
}

processor_set_t convert_port_to_pset_name(ipc_port_t port)
{
	(void)port;
	return 0;
}


ipc_port_t convert_pset_to_port(processor_set_t p)
{
	(void)p;
	return NULL;
}

ipc_port_t convert_pset_name_to_port(processor_set_t p)
{
	(void)p;
	return NULL;
}

void processor_set_deallocate(processor_set_t p)
{
	(void)p;
}

void pset_deallocate(processor_set_t p)
{
	(void)p;
}

vm_object_t vm_object_lookup(ipc_port_t port)
{
	(void)port;
	return NULL;
}

vm_object_t vm_object_lookup_name(ipc_port_t port)
{
	(void)port;
	return NULL;
}

void vm_object_deallocate(vm_object_t object)
{
	(void)object;
}
