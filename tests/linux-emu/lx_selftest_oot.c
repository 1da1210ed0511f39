// SPDX-License-Identifier: GPL-2.0-only
/* Checks of the linux-oot suite that run in the Linux world: whether the out-of-tree edu driver is bound, and its unregistration. */
#include <linux/pci.h>
#include <linux/string.h>

#include <lx_world.h>

#include "../../linux-emu/lx_pci.h"
#include "lx_selftest_oot.h"

#define EDU_VENDOR	0x1234
#define EDU_DEVICE	0x11e8

static struct pci_dev *find_edu(void)
{
	struct pci_bus *bus;
	struct pci_dev *dev;

	lx_for_each_pci_dev(bus, dev)
		if (dev->vendor == EDU_VENDOR && dev->device == EDU_DEVICE)
			return dev;
	return NULL;
}

static int edu_bound(void *arg)
{
	struct pci_dev *dev = find_edu();

	if (!dev)
		return -1;
	return dev->dev.driver && !strcmp(dev->dev.driver->name, "edu");
}

int lx_emul_selftest_oot_edu_bound(void)
{
	return lx_world_run(edu_bound, NULL);
}

static int unregister(void *arg)
{
	struct pci_dev *dev = find_edu();

	if (!dev)
		return __LINE__;
	if (!dev->dev.driver)
		return __LINE__;
	pci_unregister_driver(to_pci_driver(dev->dev.driver));
	if (dev->dev.driver)
		return __LINE__;
	return 0;
}

int lx_emul_selftest_oot_unregister(void)
{
	return lx_world_run(unregister, NULL);
}
