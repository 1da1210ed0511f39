/* SPDX-License-Identifier: GPL-2.0-only */
/* The table of device modules device_open walks, in order. */
/*
 * Order matters when two modules could claim a name: the first match
 * wins.  The names are disjoint today ("console", "rd0", "irq"; the Linux
 * net module's "eth0"..., the Linux block module's "hd0", "hd0s1"...).
 * Modules register with DEV_MODULE (dev_module.h); dev_module_init sorts
 * them once at boot, so the lookup is a walk of a small array.
 */
#include <stddef.h>

#include "device/dev_console.h"
#include "device/dev_intr.h"
#include "device/dev_module.h"
#include "device/dev_ramdisk.h"
#include "device/device.h"
#include "kern/panic.h"

DEV_MODULE(dev_console_module, DEV_ORDER_CONSOLE);
DEV_MODULE(dev_ramdisk_module, DEV_ORDER_RAMDISK);
DEV_MODULE(dev_irq_module, DEV_ORDER_IRQ);

static const struct dev_module_entry *modules[DEV_MODULES_MAX];
static size_t nmodules;

const struct dev_module *dev_module_find(const char *name)
{
	for (size_t i = 0; i < nmodules; i++)
		if (modules[i]->module->match(name))
			return modules[i]->module;
	return NULL;
}

/* Insert every registered entry by ascending order (stable). */
static void sort_modules(void)
{
	const struct dev_module_entry *e;

	for (e = __start_dev_modules; e < __stop_dev_modules; e++) {
		size_t i = nmodules;

		if (nmodules == DEV_MODULES_MAX)
			panic("device: more than %d modules registered",
			      DEV_MODULES_MAX);
		while (i > 0 && modules[i - 1]->order > e->order) {
			modules[i] = modules[i - 1];
			i--;
		}
		modules[i] = e;
		nmodules++;
	}
}

void dev_module_init(void)
{
	sort_modules();
	dev_console_init();
	dev_ramdisk_init();
	dev_intr_init();
}
