/* SPDX-License-Identifier: GPL-2.0-only */
/* Making, naming and resolving task, thread and host ports. */
#include <stddef.h>

#include "ipc/ipc_kobject.h"
#include "ipc/ipc_port.h"
#include "ipc/ipc_space.h"
#include "kern/kernel_rpc.h"
#include "kern/panic.h"
#include "kern/task.h"
#include "kern/task_port.h"
#include "kern/thread.h"
#include "mig/mig_host.h"
#include "mig/mig_i386.h"
#include "mig/mig_server.h"

/* The host and the master ports have no state of their own. */
static int host_object, host_priv_object, master_device_object;
static int driver_master_object;
struct ipc_port *host_port, *host_priv_port, *master_device_port;
struct ipc_port *driver_master_port;

void task_port_init(void)
{
	host_port = ipc_port_alloc_kernel(&host_object, IKOT_HOST);
	host_priv_port = ipc_port_alloc_kernel(&host_priv_object,
					       IKOT_HOST_PRIV);
	master_device_port = ipc_port_alloc_kernel(&master_device_object,
						   IKOT_MASTER_DEVICE);
	driver_master_port = ipc_port_alloc_kernel(&driver_master_object,
						   IKOT_DRIVER_MASTER);
	if (host_port == NULL || host_priv_port == NULL ||
	    master_device_port == NULL || driver_master_port == NULL)
		panic("task_port_init: no memory for the host ports");
	ipc_kobject_set_handler(IKOT_TASK, mig_server_handle);
	ipc_kobject_set_handler(IKOT_THREAD, mig_server_handle);
	ipc_kobject_set_handler(IKOT_HOST, mig_server_handle);
	ipc_kobject_set_handler(IKOT_HOST_PRIV, mig_server_handle);
	/* The master ports' handler is the device layer's (device_init),
	 * which passes i386_io_perm_create on to the MIG server. */
	ipc_kobject_set_handler(IKOT_IO_PERM, mig_io_perm_handle);
	mig_host_init();
	kernel_rpc_init();
}

kern_return_t task_port_setup(struct task *task)
{
	task->itk_space = ipc_space_create();
	if (task->itk_space == NULL)
		return KERN_RESOURCE_SHORTAGE;
	task->itk_self = ipc_port_alloc_kernel(task, IKOT_TASK);
	if (task->itk_self == NULL) {
		ipc_space_destroy(task->itk_space);
		task->itk_space = NULL;
		return KERN_RESOURCE_SHORTAGE;
	}
	return KERN_SUCCESS;
}

void task_port_teardown(struct task *task)
{
	if (task->itk_self != NULL)
		ipc_port_dealloc_kernel(task->itk_self);
	task->itk_self = NULL;
	if (task->itk_bootstrap != NULL)
		ipc_port_release_send(task->itk_bootstrap);
	task->itk_bootstrap = NULL;
	if (task->itk_exception != NULL)
		ipc_port_release_send(task->itk_exception);
	task->itk_exception = NULL;
	if (task->itk_space != NULL)
		ipc_space_destroy(task->itk_space);
	task->itk_space = NULL;
}

kern_return_t thread_port_setup(struct thread *thread)
{
	thread->ith_self = ipc_port_alloc_kernel(thread, IKOT_THREAD);
	return thread->ith_self != NULL ? KERN_SUCCESS : KERN_RESOURCE_SHORTAGE;
}

void thread_port_teardown(struct thread *thread)
{
	if (thread->ith_self != NULL)
		ipc_port_dealloc_kernel(thread->ith_self);
	thread->ith_self = NULL;
	if (thread->ith_exception != NULL)
		ipc_port_release_send(thread->ith_exception);
	thread->ith_exception = NULL;
}

struct task *task_port_task(struct ipc_port *port)
{
	unsigned int kotype;
	void *object = ipc_port_kobject(port, &kotype);

	return kotype == IKOT_TASK ? object : NULL;
}

struct thread *task_port_thread(struct ipc_port *port)
{
	unsigned int kotype;
	void *object = ipc_port_kobject(port, &kotype);

	return kotype == IKOT_THREAD ? object : NULL;
}

int task_port_is_host(struct ipc_port *port, int priv)
{
	unsigned int kotype;

	(void)ipc_port_kobject(port, &kotype);
	return kotype == IKOT_HOST_PRIV || (!priv && kotype == IKOT_HOST);
}

static mach_port_name_t name_in_current(struct ipc_port *port)
{
	struct task *task = task_current();
	mach_port_name_t name;

	if (task->itk_space == NULL || port == NULL ||
	    ipc_space_insert_send(task->itk_space, port, &name) !=
	    KERN_SUCCESS)
		return MACH_PORT_NULL;
	return name;
}

mach_port_name_t task_port_self_name(void)
{
	return name_in_current(task_current()->itk_self);
}

mach_port_name_t task_port_thread_name(void)
{
	return name_in_current(thread_current()->ith_self);
}

mach_port_name_t task_port_host_name(void)
{
	return name_in_current(host_port);
}
