/* SPDX-License-Identifier: GPL-2.0-only */
/* Devices made for a class: device_create. */
#include <linux/device.h>
#include <linux/err.h>
#include <linux/slab.h>
#include <linux/stdarg.h>

static void device_create_release(struct device *dev)
{
	kfree(dev);
}

/*
 * device_create - a new device of @class under @parent with number
 * @devt and driver data @drvdata, named by @fmt, added (device_add: no
 * device file, Graft has none).  Called holding the world, in thread
 * context.  The device; ERR_PTR(-ENODEV) for no class,
 * ERR_PTR(-ENOMEM), or device_add's error.
 */
struct device *device_create(struct class *class, struct device *parent,
			     dev_t devt, void *drvdata, const char *fmt, ...)
{
	struct device *dev;
	struct va_format vaf;
	va_list args;
	int err;

	if (IS_ERR_OR_NULL(class))
		return ERR_PTR(-ENODEV);
	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return ERR_PTR(-ENOMEM);
	device_initialize(dev);
	dev->devt = devt;
	dev->class = class;
	dev->parent = parent;
	dev->release = device_create_release;
	dev_set_drvdata(dev, drvdata);
	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	err = dev_set_name(dev, "%pV", &vaf);
	va_end(args);
	if (!err)
		err = device_add(dev);
	if (err) {
		put_device(dev);
		return ERR_PTR(err);
	}
	return dev;
}
