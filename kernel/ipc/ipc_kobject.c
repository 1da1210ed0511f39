/* SPDX-License-Identifier: GPL-2.0-only */
/* Messages to kernel objects: the type's handler, or MIG_BAD_ID. */
#include <stddef.h>

#include <mach/mig_errors.h>

#include "ipc/ipc_kmsg.h"
#include "ipc/ipc_kobject.h"
#include "ipc/ipc_mqueue.h"
#include "ipc/ipc_port.h"
#include "kern/panic.h"
#include "kern/string.h"
#include "x86_64/cpu.h"

static ipc_kobject_handler_t handlers[IKOT_MAX];

void ipc_kobject_set_handler(unsigned int kotype, ipc_kobject_handler_t fn)
{
	if (kotype == IKOT_NONE || kotype >= IKOT_MAX)
		panic("ipc_kobject_set_handler: kotype %u", kotype);
	handlers[kotype] = fn;
}

struct ipc_kmsg *ipc_kobject_code_reply(mach_msg_id_t request_id,
					struct ipc_port *reply,
					mach_msg_type_name_t type,
					kern_return_t code)
{
	const mach_msg_type_t ret_type = {
		.msgt_name = MACH_MSG_TYPE_INTEGER_32,
		.msgt_size = 32,
		.msgt_number = 1,
		.msgt_inline = 1,
	};
	struct ipc_kmsg *kmsg = ipc_kmsg_alloc(sizeof(mig_reply_header_t));
	uint8_t *body;

	if (kmsg == NULL)
		return NULL;
	kmsg->header.bits = MACH_MSGH_BITS(type, 0);
	kmsg->header.remote = reply;
	kmsg->header.local = NULL;
	kmsg->header.id = request_id + 100;
	body = ipc_kmsg_body(kmsg);
	memcpy(body, &ret_type, sizeof(ret_type));
	memcpy(body + sizeof(ret_type), &code, sizeof(code));
	return kmsg;
}

void ipc_kobject_nsrequest_self(struct ipc_port *port,
				mach_port_mscount_t sync)
{
	struct ipc_port *previous = NULL;

	ipc_port_nsrequest(port, sync, ipc_port_make_send_once(port),
			   &previous);
	if (previous != NULL)
		ipc_port_release_sonce(previous);
}

bool ipc_kobject_no_senders(struct ipc_port *port)
{
	if (port->srights == 0)
		return true;
	ipc_kobject_nsrequest_self(port, port->mscount);
	return false;
}

mach_msg_return_t ipc_kobject_server(struct ipc_kmsg *request)
{
	struct ipc_kmsg_header *h = &request->header;
	struct ipc_port *dest = h->remote;
	ipc_kobject_handler_t fn = handlers[dest->kotype];
	struct ipc_kmsg *reply = NULL;
	mach_msg_return_t mr = MIG_BAD_ID;
	uint64_t flags;

	if (fn != NULL)
		mr = fn(request, &reply);
	flags = cpu_intr_save();
	if (fn == NULL && IPC_PORT_VALID(h->local)) {
		reply = ipc_kobject_code_reply(h->id, h->local,
					       MACH_MSGH_BITS_LOCAL(h->bits),
					       MIG_BAD_ID);
		if (reply == NULL)
			ipc_port_destroy_right(h->local,
					       MACH_MSGH_BITS_LOCAL(h->bits));
		h->local = NULL;
	}
	if (reply != NULL)
		h->local = NULL;	/* the reply right moved */

	/* Quietly: a send-once notification would come back here. */
	if (MACH_MSGH_BITS_REMOTE(h->bits) == MACH_MSG_TYPE_PORT_SEND)
		ipc_port_release_send(dest);
	else
		ipc_port_release_sonce(dest);
	h->remote = NULL;
	if (mr == MACH_MSG_SUCCESS)
		ipc_kmsg_free(request);
	else
		ipc_kmsg_destroy(request);
	if (reply != NULL)
		ipc_mqueue_send_always(reply);
	cpu_intr_restore(flags);
	return MACH_MSG_SUCCESS;
}
