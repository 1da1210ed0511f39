/* SPDX-License-Identifier: GPL-2.0-only */
/* PCI configuration space through mechanism #1, one access at a time. */
#ifndef X86_64_PCI_CONFIG_H
#define X86_64_PCI_CONFIG_H

#include <stdbool.h>
#include <stdint.h>

/*
 * An access selects the register through 0xCF8 and moves the data
 * through 0xCFC: two port accesses that must not be split by another
 * access, or the second would go to another register.  Each function
 * holds interrupts off across the pair, so on one CPU no access can
 * split another (the Linux world's accessors come here through
 * lx_host_pci_config_read); no user task is ever given 0xCF8-0xCFF
 * (driver servers go through claim.defs).  Only the 256 bytes of
 * conventional space exist.
 */

#define PCI_SLOTS	32
#define PCI_FUNCTIONS	8
#define PCI_CONFIG_SIZE	256

/* The standard header's registers the kernel reads or guards. */
#define PCI_VENDOR_ID		0x00	/* 16 bits; 0xffff: no function */
#define PCI_COMMAND		0x04	/* 16 bits */
#define PCI_COMMAND_IO		0x1
#define PCI_COMMAND_MEMORY	0x2
#define PCI_COMMAND_MASTER	0x4
#define PCI_CLASS_REVISION	0x08	/* 32 bits */
#define PCI_HEADER_TYPE		0x0e	/* 8 bits; bit 7: multi-function */
#define PCI_BAR0		0x10	/* six 32-bit BARs */
#define PCI_BARS		6
#define PCI_ROM_ADDRESS		0x30
#define PCI_INTERRUPT_LINE	0x3c	/* 8 bits */
#define PCI_INTERRUPT_PIN	0x3d	/* 8 bits: 0 none, 1-4 INTA-INTD */

/* pci_devfn - the devfn of @slot, @function (both in range). */
static inline unsigned int pci_devfn(unsigned int slot, unsigned int function)
{
	return slot << 3 | function;
}

/*
 * pci_config_read - @width (1, 2 or 4) bytes at @offset of function
 * @devfn on @bus; pci_config_write - write @value there.  The caller
 * has checked @offset + @width <= PCI_CONFIG_SIZE and @offset aligned to
 * @width (a kernel bug otherwise: panic).  Any context; never block.
 */
uint32_t pci_config_read(unsigned int bus, unsigned int devfn,
			 unsigned int offset, unsigned int width);
void pci_config_write(unsigned int bus, unsigned int devfn,
		      unsigned int offset, unsigned int width, uint32_t value);

#endif
