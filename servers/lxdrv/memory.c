/* SPDX-License-Identifier: GPL-2.0-only */
/* The Linux world's memory in the server: lx_host_alloc, lx_host_free, lx_host_virt_to_phys, lx_host_direct_map, lx_host_memmap_alloc and the memory bounds. */
/*
 * All of it is one pool of physically contiguous memory, DMA memory of
 * the server's first claim (claim_dma_alloc), so that every address the
 * world holds has a physical address the device can use, and virtual
 * minus physical is one constant: the world's direct map base
 * (lx_host_direct_map), which makes Linux's __pa/__va hold.  The server
 * names that constant to the kernel first (claim_direct_map, DIRECT_BASE):
 * the pool then lies at DIRECT_BASE plus its physical address, and so do
 * the pages of clients' disk requests the kernel lends the server while
 * it serves them (disk.c), so they too hold for __pa/__va and have a
 * struct page (the memory bounds are all of RAM below the direct map's
 * top).  If the kernel refuses, the pool lies where the kernel puts it
 * and nothing is lent.  The pool is
 * carved into pages; blocks up to half a page come from power-of-two
 * classes of 16 to 2048 bytes (aligned to their size, as kmalloc
 * promises), larger ones are runs of whole pages found first-fit.  Each
 * page records what it is: a class's page, the first page of a run and
 * its length, or free.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <graft_user.h>
#include <graft/claim.h>
#include <device/device_types.h>
#include <mach/host_info.h>
#include <mach_host.h>

#include <lx_host.h>

#include "lxdrv.h"

#define PAGE		4096ul
#define CLASSES		8		/* 16 << 0 ... 16 << 7 = 2048 */
/* The direct map: far above what the kernel maps anywhere in the task
 * (from the bottom up), RAM up to 4 GiB (a section of 128 MiB at a
 * time, as the memmap takes it). */
#define DIRECT_BASE	(1ul << 40)
#define DIRECT_TOP_MAX	(4ul << 30)
#define SECTION		(128ul << 20)
#define FREE_PAGE	0
#define RUN_PAGE	0xff		/* first page of a run; also the rest */

static uintptr_t pool_va;
static unsigned long pool_pa, pool_pages;
static unsigned long direct_top;	/* 0: no direct map named */
static uint8_t *page_kind;		/* FREE_PAGE, RUN_PAGE, or class + 1 */
static uint32_t *run_len;		/* at a run's first page */
static void *free_list[CLASSES];
static unsigned long hint;

/* The top of RAM the direct map covers: the machine's memory rounded up
 * to a section, at most DIRECT_TOP_MAX; 0 if the kernel does not say. */
static unsigned long ram_top(void)
{
	struct host_basic_info info;
	mach_msg_type_number_t count = HOST_BASIC_INFO_COUNT;
	unsigned long top;

	if (host_info(lxdrv_host, HOST_BASIC_INFO, (host_info_t)&info,
		      &count) != KERN_SUCCESS)
		return 0;
	top = ((unsigned long)info.memory_size + SECTION - 1) & ~(SECTION - 1);
	return top < DIRECT_TOP_MAX ? top : DIRECT_TOP_MAX;
}

int lxdrv_memory_init(mach_port_t claim, unsigned long bytes)
{
	unsigned long top = ram_top();
	vm_address_t va;
	rpc_phys_addr_t pa;
	kern_return_t kr;

	bytes = (bytes + PAGE - 1) & ~(PAGE - 1);
	kr = top ? claim_direct_map(claim, DIRECT_BASE, top) : D_NO_MEMORY;
	if (kr == D_SUCCESS)
		direct_top = top;
	else
		printf("lxdrv: no direct map (%#x): disk data is copied\n",
		       kr);
	kr = claim_dma_alloc(claim, bytes, 1ul << 32, &va, &pa);
	if (kr != KERN_SUCCESS) {
		printf("lxdrv: claim_dma_alloc of %lu bytes: error %d\n",
		       bytes, kr);
		return -1;
	}
	if (direct_top && va != DIRECT_BASE + pa)
		lxdrv_die("the pool is not in the direct map");
	pool_va = va;
	pool_pa = pa;
	pool_pages = bytes / PAGE;
	/* The bookkeeping lives in ordinary memory, not in the pool. */
	page_kind = calloc(pool_pages, 1);
	run_len = calloc(pool_pages, sizeof(*run_len));
	if (!page_kind || !run_len)
		return -1;
	return 0;
}

static void *page_run(unsigned long n)
{
	for (unsigned long pass = 0; pass < 2; pass++) {
		unsigned long start = pass ? 0 : hint, found = 0;

		for (unsigned long i = start; i < pool_pages; i++) {
			if (page_kind[i] != FREE_PAGE) {
				found = 0;
				continue;
			}
			if (++found < n)
				continue;
			i = i + 1 - n;
			memset(page_kind + i, RUN_PAGE, n);
			run_len[i] = n;
			hint = i + n;
			return (void *)(pool_va + i * PAGE);
		}
	}
	return NULL;
}

static void *small(unsigned int class)
{
	unsigned long size = 16ul << class;
	char *page;

	if (!free_list[class]) {
		page = page_run(1);
		if (!page)
			return NULL;
		page_kind[((uintptr_t)page - pool_va) / PAGE] = class + 1;
		for (unsigned long off = 0; off < PAGE; off += size) {
			*(void **)(page + off) = free_list[class];
			free_list[class] = page + off;
		}
	}
	page = free_list[class];
	free_list[class] = *(void **)page;
	return page;
}

void *lx_host_alloc(unsigned long size, enum lx_host_zone zone, int zero)
{
	unsigned int class = 0;
	void *p;

	if (size == 0 || !pool_pages)
		return NULL;
	if (zone == LX_HOST_ZONE_DMA &&
	    pool_pa + pool_pages * PAGE > (16ul << 20))
		return NULL;	/* the pool lies above 16 MiB */
	if (zone == LX_HOST_ZONE_DMA && size > PAGE)
		return NULL;	/* runs are not aligned to their size */
	if (size <= PAGE / 2) {
		while ((16ul << class) < size)
			class++;
		p = small(class);
	} else {
		p = page_run((size + PAGE - 1) / PAGE);
	}
	if (p && zero)
		memset(p, 0, size);
	return p;
}

void lx_host_free(void *p)
{
	unsigned long i;
	uint8_t kind;

	if (!p)
		return;
	i = ((uintptr_t)p - pool_va) / PAGE;
	if ((uintptr_t)p < pool_va || i >= pool_pages)
		lxdrv_die("lx_host_free of memory not from lx_host_alloc");
	kind = page_kind[i];
	if (kind == RUN_PAGE && run_len[i] && ((uintptr_t)p & (PAGE - 1)) == 0) {
		memset(page_kind + i, FREE_PAGE, run_len[i]);
		run_len[i] = 0;
		if (i < hint)
			hint = i;
		return;
	}
	if (kind == FREE_PAGE || kind == RUN_PAGE)
		lxdrv_die("lx_host_free of a block not allocated");
	*(void **)p = free_list[kind - 1];
	free_list[kind - 1] = p;
}

unsigned long lx_host_virt_to_phys(const void *p)
{
	uintptr_t va = (uintptr_t)p;

	if (direct_top && va >= DIRECT_BASE && va - DIRECT_BASE < direct_top)
		return va - DIRECT_BASE;	/* the pool, or a lent page */
	if (va < pool_va || va - pool_va >= pool_pages * PAGE)
		lxdrv_die("lx_host_virt_to_phys of memory outside the pool");
	return va - pool_va + pool_pa;
}

unsigned long lx_host_memory_bottom(void)
{
	return direct_top ? 0 : pool_pa;
}

unsigned long lx_host_memory_top(void)
{
	return direct_top ? direct_top : pool_pa + pool_pages * PAGE;
}

/* In ordinary memory, not the pool: zero-filled by the kernel. */
void *lx_host_memmap_alloc(unsigned long size)
{
	vm_address_t va = 0;

	if (vm_allocate(lxdrv_task, &va, size, TRUE) != KERN_SUCCESS)
		return NULL;
	return (void *)va;
}

unsigned long lxdrv_memory_pool(void)
{
	return pool_pages * PAGE;
}

void *lxdrv_memory_pool_start(void)
{
	return (void *)pool_va;
}

bool lxdrv_memory_direct(void)
{
	return direct_top != 0;
}

unsigned long lx_host_direct_map(void)
{
	return pool_va - pool_pa;
}
