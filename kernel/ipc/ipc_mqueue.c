/* SPDX-License-Identifier: GPL-2.0-only */
/* Message queues: delivery, queue limits, receives with timeouts. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ipc/ipc_entry.h"
#include "ipc/ipc_kmsg.h"
#include "ipc/ipc_kobject.h"
#include "ipc/ipc_mqueue.h"
#include "ipc/ipc_port.h"
#include "ipc/ipc_pset.h"
#include "ipc/ipc_space.h"
#include "kern/clock.h"
#include "kern/sched.h"

/*
 * Handoff.  A thread that blocks receiving from a port (not a set) hangs
 * a waiter record, on its stack, on the port's rcv_waiting list.  A
 * sender that finds the queue empty and a waiter whose space still holds
 * the receive right (the port in no set, the message within the
 * receiver's size unless it asked for MACH_RCV_LARGE) gives the message
 * to the first waiter directly, with its sequence number, and ends that
 * thread's wait: no queueing, no dequeueing, no look at the queue after
 * the wakeup.  A receiver that wakes without a message takes its record
 * off the list; one that wakes with a message whose port changed
 * meanwhile (died, moved, joined a set) puts the message back at the head
 * of the queue, or destroys it with the dead port, as if it had never
 * left the queue.
 */
struct ipc_mqueue_waiter {
	struct ipc_mqueue_waiter *next;
	struct thread *thread;
	struct ipc_space *space;
	mach_msg_size_t max;
	bool large;			/* MACH_RCV_LARGE */
	struct ipc_kmsg *kmsg;		/* handed over by a sender */
};

static uint64_t next_stamp;

uint64_t ipc_mqueue_ticks(mach_msg_timeout_t ms)
{
	return ((uint64_t)ms * HZ + 999) / 1000;
}

mach_msg_return_t ipc_mqueue_wait_space(struct ipc_port *port, bool timed,
					uint64_t ticks)
{
	enum thread_wait_result r;

	if (timed && ticks == 0)
		return MACH_SEND_TIMED_OUT;
	ipc_port_reference(port);
	port->snd_waiters++;
	assert_wait(&port->snd_event);
	if (timed)
		thread_set_timeout(ticks);
	r = thread_block();
	port->snd_waiters--;
	ipc_port_release(port);
	if (r == THREAD_INTERRUPTED)
		return MACH_SEND_INTERRUPTED;
	return r == THREAD_TIMED_OUT ? MACH_SEND_TIMED_OUT : MACH_MSG_SUCCESS;
}

/* A message was put on @port's queue: count it, wake receivers. */
static void queued(struct ipc_port *port)
{
	port->msgcount++;
	if (port->rcv_waiting != NULL)
		thread_wakeup(&port->rcv_event);
	if (port->pset != NULL && port->pset->rcv_waiters != 0)
		thread_wakeup(&port->pset->rcv_event);
}

/* Give @kmsg straight to the first receiver blocked on @port, if the
 * queue is empty and that receiver may take it; true if it did. */
static bool handoff(struct ipc_port *port, struct ipc_kmsg *kmsg)
{
	struct ipc_mqueue_waiter *w = port->rcv_waiting;

	if (w == NULL || port->msg_head != NULL || port->pset != NULL ||
	    port->receiver != w->space || (w->large && kmsg->usize > w->max))
		return false;
	port->rcv_waiting = w->next;
	w->next = NULL;
	w->kmsg = kmsg;
	kmsg->header.seqno = port->seqno++;
	thread_wakeup_thread(w->thread, &port->rcv_event);
	return true;
}

/* Put back @kmsg, handed over to a receiver of @port that can no longer
 * take it: first in the queue again, or destroyed with a dead port. */
static void handback(struct ipc_port *port, struct ipc_kmsg *kmsg)
{
	if (!port->active) {
		ipc_kmsg_destroy(kmsg);
		return;
	}
	if (port->seqno == kmsg->header.seqno + 1)
		port->seqno--;
	kmsg->next = port->msg_head;
	port->msg_head = kmsg;
	if (port->msg_tail == NULL)
		port->msg_tail = kmsg;
	queued(port);
}

/* Block on @port with the record @w until a message is handed over (then
 * returned, whatever ended the wait), or the wait ends otherwise (NULL;
 * *@r says why). */
static struct ipc_kmsg *wait_port(struct ipc_port *port,
				  struct ipc_mqueue_waiter *w, bool timed,
				  uint64_t deadline, enum thread_wait_result *r)
{
	struct ipc_mqueue_waiter **pp = &port->rcv_waiting;

	while (*pp != NULL)
		pp = &(*pp)->next;
	*pp = w;
	w->next = NULL;
	w->kmsg = NULL;
	assert_wait(&port->rcv_event);
	if (timed)
		thread_set_timeout(deadline - clock_ticks());
	*r = thread_block();
	if (w->kmsg != NULL)
		return w->kmsg;
	for (pp = &port->rcv_waiting; *pp != w; pp = &(*pp)->next)
		;
	*pp = w->next;
	return NULL;
}

mach_msg_return_t ipc_mqueue_deliver(struct ipc_kmsg *kmsg)
{
	struct ipc_port *port = kmsg->header.remote;

	if (!IPC_PORT_VALID(port)) {
		ipc_kmsg_destroy(kmsg);
		return MACH_MSG_SUCCESS;
	}
	if (((kmsg->header.bits & MACH_MSGH_BITS_COMPLEX) &&
	     !(kmsg->flags & IPC_KMSG_PLAIN) &&
	     ipc_kmsg_attach_receive_rights(kmsg)) || !port->active) {
		ipc_kmsg_destroy(kmsg);
		return MACH_MSG_SUCCESS;
	}
	if (port->kotype != IKOT_NONE)
		return ipc_kobject_server(kmsg);

	kmsg->stamp = ++next_stamp;
	kmsg->next = NULL;
	if (handoff(port, kmsg))
		return MACH_MSG_SUCCESS;
	if (port->msg_tail != NULL)
		port->msg_tail->next = kmsg;
	else
		port->msg_head = kmsg;
	port->msg_tail = kmsg;
	queued(port);
	return MACH_MSG_SUCCESS;
}

mach_msg_return_t ipc_mqueue_send_always(struct ipc_kmsg *kmsg)
{
	/* A simple message has one size in both layouts. */
	kmsg->usize = !(kmsg->header.bits & MACH_MSGH_BITS_COMPLEX) &&
		      kmsg->header.size >= sizeof(kmsg->header) &&
		      kmsg->header.size <= kmsg->capacity ?
		      kmsg->header.size : ipc_kmsg_usize(kmsg);
	return ipc_mqueue_deliver(kmsg);
}

struct ipc_kmsg *ipc_mqueue_dequeue(struct ipc_port *port)
{
	struct ipc_kmsg *kmsg = port->msg_head;

	port->msg_head = kmsg->next;
	if (port->msg_head == NULL)
		port->msg_tail = NULL;
	kmsg->next = NULL;
	port->msgcount--;
	kmsg->header.seqno = port->seqno++;
	if (port->snd_waiters != 0 && port->msgcount < port->qlimit)
		thread_wakeup(&port->snd_event);
	return kmsg;
}

/* Is the receive right or set the receiver waits on still usable? */
static mach_msg_return_t still_there(struct ipc_space *space,
				     struct ipc_port *port,
				     struct ipc_pset *pset)
{
	if (pset != NULL)
		return pset->active && pset->space == space ?
			       MACH_MSG_SUCCESS : MACH_RCV_PORT_DIED;
	if (!port->active || port->receiver != space)
		return MACH_RCV_PORT_DIED;
	if (port->pset != NULL)
		return MACH_RCV_PORT_CHANGED;
	return MACH_MSG_SUCCESS;
}

/* Receive the first message of @port's queue (there is one) for a
 * buffer of @max bytes: dequeued into *@kmsgp unless it is too large
 * and @option has MACH_RCV_LARGE.  Its size in *@size. */
static mach_msg_return_t take_first(struct ipc_port *port,
				    mach_msg_option_t option,
				    mach_msg_size_t max,
				    struct ipc_kmsg **kmsgp,
				    mach_msg_size_t *size)
{
	mach_msg_size_t usize = port->msg_head->usize;

	*size = usize;
	if (usize > max && (option & MACH_RCV_LARGE))
		return MACH_RCV_TOO_LARGE;
	*kmsgp = ipc_mqueue_dequeue(port);
	return usize > max ? MACH_RCV_TOO_LARGE : MACH_MSG_SUCCESS;
}

/* ipc_mqueue_receive's wait, for the right or set @e of @space (looked
 * up) when no message can be taken at once. */
static mach_msg_return_t
receive_wait(struct ipc_space *space, struct ipc_entry *e,
	     mach_msg_option_t option, mach_msg_size_t max, uint64_t ticks,
	     struct ipc_kmsg **kmsgp, mach_msg_size_t *size)
{
	bool timed = (option & MACH_RCV_TIMEOUT) != 0;
	uint64_t deadline = timed ? clock_ticks() + ticks : 0;
	struct ipc_port *port = NULL;
	struct ipc_pset *pset = NULL;
	mach_msg_return_t mr;
	enum thread_wait_result r;
	bool timed_out = false;
	struct ipc_mqueue_waiter w = {
		.thread = thread_current(),
		.space = space,
		.max = max,
		.large = (option & MACH_RCV_LARGE) != 0,
	};

	if (e->type & MACH_PORT_TYPE_RECEIVE) {
		port = e->object;
		ipc_port_reference(port);
	} else if (e->type & MACH_PORT_TYPE_PORT_SET) {
		pset = e->object;
		ipc_pset_reference(pset);
	} else {
		return MACH_RCV_INVALID_NAME;
	}
	ipc_space_reference(space);

	for (;;) {
		struct ipc_port *from = port;
		struct ipc_kmsg *kmsg;

		mr = still_there(space, port, pset);
		if (mr != MACH_MSG_SUCCESS)
			break;
		kmsg = pset != NULL ? ipc_pset_first_message(pset, &from) :
				      port->msg_head;
		if (kmsg != NULL) {
			mr = take_first(from, option, max, kmsgp, size);
			break;
		}
		if (timed_out || (timed && clock_ticks() >= deadline)) {
			mr = MACH_RCV_TIMED_OUT;
			break;
		}
		if (pset == NULL) {
			kmsg = wait_port(port, &w, timed, deadline, &r);
			if (kmsg == NULL && r == THREAD_INTERRUPTED) {
				mr = MACH_RCV_INTERRUPTED;	/* thread_abort */
				break;
			}
			if (kmsg == NULL) {
				if (r == THREAD_TIMED_OUT)
					timed_out = true; /* one last look */
				continue;
			}
			mr = still_there(space, port, NULL);
			if (mr != MACH_MSG_SUCCESS) {
				handback(port, kmsg);
				break;
			}
			*kmsgp = kmsg;
			*size = kmsg->usize;
			mr = kmsg->usize > max ? MACH_RCV_TOO_LARGE :
						 MACH_MSG_SUCCESS;
			break;
		}
		pset->rcv_waiters++;
		assert_wait(&pset->rcv_event);
		if (timed)
			thread_set_timeout(deadline - clock_ticks());
		r = thread_block();
		pset->rcv_waiters--;
		if (r == THREAD_INTERRUPTED) {
			mr = MACH_RCV_INTERRUPTED;	/* thread_abort */
			break;
		}
		if (r == THREAD_TIMED_OUT)
			timed_out = true;	/* one last look */
	}
	if (pset != NULL)
		ipc_pset_release(pset);
	else
		ipc_port_release(port);
	ipc_space_release(space);
	return mr;
}

mach_msg_return_t ipc_mqueue_receive(struct ipc_space *space,
				      mach_port_name_t name,
				      mach_msg_option_t option,
				      mach_msg_size_t max, uint64_t ticks,
				      struct ipc_kmsg **kmsgp,
				      mach_msg_size_t *size)
{
	struct ipc_entry *e;

	*kmsgp = NULL;
	if (!space->active)
		return MACH_RCV_INVALID_NAME;
	e = ipc_entry_lookup(&space->table, name);
	if (e == NULL)
		return MACH_RCV_INVALID_NAME;
	if (e->type & MACH_PORT_TYPE_RECEIVE) {
		struct ipc_port *port = e->object;

		if (port->pset != NULL)
			return MACH_RCV_IN_SET;
		/* A message waiting: taken without the references a wait
		 * holds (nothing blocks). */
		if (port->msg_head != NULL && port->active &&
		    port->receiver == space)
			return take_first(port, option, max, kmsgp, size);
	}
	return receive_wait(space, e, option, max, ticks, kmsgp, size);
}
