/* SPDX-License-Identifier: GPL-2.0-only */
/* What the lx_pci*.c files share: configuration access by bus/devfn and the list of devices found. */
#ifndef LX_PCI_H
#define LX_PCI_H

#include <linux/list.h>
#include <linux/pci.h>

/* Every PCI device found by lx_emul_pci_init(), in bus order (linked
 * through pci_dev.bus_list; the buses through pci_bus.node). */
extern struct list_head lx_pci_buses;

/* lx_pci_scan_once - enumerate the buses if that was not done yet;
 * 0, or -ENOMEM from the call that ran out of memory (what it found
 * stays; later calls return 0 and do not scan again). */
int lx_pci_scan_once(void);

#define lx_for_each_pci_dev(bus, dev)				\
	list_for_each_entry(bus, &lx_pci_buses, node)		\
		list_for_each_entry(dev, &(bus)->devices, bus_list)

#endif
