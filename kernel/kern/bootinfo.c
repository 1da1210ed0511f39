/* SPDX-License-Identifier: GPL-2.0-only */
/* Queries over the boot information. */
#include "kern/bootinfo.h"
#include "x86_64/layout.h"

struct bootinfo bootinfo;

uint64_t bootinfo_usable_bytes(const struct bootinfo *bi)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < bi->nregions; i++)
		if (bi->regions[i].type == BOOT_REGION_USABLE)
			sum += bi->regions[i].length;
	return sum;
}

const void *bootinfo_module_data(const struct boot_module *m)
{
	return phys_to_virt(m->start);
}
