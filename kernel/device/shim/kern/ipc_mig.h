/* SPDX-License-Identifier: GPL-2.0-only */
/* Stands in for GNU Mach's <kern/ipc_mig.h> in MIG's KERNEL_USER stubs. */
#include "graft_mig.h"

/* kernel/device/io_req.c */
mach_msg_return_t mach_msg_send_from_kernel(mach_msg_header_t *msg,
					    mach_msg_size_t size);
