/* SPDX-License-Identifier: GPL-2.0-only */
/* lx_host_pci_claim and lx_host_pci_release inside the kernel: the Linux world's drivers hold their functions as the kernel's claims. */
#include "device/dev_claim.h"
#include "device/dev_error.h"
#include "linux-emu/include/lx_host.h"

int lx_host_pci_claim(unsigned int bus, unsigned int devfn)
{
	return dev_claim_kernel(bus, devfn) == D_SUCCESS ? 0 : -LX_EBUSY;
}

void lx_host_pci_release(unsigned int bus, unsigned int devfn)
{
	(void)dev_claim_kernel_release(bus, devfn);
}
