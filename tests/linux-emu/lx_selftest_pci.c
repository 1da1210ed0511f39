/* SPDX-License-Identifier: GPL-2.0-only */
/* Checks of the linux-pci suite that run in the Linux world: enumeration, config access, a PCI driver's probe and remove, ID matching, power bits, the DMA API. */
#include <linux/dma-mapping.h>
#include <linux/io.h>
#include <linux/ioport.h>
#include <linux/mm.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <lx_emul.h>

#include "../../linux-emu/lx_pci.h"
#include "lx_selftest_pci.h"
#include "lx_selftest_check.h"

#define E1000_DEVFN	PCI_DEVFN(3, 0)
#define NE2K_DEVFN	PCI_DEVFN(4, 0)
#define BRIDGE_DEVFN	PCI_DEVFN(5, 0)
#define E1000E_DEVFN	PCI_DEVFN(6, 0)
#define E1000_STATUS	0x08
#define E1000_EERD	0x14
#define EERD_START	0x01
#define EERD_DONE	0x10

static struct pci_dev *find(unsigned int devfn)
{
	struct pci_bus *bus;
	struct pci_dev *dev;

	lx_for_each_pci_dev(bus, dev)
		if (bus->number == 0 && dev->devfn == devfn)
			return dev;
	return NULL;
}

/* What QEMU's e1000 and ne2k_pci look like on the bus. */
static const struct expected_device {
	unsigned int devfn;
	const char *name;
	u16 vendor, device, subvendor, subdevice;
	u32 class;
	u8 revision;
	struct {
		unsigned long type;	/* IORESOURCE_IO, _MEM, or 0: none */
		u64 size;
	} bar[PCI_STD_NUM_BARS];
} expected[] = {
	{ E1000_DEVFN, "0000:00:03.0", 0x8086, 0x100e, 0x1af4, 0x1100,
	  0x020000, 0x03,
	  { { IORESOURCE_MEM, 128 << 10 }, { IORESOURCE_IO, 64 } } },
	{ NE2K_DEVFN, "0000:00:04.0", 0x10ec, 0x8029, 0x1af4, 0x1100,
	  0x020000, 0x00,
	  { { IORESOURCE_IO, 256 } } },
};

static int check_device(const struct expected_device *e)
{
	struct pci_dev *dev = find(e->devfn);
	u8 line;

	CHECK(dev);
	CHECK(!strcmp(pci_name(dev), e->name));
	CHECK(!strcmp(dev_name(&dev->dev), e->name));
	CHECK(dev->vendor == e->vendor && dev->device == e->device);
	CHECK(dev->subsystem_vendor == e->subvendor &&
	      dev->subsystem_device == e->subdevice);
	CHECK(dev->class == e->class && dev->revision == e->revision);
	CHECK(dev->hdr_type == PCI_HEADER_TYPE_NORMAL);
	for (int i = 0; i < PCI_STD_NUM_BARS; i++) {
		struct resource *r = &dev->resource[i];
		unsigned long kind = r->flags & (IORESOURCE_IO | IORESOURCE_MEM);

		CHECK(kind == e->bar[i].type);
		CHECK(pci_resource_len(dev, i) == e->bar[i].size);
		CHECK(!kind || (r->start && !(r->flags & IORESOURCE_UNSET)));
		CHECK(!kind || !(r->start & (e->bar[i].size - 1)));
	}
	pci_read_config_byte(dev, PCI_INTERRUPT_LINE, &line);
	CHECK(dev->pin == 1 && dev->irq == line && line != 0 && line < 16);
	CHECK(dev->dev.dma_mask && *dev->dev.dma_mask == DMA_BIT_MASK(32));
	CHECK(dev->dev.coherent_dma_mask == DMA_BIT_MASK(32));
	CHECK(dev->dev.bus == &pci_bus_type && !dev->dev.driver);
	CHECK(dev->error_state == pci_channel_io_normal && !pci_is_enabled(dev));
	return 0;
}

int lx_emul_selftest_pci_enumeration(void)
{
	struct pci_bus *bus;
	struct pci_dev *dev;
	int n = 0, line;

	for (unsigned int i = 0; i < ARRAY_SIZE(expected); i++) {
		line = check_device(&expected[i]);
		if (line)
			return line;
	}
	lx_for_each_pci_dev(bus, dev)
		n++;
	CHECK(n >= 6);		/* host, ISA, PCI bridges, NICs, test device */
	CHECK(find(PCI_DEVFN(0, 0))->class >> 8 == PCI_CLASS_BRIDGE_HOST);
	CHECK(!find(PCI_DEVFN(31, 0)));	/* an empty slot */
	return 0;
}

/* QEMU's pci-bridge at 00:05.0 and, behind it, a pci-testdev at 01.0. */
int lx_emul_selftest_pci_bridge(void)
{
	struct pci_dev *bridge = find(BRIDGE_DEVFN), *dev;
	struct pci_bus *bus;
	u8 secondary;

	CHECK(bridge && bridge->hdr_type == PCI_HEADER_TYPE_BRIDGE);
	CHECK(bridge->vendor == 0x1b36 && bridge->device == 0x0001);
	CHECK(bridge->class == PCI_CLASS_BRIDGE_PCI << 8);
	pci_read_config_byte(bridge, PCI_SECONDARY_BUS, &secondary);
	bus = bridge->subordinate;
	CHECK(secondary == 1 && bus && bus->number == 1);	/* SeaBIOS */
	CHECK(bus->self == bridge && bus->parent == bridge->bus);
	CHECK(list_is_singular(&bus->devices));
	dev = list_first_entry(&bus->devices, struct pci_dev, bus_list);
	CHECK(dev->vendor == 0x1b36 && dev->device == 0x0005);
	CHECK(dev->devfn == PCI_DEVFN(1, 0) && dev->bus == bus);
	CHECK(!strcmp(pci_name(dev), "0000:01:01.0"));
	CHECK(pci_resource_flags(dev, 0) & IORESOURCE_MEM);
	CHECK(pci_resource_len(dev, 0) == 4096);
	CHECK(pci_resource_flags(dev, 1) & IORESOURCE_IO);
	CHECK(pci_resource_len(dev, 1) == 256);
	/* The bridge's own BAR 0 is 64-bit memory: one resource, two BARs. */
	CHECK(pci_resource_flags(bridge, 0) & IORESOURCE_MEM_64);
	CHECK(pci_resource_len(bridge, 0) && !pci_resource_flags(bridge, 1));
	return 0;
}

unsigned long lx_emul_selftest_pci_e1000_bar0(void)
{
	struct pci_dev *dev = find(E1000_DEVFN);

	return dev ? pci_resource_start(dev, 0) : 0;
}

int lx_emul_selftest_pci_config_access(void)
{
	struct pci_dev *dev = find(E1000_DEVFN);
	u32 id;
	u16 w;
	u8 b, saved;

	CHECK(dev);
	CHECK(pci_read_config_dword(dev, PCI_VENDOR_ID, &id) == 0);
	CHECK(id == 0x100e8086);
	CHECK(pci_read_config_word(dev, PCI_DEVICE_ID, &w) == 0 && w == 0x100e);
	CHECK(pci_read_config_byte(dev, PCI_CLASS_DEVICE + 1, &b) == 0 &&
	      b == PCI_BASE_CLASS_NETWORK);
	/* Misaligned and out-of-range accesses are refused, reads give ~0. */
	CHECK(pci_read_config_word(dev, 1, &w) == PCIBIOS_BAD_REGISTER_NUMBER);
	CHECK(w == 0xffff);
	CHECK(pci_read_config_dword(dev, 256, &id) ==
	      PCIBIOS_BAD_REGISTER_NUMBER && id == ~0u);
	CHECK(pci_write_config_dword(dev, 2, 0) == PCIBIOS_BAD_REGISTER_NUMBER);
	/* A writable register takes a write (the interrupt line). */
	pci_read_config_byte(dev, PCI_INTERRUPT_LINE, &saved);
	CHECK(pci_write_config_byte(dev, PCI_INTERRUPT_LINE, 0x5a) == 0);
	pci_read_config_byte(dev, PCI_INTERRUPT_LINE, &b);
	pci_write_config_byte(dev, PCI_INTERRUPT_LINE, saved);
	CHECK(b == 0x5a);
	return 0;
}

/*
 * The PCI Express link of QEMU's e1000e at 00:06.0 (an endpoint on the
 * pc machine's bus 0: no bridge above it), trained as it is capable:
 * 2.5 GT/s x1, 2 Gb/s after 8b/10b.  The e1000 at 00:03.0 has no PCI
 * Express capability: nothing known.
 */
int lx_emul_selftest_pcie_link(void)
{
	struct pci_dev *dev = find(E1000E_DEVFN), *limit = NULL;
	enum pci_bus_speed speed;
	enum pcie_link_width width;
	u32 cap2;
	u16 sta;

	CHECK(dev && pci_is_pcie(dev));
	CHECK(pcie_capability_read_word(dev, PCI_EXP_LNKSTA, &sta) == 0);
	CHECK((sta & PCI_EXP_LNKSTA_CLS) == PCI_EXP_LNKSTA_CLS_2_5GB);
	CHECK((sta & PCI_EXP_LNKSTA_NLW) == PCI_EXP_LNKSTA_NLW_X1);
	/* LNKCAP2 lies beyond the 256 bytes Graft reaches (QEMU puts the
	 * capability at 0xe0): read as 0, so LNKCAP's code gives the speed. */
	CHECK(pcie_capability_read_dword(dev, PCI_EXP_LNKCAP2, &cap2) != 0);
	CHECK(cap2 == 0);
	CHECK(pcie_get_speed_cap(dev) == PCIE_SPEED_2_5GT);
	CHECK(pcie_get_width_cap(dev) == PCIE_LNK_X1);
	CHECK(pcie_bandwidth_available(dev, &limit, &speed, &width) == 2000);
	CHECK(limit == dev);
	CHECK(speed == PCIE_SPEED_2_5GT && width == PCIE_LNK_X1);
	CHECK(pcie_bandwidth_available(dev, NULL, NULL, NULL) == 2000);
	pcie_print_link_status(dev);
	dev = find(E1000_DEVFN);
	CHECK(dev && !pci_is_pcie(dev));
	CHECK(pcie_get_speed_cap(dev) == PCI_SPEED_UNKNOWN);
	CHECK(pcie_get_width_cap(dev) == PCIE_LNK_WIDTH_UNKNOWN);
	CHECK(pcie_bandwidth_available(dev, &limit, &speed, &width) == 0);
	CHECK(speed == PCI_SPEED_UNKNOWN && width == 0);
	return 0;
}

/* --- a PCI driver for QEMU's e1000 ------------------------------------ */

static struct {
	int probes, removes, line;
	const struct pci_device_id *id;
	struct pci_dev *dev;
	void __iomem *hw;
	u32 status;
	u16 mac[3];
} e1k;

#define PROBE_CHECK(cond)						\
	do { if (!(cond)) { e1k.line = __LINE__; goto err; } } while (0)

static u16 eeprom_word(void __iomem *hw, unsigned int index)
{
	u32 v = 0;

	iowrite32(index << 8 | EERD_START, hw + E1000_EERD);
	for (int i = 0; i < 1000 && !(v & EERD_DONE); i++)
		v = ioread32(hw + E1000_EERD);
	return v & EERD_DONE ? v >> 16 : 0xdead;
}

static int e1k_probe(struct pci_dev *dev, const struct pci_device_id *id)
{
	int bars = pci_select_bars(dev, IORESOURCE_MEM);
	void __iomem *io;
	u16 cmd;

	e1k.probes++;
	e1k.id = id;
	e1k.dev = dev;
	PROBE_CHECK(bars == 1 << 0);
	PROBE_CHECK(pci_select_bars(dev, IORESOURCE_IO) == 1 << 1);
	/* The firmware left decoding on: off, so that enabling shows. */
	pci_read_config_word(dev, PCI_COMMAND, &cmd);
	pci_write_config_word(dev, PCI_COMMAND,
			      cmd & ~(PCI_COMMAND_IO | PCI_COMMAND_MEMORY));
	PROBE_CHECK(pci_enable_device_mem(dev) == 0 && pci_is_enabled(dev));
	pci_read_config_word(dev, PCI_COMMAND, &cmd);
	PROBE_CHECK((cmd & PCI_COMMAND_MEMORY) && !(cmd & PCI_COMMAND_IO));
	PROBE_CHECK(pci_request_selected_regions(dev, bars, "lx_pci_test") == 0);
	/* Taken: a second request, by the driver or anyone, conflicts. */
	PROBE_CHECK(pci_request_selected_regions(dev, bars, "again") == -EBUSY);
	PROBE_CHECK(!request_mem_region(pci_resource_start(dev, 0), 4, "x"));
	pci_set_master(dev);
	pci_read_config_word(dev, PCI_COMMAND, &cmd);
	PROBE_CHECK((cmd & PCI_COMMAND_MASTER) && dev->is_busmaster);
	e1k.hw = pci_ioremap_bar(dev, 0);
	PROBE_CHECK(e1k.hw);
	PROBE_CHECK(!pci_ioremap_bar(dev, 1));	/* an I/O BAR */
	e1k.status = ioread32(e1k.hw + E1000_STATUS);
	for (int i = 0; i < 3; i++)
		e1k.mac[i] = eeprom_word(e1k.hw, i);
	/* The I/O BAR through pci_iomap: a port cookie of lib/iomap.c. */
	io = pci_iomap(dev, 1, 0);
	PROBE_CHECK((unsigned long)io == 0x10000 + pci_resource_start(dev, 1));
	pci_iounmap(dev, io);
	/* The memory BAR through pci_iomap (first page only): an address. */
	io = pci_iomap(dev, 0, PAGE_SIZE);
	PROBE_CHECK(io && (unsigned long)io >= 0x50000 && io != e1k.hw);
	PROBE_CHECK(ioread32(io + E1000_STATUS) == e1k.status);
	pci_iounmap(dev, io);
	pci_set_drvdata(dev, &e1k);
	return 0;
err:
	return -EIO;
}

static void e1k_remove(struct pci_dev *dev)
{
	u16 cmd;

	e1k.removes++;
	if (pci_get_drvdata(dev) != &e1k)
		e1k.line = __LINE__;
	iounmap(e1k.hw);
	pci_release_selected_regions(dev, 1 << 0);
	pci_disable_device(dev);
	pci_read_config_word(dev, PCI_COMMAND, &cmd);
	if ((cmd & PCI_COMMAND_MASTER) || pci_is_enabled(dev))
		e1k.line = __LINE__;
}

static const struct pci_device_id e1k_ids[] = {
	{ PCI_DEVICE(0x8086, 0x1004) },			/* 82543GC: not here */
	{ PCI_DEVICE(0x8086, 0x100e), .driver_data = 42 },
	{ }
};

static struct pci_driver e1k_driver = {
	.name = "lx_pci_test",
	.id_table = e1k_ids,
	.probe = e1k_probe,
	.remove = e1k_remove,
};

static int probes_of_other;

static int other_probe(struct pci_dev *dev, const struct pci_device_id *id)
{
	probes_of_other++;
	return 0;
}

static struct pci_driver other_driver = {
	.name = "lx_pci_other",
	.id_table = e1k_ids,
	.probe = other_probe,
};

int lx_emul_selftest_pci_driver_e1000(void)
{
	struct pci_dev *dev = find(E1000_DEVFN);
	struct resource *r;

	memset(&e1k, 0, sizeof(e1k));
	CHECK(dev);
	CHECK(pci_register_driver(&e1k_driver) == 0);
	CHECK(e1k.line == 0);
	CHECK(e1k.probes == 1 && e1k.dev == dev && e1k.id == &e1k_ids[1]);
	CHECK(dev->dev.driver == &e1k_driver.driver);
	CHECK(!strcmp(dev_driver_string(&dev->dev), "lx_pci_test"));
	/* QEMU's power-on STATUS: full duplex, 1000 Mb/s, link up. */
	CHECK(e1k.status != ~0u && (e1k.status & 0xc3) == 0x83);
	/* The MAC in the EEPROM, little-endian words: 52:54:00:12:34:56. */
	CHECK(e1k.mac[0] == 0x5452 && e1k.mac[1] == 0x1200 &&
	      e1k.mac[2] == 0x5634);
	dev_info(&dev->dev, "bound; irq %u\n", dev->irq);
	/* A bound device is not offered to another driver. */
	CHECK(pci_register_driver(&other_driver) == 0 && probes_of_other == 0);
	pci_unregister_driver(&other_driver);
	CHECK(e1k.removes == 0);

	pci_unregister_driver(&e1k_driver);
	CHECK(e1k.removes == 1 && e1k.line == 0 && !dev->dev.driver);
	CHECK(!pci_get_drvdata(dev));
	/* The region is free again. */
	r = request_mem_region(pci_resource_start(dev, 0), 4, "after");
	CHECK(r);
	release_mem_region(pci_resource_start(dev, 0), 4);
	return 0;
}

/* --- port I/O through lib/iomap.c: the ne2k_pci's remote DMA ---------- */

#define NE_CR		0x00	/* command: page 0 registers below */
#define NE_RSAR0	0x08
#define NE_RSAR1	0x09
#define NE_RBCR0	0x0a
#define NE_RBCR1	0x0b
#define NE_ISR		0x07
#define NE_DCR		0x0e
#define NE_IMR		0x0f
#define NE_DATA		0x10
#define NE_RESET	0x1f
#define CR_STOP_NODMA	0x21
#define CR_READ		0x0a	/* remote read, start */
#define CR_WRITE	0x12	/* remote write, start */
#define ISR_RDC		0x40	/* remote DMA complete */
#define ISR_RESET	0x80
#define DCR_WORDS	0x49
#define NE_RAM		0x4000	/* the card's packet memory */

static void ne_remote(void __iomem *base, u8 cmd, u16 addr, u16 bytes)
{
	iowrite8(bytes & 0xff, base + NE_RBCR0);
	iowrite8(bytes >> 8, base + NE_RBCR1);
	iowrite8(addr & 0xff, base + NE_RSAR0);
	iowrite8(addr >> 8, base + NE_RSAR1);
	iowrite8(cmd, base + NE_CR);
}

static int ne2k_ports(struct pci_dev *dev, void __iomem *base)
{
	static const u8 mac[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x57 };
	u16 prom[6], pattern[64], back[64];

	CHECK((unsigned long)base == 0x10000 + pci_resource_start(dev, 0));
	ioread8(base + NE_RESET);	/* reading the reset port resets */
	outb_p(CR_STOP_NODMA, pci_resource_start(dev, 0) + NE_CR);
	CHECK(ioread8(base + NE_ISR) & ISR_RESET);
	iowrite8(DCR_WORDS, base + NE_DCR);
	iowrite8(0, base + NE_IMR);	/* no interrupt */
	iowrite8(0xff, base + NE_ISR);

	/* The station address PROM, each byte doubled into a word. */
	ne_remote(base, CR_READ, 0, sizeof(prom));
	ioread16_rep(base + NE_DATA, prom, ARRAY_SIZE(prom));
	for (int i = 0; i < 6; i++)
		CHECK(prom[i] == mac[i] * 0x0101);

	/* Words written into the card's memory come back. */
	for (int i = 0; i < 64; i++)
		pattern[i] = 0x1234 + i * 0x0101;
	iowrite8(0xff, base + NE_ISR);
	ne_remote(base, CR_WRITE, NE_RAM, sizeof(pattern));
	iowrite16_rep(base + NE_DATA, pattern, ARRAY_SIZE(pattern));
	CHECK(ioread8(base + NE_ISR) & ISR_RDC);
	iowrite8(0xff, base + NE_ISR);
	ne_remote(base, CR_READ, NE_RAM, sizeof(back));
	ioread16_rep(base + NE_DATA, back, ARRAY_SIZE(back));
	CHECK(!memcmp(back, pattern, sizeof(back)));
	iowrite8(CR_STOP_NODMA, base + NE_CR);
	return 0;
}

int lx_emul_selftest_pci_ne2k_ports(void)
{
	struct pci_dev *dev = find(NE2K_DEVFN);
	int bars, line;
	void __iomem *base;
	u16 cmd;

	CHECK(dev);
	bars = pci_select_bars(dev, IORESOURCE_IO);
	CHECK(bars == 1 << 0);
	pci_read_config_word(dev, PCI_COMMAND, &cmd);
	pci_write_config_word(dev, PCI_COMMAND, cmd & ~PCI_COMMAND_IO);
	CHECK(pci_enable_device(dev) == 0);
	pci_read_config_word(dev, PCI_COMMAND, &cmd);
	CHECK(cmd & PCI_COMMAND_IO);
	CHECK(pci_request_selected_regions(dev, bars, "lx_pci_ne2k") == 0);
	CHECK(!request_region(pci_resource_start(dev, 0) + 0x10, 2, "x"));
	base = pci_iomap(dev, 0, 0);
	line = base ? ne2k_ports(dev, base) : __LINE__;
	pci_iounmap(dev, base);
	pci_release_selected_regions(dev, bars);
	pci_disable_device(dev);
	return line;
}

/* --- ID table matching ------------------------------------------------ */

static unsigned int matched[2];

static int match_probe(struct pci_dev *dev, const struct pci_device_id *id)
{
	if (id->driver_data < ARRAY_SIZE(matched))
		matched[id->driver_data] |= 1u << PCI_SLOT(dev->devfn);
	return -ENODEV;		/* stay unbound */
}

static const struct pci_device_id class_ids[] = {
	{ PCI_DEVICE_SUB(0x10ec, 0x8029, 0x1234, PCI_ANY_ID) },	/* no */
	{ PCI_DEVICE_CLASS(PCI_CLASS_NETWORK_ETHERNET << 8, 0xffff00),
	  .driver_data = 1 },
	{ }
};

static const struct pci_device_id no_ids[] = {
	{ PCI_DEVICE(0x8086, 0x100f) },
	{ PCI_DEVICE_SUB(0x8086, 0x100e, 0x1af4, 0x1101) },
	{ PCI_DEVICE_CLASS(PCI_CLASS_NETWORK_ETHERNET << 8, 0xffffff),
	  .vendor = 0x10ec, .override_only = 1 },
	{ }
};

static struct pci_driver match_driver = {
	.name = "lx_pci_match",
	.probe = match_probe,
};

int lx_emul_selftest_pci_id_matching(void)
{
	memset(matched, 0, sizeof(matched));
	match_driver.id_table = class_ids;
	CHECK(pci_register_driver(&match_driver) == 0);
	pci_unregister_driver(&match_driver);
	/* The three Ethernet controllers by class, nothing else, by
	 * entry 1. */
	CHECK(matched[0] == 0 &&
	      matched[1] == (1u << 3 | 1u << 4 | 1u << 6));
	CHECK(!find(E1000_DEVFN)->dev.driver && !find(NE2K_DEVFN)->dev.driver);

	memset(matched, 0, sizeof(matched));
	match_driver.id_table = no_ids;
	CHECK(pci_register_driver(&match_driver) == 0);
	pci_unregister_driver(&match_driver);
	CHECK(matched[0] == 0 && matched[1] == 0);
	CHECK(pci_match_id(class_ids, find(NE2K_DEVFN)) == &class_ids[1]);
	CHECK(!pci_match_id(no_ids, find(NE2K_DEVFN)));
	return 0;
}

int lx_emul_selftest_pci_power(void)
{
	struct pci_dev *dev = find(E1000_DEVFN);

	CHECK(dev && dev->current_state == PCI_D0);
	CHECK(pci_save_state(dev) == 0 && dev->state_saved);
	CHECK(dev->saved_config_space[0] == 0x100e8086);
	CHECK(pci_enable_wake(dev, PCI_D3hot, false) == 0);
	CHECK(pci_enable_wake(dev, PCI_D3hot, true) == -EINVAL);
	CHECK(pci_wake_from_d3(dev, false) == 0);
	CHECK(pci_set_power_state(dev, PCI_D0) == 0);
	if (!dev->pm_cap)
		CHECK(pci_set_power_state(dev, PCI_D3hot) == -EIO);
	CHECK(dev->current_state == PCI_D0);
	CHECK(pcix_get_mmrbc(dev) == -EINVAL);		/* not PCI-X */
	CHECK(pcix_set_mmrbc(dev, 1000) == -EINVAL);
	return 0;
}

/* --- DMA -------------------------------------------------------------- */

#define MIB16	(16ul << 20)

int lx_emul_selftest_dma_coherent(void)
{
	struct device *dev = &find(E1000_DEVFN)->dev;
	dma_addr_t h, h32;
	u8 *p, *q;

	CHECK(dma_set_coherent_mask(dev, DMA_BIT_MASK(20)) == -EIO);
	CHECK(dma_set_coherent_mask(dev, DMA_BIT_MASK(24)) == 0);
	p = dma_alloc_coherent(dev, 3000, &h, GFP_KERNEL);
	CHECK(dma_set_coherent_mask(dev, DMA_BIT_MASK(32)) == 0);
	q = dma_alloc_coherent(dev, 2 * PAGE_SIZE, &h32, GFP_KERNEL);
	CHECK(p && q);
	CHECK(h == virt_to_phys(p) && h + PAGE_SIZE <= MIB16);
	CHECK(PAGE_ALIGNED(p) && !memchr_inv(p, 0, PAGE_SIZE));
	CHECK(h32 == virt_to_phys(q) && h32 + 2 * PAGE_SIZE <= 1ul << 32);
	CHECK(!memchr_inv(q, 0, 2 * PAGE_SIZE));
	dma_free_coherent(dev, 3000, p, h);
	dma_free_coherent(dev, 2 * PAGE_SIZE, q, h32);
	return 0;
}

static int streaming(struct device *dev, u8 *low, u8 *high)
{
	unsigned long before = lx_emul_dma_bounce_count();
	dma_addr_t a;
	u8 *seen;

	for (int i = 0; i < PAGE_SIZE; i++)
		high[i] = i;
	CHECK(dma_set_mask(dev, DMA_BIT_MASK(16)) == -EIO);
	CHECK(dma_set_mask(dev, DMA_BIT_MASK(24)) == 0);

	/* Below the mask: the page's own address, nothing bounced. */
	a = dma_map_single(dev, low, 256, DMA_TO_DEVICE);
	CHECK(a == virt_to_phys(low) && lx_emul_dma_bounce_count() == before);
	dma_unmap_single(dev, a, 256, DMA_TO_DEVICE);

	/* Beyond it: a bounce buffer below 16 MiB holding the bytes. */
	CHECK(virt_to_phys(high) >= MIB16);
	a = dma_map_single(dev, high, PAGE_SIZE, DMA_BIDIRECTIONAL);
	CHECK(!dma_mapping_error(dev, a));
	CHECK(lx_emul_dma_bounce_count() == before + 1);
	CHECK(a != virt_to_phys(high) && a + PAGE_SIZE <= MIB16);
	seen = phys_to_virt(a);
	CHECK(!memcmp(seen, high, PAGE_SIZE));
	/* The device writes; the CPU sees it after a sync... */
	memset(seen, 0xa5, 64);
	CHECK(high[0] == 0);
	dma_sync_single_for_cpu(dev, a, 64, DMA_BIDIRECTIONAL);
	CHECK(!memchr_inv(high, 0xa5, 64) && high[64] == 64);
	/* ...the CPU writes; the device sees it after a sync... */
	high[100] = 0x5a;
	dma_sync_single_for_device(dev, a, PAGE_SIZE, DMA_BIDIRECTIONAL);
	CHECK(seen[100] == 0x5a);
	/* ...and what the device wrote last comes back at unmap. */
	seen[200] = 0x77;
	dma_unmap_single(dev, a, PAGE_SIZE, DMA_BIDIRECTIONAL);
	CHECK(high[200] == 0x77 && high[199] == 199);

	/* To the device only: what lands in the bounce stays there. */
	a = dma_map_page(dev, virt_to_page(high), 128, 64, DMA_TO_DEVICE);
	CHECK(a != DMA_MAPPING_ERROR && a + 64 <= MIB16);
	CHECK(lx_emul_dma_bounce_count() == before + 2);
	seen = phys_to_virt(a);
	CHECK(!memcmp(seen, high + 128, 64));
	seen[0] = 0xee;
	dma_unmap_page(dev, a, 64, DMA_TO_DEVICE);
	CHECK(high[128] == 128);

	/* A 32-bit mask reaches the page itself. */
	CHECK(dma_set_mask(dev, DMA_BIT_MASK(32)) == 0);
	a = dma_map_single(dev, high, PAGE_SIZE, DMA_FROM_DEVICE);
	CHECK(a == virt_to_phys(high));
	dma_unmap_single(dev, a, PAGE_SIZE, DMA_FROM_DEVICE);
	CHECK(lx_emul_dma_bounce_count() == before + 2);
	return 0;
}

int lx_emul_selftest_dma_streaming(void)
{
	struct device *dev = &find(E1000_DEVFN)->dev;
	u8 *low = kmalloc(256, GFP_DMA);
	u8 *high = kmalloc(PAGE_SIZE, GFP_KERNEL);
	int line = low && high ? streaming(dev, low, high) : __LINE__;

	dma_set_mask(dev, DMA_BIT_MASK(32));
	kfree(low);
	kfree(high);
	return line;
}
