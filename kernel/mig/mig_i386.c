/* SPDX-License-Identifier: GPL-2.0-only */
/* mach_i386.defs routines: I/O port permissions for user tasks. */
/*
 * i386_io_perm_create makes an io_perm object for a port range when asked
 * through the device master port; i386_io_perm_modify grants or withdraws
 * its range to a task (kernel/x86_64/io_perm.h, io_bitmap.h).  The LDT and
 * GDT routines are not served (kernel/mig/not_served.c).
 */
#include <stddef.h>

#include <mach/notify.h>

#include "graft_mig.h"
#include "ipc/ipc_kmsg.h"
#include "ipc/ipc_port.h"
#include "kern/task.h"
#include "kern/task_port.h"
#include "mig/mig_i386.h"
#include "mig/mig_server.h"
#include "x86_64/io_perm.h"

#include "machine/io_perm.h"

#define IO_PERM(p)	((struct io_perm *)(uintptr_t)(p))

io_perm_t convert_port_to_io_perm(ipc_port_t port)
{
	return (io_perm_t)(uintptr_t)io_perm_from_port(port);
}

ipc_port_t convert_io_perm_to_port(io_perm_t perm)
{
	return perm != 0 ? io_perm_make_send(IO_PERM(perm)) : NULL;
}

void io_perm_deallocate(io_perm_t perm)
{
	(void)perm;	/* objects live by their send rights, see io_perm.h */
}

/*
 * i386_io_perm_create - an io_perm for ports [@from, @to] in *@io_perm.
 * KERN_INVALID_ARGUMENT if @master_port is not the device master port or
 * @from > @to; KERN_RESOURCE_SHORTAGE (memory, or the caller's limit of
 * io_perm objects, kern/ledger.h).  (io_port_t is 16 bits on the
 * wire, so no port above 0xffff can be asked for.)
 */
kern_return_t mig_i386_io_perm_create(ipc_port_t master_port, io_port_t from,
				      io_port_t to, io_perm_t *io_perm)
{
	struct io_perm *perm;
	kern_return_t kr;

	if (master_port != master_device_port || from > to)
		return KERN_INVALID_ARGUMENT;
	kr = io_perm_create(from, to, &perm);
	if (kr == KERN_SUCCESS)
		*io_perm = (io_perm_t)(uintptr_t)perm;
	return kr;
}

/*
 * i386_io_perm_modify - grant (@enable) or withdraw @io_perm's ports to
 * @target_task's threads in user mode.  KERN_INVALID_ARGUMENT for a port
 * that is not a task's or not an io_perm's; KERN_RESOURCE_SHORTAGE.
 */
kern_return_t mig_i386_io_perm_modify(task_t target_task, io_perm_t io_perm,
				      boolean_t enable)
{
	struct task *task = (struct task *)target_task;

	if (task == NULL || io_perm == 0)
		return KERN_INVALID_ARGUMENT;
	return io_perm_apply(task, IO_PERM(io_perm), enable != 0);
}

mach_msg_return_t mig_io_perm_handle(struct ipc_kmsg *request,
				     struct ipc_kmsg **reply)
{
	if (request->header.id == MACH_NOTIFY_NO_SENDERS &&
	    io_perm_no_senders(request->header.remote)) {
		*reply = NULL;
		return MACH_MSG_SUCCESS;
	}
	return mig_server_handle(request, reply);
}
