/* SPDX-License-Identifier: GPL-2.0-only */
/* The mach_msg trap, and the same core on kernel buffers. */
#ifndef IPC_MACH_MSG_H
#define IPC_MACH_MSG_H

#include <stdint.h>

#include <mach/message.h>

struct ipc_space;

/*
 * mach_msg_trap - GNU Mach's mach_msg_trap for the calling thread's task
 * (task_current(): its itk_space and map), @msg being a user address (the
 * prototype is the one <mach/message.h> declares, so @msg is typed as a
 * pointer; it is never dereferenced, only given to copyin/copyout).
 * With MACH_SEND_MSG, sends the @send_size-byte message at @msg, waiting
 * while the destination queue is full (up to @timeout ms with
 * MACH_SEND_TIMEOUT); then with MACH_RCV_MSG, receives from @rcv_name
 * into @msg (at most @rcv_size bytes, waiting up to @timeout ms with
 * MACH_RCV_TIMEOUT).  A send that fails leaves the message's rights with
 * the sender (the message is not consumed; GNU Mach would pseudo-receive
 * it into the buffer) and skips the receive.  A message too large for
 * @rcv_size stays queued with MACH_RCV_LARGE (its size is written to
 * msg->msgh_size); without it, it is dequeued, its header alone written
 * (msgh_size = the size it needed) and the rest destroyed.  @notify and
 * the MACH_SEND_NOTIFY, MACH_RCV_NOTIFY options are not implemented:
 * those options return MACH_SEND_INVALID_NOTIFY / MACH_RCV_INVALID_NOTIFY
 * (the trap table does not even read @notify from the user stack: it
 * arrives as 0).
 *
 * Returns MACH_MSG_SUCCESS, the MACH_SEND_* codes of
 * ipc_kmsg_copyin_decode, MACH_SEND_INVALID_DATA (@msg unreadable),
 * MACH_SEND_TIMED_OUT, the MACH_RCV_* codes of ipc_mqueue_receive and
 * ipc_kmsg_copyout, or MACH_RCV_INVALID_DATA (@msg unwritable).
 *
 * Locking: takes the IPC state itself (interrupts off) and blocks through
 * assert_wait/thread_block; call with interrupts on, from a thread.
 */
mach_msg_return_t mach_msg_trap(mach_msg_header_t *msg,
				mach_msg_option_t option,
				mach_msg_size_t send_size,
				mach_msg_size_t rcv_size,
				mach_port_name_t rcv_name,
				mach_msg_timeout_t timeout,
				mach_port_name_t notify);

/*
 * mach_msg_kernel - mach_msg_trap on @space with @msg a kernel buffer
 * holding (and receiving) the message in the user layout, for in-kernel
 * clients and tests.  Out-of-line items cannot be sent
 * (MACH_SEND_INVALID_TYPE); received ones are destroyed and read as
 * address 0 with MACH_RCV_BODY_ERROR | MACH_MSG_VM_SPACE.  Same returns
 * and locking as mach_msg_trap.
 */
mach_msg_return_t mach_msg_kernel(struct ipc_space *space, void *msg,
				  mach_msg_option_t option,
				  mach_msg_size_t send_size,
				  mach_msg_size_t rcv_size,
				  mach_port_name_t rcv_name,
				  mach_msg_timeout_t timeout);

#endif
