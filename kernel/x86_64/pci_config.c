/* SPDX-License-Identifier: GPL-2.0-only */
/* PCI configuration space through mechanism #1, one access at a time. */
#include <stdint.h>

#include "kern/panic.h"
#include "x86_64/cpu.h"
#include "x86_64/pci_config.h"

#define CONF_ADDR	0xcf8
#define CONF_DATA	0xcfc

static void check(unsigned int offset, unsigned int width)
{
	if ((width != 1 && width != 2 && width != 4) ||
	    offset + width > PCI_CONFIG_SIZE || (offset & (width - 1)))
		panic("pci_config: %u bytes at %#x", width, offset);
}

static void select_register(unsigned int bus, unsigned int devfn,
			    unsigned int offset)
{
	outl(CONF_ADDR, 0x80000000u | (bus & 0xff) << 16 | (devfn & 0xff) << 8 |
	     (offset & 0xfc));
}

uint32_t pci_config_read(unsigned int bus, unsigned int devfn,
			 unsigned int offset, unsigned int width)
{
	uint64_t flags;
	uint32_t v;

	check(offset, width);
	flags = cpu_intr_save();
	select_register(bus, devfn, offset);
	if (width == 1)
		v = inb(CONF_DATA + (offset & 3));
	else if (width == 2)
		v = inw(CONF_DATA + (offset & 2));
	else
		v = inl(CONF_DATA);
	cpu_intr_restore(flags);
	return v;
}

void pci_config_write(unsigned int bus, unsigned int devfn,
		      unsigned int offset, unsigned int width, uint32_t value)
{
	uint64_t flags;

	check(offset, width);
	flags = cpu_intr_save();
	select_register(bus, devfn, offset);
	if (width == 1)
		outb(CONF_DATA + (offset & 3), (uint8_t)value);
	else if (width == 2)
		outw(CONF_DATA + (offset & 2), (uint16_t)value);
	else
		outl(CONF_DATA, value);
	cpu_intr_restore(flags);
}
