/* SPDX-License-Identifier: GPL-2.0-only */
/* Miscellaneous character devices: misc_register, misc_deregister. */
/*
 * As Linux's drivers/char/misc.c: minors of major 10, a dynamic one
 * taken from the top of 0..127, a fixed one refused if taken; each
 * device gets its struct device (named after it, its number, its
 * parent), which is added to no bus or class: Graft has no device
 * files, so the file operations are kept and never called.
 */
#include <linux/bitmap.h>
#include <linux/device.h>
#include <linux/kdev_t.h>
#include <linux/major.h>
#include <linux/miscdevice.h>
#include <linux/mutex.h>
#include <linux/stdarg.h>

#include <lx_device.h>

#define LX_MISC_DYNAMIC_MINORS	128	/* as Linux's */

static DECLARE_BITMAP(dynamic_minors, LX_MISC_DYNAMIC_MINORS);
static LIST_HEAD(misc_list);
static DEFINE_MUTEX(misc_mtx);

/* A device for @misc's number, lx_device_make's arguments after @fmt. */
static struct device *misc_device_make(struct miscdevice *misc,
				       const char *fmt, ...)
{
	struct device *dev;
	va_list args;

	va_start(args, fmt);
	dev = lx_device_make(NULL, misc->parent, MKDEV(MISC_MAJOR, misc->minor),
			     misc, fmt, args);
	va_end(args);
	return dev;
}

/* The struct device of @misc, or lx_device_make's error pointer. */
static struct device *misc_device_create(struct miscdevice *misc)
{
	return misc_device_make(misc, "%s", misc->name);
}

/*
 * misc_register - give @misc its minor (MISC_DYNAMIC_MINOR: a free one)
 * and its device (->this_device).  0; -EBUSY (minor taken, no dynamic
 * minor left); -ENOMEM.
 */
int misc_register(struct miscdevice *misc)
{
	bool dynamic = misc->minor == MISC_DYNAMIC_MINOR;
	struct miscdevice *c;
	struct device *dev;
	int bit = -1, err = 0;

	INIT_LIST_HEAD(&misc->list);
	mutex_lock(&misc_mtx);
	if (dynamic) {
		bit = find_first_zero_bit(dynamic_minors,
					  LX_MISC_DYNAMIC_MINORS);
		if (bit >= LX_MISC_DYNAMIC_MINORS) {
			err = -EBUSY;
			goto out;
		}
		misc->minor = LX_MISC_DYNAMIC_MINORS - bit - 1;
		set_bit(bit, dynamic_minors);
	} else {
		list_for_each_entry(c, &misc_list, list)
			if (c->minor == misc->minor) {
				err = -EBUSY;
				goto out;
			}
	}
	dev = misc_device_create(misc);
	if (IS_ERR(dev)) {
		if (dynamic) {
			clear_bit(bit, dynamic_minors);
			misc->minor = MISC_DYNAMIC_MINOR;
		}
		err = PTR_ERR(dev);
		goto out;
	}
	misc->this_device = dev;
	list_add(&misc->list, &misc_list);
out:
	mutex_unlock(&misc_mtx);
	return err;
}

/* misc_deregister - undo misc_register (@misc not registered: nothing). */
void misc_deregister(struct miscdevice *misc)
{
	int bit = LX_MISC_DYNAMIC_MINORS - misc->minor - 1;

	if (WARN_ON(list_empty(&misc->list)))
		return;
	mutex_lock(&misc_mtx);
	list_del_init(&misc->list);
	device_unregister(misc->this_device);
	misc->this_device = NULL;
	if (bit >= 0 && bit < LX_MISC_DYNAMIC_MINORS)
		clear_bit(bit, dynamic_minors);
	mutex_unlock(&misc_mtx);
}
