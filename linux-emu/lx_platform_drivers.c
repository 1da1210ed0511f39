/* SPDX-License-Identifier: GPL-2.0-only */
/* __platform_register_drivers, platform_unregister_drivers: arrays of platform drivers (ehci-hcd's, empty on x86). */
#include <linux/platform_device.h>

/* __platform_register_drivers - register @count drivers of @drivers in
 * order, each with @owner; 0, or the first failure's -errno with those
 * registered before it unregistered again.  Thread context. */
int __platform_register_drivers(struct platform_driver * const *drivers,
				unsigned int count, struct module *owner)
{
	unsigned int i;
	int err;

	for (i = 0; i < count; i++) {
		err = __platform_driver_register(drivers[i], owner);
		if (err)
			goto err_unregister;
	}
	return 0;

err_unregister:
	while (i-- > 0)
		platform_driver_unregister(drivers[i]);
	return err;
}

/* platform_unregister_drivers - unregister @count drivers of @drivers,
 * last first.  Thread context. */
void platform_unregister_drivers(struct platform_driver * const *drivers,
				 unsigned int count)
{
	while (count-- > 0)
		platform_driver_unregister(drivers[count]);
}
