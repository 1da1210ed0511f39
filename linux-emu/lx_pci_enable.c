/* SPDX-License-Identifier: GPL-2.0-only */
/* Turning a PCI device on for a driver: enable/disable, bus mastering, MWI, INTx, BAR selection, region requests, pci_ioremap_bar. */
/*
 * As in Linux, enabling is counted (enable_cnt): the first
 * pci_enable_device turns on I/O and/or memory decoding for the BARs that
 * exist and clears INTx masking; the last pci_disable_device turns bus
 * mastering off and leaves decoding on.  Region requests go through
 * kernel/resource.c (request_region, __request_mem_region on
 * ioport_resource and iomem_resource), so a second request conflicts.
 */
#include <linux/io.h>
#include <linux/ioport.h>
#include <linux/pci.h>

#include "lx_pci.h"

#define LATENCY_TIMER	64	/* what x86 Linux gives a bus master */

static int do_enable(struct pci_dev *dev, unsigned long flags)
{
	u16 cmd, old;

	if (atomic_inc_return(&dev->enable_cnt) > 1)
		return 0;
	if (dev->current_state != PCI_D0 &&
	    pci_set_power_state(dev, PCI_D0)) {
		atomic_dec(&dev->enable_cnt);
		return -EIO;
	}
	pci_read_config_word(dev, PCI_COMMAND, &cmd);
	old = cmd;
	for (int i = 0; i < PCI_STD_NUM_BARS; i++) {
		struct resource *r = &dev->resource[i];

		if (!(r->flags & flags))
			continue;
		if (r->flags & IORESOURCE_UNSET) {
			dev_err(&dev->dev, "can't enable device: BAR %d has no address\n",
				i);
			atomic_dec(&dev->enable_cnt);
			return -EINVAL;
		}
		cmd |= r->flags & IORESOURCE_IO ? PCI_COMMAND_IO :
						  PCI_COMMAND_MEMORY;
	}
	if (dev->pin)
		cmd &= ~PCI_COMMAND_INTX_DISABLE;
	if (cmd != old)
		pci_write_config_word(dev, PCI_COMMAND, cmd);
	return 0;
}

/* pci_enable_device - decode the device's I/O and memory BARs (counted).
 * 0; -EINVAL if a BAR has no address; -EIO if it cannot reach D0. */
int pci_enable_device(struct pci_dev *dev)
{
	return do_enable(dev, IORESOURCE_IO | IORESOURCE_MEM);
}

/* pci_enable_device_mem - as pci_enable_device, memory BARs only. */
int pci_enable_device_mem(struct pci_dev *dev)
{
	return do_enable(dev, IORESOURCE_MEM);
}

/* pci_disable_device - undo one enable; the last one stops bus mastering. */
void pci_disable_device(struct pci_dev *dev)
{
	u16 cmd;

	if (atomic_read(&dev->enable_cnt) <= 0) {
		dev_warn(&dev->dev, "disabling an already disabled device\n");
		return;
	}
	if (atomic_dec_return(&dev->enable_cnt) != 0)
		return;
	pci_read_config_word(dev, PCI_COMMAND, &cmd);
	if (cmd & PCI_COMMAND_MASTER)
		pci_write_config_word(dev, PCI_COMMAND,
				      cmd & ~PCI_COMMAND_MASTER);
	dev->is_busmaster = 0;
}

/* pci_set_master - let the device master the bus (and give it a latency
 * timer of at least 16 clocks, as x86 Linux does). */
void pci_set_master(struct pci_dev *dev)
{
	u16 cmd;
	u8 lat;

	pci_read_config_word(dev, PCI_COMMAND, &cmd);
	if (!(cmd & PCI_COMMAND_MASTER))
		pci_write_config_word(dev, PCI_COMMAND,
				      cmd | PCI_COMMAND_MASTER);
	pci_read_config_byte(dev, PCI_LATENCY_TIMER, &lat);
	if (lat < 16)
		pci_write_config_byte(dev, PCI_LATENCY_TIMER, LATENCY_TIMER);
	dev->is_busmaster = 1;
}

/* Clear @bits of @dev's command register (written only if set). */
static void command_clear(struct pci_dev *dev, u16 bits)
{
	u16 cmd;

	pci_read_config_word(dev, PCI_COMMAND, &cmd);
	if (cmd & bits)
		pci_write_config_word(dev, PCI_COMMAND, cmd & ~bits);
}

/* pci_clear_master - stop the device from mastering the bus. */
void pci_clear_master(struct pci_dev *dev)
{
	command_clear(dev, PCI_COMMAND_MASTER);
	dev->is_busmaster = 0;
}

/* pci_set_mwi - program the cache line size (64 bytes) and turn on
 * Memory-Write-Invalidate.  0, or -EINVAL if the device does not take
 * that cache line size. */
int pci_set_mwi(struct pci_dev *dev)
{
	u8 want = L1_CACHE_BYTES >> 2, size;
	u16 cmd;

	pci_read_config_byte(dev, PCI_CACHE_LINE_SIZE, &size);
	if (size < want || size % want) {
		pci_write_config_byte(dev, PCI_CACHE_LINE_SIZE, want);
		pci_read_config_byte(dev, PCI_CACHE_LINE_SIZE, &size);
		if (size != want) {
			dev_info(&dev->dev, "cache line size of %d is not supported: no MWI\n",
				 want << 2);
			return -EINVAL;
		}
	}
	pci_read_config_word(dev, PCI_COMMAND, &cmd);
	if (!(cmd & PCI_COMMAND_INVALIDATE))
		pci_write_config_word(dev, PCI_COMMAND,
				      cmd | PCI_COMMAND_INVALIDATE);
	return 0;
}

/* pci_try_set_mwi - pci_set_mwi, for a driver that goes on without it:
 * its answer. */
int pci_try_set_mwi(struct pci_dev *dev)
{
	return pci_set_mwi(dev);
}

/* pci_clear_mwi - turn Memory-Write-Invalidate off. */
void pci_clear_mwi(struct pci_dev *dev)
{
	command_clear(dev, PCI_COMMAND_INVALIDATE);
}

/* pci_intx - let the device raise INTx (@enable) or mask it. */
void pci_intx(struct pci_dev *dev, int enable)
{
	u16 cmd, new;

	pci_read_config_word(dev, PCI_COMMAND, &cmd);
	new = enable ? cmd & ~PCI_COMMAND_INTX_DISABLE :
		       cmd | PCI_COMMAND_INTX_DISABLE;
	if (new != cmd)
		pci_write_config_word(dev, PCI_COMMAND, new);
}

/* pci_select_bars - the mask of standard BARs whose flags have @flags. */
int pci_select_bars(struct pci_dev *dev, unsigned long flags)
{
	int bars = 0;

	for (int i = 0; i < PCI_STD_NUM_BARS; i++)
		if (pci_resource_flags(dev, i) & flags)
			bars |= 1 << i;
	return bars;
}

static void release_bar(struct pci_dev *dev, int bar)
{
	if (pci_resource_len(dev, bar) == 0)
		return;
	if (pci_resource_flags(dev, bar) & IORESOURCE_IO)
		release_region(pci_resource_start(dev, bar),
			       pci_resource_len(dev, bar));
	else if (pci_resource_flags(dev, bar) & IORESOURCE_MEM)
		release_mem_region(pci_resource_start(dev, bar),
				   pci_resource_len(dev, bar));
}

static int request_bar(struct pci_dev *dev, int bar, const char *name)
{
	struct resource *r = NULL;

	if (pci_resource_len(dev, bar) == 0)
		return 0;
	if (pci_resource_flags(dev, bar) & IORESOURCE_IO)
		r = request_region(pci_resource_start(dev, bar),
				   pci_resource_len(dev, bar), name);
	else if (pci_resource_flags(dev, bar) & IORESOURCE_MEM)
		r = request_mem_region(pci_resource_start(dev, bar),
				       pci_resource_len(dev, bar), name);
	else
		return 0;
	if (r)
		return 0;
	dev_warn(&dev->dev, "BAR %d: can't reserve %pR\n", bar,
		 &dev->resource[bar]);
	return -EBUSY;
}

/* pci_request_selected_regions - reserve the BARs of mask @bars for
 * @name; all or none.  0 or -EBUSY (a BAR is reserved already). */
int pci_request_selected_regions(struct pci_dev *dev, int bars,
				 const char *name)
{
	for (int i = 0; i < PCI_STD_NUM_BARS; i++) {
		if (!(bars & (1 << i)) || !request_bar(dev, i, name))
			continue;
		while (--i >= 0)
			if (bars & (1 << i))
				release_bar(dev, i);
		return -EBUSY;
	}
	return 0;
}

/* pci_release_selected_regions - give back what the call above took. */
void pci_release_selected_regions(struct pci_dev *dev, int bars)
{
	for (int i = 0; i < PCI_STD_NUM_BARS; i++)
		if (bars & (1 << i))
			release_bar(dev, i);
}

/* pci_ioremap_bar - map memory BAR @bar uncached; NULL (with a console
 * line) if it is not a memory BAR with an address, or mapping failed. */
void __iomem *pci_ioremap_bar(struct pci_dev *dev, int bar)
{
	struct resource *r = &dev->resource[bar];

	if (!(r->flags & IORESOURCE_MEM) || (r->flags & IORESOURCE_UNSET)) {
		dev_warn(&dev->dev, "can't ioremap BAR %d: %pR\n", bar, r);
		return NULL;
	}
	return ioremap(r->start, resource_size(r));
}
