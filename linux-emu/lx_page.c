/* SPDX-License-Identifier: GPL-2.0-only */
/* The struct page array behind pfn_to_page() and virt_to_page(). */
/*
 * The configuration is SPARSEMEM_VMEMMAP (X86_5LEVEL selects it), with a
 * movable memmap: pfn_to_page(pfn) is vmemmap_base + pfn.  lx_page_init()
 * allocates one array (lx_host_memmap_alloc) for the sections holding the
 * RAM the world may see, from
 * lx_host_memory_bottom() to lx_host_memory_top(), and points
 * vmemmap_base below it so that the array's first entry is the first
 * section's first page; the array is never freed.  The sections are also
 * marked present and early in mem_section, so that pfn_valid() answers.
 * A page's flags carry its zone (set_page_links), as page_zone() needs.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/slab.h>

#include <lx_host.h>
#include <lx_world.h>

struct mem_section **mem_section;
/* one past the direct map's last byte of the world's RAM (Linux's
 * boundary between the direct map and vmalloc space) */
void *high_memory;
static bool ready;

static enum zone_type zone_of_pfn(unsigned long pfn)
{
	if (pfn < PHYS_PFN(16ul << 20))
		return ZONE_DMA;
	if (pfn < PHYS_PFN(1ul << 32))
		return ZONE_DMA32;
	return ZONE_NORMAL;
}

static int section_mark(struct mem_section **roots, unsigned long nr)
{
	unsigned long root = SECTION_NR_TO_ROOT(nr);

	if (!roots[root]) {
		roots[root] = kzalloc(PAGE_SIZE, GFP_KERNEL);
		if (!roots[root])
			return -ENOMEM;
	}
	roots[root][nr & SECTION_ROOT_MASK].section_mem_map =
		SECTION_HAS_MEM_MAP | SECTION_MARKED_PRESENT |
		SECTION_IS_ONLINE | SECTION_IS_EARLY;
	return 0;
}

int lx_page_init(void)
{
	unsigned long first = pfn_to_section_nr(
				PHYS_PFN(lx_host_memory_bottom()));
	unsigned long end = DIV_ROUND_UP(PHYS_PFN(lx_host_memory_top()),
					 PAGES_PER_SECTION);
	unsigned long first_pfn = section_nr_to_pfn(first);
	unsigned long npages = section_nr_to_pfn(end) - first_pfn;
	struct mem_section **roots;
	struct page *map;
	int err;

	if (ready)
		return -EBUSY;
	roots = kcalloc(NR_SECTION_ROOTS, sizeof(*roots), GFP_KERNEL);
	map = lx_host_memmap_alloc(npages * sizeof(*map));
	if (!roots || !map)
		return -ENOMEM;		/* what was made stays: init fails */
	for (unsigned long nr = first; nr < end; nr++) {
		err = section_mark(roots, nr);
		if (err)
			return err;
	}
	for (unsigned long i = 0; i < npages; i++)
		set_page_links(&map[i], zone_of_pfn(first_pfn + i), 0,
			       first_pfn + i);
	mem_section = roots;
	vmemmap_base = (unsigned long)(map - first_pfn);
	high_memory = __va(lx_host_memory_top());
	ready = true;		/* complete: pfn_to_page() may be used */
	return 0;
}

bool lx_page_ready(void)
{
	return ready;
}
