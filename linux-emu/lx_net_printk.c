/* SPDX-License-Identifier: GPL-2.0-only */
/* netdev_printk and its levels: "DRIVER BUSID NAME: message", as Linux prints it. */
/*
 * With a parent device (SET_NETDEV_DEV): "e1000 0000:00:03.0 eth0: ...";
 * without: "eth0: ...".  A name still holding its %d reads "(unnamed
 * net_device)", and the registration state follows as in Linux
 * (" (unregistered)").
 */
#include <linux/device.h>
#include <linux/netdevice.h>
#include <linux/printk.h>

static void netdev_vprintk(const char *level, const struct net_device *dev,
			   struct va_format *vaf)
{
	const struct device *parent = dev ? dev->dev.parent : NULL;

	if (parent)
		printk("%s%s %s %s%s: %pV", level, dev_driver_string(parent),
		       dev_name(parent), netdev_name(dev),
		       netdev_reg_state(dev), vaf);
	else if (dev)
		printk("%s%s%s: %pV", level, netdev_name(dev),
		       netdev_reg_state(dev), vaf);
	else
		printk("%s(NULL net_device): %pV", level, vaf);
}

void netdev_printk(const char *level, const struct net_device *dev,
		   const char *format, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, format);
	vaf.fmt = format;
	vaf.va = &args;
	netdev_vprintk(level, dev, &vaf);
	va_end(args);
}

#define NETDEV_LEVEL(func, level)					\
void func(const struct net_device *dev, const char *format, ...)	\
{									\
	struct va_format vaf;						\
	va_list args;							\
									\
	va_start(args, format);						\
	vaf.fmt = format;						\
	vaf.va = &args;							\
	netdev_vprintk(level, dev, &vaf);				\
	va_end(args);							\
}

NETDEV_LEVEL(netdev_emerg, KERN_EMERG)
NETDEV_LEVEL(netdev_alert, KERN_ALERT)
NETDEV_LEVEL(netdev_crit, KERN_CRIT)
NETDEV_LEVEL(netdev_err, KERN_ERR)
NETDEV_LEVEL(netdev_warn, KERN_WARNING)
NETDEV_LEVEL(netdev_notice, KERN_NOTICE)
NETDEV_LEVEL(netdev_info, KERN_INFO)
