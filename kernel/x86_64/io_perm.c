/* SPDX-License-Identifier: GPL-2.0-only */
/* I/O permission objects: a port range a task may be granted (mach_i386.defs). */
#include <stddef.h>

#include "ipc/ipc_kobject.h"
#include "ipc/ipc_port.h"
#include "kern/kalloc.h"
#include "kern/ledger.h"
#include "kern/task.h"
#include "kern/task_port.h"
#include "x86_64/cpu.h"
#include "x86_64/io_bitmap.h"
#include "x86_64/io_perm.h"

unsigned int io_perm_count;

kern_return_t io_perm_create(uint16_t from, uint16_t to,
			     struct io_perm **out)
{
	struct ledger *ledger = task_current()->ledger;
	struct io_perm *perm;

	if (from > to)
		return KERN_INVALID_ARGUMENT;
	if (!ledger_charge(ledger, LEDGER_IO_PERMS, 1))
		return KERN_RESOURCE_SHORTAGE;
	perm = kalloc(sizeof(*perm));
	if (perm == NULL)
		goto err_charged;
	perm->from = from;
	perm->to = to;
	perm->ledger = ledger;
	perm->port = ipc_port_alloc_kernel(perm, IKOT_IO_PERM);
	if (perm->port == NULL)
		goto err_perm;
	/* Notify when the send rights made from now on are all gone. */
	ipc_kobject_nsrequest_self(perm->port, 1);
	io_perm_count++;
	*out = perm;
	return KERN_SUCCESS;
err_perm:
	kfree(perm);
err_charged:
	ledger_credit(ledger, LEDGER_IO_PERMS, 1);
	return KERN_RESOURCE_SHORTAGE;
}

struct ipc_port *io_perm_make_send(struct io_perm *perm)
{
	return ipc_port_make_send(perm->port);
}

struct io_perm *io_perm_from_port(struct ipc_port *port)
{
	unsigned int kotype;
	void *object = ipc_port_kobject(port, &kotype);

	return kotype == IKOT_IO_PERM ? object : NULL;
}

bool io_perm_no_senders(struct ipc_port *port)
{
	struct io_perm *perm;
	uint64_t flags = cpu_intr_save();

	perm = io_perm_from_port(port);
	if (perm == NULL || port->srights != 0) {
		cpu_intr_restore(flags);
		return false;
	}
	ipc_port_dealloc_kernel(perm->port);
	ledger_credit(perm->ledger, LEDGER_IO_PERMS, 1);
	kfree(perm);
	io_perm_count--;
	cpu_intr_restore(flags);
	return true;
}

kern_return_t io_perm_apply(struct task *task, const struct io_perm *perm,
			    bool enable)
{
	uint64_t flags = cpu_intr_save();
	kern_return_t kr;

	kr = io_bitmap_set(&task->io_bitmap, perm->from, perm->to, enable);
	if (kr == KERN_SUCCESS && task == task_current())
		io_bitmap_load(task->io_bitmap);
	cpu_intr_restore(flags);
	return kr;
}
