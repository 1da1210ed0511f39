/* SPDX-License-Identifier: GPL-2.0-only */
/* The struct page array behind pfn_to_page() and virt_to_page(). */
/*
 * The configuration is SPARSEMEM_EXTREME: mem_section is an array of roots,
 * each a page of struct mem_section, each naming the struct page array of
 * one 128 MiB section.  lx_page_init() builds them for all of the
 * host's RAM, once; the arrays are never freed.  A page's flags carry its
 * zone and section (set_page_links), as Linux's page_to_pfn() needs.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/slab.h>

#include <lx_host.h>
#include <lx_world.h>

static enum zone_type zone_of_pfn(unsigned long pfn)
{
	if (pfn < PHYS_PFN(16ul << 20))
		return ZONE_DMA;
	if (pfn < PHYS_PFN(1ul << 32))
		return ZONE_DMA32;
	return ZONE_NORMAL;
}

static int section_init(struct mem_section **roots, unsigned long nr)
{
	unsigned long root = SECTION_NR_TO_ROOT(nr), first = section_nr_to_pfn(nr);
	struct mem_section *ms;
	struct page *map;

	if (!roots[root]) {
		roots[root] = kzalloc(PAGE_SIZE, GFP_KERNEL);
		if (!roots[root])
			return -ENOMEM;
	}
	map = lx_host_alloc(PAGES_PER_SECTION * sizeof(*map),
			    LX_HOST_ZONE_ANY, 1);
	if (!map)
		return -ENOMEM;
	for (unsigned long i = 0; i < PAGES_PER_SECTION; i++)
		set_page_links(&map[i], zone_of_pfn(first + i), 0, first + i);
	ms = &roots[root][nr & SECTION_ROOT_MASK];
	ms->section_mem_map = (unsigned long)(map - first) |
			      SECTION_HAS_MEM_MAP | SECTION_MARKED_PRESENT |
			      SECTION_IS_ONLINE;
	return 0;
}

int lx_page_init(void)
{
	unsigned long sections = DIV_ROUND_UP(PHYS_PFN(lx_host_memory_top()),
					      PAGES_PER_SECTION);
	struct mem_section **roots;
	int err;

	if (mem_section)
		return -EBUSY;
	roots = kcalloc(NR_SECTION_ROOTS, sizeof(*roots), GFP_KERNEL);
	if (!roots)
		return -ENOMEM;
	for (unsigned long nr = 0; nr < sections; nr++) {
		err = section_init(roots, nr);
		if (err)
			return err;	/* what was made stays: init fails */
	}
	mem_section = roots;	/* complete: pfn_to_page() may be used */
	return 0;
}
