/* SPDX-License-Identifier: GPL-2.0-only */
/* Notifications the kernel sends, as mach/notify.h lays them out. */
#ifndef IPC_IPC_NOTIFY_H
#define IPC_IPC_NOTIFY_H

#include <mach/message.h>
#include <mach/port.h>

struct ipc_port;

/*
 * Each function builds the notification in kernel layout and sends it
 * (queue limits do not apply) through @notify, a send-once right it
 * consumes; NULL or IPC_PORT_DEAD sends nothing.  The message ids and
 * bodies are those of mach/notify.h: msgh_local_port MACH_PORT_NULL, the
 * destination right a send-once right.  When no memory is left for the
 * message, the right is released quietly and ipc_notify_dropped counts it.
 *
 * Locking: expect interrupts disabled (kernel/ipc/README.md); do not
 * block; may run kernel-object handlers (a notification to a kernel port).
 */

/* MACH_NOTIFY_PORT_DELETED: the send or send-once right @name was deleted
 * (its dead-name request goes with it). */
void ipc_notify_port_deleted(struct ipc_port *notify, mach_port_name_t name);

/* MACH_NOTIFY_DEAD_NAME: the port @name denoted died. */
void ipc_notify_dead_name(struct ipc_port *notify, mach_port_name_t name);

/* MACH_NOTIFY_NO_SENDERS: no send rights are left; @mscount is the
 * port's make-send count. */
void ipc_notify_no_senders(struct ipc_port *notify,
			   mach_port_mscount_t mscount);

/* MACH_NOTIFY_PORT_DESTROYED: carries @port's receive right (in transit,
 * consumed) because its holder let it go. */
void ipc_notify_port_destroyed(struct ipc_port *notify, struct ipc_port *port);

/* MACH_NOTIFY_SEND_ONCE: the send-once right @port was destroyed unused;
 * the notification goes to @port through that right (consumed). */
void ipc_notify_send_once(struct ipc_port *port);

/* Notifications dropped for want of memory since boot. */
extern unsigned int ipc_notify_dropped;

#endif
