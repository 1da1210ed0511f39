/* SPDX-License-Identifier: GPL-2.0-only */
/* The C types claim.defs's stubs need. */
#ifndef GRAFT_CLAIM_TYPES_H
#define GRAFT_CLAIM_TYPES_H

#include <mach/port.h>

/* A claim as the stubs carry it: a port name in a task; in the kernel
 * the claim object the port's intran found (kernel/device/dev_claim.h),
 * as device.defs's device_t. */
typedef mach_port_t claim_t;

#endif
