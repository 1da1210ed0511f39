/* SPDX-License-Identifier: GPL-2.0-only */
/* Port name spaces: a task's names for ports and port sets. */
#ifndef IPC_IPC_SPACE_H
#define IPC_IPC_SPACE_H

#include <stdbool.h>

#include <mach/kern_return.h>
#include <mach/port.h>

#include "ipc/ipc_entry.h"

struct ipc_port;

/*
 * A space.  @refs: one for its creator (dropped by ipc_space_destroy),
 * one per thread working in it across a wait.  Once destroyed (@active
 * false) it holds no rights and every operation on it fails
 * (KERN_INVALID_TASK, MACH_SEND_INVALID_DEST, MACH_RCV_INVALID_NAME).
 */
struct ipc_space {
	unsigned int refs;
	bool active;
	struct ipc_entry_table table;
	struct ipc_entry *resv;		/* entries reserved by the message
					 * being decoded (ipc_right.c) */
};

/*
 * Locking: one CPU; every function here disables interrupts around the
 * space (the saves nest, so callers may hold them disabled).  None
 * blocks; none may be called from an interrupt handler.
 */

/* ipc_space_create - an empty active space with one reference for the
 * caller, or NULL when out of memory. */
struct ipc_space *ipc_space_create(void);

/*
 * ipc_space_destroy - release every right @space holds, as if each name
 * were destroyed with mach_port_destroy: receive rights destroy their
 * ports (or go to their port-destroyed requests), send rights may send
 * no-senders notifications, send-once rights send send-once
 * notifications, dead-name requests of the space turn into port-deleted
 * notifications, port sets die.  Then drops the creator's reference.  A
 * second call is a kernel bug (the reference is gone).
 */
void ipc_space_destroy(struct ipc_space *space);

/* References: see struct ipc_space.  The last release frees the space,
 * which must have been destroyed (else: panic).  Inline, one atomic
 * instruction each (one CPU): every receive takes and drops one. */
void ipc_space_free(struct ipc_space *space);

static inline void ipc_space_reference(struct ipc_space *space)
{
	__atomic_fetch_add(&space->refs, 1, __ATOMIC_RELAXED);
}

static inline void ipc_space_release(struct ipc_space *space)
{
	if (__atomic_fetch_sub(&space->refs, 1, __ATOMIC_RELAXED) <= 1)
		ipc_space_free(space);
}

/*
 * ipc_space_insert_send - make a new send right to @port (a kernel
 * object's port, say) and give it to @space: *@name is the space's name
 * for it (the existing one if the space already has send or receive
 * rights to @port, with one more user reference).  The caller's own
 * reference to @port is untouched.  Returns KERN_SUCCESS,
 * KERN_INVALID_TASK (space destroyed), KERN_INVALID_CAPABILITY (@port
 * NULL or dead), KERN_UREFS_OVERFLOW, KERN_NO_SPACE or
 * KERN_RESOURCE_SHORTAGE.
 */
kern_return_t ipc_space_insert_send(struct ipc_space *space,
				    struct ipc_port *port,
				    mach_port_name_t *name);

/* Spaces allocated and not yet freed (for tests and leak checks). */
unsigned int ipc_space_count(void);

#endif
