/* SPDX-License-Identifier: GPL-2.0-only */
/* Between lx_device_core.c, lx_bus.c and the buses linux-emu registers: devices added to a bus the world registered (Linux types; never included by Graft code). */
#ifndef LX_BUS_H
#define LX_BUS_H

#include <linux/device.h>

/* lx_bus_device_add - list @dev (named, dev->bus set) on its bus and
 * bind it to the first of the bus's drivers that matches and probes it.
 * 0 (bound or not); -EINVAL for a bus never registered with
 * bus_register (PCI and platform devices are added by their own code);
 * -ENOMEM.  Thread context, may sleep (the probe). */
int lx_bus_device_add(struct device *dev);

/* lx_bus_device_del - unbind @dev from its driver (the bus's or the
 * driver's remove) and take it off its bus's list. */
void lx_bus_device_del(struct device *dev);

/* lx_auxiliary_init - register the auxiliary bus (lx_auxiliary.c) when
 * the world starts: 0; -ENOMEM. */
int lx_auxiliary_init(void);

#endif
