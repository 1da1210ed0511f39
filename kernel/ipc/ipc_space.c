/* SPDX-License-Identifier: GPL-2.0-only */
/* Port name spaces: creation, teardown, rights given by the kernel. */
#include <stddef.h>

#include "ipc/ipc_entry.h"
#include "ipc/ipc_port.h"
#include "ipc/ipc_right.h"
#include "ipc/ipc_space.h"
#include "kern/kalloc.h"
#include "kern/panic.h"
#include "x86_64/cpu.h"

static unsigned int spaces_alive;

unsigned int ipc_space_count(void)
{
	return spaces_alive;
}

struct ipc_space *ipc_space_create(void)
{
	struct ipc_space *space = kzalloc(sizeof(*space));
	uint64_t flags;

	if (space == NULL)
		return NULL;
	if (ipc_entry_table_init(&space->table) != KERN_SUCCESS) {
		kfree(space);
		return NULL;
	}
	space->refs = 1;
	space->active = true;
	flags = cpu_intr_save();
	spaces_alive++;
	cpu_intr_restore(flags);
	return space;
}

/* The last reference went (refs now 0), or one too many (refs wrapped
 * below 0: a kernel bug). */
void ipc_space_free(struct ipc_space *space)
{
	uint64_t flags = cpu_intr_save();

	if (space->refs != 0)
		panic("ipc_space_release: space %p is free", (void *)space);
	if (space->active)
		panic("ipc_space_release: live space %p freed", (void *)space);
	ipc_entry_table_fini(&space->table);
	spaces_alive--;
	kfree(space);
	cpu_intr_restore(flags);
}

void ipc_space_destroy(struct ipc_space *space)
{
	uint64_t flags = cpu_intr_save();
	struct ipc_entry *e, *next;

	if (!space->active)
		panic("ipc_space_destroy: space %p destroyed twice",
		      (void *)space);
	/* Inactive first: whatever the releases below run (notifications,
	 * kernel-object handlers) finds no name to use. */
	space->active = false;
	ipc_right_reserve_clear(space);
	for (e = ipc_entry_take_all(&space->table); e != NULL; e = next) {
		next = e->next;
		ipc_right_clean(space, e);
	}
	ipc_space_release(space);
	cpu_intr_restore(flags);
}

kern_return_t ipc_space_insert_send(struct ipc_space *space,
				    struct ipc_port *port,
				    mach_port_name_t *name)
{
	uint64_t flags;
	struct ipc_port *right;
	kern_return_t kr;

	if (space == NULL)
		return KERN_INVALID_TASK;
	flags = cpu_intr_save();
	if (!space->active) {
		kr = KERN_INVALID_TASK;
	} else if (!IPC_PORT_VALID(port) || !port->active) {
		kr = KERN_INVALID_CAPABILITY;
	} else {
		right = ipc_port_make_send(port);
		kr = ipc_right_copyout(space, right, MACH_MSG_TYPE_PORT_SEND,
				       false, name);
		if (kr != KERN_SUCCESS) {
			/* Undo quietly: the make-send never happened. */
			port->mscount--;
			port->srights--;
			ipc_port_release(port);
		}
	}
	cpu_intr_restore(flags);
	return kr;
}
