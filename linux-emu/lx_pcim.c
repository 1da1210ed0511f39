/* SPDX-License-Identifier: GPL-2.0-only */
/* Managed PCI (pcim_enable_device, pcim_pin_device), single-BAR regions, pci_get_device. */
/*
 * pcim_enable_device enables a device for as long as its driver is bound:
 * a devres entry disables it again when the driver's resources are
 * released (probe failure, remove), unless pcim_pin_device pinned it.
 * The iomap side of "pcim" (pcim_iomap_regions, pcim_iomap_table) is
 * Linux's own lib/devres.c over pci_request_region below.
 */
#include <linux/device.h>
#include <linux/pci.h>

#include "lx_pci.h"

struct pcim_state {
	bool enabled;
	bool pinned;
};

static void pcim_release(struct device *gendev, void *res)
{
	struct pcim_state *st = res;

	if (st->enabled && !st->pinned)
		pci_disable_device(to_pci_dev(gendev));
}

static struct pcim_state *pcim_state(struct pci_dev *pdev)
{
	struct pcim_state *st, *found;

	found = devres_find(&pdev->dev, pcim_release, NULL, NULL);
	if (found)
		return found;
	st = devres_alloc(pcim_release, sizeof(*st), GFP_KERNEL);
	if (!st)
		return NULL;
	return devres_get(&pdev->dev, st, NULL, NULL);
}

/* pcim_enable_device - pci_enable_device until the driver's resources
 * are released.  0; -ENOMEM; pci_enable_device's errors. */
int pcim_enable_device(struct pci_dev *pdev)
{
	struct pcim_state *st = pcim_state(pdev);
	int err;

	if (!st)
		return -ENOMEM;
	if (st->enabled)
		return 0;
	err = pci_enable_device(pdev);
	if (err)
		return err;
	pdev->is_managed = 1;
	st->enabled = true;
	return 0;
}

/* pcim_pin_device - keep @pdev enabled when the driver lets go (a
 * device pcim_enable_device did not enable: a console line). */
void pcim_pin_device(struct pci_dev *pdev)
{
	struct pcim_state *st = devres_find(&pdev->dev, pcim_release,
					    NULL, NULL);

	if (!st || !st->enabled) {
		dev_err(&pdev->dev, "pcim_pin_device: not enabled by pcim_enable_device\n");
		return;
	}
	st->pinned = true;
}

/* pci_request_region - reserve BAR @bar of @pdev for @name (a BAR of
 * size 0: nothing).  0 or -EBUSY. */
int pci_request_region(struct pci_dev *pdev, int bar, const char *name)
{
	if (bar < 0 || bar >= PCI_STD_NUM_BARS)
		return -EINVAL;
	return pci_request_selected_regions(pdev, 1 << bar, name);
}

/* pci_release_region - give back what pci_request_region took. */
void pci_release_region(struct pci_dev *pdev, int bar)
{
	if (bar >= 0 && bar < PCI_STD_NUM_BARS)
		pci_release_selected_regions(pdev, 1 << bar);
}

/*
 * pci_get_device - the next device after @from (NULL: the first) in
 * enumeration order whose ids match (PCI_ANY_ID matches any).  Devices
 * are never removed, so the reference counting of Linux is moot: the
 * references are taken and dropped as in Linux all the same.
 */
struct pci_dev *pci_get_device(unsigned int vendor, unsigned int device,
			       struct pci_dev *from)
{
	struct pci_bus *bus;
	struct pci_dev *dev, *found = NULL;
	bool after = !from;

	lx_for_each_pci_dev(bus, dev) {
		if (!after) {
			after = dev == from;
			continue;
		}
		if ((vendor == PCI_ANY_ID || dev->vendor == vendor) &&
		    (device == PCI_ANY_ID || dev->device == device)) {
			found = dev;
			break;
		}
	}
	if (found)
		get_device(&found->dev);
	if (from)
		put_device(&from->dev);
	return found;
}

/* pci_dev_get - take a reference on @dev (NULL: none); @dev. */
struct pci_dev *pci_dev_get(struct pci_dev *dev)
{
	if (dev)
		get_device(&dev->dev);
	return dev;
}

/* pci_dev_put - drop what pci_get_device or pci_dev_get took. */
void pci_dev_put(struct pci_dev *dev)
{
	if (dev)
		put_device(&dev->dev);
}
