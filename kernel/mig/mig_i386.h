/* SPDX-License-Identifier: GPL-2.0-only */
/* The message handler of io_perm ports (mach_i386.defs objects). */
#ifndef MIG_MIG_I386_H
#define MIG_MIG_I386_H

#include <mach/message.h>

struct ipc_kmsg;

/*
 * mig_io_perm_handle - the ipc_kobject handler of IKOT_IO_PERM ports: the
 * port's no-senders notification frees its io_perm; any other message is
 * served as mig_server_handle serves it (no routine takes an io_perm as
 * its target: MIG_BAD_ID).  Never blocks.
 */
mach_msg_return_t mig_io_perm_handle(struct ipc_kmsg *request,
				     struct ipc_kmsg **reply);

#endif
