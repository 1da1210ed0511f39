/* SPDX-License-Identifier: GPL-2.0-only */
/* The table of device modules device_open walks. */
#ifndef DEVICE_DEV_MODULE_H
#define DEVICE_DEV_MODULE_H

struct dev_module;

/* The modules (dev_console.c, dev_ramdisk.c, dev_intr.c). */
extern const struct dev_module dev_console_module, dev_ramdisk_module,
	dev_irq_module;

/* dev_module_find - the first module, in table order, whose matcher
 * knows @name; NULL if none.  Any context. */
const struct dev_module *dev_module_find(const char *name);

/* dev_module_init - let each module find its hardware (once, at boot,
 * from device_init). */
void dev_module_init(void);

#endif
