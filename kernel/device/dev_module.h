/* SPDX-License-Identifier: GPL-2.0-only */
/* The table of device modules device_open walks, filled by the modules themselves. */
#ifndef DEVICE_DEV_MODULE_H
#define DEVICE_DEV_MODULE_H

struct dev_module;

/*
 * A module registers itself, wherever it lives (kernel/device/ or a layer
 * above, such as mach-glue/), with DEV_MODULE(module, order): the entry
 * goes into the linker section "dev_modules", and device_open asks the
 * modules in ascending @order, the first whose matcher knows the name
 * winning.  The orders in use are below; equal orders are asked in an
 * order the link decides (so names must be disjoint there).
 */
struct dev_module_entry {
	unsigned int order;
	const struct dev_module *module;
};

enum {
	DEV_ORDER_CONSOLE = 10,		/* "console" */
	DEV_ORDER_RAMDISK = 20,		/* "rd0" */
	DEV_ORDER_IRQ = 30,		/* "irq" */
	DEV_ORDER_PROXY = 90,		/* names driver servers published */
	DEV_ORDER_LINUX = 100,		/* Linux net and block devices */
};

#define DEV_MODULE(ident, module_order)					\
	static const struct dev_module_entry ident##_dev_module_entry	\
	__attribute__((used, section("dev_modules"))) = {		\
		.order = (module_order),				\
		.module = &(ident),					\
	}

/* The section's bounds (GNU ld's __start_/__stop_ symbols; the kernel's
 * linker script places them too). */
extern const struct dev_module_entry __start_dev_modules[]
	__attribute__((weak));
extern const struct dev_module_entry __stop_dev_modules[]
	__attribute__((weak));

/* The modules kernel/device/ itself holds (dev_console.c, dev_ramdisk.c,
 * dev_intr.c). */
extern const struct dev_module dev_console_module, dev_ramdisk_module,
	dev_irq_module;

/* dev_module_find - the first module, in table order, whose matcher
 * knows @name; NULL if none.  Any context. */
const struct dev_module *dev_module_find(const char *name);

/* dev_module_init - order the registered modules and let the device
 * layer's own find their hardware (once, at boot, from device_init).
 * More than DEV_MODULES_MAX registered modules is a build error caught
 * here: panic. */
void dev_module_init(void);

#define DEV_MODULES_MAX	16

#endif
