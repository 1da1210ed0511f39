/* SPDX-License-Identifier: GPL-2.0-only */
/* Port sets: receive from any member port, oldest message first. */
#ifndef IPC_IPC_PSET_H
#define IPC_IPC_PSET_H

#include <stdbool.h>

#include <mach/port.h>

struct ipc_kmsg;
struct ipc_port;
struct ipc_space;

/*
 * A port set, named in one space (@space, @name).  Members keep their own
 * queues; receiving from the set takes the member message that was queued
 * first (messages are stamped when queued).  @refs: one for the entry,
 * one per thread waiting on the set.  Members are not counted: a dying
 * port leaves its set, a dying set drops its members.
 */
struct ipc_pset {
	unsigned int refs;
	bool active;
	struct ipc_space *space;
	mach_port_name_t name;
	struct ipc_port *members;	/* linked through port->pset_next */
	char rcv_event;			/* wait event (its address) */
	unsigned int rcv_waiters;	/* threads waiting on rcv_event */
};

/*
 * Locking: all functions expect interrupts disabled (the IPC state is
 * held; see kernel/ipc/README.md) and do not block.
 */

/* ipc_pset_alloc - a new active empty set with one reference, or NULL
 * when out of memory. */
struct ipc_pset *ipc_pset_alloc(void);

/* References; the last release frees the set, which must be dead. */
void ipc_pset_reference(struct ipc_pset *pset);
void ipc_pset_release(struct ipc_pset *pset);

/* ipc_pset_add - make @port (receive right in the set's space, in no set)
 * a member; wakes the set's receivers if it has messages.
 * ipc_pset_remove - take @port out of its set, if any. */
void ipc_pset_add(struct ipc_pset *pset, struct ipc_port *port);
void ipc_pset_remove(struct ipc_port *port);

/* ipc_pset_destroy - the set's name is gone: drop the members, wake the
 * receivers (they get MACH_RCV_PORT_DIED), consume the entry's
 * reference. */
void ipc_pset_destroy(struct ipc_pset *pset);

/* The oldest message queued on a member of @pset (not dequeued), with
 * its port in *@port; NULL if none. */
struct ipc_kmsg *ipc_pset_first_message(const struct ipc_pset *pset,
					struct ipc_port **port);

/* Port sets allocated and not yet freed (for tests and leak checks). */
unsigned int ipc_pset_count(void);

#endif
