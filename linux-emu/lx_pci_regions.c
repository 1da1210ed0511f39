// SPDX-License-Identifier: GPL-2.0-only
/* pci_request_regions and pci_release_regions: every standard BAR of a device, over the selected-regions pair of lx_pci_enable.c; the exclusive form. */
#include <linux/pci.h>

#define ALL_BARS	((1 << PCI_STD_NUM_BARS) - 1)

/* pci_request_regions - reserve every BAR of @dev for @name (BARs of
 * size 0 are skipped); all or none.  0 or -EBUSY. */
int pci_request_regions(struct pci_dev *dev, const char *name)
{
	return pci_request_selected_regions(dev, ALL_BARS, name);
}

/* pci_release_regions - give back what pci_request_regions took. */
void pci_release_regions(struct pci_dev *dev)
{
	pci_release_selected_regions(dev, ALL_BARS);
}

/* pci_request_selected_regions_exclusive - pci_request_selected_regions:
 * exclusive only keeps /dev/mem away, and Graft has none. */
int pci_request_selected_regions_exclusive(struct pci_dev *dev, int bars,
					   const char *name)
{
	return pci_request_selected_regions(dev, bars, name);
}
