/* SPDX-License-Identifier: GPL-2.0-only */
/* Messages to kernel objects: per-type handlers called at send time. */
#ifndef IPC_IPC_KOBJECT_H
#define IPC_IPC_KOBJECT_H

#include <stdbool.h>

#include <mach/kern_return.h>
#include <mach/message.h>

struct ipc_kmsg;
struct ipc_port;

/*
 * A handler serves the messages sent to ports of one kernel-object type
 * (ipc_port_alloc_kernel).  It is called synchronously by the sending
 * thread, possibly with interrupts disabled and inside other IPC
 * operations (a notification), so it must not block; the exported IPC
 * functions it may call nest.
 *
 * @request is in kernel layout (ipc_kmsg.h) with all its rights: header
 * remote is the kernel port (a send or send-once right), header local the
 * reply right; ipc_kmsg_msg(@request) is what MIG's KERNEL_SERVER demux
 * takes.  The handler may set *@reply to a kernel-layout message to send
 * (queue limits do not apply; a NULL or dead destination drops it), e.g.
 * one from ipc_kmsg_alloc() filled by the MIG demux, whose header remote
 * is then the request's reply right.  The return value says who owns what
 * is left in @request:
 *   MACH_MSG_SUCCESS - the handler consumed the body's rights and memory
 *     and the reply right (moved into *@reply, or kept for a later reply:
 *     MIG_NO_REPLY); the dispatcher frees the request.
 *   anything else (MIG_BAD_ID, MIG_BAD_ARGUMENTS, the routine's error)
 *     - the body is intact; the reply right was moved into *@reply if it
 *     is non-NULL; the dispatcher destroys the rest.
 * In both cases the dispatcher then releases the destination right
 * quietly (no send-once notification to the kernel port).  The sender's
 * mach_msg returns MACH_MSG_SUCCESS either way, as in GNU Mach.
 */
typedef mach_msg_return_t (*ipc_kobject_handler_t)(struct ipc_kmsg *request,
						   struct ipc_kmsg **reply);

/* ipc_kobject_set_handler - serve @kotype (IKOT_NONE < kotype < IKOT_MAX,
 * else a kernel bug: panic) with @fn; NULL removes the handler.  Locking:
 * none needed (a pointer store); call before ports of @kotype exist. */
void ipc_kobject_set_handler(unsigned int kotype, ipc_kobject_handler_t fn);

/*
 * ipc_kobject_code_reply - a reply carrying only @code (MIG's
 * mig_reply_header_t, the reply of a routine whose only answer is its
 * return code, and of every routine that failed) to @reply, a right of
 * @type that the message takes; id @request_id + 100.  NULL if memory is
 * short (the right is then still the caller's).  Send it with
 * ipc_mqueue_send_always.  Any context; never blocks.
 */
struct ipc_kmsg *ipc_kobject_code_reply(mach_msg_id_t request_id,
					struct ipc_port *reply,
					mach_msg_type_name_t type,
					kern_return_t code);

/*
 * ipc_kobject_nsrequest_self - have kernel port @port send its own
 * no-senders notification to itself (a send-once right to @port, so its
 * handler sees MACH_NOTIFY_NO_SENDERS with a send-once destination, which
 * only the kernel can make) once it has no send rights and @sync <= its
 * make-send count; a request it replaces is released.  How a kernel
 * object learns that its last client went.  Interrupts on or off.
 */
void ipc_kobject_nsrequest_self(struct ipc_port *port,
				mach_port_mscount_t sync);

/*
 * ipc_kobject_no_senders - @port's own no-senders notification
 * (ipc_kobject_nsrequest_self) arrived: true if @port still has no send
 * rights, so its object may go; false if a sender came in between, the
 * request then being made again for when that one goes.  Interrupts
 * off.
 */
bool ipc_kobject_no_senders(struct ipc_port *port);

/*
 * ipc_kobject_server - serve @request, sent to a kernel port (consumed):
 * its type's handler, or without one a MIG_BAD_ID reply (a
 * mig_reply_header_t, id = request id + 100) to the reply right if there
 * is one, the request being destroyed.  Returns MACH_MSG_SUCCESS.
 * Locking: as handlers (above).
 */
mach_msg_return_t ipc_kobject_server(struct ipc_kmsg *request);

#endif
