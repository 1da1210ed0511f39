/* SPDX-License-Identifier: GPL-2.0-only */
/* PCI for the Linux world inside the kernel: its drivers hold their functions as the kernel's claims; configuration space is mechanism #1, arbitrated by kernel/x86_64/pci_config.c. */
#include "device/dev_claim.h"
#include "device/dev_error.h"
#include "linux-emu/include/lx_host.h"
#include "x86_64/pci_config.h"

int lx_host_pci_claim(unsigned int bus, unsigned int devfn)
{
	return dev_claim_kernel(bus, devfn) == D_SUCCESS ? 0 : -LX_EBUSY;
}

void lx_host_pci_release(unsigned int bus, unsigned int devfn)
{
	(void)dev_claim_kernel_release(bus, devfn);
}

/* Linux's accessors validate the register; a bad one is a linux-emu bug
 * that pci_config_read() stops on. */
unsigned int lx_host_pci_config_read(unsigned int bus, unsigned int devfn,
				     int where, int size)
{
	return pci_config_read(bus, devfn, where, size);
}

void lx_host_pci_config_write(unsigned int bus, unsigned int devfn,
			      int where, int size, unsigned int val)
{
	pci_config_write(bus, devfn, where, size, val);
}
