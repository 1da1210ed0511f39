/* SPDX-License-Identifier: GPL-2.0-only */
/* Device messages: dev_driver_string, the _dev_printk family ("DRIVER NAME: message", as Linux prints them), dev_err_probe. */
/*
 * Linux's drivers/base/core.c is far too large for what drivers need of
 * it here.  dev_name() is Linux's inline (the kobject's name, set by the
 * bus that made the device, e.g. lx_pci_scan.c).
 */
#include <linux/device.h>
#include <linux/printk.h>

/* As Linux's: the bound driver's name, else the bus's or the class's. */
const char *dev_driver_string(const struct device *dev)
{
	struct device_driver *drv = READ_ONCE(dev->driver);

	if (drv)
		return drv->name;
	if (dev->bus)
		return dev->bus->name;
	if (dev->class)
		return dev->class->name;
	return "";
}

static void dev_vprintk(const char *level, const struct device *dev,
			const char *fmt, va_list *args)
{
	struct va_format vaf = { .fmt = fmt, .va = args };

	if (dev)
		printk("%s%s %s: %pV", level, dev_driver_string(dev),
		       dev_name(dev), &vaf);
	else
		printk("%s(NULL device *): %pV", level, &vaf);
}

void _dev_printk(const char *level, const struct device *dev,
		 const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	dev_vprintk(level, dev, fmt, &args);
	va_end(args);
}

#define DEFINE_DEV_LEVEL(func, level)					\
void func(const struct device *dev, const char *fmt, ...)		\
{									\
	va_list args;							\
									\
	va_start(args, fmt);						\
	dev_vprintk(level, dev, fmt, &args);				\
	va_end(args);							\
}

DEFINE_DEV_LEVEL(_dev_emerg, KERN_EMERG)
DEFINE_DEV_LEVEL(_dev_alert, KERN_ALERT)
DEFINE_DEV_LEVEL(_dev_crit, KERN_CRIT)
DEFINE_DEV_LEVEL(_dev_err, KERN_ERR)
DEFINE_DEV_LEVEL(_dev_warn, KERN_WARNING)
DEFINE_DEV_LEVEL(_dev_notice, KERN_NOTICE)
DEFINE_DEV_LEVEL(_dev_info, KERN_INFO)

/*
 * dev_err_probe - print "error E: message" for @err at error level, or
 * at debug level for -EPROBE_DEFER (no deferred probing here: nothing
 * is recorded); @err.
 */
int dev_err_probe(const struct device *dev, int err, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	if (err != -EPROBE_DEFER)
		dev_err(dev, "error %pe: %pV", ERR_PTR(err), &vaf);
	else
		dev_dbg(dev, "error %pe: %pV", ERR_PTR(err), &vaf);
	va_end(args);
	return err;
}
