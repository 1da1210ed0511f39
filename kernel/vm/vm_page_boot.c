/* SPDX-License-Identifier: GPL-2.0-only */
/* vm_page_init(): the free physical ranges from the boot information. */
/*
 * Usable RAM is what the memory map calls usable, minus anything any other
 * entry claims, the first LOW_RESERVED bytes, the kernel image and the
 * modules.  The first 64 KiB (Linux reserves them too) are what a
 * device's DMA reaches when a driver hands it a small address, as one
 * computed from a null pointer, and nothing confines a driver server's
 * devices (no IOMMU): the kernel keeps nothing there (the loader's
 * command lines, which lie there, were copied into the image).  More
 * would be taken from the DMA zone below 16 MiB, which ISA-style
 * devices' bounce buffers need.  RAM at or above 4 GiB is left out
 * until the direct map reaches it.  The metadata is carved from the
 * end of the highest range that holds it.
 */
#include <stdbool.h>
#include <stdint.h>

#include "kern/bootinfo.h"
#include "kern/kprintf.h"
#include "kern/panic.h"
#include "vm/vm_page.h"
#include "vm/vm_page_core.h"
#include "x86_64/layout.h"

#define LOW_RESERVED	0x10000		/* the first 64 KiB */

/* Usable regions, plus one split per exclusion (see vm_page_init()). */
#define BOOT_RANGES_MAX	(2 * BOOTINFO_MAX_REGIONS + \
			 2 * BOOTINFO_MAX_MODULES + 8)

static struct vm_page_range boot_ranges[BOOT_RANGES_MAX];
static size_t boot_nranges;
static bool initialized;

static uint64_t page_down(uint64_t a)
{
	return a & ~(VM_PAGE_SIZE - 1);
}

static uint64_t page_up(uint64_t a)
{
	if (a > UINT64_MAX - (VM_PAGE_SIZE - 1))
		return page_down(UINT64_MAX);
	return page_down(a + VM_PAGE_SIZE - 1);
}

/* base + length, saturating. */
static uint64_t region_end(const struct boot_region *r)
{
	if (r->length > UINT64_MAX - r->base)
		return UINT64_MAX;
	return r->base + r->length;
}

/* Remove the pages overlapping [lo, hi) from the free ranges. */
static void exclude(uint64_t lo, uint64_t hi)
{
	if (vm_page_ranges_subtract(boot_ranges, &boot_nranges,
				    BOOT_RANGES_MAX, page_down(lo),
				    page_up(hi)) != KERN_SUCCESS)
		panic("vm_page_init: more than %d free ranges",
		      BOOT_RANGES_MAX);
}

/* The usable regions below 4 GiB; returns the bytes at or above it. */
static uint64_t collect_usable(const struct bootinfo *bi)
{
	uint64_t left_out = 0;

	for (size_t i = 0; i < bi->nregions; i++) {
		const struct boot_region *r = &bi->regions[i];
		uint64_t lo = page_up(r->base), hi = page_down(region_end(r));

		if (r->type != BOOT_REGION_USABLE || lo >= hi)
			continue;
		if (hi > DIRECT_MAP_SIZE) {
			left_out += hi - (lo > DIRECT_MAP_SIZE ? lo :
					  DIRECT_MAP_SIZE);
			hi = DIRECT_MAP_SIZE;
		}
		if (lo >= hi)
			continue;
		boot_ranges[boot_nranges].base = lo;
		boot_ranges[boot_nranges].end = hi;
		boot_nranges++;
	}
	return left_out;
}

/* Take @size bytes from the end of the highest range that holds them. */
static uint64_t carve(uint64_t size)
{
	const struct vm_page_range *best = NULL;
	uint64_t pa;

	size = page_up(size);
	for (size_t i = 0; i < boot_nranges; i++) {
		const struct vm_page_range *r = &boot_ranges[i];

		if (r->end - r->base >= size &&
		    (best == NULL || r->end > best->end))
			best = r;
	}
	if (best == NULL)
		panic("vm_page_init: no free range holds %llu KiB of page "
		      "metadata", (unsigned long long)(size >> 10));
	pa = best->end - size;
	exclude(pa, pa + size);
	return pa;
}

void vm_page_init(const struct bootinfo *bi)
{
	struct vm_page_core *c = &vm_page_kernel_core;
	uint64_t left_out, meta_size, meta_pa = 0;
	void *meta = NULL;

	if (initialized)
		panic("vm_page_init: called twice");
	initialized = true;

	left_out = collect_usable(bi);
	exclude(0, LOW_RESERVED);
	exclude(KERNEL_PHYS, kernel_virt_to_phys(_kernel_end));
	for (size_t i = 0; i < bi->nmodules; i++)
		exclude(bi->modules[i].start, bi->modules[i].end);
	for (size_t i = 0; i < bi->nregions; i++)
		if (bi->regions[i].type != BOOT_REGION_USABLE)
			exclude(bi->regions[i].base,
				region_end(&bi->regions[i]));

	meta_size = vm_page_core_metadata_size(boot_ranges, boot_nranges);
	if (meta_size) {
		meta_pa = carve(meta_size);
		meta = phys_to_virt(meta_pa);
	}
	if (vm_page_core_init(c, boot_ranges, boot_nranges, meta,
			      meta_size) != KERN_SUCCESS)
		panic("vm_page_init: %llu bytes of metadata refused",
		      (unsigned long long)meta_size);

	kprintf("Physical memory: free pages DMA %llu, DMA32 %llu, NORMAL "
		"%llu; %llu KiB of page metadata at 0x%llx\n",
		(unsigned long long)vm_page_free_count(VM_ZONE_DMA),
		(unsigned long long)vm_page_free_count(VM_ZONE_DMA32),
		(unsigned long long)vm_page_free_count(VM_ZONE_NORMAL),
		(unsigned long long)(page_up(meta_size) >> 10),
		(unsigned long long)meta_pa);
	if (left_out)
		kprintf("Physical memory: %llu KiB at or above 4 GiB left "
			"out (not in the direct map yet)\n",
			(unsigned long long)(left_out >> 10));
}
