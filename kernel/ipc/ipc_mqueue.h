/* SPDX-License-Identifier: GPL-2.0-only */
/* Message queues: delivery, queue limits, receive from ports and sets. */
#ifndef IPC_IPC_MQUEUE_H
#define IPC_IPC_MQUEUE_H

#include <stdbool.h>
#include <stdint.h>

#include <mach/message.h>

#include "ipc/ipc_port.h"

struct ipc_kmsg;
struct ipc_port;
struct ipc_space;

/*
 * Locking: all functions expect interrupts disabled (the IPC state is
 * held, see kernel/ipc/README.md).  ipc_mqueue_wait_space and
 * ipc_mqueue_receive block through assert_wait/thread_block, which keep
 * the interrupt state across the switch; everything else is
 * non-blocking.
 */

/* Milliseconds of a mach_msg timeout in clock ticks, rounded up. */
uint64_t ipc_mqueue_ticks(mach_msg_timeout_t ms);

/*
 * ipc_mqueue_full - would a message with destination disposition
 * @dest_type wait for room at @port?  Only a queue at its limit makes
 * senders wait, and never the ones using a send-once right; kernel ports
 * and dead ports never do.
 */
static inline bool ipc_mqueue_full(const struct ipc_port *port,
				   mach_msg_type_name_t dest_type)
{
	if (!port->active || port->kotype != IKOT_NONE)
		return false;
	if (dest_type == MACH_MSG_TYPE_MOVE_SEND_ONCE ||
	    dest_type == MACH_MSG_TYPE_MAKE_SEND_ONCE ||
	    dest_type == MACH_MSG_TYPE_PORT_SEND_ONCE)
		return false;
	return port->msgcount >= port->qlimit;
}

/*
 * ipc_mqueue_wait_space - block until @port may have room, dies, or
 * @ticks pass (with @timed).  Takes and drops its own reference to the
 * port.  Returns MACH_MSG_SUCCESS (look again), MACH_SEND_TIMED_OUT or
 * MACH_SEND_INTERRUPTED (thread_interrupt).
 */
mach_msg_return_t ipc_mqueue_wait_space(struct ipc_port *port, bool timed,
					uint64_t ticks);

/*
 * ipc_mqueue_deliver - deliver @kmsg, a complete kernel-layout message
 * (consumed), ignoring the queue limit: messages carrying receive rights
 * are given their destination (a circular one is destroyed), a message
 * to a dead or missing port is destroyed, one to a kernel port goes to
 * ipc_kobject_server, the rest are queued and receivers woken.  Returns
 * MACH_MSG_SUCCESS (the kernel object's answer is in its reply message,
 * as in GNU Mach).
 */
mach_msg_return_t ipc_mqueue_deliver(struct ipc_kmsg *kmsg);

/* ipc_mqueue_send_always - ipc_mqueue_deliver for a message the kernel
 * built (sets its user-layout size first). */
mach_msg_return_t ipc_mqueue_send_always(struct ipc_kmsg *kmsg);

/*
 * ipc_mqueue_receive - take a message for @space from the receive right
 * or port set @name, waiting (with MACH_RCV_TIMEOUT in @option, at most
 * @ticks) while there is none.  A message whose user-layout size exceeds
 * @max stays queued with MACH_RCV_LARGE (*@kmsgp NULL, *@size its size),
 * otherwise it is dequeued and returned with MACH_RCV_TOO_LARGE (GNU
 * Mach's behaviour; the caller delivers its header only).  On success the
 * message has its sequence number.  Returns MACH_MSG_SUCCESS,
 * MACH_RCV_TOO_LARGE, MACH_RCV_INVALID_NAME (no such receive right or
 * set, or the space is dead), MACH_RCV_IN_SET (the port is in a set),
 * MACH_RCV_TIMED_OUT, MACH_RCV_INTERRUPTED (thread_interrupt: thread_abort
 * or termination), MACH_RCV_PORT_DIED (the port or set died or the
 * receive right left the space while waiting) or MACH_RCV_PORT_CHANGED
 * (the port joined a set while waiting).
 */
mach_msg_return_t ipc_mqueue_receive(struct ipc_space *space,
				      mach_port_name_t name,
				      mach_msg_option_t option,
				      mach_msg_size_t max, uint64_t ticks,
				      struct ipc_kmsg **kmsgp,
				      mach_msg_size_t *size);

/* ipc_mqueue_dequeue - take the first message of @port off its queue (it
 * must have one), waking a sender waiting for room. */
struct ipc_kmsg *ipc_mqueue_dequeue(struct ipc_port *port);

#endif
