/* SPDX-License-Identifier: GPL-2.0-only */
/* mach_msg_rpc_from_kernel: a kernel-layout request sent with a reply port of the kernel's, and the caller waiting for the reply. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <mach/mig_errors.h>
#include <mach/notify.h>

#include "ipc/ipc_kmsg.h"
#include "ipc/ipc_kobject.h"
#include "ipc/ipc_port.h"
#include "kern/kernel_rpc.h"
#include "kern/sched.h"
#include "kern/string.h"
#include "kern/task_port.h"
#include "x86_64/cpu.h"

/* kernel/device/io_req.c */
mach_msg_return_t mach_msg_send_from_kernel(mach_msg_header_t *msg,
					    mach_msg_size_t size);

/* A call waiting for its reply: the kernel object of its reply port. */
struct rpc_wait {
	mach_msg_header_t *buf;
	mach_msg_size_t size;
	mach_msg_return_t result;
	bool done;
};

/* A right of disposition @name given by the caller, as the kernel layout
 * carries it; 0 for a disposition that is not one. */
static mach_msg_type_name_t carried(mach_msg_type_name_t name)
{
	switch (name) {
	case MACH_MSG_TYPE_COPY_SEND:
	case MACH_MSG_TYPE_MAKE_SEND:
	case MACH_MSG_TYPE_MOVE_SEND:
		return MACH_MSG_TYPE_PORT_SEND;
	case MACH_MSG_TYPE_MAKE_SEND_ONCE:
	case MACH_MSG_TYPE_MOVE_SEND_ONCE:
		return MACH_MSG_TYPE_PORT_SEND_ONCE;
	default:
		return 0;
	}
}

/*
 * Walk the body of @msg (@size bytes): with @give false, check that every
 * item is inline, short-form, and a port item one of rights; with @give
 * true, rewrite each port item's disposition to the carried type; with
 * @release, destroy the rights instead.  MACH_MSG_SUCCESS or
 * MACH_SEND_INVALID_TYPE.
 */
static mach_msg_return_t body_walk(mach_msg_header_t *msg,
				   mach_msg_size_t size, bool give,
				   bool release)
{
	uint8_t *base = (uint8_t *)msg;
	size_t off = sizeof(*msg);

	while (off < size) {
		mach_msg_type_t t;
		size_t bytes;

		if (size - off < sizeof(t))
			return MACH_SEND_INVALID_TYPE;
		memcpy(&t, base + off, sizeof(t));
		if (t.msgt_longform || !t.msgt_inline)
			return MACH_SEND_INVALID_TYPE;
		off += sizeof(t);
		if (!MACH_MSG_TYPE_PORT_ANY(t.msgt_name)) {
			bytes = (((size_t)t.msgt_number * t.msgt_size + 7) /
				 8 + 3) & ~(size_t)3;
		} else {
			mach_msg_type_name_t kind = carried(t.msgt_name);

			if (kind == 0 || t.msgt_size != 64)
				return MACH_SEND_INVALID_TYPE;
			bytes = (size_t)t.msgt_number * 8;
			if (bytes > size - off)
				return MACH_SEND_INVALID_TYPE;
			for (size_t i = 0; release && i < t.msgt_number; i++) {
				struct ipc_port *p;

				memcpy(&p, base + off + 8 * i, sizeof(p));
				if (IPC_PORT_VALID(p))
					ipc_port_destroy_right(p, kind);
			}
			if (give) {
				t.msgt_name = kind;
				memcpy(base + off - sizeof(t), &t, sizeof(t));
			}
		}
		if (bytes > size - off)
			return MACH_SEND_INVALID_TYPE;
		off += bytes;
	}
	return MACH_MSG_SUCCESS;
}

/* The handler of reply ports: the reply is copied for the waiting call. */
static mach_msg_return_t reply_handle(struct ipc_kmsg *request,
				      struct ipc_kmsg **reply)
{
	struct ipc_kmsg_header *h = &request->header;
	unsigned int kotype;
	struct rpc_wait *w = ipc_port_kobject(h->remote, &kotype);

	*reply = NULL;
	if (w == NULL || kotype != IKOT_KERNEL_REPLY || w->done)
		return MIG_BAD_ID;
	w->done = true;
	thread_wakeup(w);
	if (h->size > w->size || (h->bits & MACH_MSGH_BITS_COMPLEX) ||
	    h->local != NULL) {
		w->result = MACH_RCV_TOO_LARGE;
		return MIG_TYPE_ERROR;	/* the dispatcher destroys the rest */
	}
	memcpy(w->buf, h, h->size);
	w->result = MACH_MSG_SUCCESS;
	return MACH_MSG_SUCCESS;
}

mach_msg_return_t mach_msg_rpc_from_kernel(mach_msg_header_t *msg,
					   mach_msg_size_t send_size,
					   mach_msg_size_t rcv_size)
{
	struct ipc_kmsg_header *h = (struct ipc_kmsg_header *)msg;
	struct rpc_wait w = { .buf = msg, .size = rcv_size };
	struct ipc_port *port;
	mach_msg_return_t mr;
	uint64_t flags;

	mr = (h->bits & MACH_MSGH_BITS_COMPLEX) ?
		body_walk(msg, send_size, false, false) : MACH_MSG_SUCCESS;
	port = mr == MACH_MSG_SUCCESS ?
		ipc_port_alloc_kernel(&w, IKOT_KERNEL_REPLY) : NULL;
	if (port == NULL) {
		flags = cpu_intr_save();
		if (h->bits & MACH_MSGH_BITS_COMPLEX)
			(void)body_walk(msg, send_size, false, true);
		if (IPC_PORT_VALID(h->remote))
			ipc_port_destroy_right(h->remote,
					       MACH_MSG_TYPE_PORT_SEND);
		cpu_intr_restore(flags);
		return mr != MACH_MSG_SUCCESS ? mr : MACH_SEND_NO_BUFFER;
	}
	if (h->bits & MACH_MSGH_BITS_COMPLEX)
		(void)body_walk(msg, send_size, true, false);
	flags = cpu_intr_save();
	h->local = ipc_port_make_send_once(port);
	cpu_intr_restore(flags);
	h->bits = (h->bits & MACH_MSGH_BITS_COMPLEX) |
		MACH_MSGH_BITS(MACH_MSG_TYPE_PORT_SEND,
			       MACH_MSG_TYPE_PORT_SEND_ONCE);
	mr = mach_msg_send_from_kernel(msg, send_size);
	flags = cpu_intr_save();
	if (mr != MACH_MSG_SUCCESS) {
		/* Only the destination went: the rest is still ours. */
		ipc_port_release_sonce(h->local);
		if (h->bits & MACH_MSGH_BITS_COMPLEX)
			(void)body_walk(msg, send_size, false, true);
		w.done = true;
		w.result = mr;
	}
	while (!w.done) {
		assert_wait(&w);
		if (thread_block() == THREAD_INTERRUPTED && !w.done) {
			w.result = MACH_RCV_INTERRUPTED;
			break;
		}
	}
	ipc_port_dealloc_kernel(port);
	cpu_intr_restore(flags);
	return w.result;
}

void kernel_rpc_init(void)
{
	ipc_kobject_set_handler(IKOT_KERNEL_REPLY, reply_handle);
}
