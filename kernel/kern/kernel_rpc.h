/* SPDX-License-Identifier: GPL-2.0-only */
/* A call from the kernel to a task's port, waiting for its reply: what MIG's KERNEL_USER routine stubs send with. */
#ifndef KERN_KERNEL_RPC_H
#define KERN_KERNEL_RPC_H

#include <mach/message.h>

/*
 * mach_msg_rpc_from_kernel - GNU Mach's name, called by MIG's KERNEL_USER
 * stubs of routines (kernel/mig/gen/exc_user.c): send the @send_size-byte
 * kernel-layout message at @msg and wait for its reply, which is written
 * over @msg (at most @rcv_size bytes).
 *
 * Rights: every right @msg names is the caller's to give, whatever
 * disposition the stub wrote (a KERNEL_USER stub writes COPY_SEND for a
 * mach_port_t): the header's destination must be a send right, each
 * inline port item a send or send-once right.  The reply right is made
 * here (the header's local port, MAKE_SEND_ONCE, is ignored) on a kernel
 * port of its own that dies when the call ends, so a late reply is
 * destroyed.  Only inline, short-form items may be sent
 * (MACH_SEND_INVALID_TYPE, the rights then released).
 *
 * Returns MACH_MSG_SUCCESS with the reply in @msg (a reply of the
 * receiver's dropped send-once right, MACH_NOTIFY_SEND_ONCE, included:
 * the stub reads it as MIG_SERVER_DIED); MACH_SEND_NO_BUFFER (memory
 * short); MACH_SEND_INVALID_TYPE; MACH_RCV_TOO_LARGE (a reply larger than
 * @rcv_size, or carrying rights or memory: destroyed); or
 * MACH_RCV_INTERRUPTED (the calling thread was interrupted: thread_abort,
 * its task's termination).  Thread context; blocks until the reply.
 */
mach_msg_return_t mach_msg_rpc_from_kernel(mach_msg_header_t *msg,
					   mach_msg_size_t send_size,
					   mach_msg_size_t rcv_size);

/* kernel_rpc_init - serve the calls' reply ports (ipc_kobject.h).  Once,
 * before the first call. */
void kernel_rpc_init(void);

#endif
