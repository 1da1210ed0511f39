/* SPDX-License-Identifier: GPL-2.0-only */
/* PCI drivers: pci_bus_type, __pci_register_driver with ID table matching and probe, pci_unregister_driver with remove. */
/*
 * Registering a driver enumerates the buses first if nobody did, then
 * offers every device without a driver to it: the first entry of its ID
 * table that matches (pci_match_id) is handed to probe().  A probe that
 * fails leaves the device without a driver; as in Linux, registration
 * still succeeds.  Probing runs in the registering thread, one device
 * after another (no asynchronous probing).  There is no dynamic ID list
 * (new_id) and no driver_override, so table entries marked override_only
 * never match.
 */
#include <linux/device.h>
#include <linux/mod_devicetable.h>
#include <linux/pci.h>

#include <lx_host.h>

#include "lx_pci.h"

struct bus_type pci_bus_type = {
	.name = "pci",
};

static bool match_one(const struct pci_device_id *id,
		      const struct pci_dev *dev)
{
	return (id->vendor == PCI_ANY_ID || id->vendor == dev->vendor) &&
	       (id->device == PCI_ANY_ID || id->device == dev->device) &&
	       (id->subvendor == PCI_ANY_ID ||
		id->subvendor == dev->subsystem_vendor) &&
	       (id->subdevice == PCI_ANY_ID ||
		id->subdevice == dev->subsystem_device) &&
	       !((id->class ^ dev->class) & id->class_mask);
}

/* As Linux's: the entry of @ids (ended by one with vendor, subvendor and
 * class_mask all 0) that matches @dev, or NULL. */
const struct pci_device_id *pci_match_id(const struct pci_device_id *ids,
					 struct pci_dev *dev)
{
	if (!ids)
		return NULL;
	for (; ids->vendor || ids->subvendor || ids->class_mask; ids++)
		if (!ids->override_only && match_one(ids, dev))
			return ids;
	return NULL;
}

/* pci_dev_present - 1 if an enumerated device matches an entry of @ids
 * (ended as for pci_match_id), else 0. */
int pci_dev_present(const struct pci_device_id *ids)
{
	struct pci_bus *bus;
	struct pci_dev *dev;

	lx_for_each_pci_dev(bus, dev)
		if (pci_match_id(ids, dev))
			return 1;
	return 0;
}

static void unbind(struct pci_dev *dev)
{
	dev->dev.driver = NULL;
	dev_set_drvdata(&dev->dev, NULL);
	lx_host_pci_release(dev->bus->number, dev->devfn);
}

/* Offer @dev to @drv: bound if its ID table matches, the host lets this
 * world have the function (another owner, a user-mode driver, may hold
 * it: then the device is left alone), and its probe succeeds. */
static void probe(struct pci_driver *drv, struct pci_dev *dev)
{
	const struct pci_device_id *id = pci_match_id(drv->id_table, dev);
	int err;

	if (!id || !drv->probe)
		return;
	err = lx_host_pci_claim(dev->bus->number, dev->devfn);
	if (err) {
		dev_info(&dev->dev, "not probed by %s: held elsewhere (%d)\n",
			 drv->name, err);
		return;
	}
	dev->dev.driver = &drv->driver;
	err = drv->probe(dev, id);
	if (err == 0)
		return;
	unbind(dev);
	if (err > 0)
		dev_warn(&dev->dev, "probe returned %d, taken as failure\n",
			 err);
	else if (err != -ENODEV && err != -ENXIO)
		dev_warn(&dev->dev, "probe of %s failed with error %d\n",
			 pci_name(dev), err);
}

/*
 * __pci_register_driver - register @drv and probe the devices it claims.
 * Thread context.  0; -ENOMEM if enumeration ran out of memory; -EINVAL
 * for a driver without a name.
 */
int __pci_register_driver(struct pci_driver *drv, struct module *owner,
			  const char *mod_name)
{
	struct pci_bus *bus;
	struct pci_dev *dev;
	int err;

	if (!drv->name)
		return -EINVAL;
	err = lx_pci_scan_once();
	if (err)
		return err;
	drv->driver.name = drv->name;
	drv->driver.bus = &pci_bus_type;
	drv->driver.owner = owner;
	drv->driver.mod_name = mod_name;
	lx_for_each_pci_dev(bus, dev)
		if (!dev->dev.driver)
			probe(drv, dev);
	return 0;
}

/* pci_unregister_driver - call @drv's remove() for each device it drives,
 * then forget the binding.  Thread context. */
void pci_unregister_driver(struct pci_driver *drv)
{
	struct pci_bus *bus;
	struct pci_dev *dev;

	lx_for_each_pci_dev(bus, dev) {
		if (dev->dev.driver != &drv->driver)
			continue;
		if (drv->remove)
			drv->remove(dev);
		unbind(dev);
	}
}
