/* SPDX-License-Identifier: GPL-2.0-only */
/* pmap_io_map and pmap_io_unmap: uncached mappings of device memory in a reserved kernel window. */
/*
 * The window's page directory and its page tables are static (.bss), so
 * nothing is allocated at run time and nothing needs giving back.  The
 * directory is hooked into the boot PDPT of PML4 entry 511 at first use;
 * every pmap copies that PML4 entry (pmap_create), so all address spaces
 * see the window.  Free pages are found by a first-fit scan of the page
 * tables themselves (an entry of 0 is free); the mappings made are kept in
 * a small table so that unmapping knows their length.
 */
#include <stdbool.h>
#include <stddef.h>

#include "kern/panic.h"
#include "x86_64/cpu.h"
#include "x86_64/layout.h"
#include "x86_64/pmap_io.h"
#include "x86_64/pte.h"

#define PAGE		4096ull
#define PAGES		(PMAP_IO_SIZE / PAGE)
#define TABLES		(PAGES / 512)
#define PMAP_IO_MAPPINGS 64

extern uint64_t boot_pml4[512];

static uint64_t io_pd[512] __attribute__((aligned(4096)));
static uint64_t io_pt[TABLES][512] __attribute__((aligned(4096)));
static bool hooked;

static struct {
	uint64_t va;		/* first page */
	uint64_t npages;	/* 0: free slot */
} mappings[PMAP_IO_MAPPINGS];

static uint64_t *pte(uint64_t index)
{
	return &io_pt[index / 512][index % 512];
}

/* Put the window's tables under PDPT entry 511 of PML4 entry 511. */
static void hook_window(void)
{
	uint64_t *pdpt = phys_to_virt(boot_pml4[511] & PTE_ADDR);

	for (unsigned int i = 0; i < TABLES; i++)
		io_pd[i] = kernel_virt_to_phys(io_pt[i]) | PTE_P | PTE_W;
	if (pdpt[511] & PTE_P)
		panic("pmap_io: the gigabyte at 0x%llx is in use",
		      (unsigned long long)PMAP_IO_BASE);
	pdpt[511] = kernel_virt_to_phys(io_pd) | PTE_P | PTE_W;
	hooked = true;
}

/* The first index of @n free pages in a row, or PAGES. */
static uint64_t find_free(uint64_t n)
{
	uint64_t run = 0;

	for (uint64_t i = 0; i < PAGES; i++) {
		run = *pte(i) ? 0 : run + 1;
		if (run == n)
			return i + 1 - n;
	}
	return PAGES;
}

kern_return_t pmap_io_map(uint64_t pa, uint64_t size, void **va)
{
	uint64_t first = pa & ~(PAGE - 1), n, index, flags;
	int slot = -1;

	if (size == 0 || va == NULL || pa + size < pa ||
	    pa + size > (1ull << 52))
		return KERN_INVALID_ARGUMENT;
	n = (pa + size - first + PAGE - 1) / PAGE;
	flags = cpu_intr_save();
	if (!hooked)
		hook_window();
	for (int i = 0; i < PMAP_IO_MAPPINGS && slot < 0; i++)
		if (mappings[i].npages == 0)
			slot = i;
	index = n <= PAGES ? find_free(n) : PAGES;
	if (slot < 0 || index == PAGES) {
		cpu_intr_restore(flags);
		return KERN_NO_SPACE;
	}
	for (uint64_t i = 0; i < n; i++)
		*pte(index + i) = (first + i * PAGE) | PTE_P | PTE_W |
				  PTE_PCD | PTE_PWT | PTE_NX;
	mappings[slot].va = PMAP_IO_BASE + index * PAGE;
	mappings[slot].npages = n;
	cpu_intr_restore(flags);
	*va = (void *)(mappings[slot].va + (pa - first));
	return KERN_SUCCESS;
}

kern_return_t pmap_io_unmap(void *va)
{
	uint64_t page = (uint64_t)va & ~(PAGE - 1), flags, index;

	flags = cpu_intr_save();
	for (int i = 0; i < PMAP_IO_MAPPINGS; i++) {
		if (mappings[i].npages == 0 || mappings[i].va != page)
			continue;
		index = (page - PMAP_IO_BASE) / PAGE;
		for (uint64_t j = 0; j < mappings[i].npages; j++) {
			*pte(index + j) = 0;
			invlpg(page + j * PAGE);
		}
		mappings[i].npages = 0;
		cpu_intr_restore(flags);
		return KERN_SUCCESS;
	}
	cpu_intr_restore(flags);
	return KERN_INVALID_ADDRESS;
}

uint64_t pmap_io_mapped_pages(void)
{
	uint64_t n = 0, flags = cpu_intr_save();

	for (int i = 0; i < PMAP_IO_MAPPINGS; i++)
		n += mappings[i].npages;
	cpu_intr_restore(flags);
	return n;
}
