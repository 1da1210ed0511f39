/* SPDX-License-Identifier: GPL-2.0-only */
/* lx_host_alloc, lx_host_free, lx_host_virt_to_phys, the memory bounds and lx_host_memmap_alloc inside the Graft kernel. */
/*
 * Requests of up to KALLOC_NATURAL bytes outside the 16 MiB DMA zone come
 * from the kernel heap, whose power-of-two classes keep objects aligned to
 * their size, as kmalloc promises.  Everything else gets whole pages from
 * the page allocator, inside the zone's physical window, recorded in a
 * table so that lx_host_free() knows how many to give back: RUN_BUCKETS
 * lists by page number.  Drivers' receive rings hold one page per one or
 * two frames (e1000: 256 buffers), and a page is freed per frame or two,
 * so a single list would be walked across hundreds of runs each time.
 */
#include <stdbool.h>
#include <stdint.h>

#include "kern/bootinfo.h"
#include "kern/kalloc.h"
#include "kern/panic.h"
#include "kern/string.h"
#include "linux-emu/include/lx_host.h"
#include "vm/vm_page.h"
#include "x86_64/cpu.h"
#include "x86_64/layout.h"

#define KALLOC_NATURAL	2048	/* largest power-of-two heap class */
#define RUN_BUCKETS	64

struct page_run {
	struct page_run *next;
	uintptr_t va;
	uint64_t npages;
};

static struct page_run *runs[RUN_BUCKETS];

/* The list of runs that may start at @va. */
static struct page_run **bucket(uintptr_t va)
{
	return &runs[(va / VM_PAGE_SIZE) % RUN_BUCKETS];
}

static uint64_t zone_limit(enum lx_host_zone zone)
{
	switch (zone) {
	case LX_HOST_ZONE_DMA:
		return 16ull << 20;
	case LX_HOST_ZONE_DMA32:
	case LX_HOST_ZONE_ANY:
		break;
	}
	return DIRECT_MAP_SIZE;	/* the kernel reaches memory through it */
}

/* A DMA-zone run of 2^k pages is aligned to its size (lx_host.h). */
static uint64_t dma_align(uint64_t npages, enum lx_host_zone zone)
{
	if (zone != LX_HOST_ZONE_DMA || (npages & (npages - 1)) != 0)
		return 0;
	return npages * VM_PAGE_SIZE;
}

static void *alloc_pages(unsigned long size, enum lx_host_zone zone)
{
	struct page_run *run = kalloc(sizeof(*run));
	uint64_t npages = (size + VM_PAGE_SIZE - 1) / VM_PAGE_SIZE, pa, flags;

	if (run == NULL)
		return NULL;
	if (vm_page_alloc_contig(npages, dma_align(npages, zone), 0,
				 zone_limit(zone), &pa) !=
	    KERN_SUCCESS) {
		kfree(run);
		return NULL;
	}
	run->va = (uintptr_t)phys_to_virt(pa);
	run->npages = npages;
	flags = cpu_intr_save();
	run->next = *bucket(run->va);
	*bucket(run->va) = run;
	cpu_intr_restore(flags);
	return (void *)run->va;
}

void *lx_host_alloc(unsigned long size, enum lx_host_zone zone, int zero)
{
	void *p;

	if (size == 0)
		return NULL;
	if (size <= KALLOC_NATURAL && zone != LX_HOST_ZONE_DMA)
		p = kalloc(size);
	else
		p = alloc_pages(size, zone);
	if (p != NULL && zero)
		memset(p, 0, size);
	return p;
}

/* Unlink and return the page run starting at @va, or NULL. */
static struct page_run *take_run(uintptr_t va)
{
	uint64_t flags = cpu_intr_save();
	struct page_run **link, *run = NULL;

	for (link = bucket(va); *link != NULL; link = &(*link)->next) {
		if ((*link)->va == va) {
			run = *link;
			*link = run->next;
			break;
		}
	}
	cpu_intr_restore(flags);
	return run;
}

void lx_host_free(void *p)
{
	struct page_run *run;

	if (p == NULL)
		return;
	run = ((uintptr_t)p & (VM_PAGE_SIZE - 1)) == 0 ?
	      take_run((uintptr_t)p) : NULL;
	if (run == NULL) {
		kfree(p);	/* panics on a pointer it never gave */
		return;
	}
	vm_page_free_contig(run->va - DIRECT_MAP_BASE, run->npages);
	kfree(run);
}

unsigned long lx_host_virt_to_phys(const void *p)
{
	uintptr_t va = (uintptr_t)p;

	if (va >= KERNEL_BASE)
		return kernel_virt_to_phys(p);
	if (va < DIRECT_MAP_BASE || va - DIRECT_MAP_BASE >= DIRECT_MAP_SIZE)
		panic("lx_host_virt_to_phys: %p is not kernel memory", p);
	return va - DIRECT_MAP_BASE;
}

unsigned long lx_host_memory_top(void)
{
	uint64_t top = 0;

	for (size_t i = 0; i < bootinfo.nregions; i++) {
		const struct boot_region *r = &bootinfo.regions[i];
		uint64_t end = r->base + r->length;

		if (r->type != BOOT_REGION_USABLE)
			continue;
		if (end > DIRECT_MAP_SIZE)
			end = DIRECT_MAP_SIZE;
		if (end > top)
			top = end;
	}
	return top;
}

void *lx_host_memmap_alloc(unsigned long size)
{
	return lx_host_alloc(size, LX_HOST_ZONE_ANY, 1);
}

unsigned long lx_host_memory_bottom(void)
{
	return 0;
}

unsigned long lx_host_direct_map(void)
{
	return DIRECT_MAP_BASE;
}
