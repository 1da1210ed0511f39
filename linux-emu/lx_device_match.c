/* SPDX-License-Identifier: GPL-2.0-only */
/* The device matchers bus and class lookups take: device_match_name, device_match_fwnode, device_match_devt, device_match_any. */
#include <linux/device.h>
#include <linux/property.h>
#include <linux/string.h>

/* device_match_name - whether @dev is named @name (a trailing newline in
 * @name ignored, as sysfs input). */
int device_match_name(struct device *dev, const void *name)
{
	return sysfs_streq(dev_name(dev), name);
}

/* device_match_fwnode - whether @fwnode is @dev's firmware node. */
int device_match_fwnode(struct device *dev, const void *fwnode)
{
	return dev_fwnode(dev) == fwnode;
}

/* device_match_devt - whether @dev's device number is *@pdevt. */
int device_match_devt(struct device *dev, const void *pdevt)
{
	return dev->devt == *(dev_t *)pdevt;
}

/* device_match_any - every device matches. */
int device_match_any(struct device *dev, const void *unused)
{
	return 1;
}
