/* SPDX-License-Identifier: GPL-2.0-only */
/* ioremap and iounmap over the host's uncached mappings, and the port-0x80 I/O delay. */
/*
 * ioread*, iowrite* and their _rep forms, ioport_map, pci_iomap and
 * pci_iounmap are Linux's own (lib/iomap.c, lib/pci_iomap.c, in
 * library.manifest): x86 is GENERIC_IOMAP, so a cookie below 0x50000 is
 * an I/O port (0x10000 + port, from ioport_map) and anything else the
 * address ioremap() gave.  Every mapping is uncached: ioremap_wc and
 * ioremap_uc get the same (stricter than write-combining, never wrong).
 */
#include <linux/io.h>
#include <linux/mm.h>

#include <lx_host.h>

void __iomem *ioremap(resource_size_t offset, unsigned long size)
{
	return (void __iomem *)lx_host_ioremap(offset, size);
}

void __iomem *ioremap_uc(resource_size_t offset, unsigned long size)
{
	return ioremap(offset, size);
}

void __iomem *ioremap_wc(resource_size_t offset, unsigned long size)
{
	return ioremap(offset, size);
}

void iounmap(volatile void __iomem *addr)
{
	if (addr)
		lx_host_iounmap((void *)addr);
}

/* outb_p and friends pause after the access (pv_ops.cpu.io_delay): the
 * host's pause. */
void native_io_delay(void)
{
	lx_host_io_delay();
}
