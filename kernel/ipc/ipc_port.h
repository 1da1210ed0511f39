/* SPDX-License-Identifier: GPL-2.0-only */
/* Ports: rights counts, message queue, kernel objects, requests, death. */
#ifndef IPC_IPC_PORT_H
#define IPC_IPC_PORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <mach/kern_return.h>
#include <mach/message.h>
#include <mach/port.h>

#include "x86_64/cpu.h"

struct ipc_kmsg;
struct ipc_mqueue_waiter;
struct ipc_pset;
struct ipc_space;

/* A dead-name request: notify @space's @name with a send-once right. */
struct ipc_dnrequest {
	struct ipc_dnrequest *next;
	struct ipc_space *space;
	mach_port_name_t name;
	struct ipc_port *notify;	/* send-once right */
};

/*
 * A kernel watch on a port's death, embedded in what the kernel keeps on
 * behalf of a right to that port (a queued request and its reply right,
 * an interrupt registration, a packet filter): when the port dies, @fn
 * is called with the watch, already unlinked, so the holder lets go at
 * once instead of at some later event.  The watch holds no reference;
 * its owner holds a right, and removes the watch before dropping it.
 */
struct ipc_port_watch {
	struct ipc_port_watch *next, **pprev;	/* pprev NULL: not linked */
	void (*fn)(struct ipc_port_watch *watch);
};

/*
 * A port.  Its receive right is held by exactly one of: a space
 * (@receiver, under @receiver_name), a message in transit (@receiver NULL,
 * @destination the port that message was sent to), or the kernel
 * (@kotype != IKOT_NONE: a kernel object, whose messages go to
 * ipc_kobject_server).  Once destroyed the port is inactive ("dead"):
 * send rights to it survive as dead names and messages to it fail.
 *
 * @refs counts references: one per space entry naming the port, one per
 * right carried in a message (including in the notification requests
 * below), one for the kernel's receive right of a kernel object, one per
 * thread waiting on the port, one held by each in-transit port whose
 * @destination it is.  The port is freed when they run out.
 */
struct ipc_port {
	unsigned int refs;
	bool active;
	struct ipc_space *receiver;
	mach_port_name_t receiver_name;
	struct ipc_port *destination;
	struct ipc_pset *pset;		/* port set it is a member of */
	struct ipc_port *pset_next;	/* next member of that set */
	void *kobject;
	unsigned int kotype;
	mach_port_mscount_t mscount;	/* make-send count */
	mach_port_rights_t srights;	/* send rights alive */
	mach_port_rights_t sorights;	/* send-once rights alive */
	mach_port_seqno_t seqno;	/* of the next message received */
	mach_port_msgcount_t qlimit;
	mach_port_msgcount_t msgcount;
	struct ipc_kmsg *msg_head, *msg_tail;
	struct ipc_port *nsrequest;	/* no-senders: send-once right */
	struct ipc_port *pdrequest;	/* port-destroyed: send-once right */
	struct ipc_dnrequest *dnrequests;
	struct ipc_port_watch *watches;	/* kernel watches on its death */
	char rcv_event;			/* wait events (their addresses) */
	char snd_event;
	struct ipc_mqueue_waiter *rcv_waiting;	/* receivers blocked on the
						 * port itself, in order */
	unsigned int snd_waiters;	/* threads waiting on snd_event */
};

#define IKOT_NONE	0u
#define IKOT_MAX	64u		/* kotype values are below this */

/* A dead port in a message or a header slot: MACH_PORT_DEAD's kernel
 * form.  NULL is MACH_PORT_NULL's. */
#define IPC_PORT_DEAD		((struct ipc_port *)~(uintptr_t)0)
#define IPC_PORT_VALID(p)	((p) != NULL && (p) != IPC_PORT_DEAD)

/*
 * Locking: one CPU.  Every function here disables interrupts around the
 * port state it touches (callers may hold them disabled already: the
 * saves nest).  None blocks; none may be called from an interrupt handler
 * (they allocate).  A "right" below is a right in its kernel form (a port
 * pointer with one reference and one count in srights/sorights, or the
 * receive right), as carried in a struct ipc_kmsg; rights arguments may be
 * NULL or IPC_PORT_DEAD wherever a right may be, and those are passed
 * through or ignored.
 */

/*
 * ipc_port_alloc - a new active port with no receiver, qlimit
 * MACH_PORT_QLIMIT_DEFAULT, and one reference for the caller, which holds
 * its receive right.  NULL when out of memory.  For ipc/ (spaces place
 * the receive right).
 */
struct ipc_port *ipc_port_alloc(void);

/*
 * ipc_port_alloc_kernel - a port for a kernel object: its receive right
 * is the kernel's, messages sent to it are handed to the handler of
 * @kotype (ipc_kobject_set_handler).  The caller gets the one reference
 * that stands for the receive right; make send rights with
 * ipc_port_make_send() and give them to tasks with ipc_space_insert_send().
 * Returns NULL for @kotype IKOT_NONE or >= IKOT_MAX, or out of memory.
 */
struct ipc_port *ipc_port_alloc_kernel(void *kobject, unsigned int kotype);

/* ipc_port_dealloc_kernel - the kernel gives up a kernel object's port:
 * the port dies (holders' rights become dead names, dead-name requests
 * fire) and the caller's reference is consumed. */
void ipc_port_dealloc_kernel(struct ipc_port *port);

/* The kernel object of @port and its type, if @port is an active kernel
 * port (else NULL and IKOT_NONE).  Inline: every call to a kernel object
 * looks its object up. */
static inline void *ipc_port_kobject(const struct ipc_port *port,
				     unsigned int *kotype)
{
	uint64_t flags = cpu_intr_save();
	void *kobject = NULL;

	*kotype = IKOT_NONE;
	if (IPC_PORT_VALID(port) && port->active &&
	    port->kotype != IKOT_NONE) {
		kobject = port->kobject;
		*kotype = port->kotype;
	}
	cpu_intr_restore(flags);
	return kobject;
}

/* References: ipc_port_reference adds one, ipc_port_release drops one and
 * frees the port with the last (an active port losing its last reference
 * is a kernel bug: panic; so is a reference to a freed port).  Inline,
 * as one atomic instruction each (no interrupt toggling: one CPU): every
 * message takes and drops several. */
void ipc_port_refs_bad(struct ipc_port *port);
void ipc_port_free(struct ipc_port *port);

static inline void ipc_port_reference(struct ipc_port *port)
{
	if (__atomic_fetch_add(&port->refs, 1, __ATOMIC_RELAXED) == 0)
		ipc_port_refs_bad(port);
}

static inline void ipc_port_release(struct ipc_port *port)
{
	unsigned int old = __atomic_fetch_sub(&port->refs, 1,
					      __ATOMIC_RELAXED);

	if (old == 0)
		ipc_port_refs_bad(port);
	if (old == 1)
		ipc_port_free(port);
}

/*
 * Making and dropping rights.  ipc_port_make_send - a new send right
 * (counts in the make-send count); ipc_port_make_send_once - a new
 * send-once right; both work on active ports only and return @port, or
 * IPC_PORT_DEAD for an inactive one.  ipc_port_copy_send - another send
 * right from a send right the caller holds: @port, or IPC_PORT_DEAD if the
 * port died.  ipc_port_release_send - drop a send right (the last one
 * sends the no-senders notification if requested); ipc_port_release_sonce
 * - drop a send-once right quietly (it was used, e.g. by a kernel reply).
 */
struct ipc_port *ipc_port_make_send(struct ipc_port *port);
struct ipc_port *ipc_port_make_send_once(struct ipc_port *port);
struct ipc_port *ipc_port_copy_send(struct ipc_port *port);
void ipc_port_release_send(struct ipc_port *port);
void ipc_port_release_sonce(struct ipc_port *port);

/*
 * ipc_port_destroy_right - destroy a right of kernel type @type
 * (MACH_MSG_TYPE_PORT_SEND, _PORT_SEND_ONCE or _PORT_RECEIVE) as a
 * discarded message does: a send right as ipc_port_release_send, a
 * send-once right by sending the send-once notification through it, a
 * receive right by destroying the port.  Any other @type is a kernel bug.
 */
void ipc_port_destroy_right(struct ipc_port *port, mach_msg_type_name_t type);

/*
 * ipc_port_destroy - the receive right of @port is being destroyed; the
 * caller has detached it from its holder (entry, message, kernel) and
 * gives its reference.  With a port-destroyed request the receive right
 * is sent to it instead; otherwise the port dies: queued messages are
 * destroyed, waiting threads woken, dead-name requests fire, the
 * no-senders request's right is destroyed.
 */
void ipc_port_destroy(struct ipc_port *port);

/*
 * ipc_port_watch_add - have @fn(@watch) called when @port dies (inside
 * ipc_port_destroy, interrupts off, @watch already unlinked: @fn must not
 * block and may free @watch's owner, release rights, send messages).
 * The caller holds a right to @port and @watch is not linked.  Returns
 * true; false if @port is NULL, dead or already inactive (nothing
 * linked: the caller lets go itself).  Interrupts on or off.
 * ipc_port_watch_remove - unlink @watch if it is linked (harmless
 * otherwise).  Both are a few stores: any context, interrupt handlers
 * included.
 */
bool ipc_port_watch_add(struct ipc_port *port, struct ipc_port_watch *watch,
			void (*fn)(struct ipc_port_watch *watch));
void ipc_port_watch_remove(struct ipc_port_watch *watch);

/*
 * ipc_port_set_qlimit - set the queue limit of @port (whose receive right
 * the caller holds).  KERN_SUCCESS or KERN_INVALID_VALUE (above
 * MACH_PORT_QLIMIT_MAX).  Raising it wakes blocked senders.
 */
kern_return_t ipc_port_set_qlimit(struct ipc_port *port,
				  mach_port_msgcount_t qlimit);

/*
 * ipc_port_nsrequest - register @notify (a send-once right, consumed;
 * NULL cancels) for the no-senders notification of @port: if @port has no
 * send rights and @sync <= its make-send count the notification is sent at
 * once.  *@previous gets the request it replaces (a send-once right or
 * NULL).  ipc_port_pdrequest - same for the port-destroyed request.
 */
void ipc_port_nsrequest(struct ipc_port *port, mach_port_mscount_t sync,
			struct ipc_port *notify, struct ipc_port **previous);
void ipc_port_pdrequest(struct ipc_port *port, struct ipc_port *notify,
			struct ipc_port **previous);

/*
 * Dead-name requests of @port (ipc_right.c manages the entries' side).
 * ipc_port_dnrequest_add - register (@space, @name) -> @notify (send-once
 * right, consumed), replacing any request of that name; *@previous gets
 * the replaced right or NULL.  KERN_SUCCESS or KERN_RESOURCE_SHORTAGE
 * (@notify not consumed).  ipc_port_dnrequest_cancel - remove the request
 * of (@space, @name) and return its right (NULL if none).
 */
kern_return_t ipc_port_dnrequest_add(struct ipc_port *port,
				     struct ipc_space *space,
				     mach_port_name_t name,
				     struct ipc_port *notify,
				     struct ipc_port **previous);
struct ipc_port *ipc_port_dnrequest_cancel(struct ipc_port *port,
					   struct ipc_space *space,
					   mach_port_name_t name);

/*
 * ipc_port_request_notification - mach_port_request_notification on the
 * kernel side, with the rights in kernel form as MIG's kernel server stubs
 * pass them: register @notify (a send-once right or NULL) for
 * notification @msgid about @name in @space.
 *   MACH_NOTIFY_DEAD_NAME: @name must denote a send, send-once or receive
 *     right; with @sync non-zero and @name already a dead name, the
 *     notification is sent at once (and the name gains a user reference).
 *   MACH_NOTIFY_NO_SENDERS: @name must denote a receive right; @sync is
 *     the make-send count the request is synchronized with.
 *   MACH_NOTIFY_PORT_DESTROYED: @name must denote a receive right; @sync
 *     must be 0.
 * On KERN_SUCCESS @notify is consumed and *@previous is the request it
 * replaced (send-once right) or NULL; on failure nothing changes and
 * @notify stays the caller's.  Returns KERN_SUCCESS, KERN_INVALID_TASK
 * (space dead), KERN_INVALID_NAME, KERN_INVALID_RIGHT, KERN_INVALID_VALUE
 * (bad @msgid or @sync), KERN_INVALID_ARGUMENT (dead name without @sync),
 * KERN_UREFS_OVERFLOW or KERN_RESOURCE_SHORTAGE.
 */
kern_return_t ipc_port_request_notification(struct ipc_space *space,
					    mach_port_name_t name,
					    mach_msg_id_t msgid,
					    mach_port_mscount_t sync,
					    struct ipc_port *notify,
					    struct ipc_port **previous);

/*
 * ipc_port_check_circularity - would putting the receive right of @port
 * into a message to @dest make a cycle (@dest is @port, or its receive
 * right travels, through messages, inside @port)?  Interrupts off.
 */
bool ipc_port_check_circularity(struct ipc_port *port, struct ipc_port *dest);

/* ipc_port_clear_receiver - detach the receive right of @port from its
 * space (leaves its set, make-send count and sequence number reset,
 * receivers woken); the entry is the caller's business. */
void ipc_port_clear_receiver(struct ipc_port *port);

/* Ports allocated and not yet freed (for tests and leak checks). */
unsigned int ipc_port_count(void);

#endif
