/* SPDX-License-Identifier: GPL-2.0-only */
/* Compatibility classes: class_compat_register, class_compat_unregister. */
/*
 * In Linux a compatibility class is a sysfs directory under /sys/class
 * holding links to devices of another kind, for old user space (the I2C
 * core's "i2c-adapter" with CONFIG_I2C_COMPAT).  Graft has no sysfs: the
 * class is its name alone.  Links to it (class_compat_create_link) are
 * made only for devices that register under it, I2C adapters, which
 * Graft has none of; they are left to stubs.
 */
#include <linux/device.h>
#include <linux/slab.h>

struct class_compat {
	const char *name;
};

/* class_compat_register - a compatibility class named @name (the string
 * is kept, not copied); NULL when out of memory. */
struct class_compat *class_compat_register(const char *name)
{
	struct class_compat *cls = kmalloc(sizeof(*cls), GFP_KERNEL);

	if (cls)
		cls->name = name;
	return cls;
}

/* class_compat_unregister - free @cls (from class_compat_register). */
void class_compat_unregister(struct class_compat *cls)
{
	kfree(cls);
}
