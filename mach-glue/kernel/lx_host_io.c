/* SPDX-License-Identifier: GPL-2.0-only */
/* lx_host_ioremap and lx_host_iounmap inside the Graft kernel: device memory through the uncached window of pmap_io. */
#include <stdbool.h>
#include <stdint.h>

#include "kern/bootinfo.h"
#include "kern/kprintf.h"
#include "kern/panic.h"
#include "linux-emu/include/lx_host.h"
#include "x86_64/pmap_io.h"

/* True if [@pa, @end) overlaps RAM the kernel may hand out. */
static bool overlaps_ram(uint64_t pa, uint64_t end)
{
	for (size_t i = 0; i < bootinfo.nregions; i++) {
		const struct boot_region *r = &bootinfo.regions[i];

		if (r->type == BOOT_REGION_USABLE && pa < r->base + r->length &&
		    r->base < end)
			return true;
	}
	return false;
}

void *lx_host_ioremap(unsigned long phys, unsigned long size)
{
	void *va;
	kern_return_t kr;

	if (size == 0 || phys + size < phys) {
		kprintf("lx_host_ioremap: bad range 0x%lx+0x%lx\n", phys, size);
		return NULL;
	}
	if (overlaps_ram(phys, phys + size)) {
		kprintf("lx_host_ioremap: 0x%lx+0x%lx is RAM, not a device\n",
			phys, size);
		return NULL;
	}
	kr = pmap_io_map(phys, size, &va);
	if (kr != KERN_SUCCESS) {
		kprintf("lx_host_ioremap: 0x%lx+0x%lx not mapped (error %d)\n",
			phys, size, kr);
		return NULL;
	}
	return va;
}

void lx_host_iounmap(void *virt)
{
	if (pmap_io_unmap(virt) != KERN_SUCCESS)
		panic("lx_host_iounmap: %p was not mapped by lx_host_ioremap",
		      virt);
}
