/* SPDX-License-Identifier: GPL-2.0-only */
/* The platform bus as far as drivers probing for absent hardware need it: __platform_driver_probe. */
/*
 * linux-emu has no platform devices: nothing registers one (there is no
 * platform_device_register / platform_device_add, and no firmware table
 * describes any).  So a driver that probes the platform bus binds to
 * nothing, and __platform_driver_probe answers as Linux does when no
 * device bound: -ENODEV, the driver left unregistered.  ISA ne's built-in
 * initcall meets exactly this without a card.  The day platform devices
 * exist, this walks them instead.
 */
#include <linux/platform_device.h>

int __platform_driver_probe(struct platform_driver *drv,
			    int (*probe)(struct platform_device *),
			    struct module *module)
{
	return -ENODEV;
}
