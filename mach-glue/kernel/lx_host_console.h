/* SPDX-License-Identifier: GPL-2.0-only */
/* The Linux world's console lines inside the kernel: whole at boot, then rate-limited. */
#ifndef MACH_GLUE_KERNEL_LX_HOST_CONSOLE_H
#define MACH_GLUE_KERNEL_LX_HOST_CONSOLE_H

/*
 * lx_host_console_limit - from now on, lines the Linux world prints
 * (lx_host_console_write) are rate-limited per source (kern/klog.h): a
 * line's source is its text up to the first ": " ("ata1.00",
 * "e1000 0000:00:03.0 eth0"), or "linux" for a line without one; a
 * line's continuations go with it.  lx_boot calls it once the drivers
 * probed, so boot messages are printed whole and what clients' requests
 * cause afterwards (a driver's error handler on every bad read) cannot
 * flood the console.  Any context.
 */
void lx_host_console_limit(void);

#endif
