/* SPDX-License-Identifier: GPL-2.0-only */
/* The host's processor object, served with mach_host.defs. */
#ifndef MIG_MIG_HOST_H
#define MIG_MIG_HOST_H

/* mig_host_init - make the boot CPU's processor port (IKOT_PROCESSOR,
 * served by mig_server_handle).  Once, at boot, from task_port_init;
 * panics when out of memory, like the host ports. */
void mig_host_init(void);

#endif
