/* SPDX-License-Identifier: GPL-2.0-only */
/* The kobject handler around MIG's demux functions. */
#include <stddef.h>

#include <mach/mig_errors.h>

#include "ipc/ipc_kmsg.h"
#include "kern/klog.h"
#include "mig/mig_server.h"
#include "x86_64/cpu.h"

/* Generated from gnumach-dev's .defs (kernel/mig/local.mk). */
boolean_t mach_server(mach_msg_header_t *in, mach_msg_header_t *out);
boolean_t mach_port_server(mach_msg_header_t *in, mach_msg_header_t *out);
boolean_t gnumach_server(mach_msg_header_t *in, mach_msg_header_t *out);
boolean_t mach_host_server(mach_msg_header_t *in, mach_msg_header_t *out);
boolean_t mach_i386_server(mach_msg_header_t *in, mach_msg_header_t *out);

unsigned int mig_not_served_count;

/* Called by the generated not-served routines (mig_not_served.c). */
kern_return_t mig_not_served(const char *routine);

static KLOG_SOURCE(not_served_log, "mig");

kern_return_t mig_not_served(const char *routine)
{
	mig_not_served_count++;
	klog(&not_served_log,
	     "mig: %s is not implemented; answering KERN_FAILURE\n", routine);
	return KERN_FAILURE;
}

mach_msg_return_t mig_server_handle(struct ipc_kmsg *request,
				    struct ipc_kmsg **reply)
{
	/* Not zeroed (8000 bytes would cost more than the rest of the
	 * RPC): the demux writes the reply header and RetCode, a routine
	 * that succeeds writes all its out parameters, and the stub sizes
	 * the reply by the fields written, so nothing stale goes out. */
	struct ipc_kmsg *out = ipc_kmsg_alloc_dirty(MIG_SERVER_REPLY_MAX);
	mach_msg_header_t *in_msg = ipc_kmsg_msg(request);
	kern_return_t kr;

	uint64_t flags;

	*reply = NULL;
	if (out == NULL)
		return KERN_RESOURCE_SHORTAGE;	/* no reply: out of memory */
	/* Interrupts off: no other thread runs between a port's conversion
	 * and the routine's use of the object (kernel/mig/mig_convert.c). */
	flags = cpu_intr_save();
	if (!mach_server(in_msg, ipc_kmsg_msg(out)) &&
	    !mach_port_server(in_msg, ipc_kmsg_msg(out)) &&
	    !gnumach_server(in_msg, ipc_kmsg_msg(out)) &&
	    !mach_host_server(in_msg, ipc_kmsg_msg(out)))
		(void)mach_i386_server(in_msg, ipc_kmsg_msg(out));
	cpu_intr_restore(flags);
	kr = ((mig_reply_header_t *)ipc_kmsg_msg(out))->RetCode;
	if (kr == MIG_NO_REPLY) {
		ipc_kmsg_free(out);
		return MACH_MSG_SUCCESS;
	}
	*reply = out;
	return kr == KERN_SUCCESS ? MACH_MSG_SUCCESS : kr;
}

/* What exc.defs's KERNEL_USER stub (kernel/mig/gen/exc_user.c) calls on a
 * reply of the wrong id: nothing is left to do, the call's reply port
 * died when mach_msg_rpc_from_kernel (kern/kernel_rpc.h) returned. */
void mig_dealloc_reply_port(mach_port_t port)
{
	(void)port;
}
