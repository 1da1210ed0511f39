/* SPDX-License-Identifier: GPL-2.0-only */
/* The table of device modules device_open walks, in order. */
/*
 * Order matters when two modules could claim a name: the first match
 * wins.  Today the names are disjoint ("console", "rd0", "irq"); the
 * Linux net module (names of the Linux net devices, "eth0"...) and
 * the Linux block module ("hd0", "hd0s1"...) come last; the
 * user-server proxy will join this table.
 */
#include <stddef.h>

#include "device/dev_console.h"
#include "device/dev_intr.h"
#include "device/dev_module.h"
#include "device/dev_ramdisk.h"
#include "device/device.h"
#include "mach-glue/block/dev_lxblk.h"
#include "mach-glue/net/dev_lxnet.h"

static const struct dev_module *const modules[] = {
	&dev_console_module,
	&dev_ramdisk_module,
	&dev_irq_module,
	&dev_lxnet_module,	/* Linux net devices: "eth0", ... */
	&dev_lxblk_module,	/* Linux disks: "hd0", "hd0s1", ... */
};

const struct dev_module *dev_module_find(const char *name)
{
	for (size_t i = 0; i < sizeof(modules) / sizeof(modules[0]); i++)
		if (modules[i]->match(name))
			return modules[i];
	return NULL;
}

void dev_module_init(void)
{
	dev_console_init();
	dev_ramdisk_init();
	dev_intr_init();
}
