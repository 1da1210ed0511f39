/* SPDX-License-Identifier: GPL-2.0-only */
/* What MIG's device.defs, claim.defs and proxy.defs stubs need besides kernel/mig/shim/. */
#ifndef DEVICE_DS_MIG_H
#define DEVICE_DS_MIG_H

#include "graft_mig.h"

#include <device/device_types.h>

/* device_types.defs: device_t's intran, outtran and destructor
 * (dev_port.c).  A device_t is a struct device pointer, except that
 * ds_device_open hands out its send right, which the outtran passes on. */
device_t dev_port_lookup(ipc_port_t port);
ipc_port_t convert_device_to_port(device_t device);
void device_deallocate(device_t device);
#include <device/net_status.h>

#include <graft/claim_types.h>

/* defs/claim.defs: claim_t's intran and destructor (dev_claim.c): the
 * claim behind a live claim port (0 otherwise; with a reference), the
 * reference dropped.  claim_pci hands out the port itself. */
claim_t dev_claim_lookup(ipc_port_t port);
void dev_claim_deallocate(claim_t claim);

#include <graft/proxy_types.h>

/* defs/proxy.defs: proxy_t's intran and destructor (dev_proxy.c), as
 * claim_t's. */
proxy_t dev_proxy_lookup(ipc_port_t port);
void dev_proxy_deallocate(proxy_t proxy);

/* recnum_t's translations come from <mach/x86_64/vm_types.h>. */

#endif
