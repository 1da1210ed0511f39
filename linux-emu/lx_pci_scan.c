/* SPDX-License-Identifier: GPL-2.0-only */
/* PCI enumeration: lx_emul_pci_init walks bus 0 (and buses behind bridges) and makes a struct pci_dev for each function. */
/*
 * Each function found gets its identity (vendor, device, class, revision,
 * subsystem ids), its interrupt line and pin, its BARs as resources (size
 * by the all-ones probe, with I/O and memory decoding off meanwhile) and
 * the defaults Linux gives a new device: a 32-bit DMA mask, the error
 * state "normal", the power state read from its PM capability (D0 without
 * one), the name "0000:BB:DD.F" (dev_name, pci_name).  Buses behind
 * PCI-to-PCI bridges are walked at the secondary number the firmware gave
 * them; an unconfigured bridge (secondary 0) is reported and skipped, as
 * Graft assigns no bus numbers.  The devices live as long as the system:
 * there is no hot plug.
 */
#include <linux/dma-mapping.h>
#include <linux/ioport.h>
#include <linux/list.h>
#include <linux/pci.h>
#include <linux/slab.h>

#include <lx_emul.h>
#include <lx_host.h>

#include "lx_pci.h"

#define MAX_DEPTH	8

LIST_HEAD(lx_pci_buses);

static struct pci_sysdata lx_pci_sysdata;	/* domain 0, node 0 */
static bool scanned;

static u32 conf(struct pci_dev *dev, int where, int size)
{
	return lx_host_pci_config_read(dev->bus->number, dev->devfn, where,
				       size);
}

static void conf_set(struct pci_dev *dev, int where, int size, u32 val)
{
	lx_host_pci_config_write(dev->bus->number, dev->devfn, where, size,
				 val);
}

/* The size mask the all-ones probe reads back from the BAR at @where. */
static u32 probe_bar(struct pci_dev *dev, int where, u32 ones)
{
	u32 saved = conf(dev, where, 4), mask;

	conf_set(dev, where, 4, ones);
	mask = conf(dev, where, 4);
	conf_set(dev, where, 4, saved);
	return mask;
}

/*
 * Fill @res from the BAR at @where; returns how many BAR registers it
 * uses (2 for a 64-bit memory BAR).  An absent BAR leaves @res empty.
 */
static int decode_bar(struct pci_dev *dev, int where, struct resource *res)
{
	u32 bar = conf(dev, where, 4), mask = probe_bar(dev, where, ~0u);
	u64 start, size, mask64;
	int regs = 1;

	if (mask == 0 || mask == ~0u)
		return 1;
	res->name = pci_name(dev);
	if (bar & PCI_BASE_ADDRESS_SPACE_IO) {
		mask &= PCI_BASE_ADDRESS_IO_MASK;
		if (!(mask & 0xffff0000))
			mask |= 0xffff0000;	/* 16-bit decoders */
		start = bar & PCI_BASE_ADDRESS_IO_MASK;
		size = (u32)~mask + 1;
		res->flags = (bar & ~PCI_BASE_ADDRESS_IO_MASK) | IORESOURCE_IO;
	} else {
		mask64 = mask & PCI_BASE_ADDRESS_MEM_MASK;
		start = bar & PCI_BASE_ADDRESS_MEM_MASK;
		res->flags = (bar & ~PCI_BASE_ADDRESS_MEM_MASK) |
			     IORESOURCE_MEM;
		if (bar & PCI_BASE_ADDRESS_MEM_PREFETCH)
			res->flags |= IORESOURCE_PREFETCH;
		if ((bar & PCI_BASE_ADDRESS_MEM_TYPE_MASK) ==
		    PCI_BASE_ADDRESS_MEM_TYPE_64) {
			regs = 2;
			res->flags |= IORESOURCE_MEM_64;
			start |= (u64)conf(dev, where + 4, 4) << 32;
			mask64 |= (u64)probe_bar(dev, where + 4, ~0u) << 32;
		} else {
			mask64 |= 0xffffffff00000000ull;
		}
		/* The lowest writable bit is the size, as Linux reads it:
		 * Bochs' xHCI answers 0 from its BAR's upper half. */
		size = mask64 & ~(mask64 - 1);
	}
	if (size == 0)
		return regs;
	res->flags |= IORESOURCE_SIZEALIGN;
	res->start = start;
	res->end = start + size - 1;
	if (start == 0) {
		res->flags |= IORESOURCE_UNSET;
		pr_info("lx_pci: %s: BAR at 0x%02x has no address (the firmware assigned none); Graft assigns none either\n",
			pci_name(dev), where);
	}
	return regs;
}

static void decode_rom(struct pci_dev *dev, int where, struct resource *res)
{
	u32 bar = conf(dev, where, 4);
	u32 mask = probe_bar(dev, where, PCI_ROM_ADDRESS_MASK);

	mask &= PCI_ROM_ADDRESS_MASK;
	if (mask == 0)
		return;
	res->name = pci_name(dev);
	res->start = bar & PCI_ROM_ADDRESS_MASK;
	res->end = res->start + ((u32)~mask + 1) - 1;
	res->flags = IORESOURCE_MEM | IORESOURCE_READONLY |
		     IORESOURCE_SIZEALIGN |
		     (bar & PCI_ROM_ADDRESS_ENABLE ? IORESOURCE_ROM_ENABLE : 0);
	if (res->start == 0)
		res->flags |= IORESOURCE_UNSET;
}

/* All BARs of @dev, with its decoding off while they are probed. */
static void read_bases(struct pci_dev *dev, int nbars, int rom)
{
	u16 cmd = conf(dev, PCI_COMMAND, 2);

	conf_set(dev, PCI_COMMAND, 2,
		 cmd & ~(PCI_COMMAND_IO | PCI_COMMAND_MEMORY));
	for (int i = 0; i < nbars;)
		i += decode_bar(dev, PCI_BASE_ADDRESS_0 + 4 * i,
				&dev->resource[i]);
	decode_rom(dev, rom, &dev->resource[PCI_ROM_RESOURCE]);
	conf_set(dev, PCI_COMMAND, 2, cmd);
}

static void fixed_io(struct resource *r, resource_size_t start,
		     resource_size_t len)
{
	r->start = start;
	r->end = start + len - 1;
	r->flags = IORESOURCE_IO | IORESOURCE_PCI_FIXED;
}

/*
 * An IDE controller in legacy (compatibility) mode decodes the ISA
 * ports whatever its BARs say: as Linux's PCI core does, show them as
 * BARs 0-3 (primary 0x1f0/0x3f6, secondary 0x170/0x376).
 */
static void legacy_ide_bases(struct pci_dev *dev)
{
	u8 progif = dev->class & 0xff;

	if ((dev->class >> 8) != PCI_CLASS_STORAGE_IDE)
		return;
	if (!(progif & 1)) {
		fixed_io(&dev->resource[0], 0x1f0, 8);
		fixed_io(&dev->resource[1], 0x3f6, 1);
	}
	if (!(progif & 4)) {
		fixed_io(&dev->resource[2], 0x170, 8);
		fixed_io(&dev->resource[3], 0x376, 1);
	}
}

static void read_power_state(struct pci_dev *dev)
{
	dev->pm_cap = pci_find_capability(dev, PCI_CAP_ID_PM);
	dev->current_state = PCI_D0;
	if (dev->pm_cap)
		dev->current_state = conf(dev, dev->pm_cap + PCI_PM_CTRL, 2) &
				     PCI_PM_CTRL_STATE_MASK;
}

/* The host bridge "pci0000:00", parent of the root bus's devices as in
 * Linux (drivers read their parent's runtime PM state). */
static struct device root_bridge;

static struct pci_dev *new_device(struct pci_bus *bus, unsigned int devfn)
{
	struct pci_dev *dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	char *name = kmalloc(16, GFP_KERNEL);
	u32 id, class;
	u8 hdr;

	if (!dev || !name) {
		kfree(dev);
		kfree(name);
		return NULL;
	}
	dev->bus = bus;
	dev->devfn = devfn;
	snprintf(name, 16, "%04x:%02x:%02x.%d", pci_domain_nr(bus),
		 bus->number, PCI_SLOT(devfn), PCI_FUNC(devfn));
	device_initialize(&dev->dev);
	dev->dev.kobj.name = name;
	dev->dev.bus = &pci_bus_type;
	dev->dev.parent = bus->self ? &bus->self->dev : &root_bridge;
	dev->dev.dma_mask = &dev->dma_mask;
	dev->dma_mask = DMA_BIT_MASK(32);
	dev->dev.coherent_dma_mask = DMA_BIT_MASK(32);
	dev->error_state = pci_channel_io_normal;
	dev->cfg_size = PCI_CFG_SPACE_SIZE;

	id = conf(dev, PCI_VENDOR_ID, 4);
	dev->vendor = id & 0xffff;
	dev->device = id >> 16;
	class = conf(dev, PCI_CLASS_REVISION, 4);
	dev->revision = class & 0xff;
	dev->class = class >> 8;
	hdr = conf(dev, PCI_HEADER_TYPE, 1);
	dev->hdr_type = hdr & 0x7f;
	dev->multifunction = !!(hdr & 0x80);
	dev->pin = conf(dev, PCI_INTERRUPT_PIN, 1);
	dev->irq = conf(dev, PCI_INTERRUPT_LINE, 1);
	if (!dev->pin || dev->irq == 0xff)
		dev->irq = 0;	/* no interrupt, or none routed */
	if (dev->hdr_type == PCI_HEADER_TYPE_NORMAL) {
		dev->subsystem_vendor = conf(dev, PCI_SUBSYSTEM_VENDOR_ID, 2);
		dev->subsystem_device = conf(dev, PCI_SUBSYSTEM_ID, 2);
		read_bases(dev, PCI_STD_NUM_BARS, PCI_ROM_ADDRESS);
		legacy_ide_bases(dev);
	} else if (dev->hdr_type == PCI_HEADER_TYPE_BRIDGE) {
		read_bases(dev, 2, PCI_ROM_ADDRESS1);
	}
	read_power_state(dev);
	dev->pcie_cap = pci_find_capability(dev, PCI_CAP_ID_EXP);
	if (dev->pcie_cap)
		dev->pcie_flags_reg = conf(dev, dev->pcie_cap + PCI_EXP_FLAGS, 2);
	return dev;
}

static struct pci_bus *new_bus(int number, struct pci_dev *bridge)
{
	struct pci_bus *bus = kzalloc(sizeof(*bus), GFP_KERNEL);

	if (!bus)
		return NULL;
	INIT_LIST_HEAD(&bus->devices);
	INIT_LIST_HEAD(&bus->children);
	bus->number = number;
	bus->self = bridge;
	bus->parent = bridge ? bridge->bus : NULL;
	bus->sysdata = &lx_pci_sysdata;
	list_add_tail(&bus->node, &lx_pci_buses);
	return bus;
}

static int scan_bus(struct pci_bus *bus, int depth);

static int scan_bridge(struct pci_dev *bridge, int depth)
{
	u8 secondary = conf(bridge, PCI_SECONDARY_BUS, 1);
	struct pci_bus *bus;

	if (secondary <= bridge->bus->number || depth >= MAX_DEPTH) {
		pr_info("lx_pci: %s: bridge without a usable secondary bus number (%u): the buses behind it are not scanned\n",
			pci_name(bridge), secondary);
		return 0;
	}
	bus = new_bus(secondary, bridge);
	if (!bus)
		return -ENOMEM;
	bridge->subordinate = bus;
	return scan_bus(bus, depth + 1);
}

static int scan_function(struct pci_bus *bus, unsigned int devfn, int depth)
{
	struct pci_dev *dev;

	dev = new_device(bus, devfn);
	if (!dev)
		return -ENOMEM;
	list_add_tail(&dev->bus_list, &bus->devices);
	pr_info("lx_pci: %s [%04x:%04x] class %06x irq %u\n", pci_name(dev),
		dev->vendor, dev->device, dev->class, dev->irq);
	for (int i = 0; i < PCI_NUM_RESOURCES; i++)
		if (dev->resource[i].flags)
			pr_info("lx_pci: %s: resource %d %pR\n", pci_name(dev),
				i, &dev->resource[i]);
	if (dev->hdr_type == PCI_HEADER_TYPE_BRIDGE)
		return scan_bridge(dev, depth);
	return 0;
}

static int scan_bus(struct pci_bus *bus, int depth)
{
	for (unsigned int slot = 0; slot < 32; slot++) {
		unsigned int nfn = 1;

		for (unsigned int fn = 0; fn < nfn; fn++) {
			unsigned int devfn = PCI_DEVFN(slot, fn);
			u32 id = lx_host_pci_config_read(bus->number, devfn,
							 PCI_VENDOR_ID, 4);
			int err;

			/* Without function 0 the others are still looked
			 * for: a host may show single functions (a driver
			 * server sees only its claims), as Linux scans
			 * functions a hypervisor isolates. */
			if ((id & 0xffff) == 0xffff || (id & 0xffff) == 0) {
				if (fn == 0)
					nfn = 8;
				continue;
			}
			if (fn == 0 &&
			    lx_host_pci_config_read(bus->number, devfn,
						    PCI_HEADER_TYPE, 1) & 0x80)
				nfn = 8;
			err = scan_function(bus, devfn, depth);
			if (err)
				return err;
		}
	}
	return 0;
}

int lx_pci_scan_once(void)
{
	struct pci_bus *root;
	int err;

	if (scanned)
		return 0;
	scanned = true;
	device_initialize(&root_bridge);
	root_bridge.kobj.name = "pci0000:00";
	root = new_bus(0, NULL);
	err = root ? scan_bus(root, 0) : -ENOMEM;
	if (err)
		pr_err("lx_pci: enumeration stopped: out of memory\n");
	return err;
}

int lx_emul_pci_init(void)
{
	return scanned ? -EBUSY : lx_pci_scan_once();
}
