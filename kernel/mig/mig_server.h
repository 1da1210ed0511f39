/* SPDX-License-Identifier: GPL-2.0-only */
/* Serving messages to kernel objects with MIG's generated server stubs. */
#ifndef MIG_MIG_SERVER_H
#define MIG_MIG_SERVER_H

#include <mach/message.h>

struct ipc_kmsg;

/* The largest reply a served routine writes (kernel layout); the biggest
 * are task_info and thread_get_state with 1024 inline words. */
#define MIG_SERVER_REPLY_MAX	8000

/*
 * mig_server_handle - the ipc_kobject handler of task, thread, host and
 * device master ports (see kernel/ipc/ipc_kobject.h for who owns what):
 * runs the demux functions of mach.defs, mach_port.defs, gnumach.defs,
 * mach_host.defs and mach_i386.defs on @request and hands back their
 * reply.  Routines not served answer KERN_FAILURE and
 * say so on the console; unknown ids answer MIG_BAD_ID.  Never blocks.
 * The stubs and routines run with interrupts disabled, so no other thread
 * can free a converted task, thread or map before the routine is done.
 */
mach_msg_return_t mig_server_handle(struct ipc_kmsg *request,
				    struct ipc_kmsg **reply);

/* Calls of routines that are not served, since boot (for tests). */
extern unsigned int mig_not_served_count;

#endif
