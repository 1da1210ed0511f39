/* SPDX-License-Identifier: GPL-2.0-only */
/* Notifications: built in kernel layout, sent through send-once rights. */
#include <stddef.h>
#include <stdint.h>

#include <mach/notify.h>

#include "ipc/ipc_kmsg.h"
#include "ipc/ipc_mqueue.h"
#include "ipc/ipc_notify.h"
#include "ipc/ipc_port.h"
#include "kern/string.h"

unsigned int ipc_notify_dropped;

/* A notification to @notify with @id and @body_size bytes of body (a
 * type descriptor and its datum), or NULL (the right is then dropped). */
static struct ipc_kmsg *notify_alloc(struct ipc_port *notify, mach_msg_id_t id,
				     mach_msg_size_t body_size)
{
	struct ipc_kmsg *kmsg;

	kmsg = ipc_kmsg_alloc(sizeof(struct ipc_kmsg_header) + body_size);
	if (kmsg == NULL) {
		ipc_notify_dropped++;
		ipc_port_release_sonce(notify);
		return NULL;
	}
	kmsg->header.bits = MACH_MSGH_BITS(MACH_MSG_TYPE_PORT_SEND_ONCE, 0);
	kmsg->header.remote = notify;
	kmsg->header.local = NULL;
	kmsg->header.id = id;
	return kmsg;
}

/* Append a one-element inline item of @name and @bits to @kmsg. */
static void put_item(struct ipc_kmsg *kmsg, mach_msg_type_name_t name,
		     unsigned int bits, const void *datum)
{
	mach_msg_type_t t = {
		.msgt_name = name,
		.msgt_size = bits,
		.msgt_number = 1,
		.msgt_inline = 1,
	};
	uint8_t *body = ipc_kmsg_body(kmsg);

	memcpy(body, &t, sizeof(t));
	memcpy(body + sizeof(t), datum, bits / 8);
}

static void send_name(struct ipc_port *notify, mach_msg_id_t id,
		      mach_port_name_t name)
{
	struct ipc_kmsg *kmsg;

	if (!IPC_PORT_VALID(notify))
		return;
	kmsg = notify_alloc(notify, id, sizeof(mach_msg_type_t) + 4);
	if (kmsg == NULL)
		return;
	put_item(kmsg, MACH_MSG_TYPE_PORT_NAME, 32, &name);
	ipc_mqueue_send_always(kmsg);
}

void ipc_notify_port_deleted(struct ipc_port *notify, mach_port_name_t name)
{
	send_name(notify, MACH_NOTIFY_PORT_DELETED, name);
}

void ipc_notify_dead_name(struct ipc_port *notify, mach_port_name_t name)
{
	send_name(notify, MACH_NOTIFY_DEAD_NAME, name);
}

void ipc_notify_no_senders(struct ipc_port *notify,
			   mach_port_mscount_t mscount)
{
	struct ipc_kmsg *kmsg;

	if (!IPC_PORT_VALID(notify))
		return;
	kmsg = notify_alloc(notify, MACH_NOTIFY_NO_SENDERS,
			    sizeof(mach_msg_type_t) + 4);
	if (kmsg == NULL)
		return;
	put_item(kmsg, MACH_MSG_TYPE_INTEGER_32, 32, &mscount);
	ipc_mqueue_send_always(kmsg);
}

void ipc_notify_port_destroyed(struct ipc_port *notify, struct ipc_port *port)
{
	struct ipc_kmsg *kmsg;

	if (!IPC_PORT_VALID(notify)) {
		ipc_port_destroy(port);
		return;
	}
	kmsg = notify_alloc(notify, MACH_NOTIFY_PORT_DESTROYED,
			    sizeof(mach_msg_type_t) + sizeof(port));
	if (kmsg == NULL) {
		ipc_port_destroy(port);	/* no request left: it dies */
		return;
	}
	kmsg->header.bits |= MACH_MSGH_BITS_COMPLEX;
	put_item(kmsg, MACH_MSG_TYPE_PORT_RECEIVE, 64, &port);
	ipc_mqueue_send_always(kmsg);
}

void ipc_notify_send_once(struct ipc_port *port)
{
	struct ipc_kmsg *kmsg;

	if (!IPC_PORT_VALID(port))
		return;
	if (!port->active) {
		ipc_port_release_sonce(port);
		return;
	}
	kmsg = notify_alloc(port, MACH_NOTIFY_SEND_ONCE, 0);
	if (kmsg != NULL)
		ipc_mqueue_send_always(kmsg);
}
