/* SPDX-License-Identifier: GPL-2.0-only */
/* The mach_msg trap: send, then receive, on user memory or a kernel buffer. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ipc/ipc_kmsg.h"
#include "ipc/ipc_mqueue.h"
#include "ipc/ipc_port.h"
#include "ipc/ipc_space.h"
#include "ipc/mach_msg.h"
#include "kern/clock.h"
#include "kern/kalloc.h"
#include "kern/string.h"
#include "kern/task.h"
#include "x86_64/copy.h"
#include "x86_64/cpu.h"

/* Messages up to this size are copied in on the kernel stack. */
#define MACH_MSG_SNAPSHOT	256

/*
 * Send the user-layout message @umsg (in kernel memory) from @space.
 * Decoding happens with the IPC state held; if the destination queue is
 * full the decoded message is dropped (nothing was taken from the space),
 * the thread waits for room, and decoding starts over, so a sender never
 * blocks holding rights in limbo.  Interrupts off.
 */
static mach_msg_return_t msg_send(struct ipc_space *space, struct vm_map *map,
				  const uint8_t *umsg, mach_msg_size_t size,
				  mach_msg_option_t option,
				  mach_msg_timeout_t timeout)
{
	bool timed = (option & MACH_SEND_TIMEOUT) != 0;
	uint64_t deadline = timed ? clock_ticks() + ipc_mqueue_ticks(timeout) :
				    0;
	struct ipc_kmsg_copyin c = {
		.space = space,
		.map = map,
		.umsg = umsg,
		.usize = size,
	};
	mach_msg_return_t mr;

	for (;;) {
		struct ipc_port *dest;
		uint64_t now;

		mr = ipc_kmsg_copyin_decode(&c);
		if (mr != MACH_MSG_SUCCESS)
			break;
		dest = c.dest;
		if (!ipc_mqueue_full(dest, c.dest_type)) {
			mr = ipc_kmsg_copyin_commit(&c);
			if (mr == MACH_MSG_SUCCESS)
				mr = ipc_mqueue_deliver(c.kmsg);
			break;
		}
		ipc_kmsg_copyin_abort(&c);
		now = clock_ticks();
		mr = ipc_mqueue_wait_space(dest, timed,
					   deadline > now ? deadline - now : 0);
		if (mr != MACH_MSG_SUCCESS)
			break;
	}
	return mr;
}

/* Receive from @rcv_name of @space into @out (@rcv_size bytes).
 * Interrupts off. */
static mach_msg_return_t msg_receive(struct ipc_space *space,
				     struct vm_map *map,
				     struct ipc_msg_buf *out,
				     mach_msg_option_t option,
				     mach_msg_size_t rcv_size,
				     mach_port_name_t rcv_name,
				     mach_msg_timeout_t timeout)
{
	struct ipc_kmsg *kmsg;
	mach_msg_size_t size = 0;
	mach_msg_return_t mr;

	mr = ipc_mqueue_receive(space, rcv_name, option, rcv_size,
				(option & MACH_RCV_TIMEOUT) ?
					ipc_mqueue_ticks(timeout) : 0,
				&kmsg, &size);
	if (mr == MACH_RCV_TOO_LARGE && kmsg == NULL) {
		/* MACH_RCV_LARGE: the message stays; say how big it is. */
		size_t at = offsetof(mach_msg_header_t, msgh_size);

		if (rcv_size >= at + sizeof(size)) {
			if (out->kbuf != NULL)
				memcpy(out->kbuf + at, &size, sizeof(size));
			else if (copyout(&size, (void *)(uintptr_t)
						(out->uaddr + at),
					 sizeof(size)) != 0)
				mr = MACH_RCV_INVALID_DATA;
		}
	} else if (mr == MACH_RCV_TOO_LARGE) {
		/* The header alone, if it fits: GNU Mach's way. */
		if (rcv_size >= sizeof(mach_msg_header_t)) {
			ipc_kmsg_copyout_dest(kmsg, space, out);
		} else {
			ipc_kmsg_destroy(kmsg);
		}
	} else if (mr == MACH_MSG_SUCCESS) {
		mr = ipc_kmsg_copyout(kmsg, space, map, out);
	}
	return mr;
}

/* mach_msg on @space: @umsg is the message to send (kernel memory), @out
 * where the received one goes. */
static mach_msg_return_t msg_common(struct ipc_space *space,
				    struct vm_map *map, const uint8_t *umsg,
				    struct ipc_msg_buf *out,
				    mach_msg_option_t option,
				    mach_msg_size_t send_size,
				    mach_msg_size_t rcv_size,
				    mach_port_name_t rcv_name,
				    mach_msg_timeout_t timeout)
{
	mach_msg_return_t mr = MACH_MSG_SUCCESS;
	uint64_t flags = cpu_intr_save();	/* one hold for both halves */

	if (option & MACH_SEND_MSG) {
		if (option & MACH_SEND_NOTIFY)
			mr = MACH_SEND_INVALID_NOTIFY;
		else
			mr = msg_send(space, map, umsg, send_size, option,
				      timeout);
	}
	if (mr == MACH_MSG_SUCCESS && (option & MACH_RCV_MSG)) {
		if (option & MACH_RCV_NOTIFY)
			mr = MACH_RCV_INVALID_NOTIFY;
		else
			mr = msg_receive(space, map, out, option, rcv_size,
					 rcv_name, timeout);
	}
	cpu_intr_restore(flags);
	return mr;
}

mach_msg_return_t mach_msg_kernel(struct ipc_space *space, void *msg,
				  mach_msg_option_t option,
				  mach_msg_size_t send_size,
				  mach_msg_size_t rcv_size,
				  mach_port_name_t rcv_name,
				  mach_msg_timeout_t timeout)
{
	struct ipc_msg_buf out = { .kbuf = msg };

	if (space == NULL)
		return (option & MACH_SEND_MSG) ? MACH_SEND_INVALID_DEST :
						  MACH_RCV_INVALID_NAME;
	return msg_common(space, NULL, msg, &out, option, send_size, rcv_size,
			  rcv_name, timeout);
}

mach_msg_return_t mach_msg_trap(mach_msg_header_t *msg,
				mach_msg_option_t option,
				mach_msg_size_t send_size,
				mach_msg_size_t rcv_size,
				mach_port_name_t rcv_name,
				mach_msg_timeout_t timeout,
				mach_port_name_t notify)
{
	struct task *task = task_current();
	struct ipc_msg_buf out = { .uaddr = (uintptr_t)msg };
	uint8_t snap[MACH_MSG_SNAPSHOT] __attribute__((aligned(8)));
	uint8_t *umsg = NULL;
	mach_msg_return_t mr;

	(void)notify;
	if (task->itk_space == NULL)
		return (option & MACH_SEND_MSG) ? MACH_SEND_INVALID_DEST :
						  MACH_RCV_INVALID_NAME;
	if (option & MACH_SEND_MSG) {
		/* One snapshot of the message: decode may read it twice.
		 * Small ones (every RPC request) stay on the stack. */
		if (send_size < sizeof(mach_msg_header_t) || (send_size & 3))
			return MACH_SEND_MSG_TOO_SMALL;
		if (send_size > IPC_KMSG_MAX_SIZE)
			return MACH_SEND_NO_BUFFER;
		umsg = send_size <= sizeof(snap) ? snap : kalloc(send_size);
		if (umsg == NULL)
			return MACH_SEND_NO_BUFFER;
		if (copyin(msg, umsg, send_size)) {
			mr = MACH_SEND_INVALID_DATA;
			goto out;
		}
	}
	mr = msg_common(task->itk_space, task->map, umsg, &out, option,
			send_size, rcv_size, rcv_name, timeout);
out:
	if (umsg != snap)
		kfree(umsg);
	return mr;
}
