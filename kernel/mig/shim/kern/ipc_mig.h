/* SPDX-License-Identifier: GPL-2.0-only */
/* Stands in for GNU Mach's <kern/ipc_mig.h> in exc.defs's KERNEL_USER stub. */
#include "graft_mig.h"

/* kernel/kern/kernel_rpc.c */
mach_msg_return_t mach_msg_rpc_from_kernel(mach_msg_header_t *msg,
					   mach_msg_size_t send_size,
					   mach_msg_size_t rcv_size);
/* kernel/mig/mig_server.c */
void mig_dealloc_reply_port(mach_port_t port);
