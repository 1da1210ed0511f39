/* SPDX-License-Identifier: GPL-2.0-only */
/* pci_get_slot: the device at a devfn of a bus; pcibios_resource_to_bus: a resource's bus addresses. */
#include <linux/pci.h>

/*
 * pci_get_slot - the function @devfn of @bus with a reference
 * (pci_dev_put drops it); NULL if there is none.
 */
struct pci_dev *pci_get_slot(struct pci_bus *bus, unsigned int devfn)
{
	struct pci_dev *dev;

	list_for_each_entry(dev, &bus->devices, bus_list) {
		if (dev->devfn == devfn) {
			get_device(&dev->dev);
			return dev;
		}
	}
	return NULL;
}

/*
 * pcibios_resource_to_bus - @res as the addresses the device decodes on
 * @bus: the same numbers, since Graft's PCI buses (lx_pci_scan.c) have
 * no host bridge windows with an offset, as on the PC.
 */
void pcibios_resource_to_bus(struct pci_bus *bus, struct pci_bus_region *region,
			     struct resource *res)
{
	region->start = res->start;
	region->end = res->end;
}
