/* SPDX-License-Identifier: GPL-2.0-only */
/* Devices made for a class: device_create; lx_device_make, which it and misc devices share. */
#include <linux/device.h>
#include <linux/err.h>
#include <linux/slab.h>
#include <linux/stdarg.h>

#include <lx_device.h>

static void made_device_release(struct device *dev)
{
	kfree(dev);
}

struct device *lx_device_make(struct class *class, struct device *parent,
			      dev_t devt, void *drvdata, const char *fmt,
			      va_list args)
{
	struct device *dev;
	struct va_format vaf;
	va_list copy;
	int err;

	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return ERR_PTR(-ENOMEM);
	device_initialize(dev);
	dev->devt = devt;
	dev->class = class;
	dev->parent = parent;
	dev->release = made_device_release;
	dev_set_drvdata(dev, drvdata);
	va_copy(copy, args);
	vaf.fmt = fmt;
	vaf.va = &copy;
	err = dev_set_name(dev, "%pV", &vaf);
	va_end(copy);
	if (!err)
		err = device_add(dev);
	if (err) {
		put_device(dev);
		return ERR_PTR(err);
	}
	return dev;
}

/*
 * device_create - a new device of @class under @parent with number
 * @devt and driver data @drvdata, named by @fmt, added (no device file:
 * Graft has none).  Called holding the world, in thread context.  The
 * device; ERR_PTR(-ENODEV) for no class, else as lx_device_make.
 */
struct device *device_create(struct class *class, struct device *parent,
			     dev_t devt, void *drvdata, const char *fmt, ...)
{
	struct device *dev;
	va_list args;

	if (IS_ERR_OR_NULL(class))
		return ERR_PTR(-ENODEV);
	va_start(args, fmt);
	dev = lx_device_make(class, parent, devt, drvdata, fmt, args);
	va_end(args);
	return dev;
}
