/* SPDX-License-Identifier: GPL-2.0-only */
/* The server half of the two-task IPC test: answers rpc_client on its bootstrap port. */
/*
 * Its bootstrap port is a send right to a port whose receive right it
 * holds too (the kernel's ipc-user suite arranges that), so
 * task_get_bootstrap_port names the port it serves.  Requests (msgh_id):
 *   100 null RPC: empty reply
 *   101 inline echo: the same bytes back
 *   102 out-of-line bytes: reply with their sum, the memory released
 *   103 a send right: send "hello via right" (id 300) to it, empty reply
 *   199 quit: empty reply, then exit(0)
 * Replies go to the request's reply port (send-once).  Anything else is
 * answered MIG_BAD_ID.  It prints "SERVER-DONE n" (requests served).
 */
#include <mach/message.h>
#include <mach/mig_errors.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graft_user.h"
#include "rpc_protocol.h"

/* mach_msg receives into the buffer it sent from, so the two buffers
 * swap roles at every request: the reply sent from one brings the next
 * request into it. */
static union rpc_buffer buf[2];

/* Build the reply to @req in @rep; returns its size. */
static mach_msg_size_t serve(const union rpc_buffer *req,
			     union rpc_buffer *rep, int *quit)
{
	const mach_msg_header_t *h = &req->head;
	mach_msg_size_t size = sizeof(mig_reply_header_t);

	memset(&rep->reply, 0, sizeof(rep->reply));
	rep->reply.Head.msgh_bits =
		MACH_MSGH_BITS(MACH_MSGH_BITS_REMOTE(h->msgh_bits), 0);
	rep->reply.Head.msgh_remote_port = h->msgh_remote_port;
	rep->reply.Head.msgh_id = h->msgh_id + 100;
	rep->reply.RetCodeType = rpc_int_type;
	rep->reply.RetCode = KERN_SUCCESS;
	switch (h->msgh_id) {
	case RPC_NULL:
		break;
	case RPC_ECHO:
		rep->echo = req->echo;
		rep->echo.head = rep->reply.Head;
		size = sizeof(rep->echo);
		break;
	case RPC_OOL_SUM: {
		uint64_t sum = 0;
		const unsigned char *p = req->ool.data;

		for (uint32_t i = 0; i < req->ool.type.msgtl_number; i++)
			sum += p[i];
		vm_deallocate(mach_task_self(), (vm_address_t)req->ool.data,
			      req->ool.type.msgtl_number);
		rep->sum.reply = rep->reply;
		rep->sum.sum_type = (mach_msg_type_t){
			MACH_MSG_TYPE_INTEGER_64, 64, 1, 1, 0, 0, 0 };
		rep->sum.sum = sum;
		size = sizeof(rep->sum);
		break;
	}
	case RPC_RIGHT: {
		struct rpc_echo hello;

		memset(&hello, 0, sizeof(hello));
		hello.head.msgh_bits = MACH_MSGH_BITS(MACH_MSG_TYPE_MOVE_SEND, 0);
		hello.head.msgh_size = sizeof(hello);
		hello.head.msgh_remote_port = req->right.port;
		hello.head.msgh_id = RPC_HELLO;
		hello.type = rpc_text_type;
		strcpy(hello.text, "hello via right");
		rep->reply.RetCode = mach_msg(&hello.head,
					      MACH_SEND_MSG | MACH_SEND_TIMEOUT,
					      sizeof(hello), 0, MACH_PORT_NULL,
					      1000, MACH_PORT_NULL);
		break;
	}
	case RPC_QUIT:
		*quit = 1;
		break;
	default:
		rep->reply.RetCode = MIG_BAD_ID;
		break;
	}
	rep->reply.Head.msgh_size = size;
	return size;
}

int main(void)
{
	mach_port_t port = MACH_PORT_NULL;
	mach_msg_return_t mr;
	mach_msg_size_t size;
	unsigned long served = 0;
	int quit = 0;

	if (task_get_bootstrap_port(mach_task_self(), &port) != KERN_SUCCESS ||
	    port == MACH_PORT_NULL) {
		printf("SERVER-FAIL no bootstrap port\n");
		return 1;
	}
	union rpc_buffer *in = &buf[0], *out = &buf[1], *swap;

	mr = mach_msg(&in->head, MACH_RCV_MSG, 0, sizeof(*in), port, 0,
		      MACH_PORT_NULL);
	while (mr == MACH_MSG_SUCCESS) {
		size = serve(in, out, &quit);
		served++;
		if (quit)
			break;
		/* Reply and wait for the next request in one trap. */
		mr = mach_msg(&out->head, MACH_SEND_MSG | MACH_RCV_MSG, size,
			      sizeof(*out), port, 0, MACH_PORT_NULL);
		swap = in;
		in = out;
		out = swap;
	}
	if (quit)
		mr = mach_msg(&out->head, MACH_SEND_MSG, out->head.msgh_size, 0,
			      MACH_PORT_NULL, 0, MACH_PORT_NULL);
	printf("SERVER-DONE %lu (last mach_msg 0x%x)\n", served, mr);
	return mr == MACH_MSG_SUCCESS ? 0 : 1;
}
