/* SPDX-License-Identifier: GPL-2.0-only */
/* Between lx_device_create.c and the files that make devices of their own (lx_misc.c): devices made and added in one step (Linux types; never included by Graft code). */
#ifndef LX_DEVICE_H
#define LX_DEVICE_H

#include <linux/device.h>

/*
 * lx_device_make - a new device of @class (NULL: none) under @parent
 * with number @devt and driver data @drvdata, named by @fmt and @args,
 * added (device_add), freed by its release once put.  Thread context,
 * holding the world.  The device; ERR_PTR(-ENOMEM), or dev_set_name's
 * or device_add's error.
 */
struct device *lx_device_make(struct class *class, struct device *parent,
			      dev_t devt, void *drvdata, const char *fmt,
			      va_list args);

#endif
