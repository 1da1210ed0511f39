/* SPDX-License-Identifier: GPL-2.0-only */
/* Suite "vm": physical pages over the real memory map, and the heap. */
/*
 * The harness boots this suite like "boot": 128 MiB and two modules, with
 * expect_mods and modN_crc on the command line, so the cases can check that
 * the pages of the kernel image and the modules are never handed out.
 */
#include <stdbool.h>
#include <stdint.h>

#include "kern/bootinfo.h"
#include "kern/cmdline.h"
#include "kern/kalloc.h"
#include "kern/kcrc32.h"
#include "kern/kprintf.h"
#include "kern/ktest.h"
#include "kern/string.h"
#include "vm/vm_page.h"
#include "vm/vm_page_core.h"
#include "x86_64/layout.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define MIB(x)		((uint64_t)(x) << 20)

static uint64_t param(struct ktest *t, const char *key)
{
	uint64_t v = 0;

	if (cmdline_u64(bootinfo.cmdline, key, &v) != 0)
		ktest_fail(t, "command line lacks a number %s=", key);
	return v;
}

static uint64_t page_down(uint64_t a)
{
	return a & ~(VM_PAGE_SIZE - 1);
}

static uint64_t page_up(uint64_t a)
{
	return page_down(a + VM_PAGE_SIZE - 1);
}

static uint64_t free_pages(void)
{
	uint64_t n = 0;

	for (int z = 0; z < VM_ZONE_COUNT; z++)
		n += vm_page_free_count(z);
	return n;
}

static void counts_of(uint64_t *counts)
{
	for (int z = 0; z < VM_ZONE_COUNT; z++)
		counts[z] = vm_page_free_count(z);
}

static void expect_counts(struct ktest *t, const uint64_t *want,
			  const char *when)
{
	for (int z = 0; z < VM_ZONE_COUNT; z++)
		if (vm_page_free_count(z) != want[z])
			ktest_fail(t, "%s: zone %d has %llu free pages, want "
				   "%llu", when, z,
				   (unsigned long long)vm_page_free_count(z),
				   (unsigned long long)want[z]);
}

/* Does [pa, pa + len) overlap the first 64 KiB, the image or a module? */
static bool overlaps_boot_memory(uint64_t pa, uint64_t len)
{
	uint64_t end = pa + len;

	if (pa < 0x10000)			/* the first 64 KiB */
		return true;
	if (pa < kernel_virt_to_phys(_kernel_end) && end > KERNEL_PHYS)
		return true;
	for (size_t i = 0; i < bootinfo.nmodules; i++)
		if (pa < bootinfo.modules[i].end &&
		    end > bootinfo.modules[i].start)
			return true;
	return false;
}

/*
 * Free runs are chained through their first page: the chain head is a
 * physical address (0 = empty; page 0 is never handed out).
 */
struct run_link {
	uint64_t next;
	uint64_t npages;
};

static struct run_link *link_at(uint64_t pa)
{
	return phys_to_virt(pa);
}

static uint64_t chain_push(uint64_t head, uint64_t pa, uint64_t npages)
{
	link_at(pa)->next = head;
	link_at(pa)->npages = npages;
	return pa;
}

static void chain_free(uint64_t head)
{
	while (head) {
		struct run_link l = *link_at(head);

		vm_page_free_contig(head, l.npages);
		head = l.next;
	}
}

static void total_counts_match_memory_map(struct ktest *t)
{
	const struct vm_page_core *c = &vm_page_kernel_core;
	uint64_t expect = 0, got = 0, slack;

	/* Usable pages below 4 GiB, minus the first 64 KiB, the image, the
	 * modules. */
	for (size_t i = 0; i < bootinfo.nregions; i++) {
		const struct boot_region *r = &bootinfo.regions[i];
		uint64_t end = page_down(r->base + r->length);

		if (r->type != BOOT_REGION_USABLE)
			continue;
		if (end > DIRECT_MAP_SIZE)
			end = DIRECT_MAP_SIZE;
		for (uint64_t pa = page_up(r->base); pa < end;
		     pa += VM_PAGE_SIZE)
			expect += !overlaps_boot_memory(pa, VM_PAGE_SIZE);
	}
	for (int z = 0; z < VM_ZONE_COUNT; z++) {
		got += vm_page_total_count(z);
		KTEST_EXPECT_LE(t, vm_page_free_count(z),
				vm_page_total_count(z));
	}
	/* What else is kept out: the allocator's metadata. */
	slack = page_up(c->meta_size) / VM_PAGE_SIZE;
	KTEST_EXPECT_LE(t, got, expect);
	KTEST_EXPECT_GE(t, got + slack, expect);
	/* 128 MiB: DMA and DMA32 have pages, nothing is at 4 GiB. */
	KTEST_EXPECT_EQ(t, param(t, "expect_mem_mib"), 128);
	KTEST_EXPECT_GE(t, vm_page_total_count(VM_ZONE_DMA), MIB(8) >> 12);
	KTEST_EXPECT_GE(t, vm_page_total_count(VM_ZONE_DMA32), MIB(100) >> 12);
	KTEST_EXPECT_EQ(t, vm_page_total_count(VM_ZONE_NORMAL), 0);
}

static void expect_unmanaged(struct ktest *t, const char *what, uint64_t pa,
			     uint64_t end)
{
	for (pa = page_down(pa); pa < end; pa += VM_PAGE_SIZE)
		if (vm_page_core_page_state(&vm_page_kernel_core, pa) !=
		    VM_PAGE_UNMANAGED) {
			ktest_fail(t, "%s page 0x%llx is managed", what,
				   (unsigned long long)pa);
			return;
		}
}

static void boot_memory_is_not_managed(struct ktest *t)
{
	const struct vm_page_core *c = &vm_page_kernel_core;
	uint64_t meta = (uint64_t)c->meta - DIRECT_MAP_BASE;

	KTEST_EXPECT_EQ(t, bootinfo.nmodules, param(t, "expect_mods"));
	expect_unmanaged(t, "zero", 0, 1);
	expect_unmanaged(t, "kernel image", KERNEL_PHYS,
			 kernel_virt_to_phys(_kernel_end));
	expect_unmanaged(t, "metadata", meta, meta + c->meta_size);
	for (size_t i = 0; i < bootinfo.nmodules; i++) {
		const struct boot_module *m = &bootinfo.modules[i];
		uint64_t s = (uint64_t)m->cmdline - DIRECT_MAP_BASE;

		expect_unmanaged(t, "module", m->start, m->end);
		if ((uint64_t)m->cmdline >= DIRECT_MAP_BASE &&
		    s < DIRECT_MAP_SIZE)
			expect_unmanaged(t, "module command line", s,
					 s + strlen(m->cmdline) + 1);
	}
}

/* A pattern word for offset @i of page @pa. */
static uint64_t pattern(uint64_t pa, uint64_t i)
{
	return (pa * 0x9e3779b97f4a7c15ull) ^ i;
}

static void allocating_every_page_spares_kernel_and_modules(struct ktest *t)
{
	uint64_t before[VM_ZONE_COUNT], zero[VM_ZONE_COUNT] = { 0 };
	uint64_t head = 0, pa, n = 0, want = free_pages(), bad = 0;
	char key[16];

	counts_of(before);
	while (vm_page_alloc(VM_ZONE_NORMAL, &pa) == KERN_SUCCESS) {
		uint64_t *w = phys_to_virt(pa);

		if (pa >= DIRECT_MAP_SIZE || overlaps_boot_memory(pa, 1)) {
			ktest_fail(t, "page 0x%llx handed out",
				   (unsigned long long)pa);
			break;
		}
		head = chain_push(head, pa, 1);
		for (uint64_t i = 2; i < VM_PAGE_SIZE / 8; i++)
			w[i] = pattern(pa, i);
		n++;
	}
	KTEST_EXPECT_EQ(t, n, want);
	expect_counts(t, zero, "all allocated");
	KTEST_EXPECT_EQ(t, vm_page_alloc_contig(1, 0, 0, UINT64_MAX, &pa),
			KERN_RESOURCE_SHORTAGE);

	/* No page was handed out twice, and the modules are intact. */
	for (pa = head; pa; pa = link_at(pa)->next) {
		const uint64_t *w = phys_to_virt(pa);

		for (uint64_t i = 2; i < VM_PAGE_SIZE / 8; i++)
			bad += w[i] != pattern(pa, i);
	}
	KTEST_EXPECT_EQ(t, bad, 0);
	for (size_t i = 0; i < bootinfo.nmodules; i++) {
		const struct boot_module *m = &bootinfo.modules[i];

		ksnprintf(key, sizeof(key), "mod%zu_crc", i);
		KTEST_EXPECT_EQ(t, kcrc32(0, bootinfo_module_data(m),
					  m->end - m->start),
				param(t, key));
	}
	chain_free(head);
	expect_counts(t, before, "all freed");
}

static void exhaustion_then_free_restores_counts(struct ktest *t)
{
	uint64_t before[VM_ZONE_COUNT], zero[VM_ZONE_COUNT] = { 0 };
	uint64_t head = 0, pa, runs = 0;

	counts_of(before);
	while (vm_page_alloc_contig(256, 0, 0, DIRECT_MAP_SIZE, &pa) ==
	       KERN_SUCCESS) {
		head = chain_push(head, pa, 256);
		runs++;
	}
	while (vm_page_alloc(VM_ZONE_NORMAL, &pa) == KERN_SUCCESS)
		head = chain_push(head, pa, 1);
	KTEST_EXPECT_GE(t, runs, MIB(64) / MIB(1));
	expect_counts(t, zero, "exhausted");
	KTEST_EXPECT_EQ(t, vm_page_alloc(VM_ZONE_DMA, &pa),
			KERN_RESOURCE_SHORTAGE);
	KTEST_EXPECT_EQ(t, vm_page_alloc_contig(1, 0, 0, UINT64_MAX, &pa),
			KERN_RESOURCE_SHORTAGE);
	/* A 2048-byte slab holds one object, so none is ever partial. */
	KTEST_EXPECT_TRUE(t, kalloc(2048) == NULL);
	KTEST_EXPECT_TRUE(t, kalloc(3 * VM_PAGE_SIZE) == NULL);
	expect_counts(t, zero, "after shortage");
	chain_free(head);
	expect_counts(t, before, "all freed");
}

static void dma_zone_allocation_stays_below_16mib(struct ktest *t)
{
	uint64_t before[VM_ZONE_COUNT], head = 0, pa, n = 0;
	uint64_t dma32 = vm_page_free_count(VM_ZONE_DMA32);

	counts_of(before);
	while (vm_page_alloc(VM_ZONE_DMA, &pa) == KERN_SUCCESS) {
		if (pa + VM_PAGE_SIZE > VM_ZONE_DMA_LIMIT)
			ktest_fail(t, "DMA page at 0x%llx",
				   (unsigned long long)pa);
		head = chain_push(head, pa, 1);
		n++;
	}
	KTEST_EXPECT_EQ(t, n, before[VM_ZONE_DMA]);
	KTEST_EXPECT_EQ(t, vm_page_free_count(VM_ZONE_DMA), 0);
	KTEST_EXPECT_EQ(t, vm_page_free_count(VM_ZONE_DMA32), dma32);
	KTEST_EXPECT_EQ(t, vm_page_alloc_contig(1, 0, 0, VM_ZONE_DMA_LIMIT,
						&pa),
			KERN_RESOURCE_SHORTAGE);
	chain_free(head);
	expect_counts(t, before, "all freed");
}

static void single_pages_prefer_dma32_to_dma(struct ktest *t)
{
	uint64_t pa;

	KTEST_EXPECT_EQ(t, vm_page_alloc(VM_ZONE_NORMAL, &pa), KERN_SUCCESS);
	KTEST_EXPECT_GE(t, pa, VM_ZONE_DMA_LIMIT);
	vm_page_free_contig(pa, 1);
	KTEST_EXPECT_EQ(t, vm_page_alloc(VM_ZONE_DMA, &pa), KERN_SUCCESS);
	KTEST_EXPECT_LE(t, pa, VM_ZONE_DMA_LIMIT - VM_PAGE_SIZE);
	vm_page_free_contig(pa, 1);
	KTEST_EXPECT_EQ(t, vm_page_alloc(VM_ZONE_COUNT, &pa),
			KERN_INVALID_ARGUMENT);
}

/* A window is [lo, hi), or with @in_free_run [base + lo, base + hi) for
 * a run of pages found free when the case starts: tight windows must not
 * depend on which pages the kernel happens to use already. */
struct run_case {
	uint64_t npages, align, lo, hi;
	bool in_free_run;
};

#define FREE_RUN_PAGES	8

static const struct run_case run_cases[] = {
	{ 16, 64 << 10, MIB(32), MIB(64), false },
	{ 1, MIB(2), 0, DIRECT_MAP_SIZE, false },
	{ 512, MIB(2), MIB(16), MIB(128), false },
	{ 8, 32 << 10, 0, VM_ZONE_DMA_LIMIT, false },
	{ 3, 0, 1, 1 + 4 * VM_PAGE_SIZE, true },	/* unaligned window */
	{ 1, 0, VM_PAGE_SIZE, 2 * VM_PAGE_SIZE, true },	/* one page */
	{ 1024, 0, 0, UINT64_MAX, false },
};

static void contiguous_run_honours_alignment_and_window(struct ktest *t)
{
	uint64_t before[VM_ZONE_COUNT], pa, base;

	counts_of(before);
	if (vm_page_alloc_contig(FREE_RUN_PAGES, 0, VM_ZONE_DMA_LIMIT,
				 VM_ZONE_DMA32_LIMIT, &base) != KERN_SUCCESS) {
		ktest_fail(t, "no free run of %d pages", FREE_RUN_PAGES);
		return;
	}
	vm_page_free_contig(base, FREE_RUN_PAGES);
	for (size_t i = 0; i < ARRAY_SIZE(run_cases); i++) {
		const struct run_case *rc = &run_cases[i];
		uint64_t len = rc->npages * VM_PAGE_SIZE;
		uint64_t lo = rc->lo + (rc->in_free_run ? base : 0);
		uint64_t hi = rc->hi + (rc->in_free_run ? base : 0);

		if (vm_page_alloc_contig(rc->npages, rc->align, lo, hi,
					 &pa) != KERN_SUCCESS) {
			ktest_fail(t, "row %zu: no run", i);
			continue;
		}
		if (rc->align && pa % rc->align)
			ktest_fail(t, "row %zu: 0x%llx misaligned", i,
				   (unsigned long long)pa);
		if (pa < lo || pa + len > hi)
			ktest_fail(t, "row %zu: 0x%llx outside window", i,
				   (unsigned long long)pa);
		if (overlaps_boot_memory(pa, len))
			ktest_fail(t, "row %zu: 0x%llx overlaps boot memory", i,
				   (unsigned long long)pa);
		for (uint64_t p = pa; p < pa + len; p += VM_PAGE_SIZE)
			if (vm_page_core_page_state(&vm_page_kernel_core, p) !=
			    VM_PAGE_ALLOCATED)
				ktest_fail(t, "row %zu: 0x%llx not allocated",
					   i, (unsigned long long)p);
		memset(phys_to_virt(pa), 0x5a, len);
		vm_page_free_contig(pa, rc->npages);
	}
	/* The legacy video and BIOS area is never RAM the allocator owns. */
	KTEST_EXPECT_EQ(t, vm_page_alloc_contig(1, 0, 0xa0000, 0x100000, &pa),
			KERN_RESOURCE_SHORTAGE);
	KTEST_EXPECT_EQ(t, vm_page_alloc_contig(0, 0, 0, MIB(64), &pa),
			KERN_INVALID_ARGUMENT);
	KTEST_EXPECT_EQ(t, vm_page_alloc_contig(1, 3 << 12, 0, MIB(64), &pa),
			KERN_INVALID_ARGUMENT);
	KTEST_EXPECT_EQ(t, vm_page_alloc_contig(1, 0, MIB(64), MIB(64), &pa),
			KERN_INVALID_ARGUMENT);
	expect_counts(t, before, "all freed");
}

static const size_t object_sizes[] = {
	1, 8, 15, 16, 17, 24, 32, 48, 64, 100, 128, 200, 256, 300, 512, 513,
	1000, 1024, 1500, 2047, 2048,
};

#define OBJECTS_PER_SIZE	40

static size_t rounded(size_t size)
{
	size_t r = 16;

	while (r < size)
		r <<= 1;
	return r;
}

static void kalloc_objects_are_aligned_and_distinct(struct ktest *t)
{
	static uint8_t *objs[ARRAY_SIZE(object_sizes)][OBJECTS_PER_SIZE];
	uint64_t start = kalloc_bytes_in_use(), want = start;
	uint64_t pages = free_pages();

	for (size_t s = 0; s < ARRAY_SIZE(object_sizes); s++)
		for (size_t k = 0; k < OBJECTS_PER_SIZE; k++) {
			uint8_t *p = kalloc(object_sizes[s]);

			objs[s][k] = p;
			if (p == NULL) {
				ktest_fail(t, "kalloc(%zu) failed",
					   object_sizes[s]);
				continue;
			}
			if ((uint64_t)p % 16 || (uint64_t)p < DIRECT_MAP_BASE)
				ktest_fail(t, "kalloc(%zu) = %p",
					   object_sizes[s], p);
			memset(p, (int)(s * OBJECTS_PER_SIZE + k),
			       object_sizes[s]);
			want += rounded(object_sizes[s]);
		}
	KTEST_EXPECT_EQ(t, kalloc_bytes_in_use(), want);
	for (size_t s = 0; s < ARRAY_SIZE(object_sizes); s++)
		for (size_t k = 0; k < OBJECTS_PER_SIZE; k++) {
			const uint8_t *p = objs[s][k];
			uint8_t v = (uint8_t)(s * OBJECTS_PER_SIZE + k);

			for (size_t b = 0; p && b < object_sizes[s]; b++)
				if (p[b] != v) {
					ktest_fail(t, "object %zu of size %zu "
						   "overwritten at byte %zu",
						   k, object_sizes[s], b);
					break;
				}
		}
	/* Free in an order unlike allocation: odd objects, then even. */
	for (size_t parity = 1; parity <= 2; parity++)
		for (size_t s = 0; s < ARRAY_SIZE(object_sizes); s++)
			for (size_t k = parity % 2; k < OBJECTS_PER_SIZE;
			     k += 2)
				kfree(objs[s][k]);
	KTEST_EXPECT_EQ(t, kalloc_bytes_in_use(), start);
	KTEST_EXPECT_EQ(t, free_pages(), pages);
}

struct large_case {
	size_t size;
	uint64_t pages;
};

static const struct large_case large_cases[] = {
	{ 2049, 1 },
	{ VM_PAGE_SIZE - 16, 1 },
	{ VM_PAGE_SIZE - 15, 2 },
	{ VM_PAGE_SIZE, 2 },
	{ 3 * VM_PAGE_SIZE, 4 },
	{ MIB(1), 257 },
};

static void kalloc_large_objects_use_pages(struct ktest *t)
{
	uint64_t start = kalloc_bytes_in_use(), pages = free_pages();

	for (size_t i = 0; i < ARRAY_SIZE(large_cases); i++) {
		const struct large_case *lc = &large_cases[i];
		uint8_t *p = kalloc(lc->size);

		if (p == NULL) {
			ktest_fail(t, "kalloc(%zu) failed", lc->size);
			continue;
		}
		KTEST_EXPECT_EQ(t, (uint64_t)p % VM_PAGE_SIZE, 16);
		KTEST_EXPECT_EQ(t, free_pages(), pages - lc->pages);
		KTEST_EXPECT_EQ(t, kalloc_bytes_in_use(),
				start + lc->pages * VM_PAGE_SIZE);
		memset(p, 0xa5, lc->size);
		KTEST_EXPECT_EQ(t, p[lc->size - 1], 0xa5);
		kfree(p);
		KTEST_EXPECT_EQ(t, free_pages(), pages);
		KTEST_EXPECT_EQ(t, kalloc_bytes_in_use(), start);
	}
}

static void kfree_returns_bytes_in_use_to_start(struct ktest *t)
{
	uint64_t start = kalloc_bytes_in_use();
	void *a, *b, *c;
	uint8_t *z;

	KTEST_EXPECT_TRUE(t, kalloc(0) == NULL);
	kfree(NULL);
	KTEST_EXPECT_EQ(t, kalloc_bytes_in_use(), start);
	a = kalloc(40);
	b = kalloc(5000);
	c = kalloc(16);
	KTEST_EXPECT_EQ(t, kalloc_bytes_in_use(), start + 64 + 8192 + 16);
	kfree(b);
	KTEST_EXPECT_EQ(t, kalloc_bytes_in_use(), start + 64 + 16);
	kfree(a);
	kfree(c);
	KTEST_EXPECT_EQ(t, kalloc_bytes_in_use(), start);

	/* kzalloc zeroes even memory that held something. */
	z = kalloc(300);
	if (z)
		memset(z, 0xff, 300);
	kfree(z);
	z = kzalloc(300);
	KTEST_EXPECT_TRUE(t, z != NULL);
	for (size_t i = 0; z && i < 300; i++)
		if (z[i]) {
			ktest_fail(t, "kzalloc byte %zu is 0x%x", i, z[i]);
			break;
		}
	kfree(z);
	KTEST_EXPECT_EQ(t, kalloc_bytes_in_use(), start);
}

#define CYCLE_SLOTS	64
#define CYCLES		10000

static uint64_t lcg(uint64_t *x)
{
	*x = *x * 6364136223846793005ull + 1442695040888963407ull;
	return *x >> 33;
}

static void heap_survives_many_alloc_free_cycles(struct ktest *t)
{
	static struct {
		uint8_t *p;
		size_t size;
		uint8_t fill;
	} slot[CYCLE_SLOTS];
	uint64_t start = kalloc_bytes_in_use(), pages = free_pages(), x = 1;
	uint64_t live = 0, failures = 0;

	for (int i = 0; i < CYCLES && !failures; i++) {
		size_t k = lcg(&x) % CYCLE_SLOTS;

		if (slot[k].p) {
			for (size_t b = 0; b < slot[k].size; b++)
				if (slot[k].p[b] != slot[k].fill) {
					ktest_fail(t, "cycle %d: object of %zu "
						   "bytes changed at %zu", i,
						   slot[k].size, b);
					failures++;
					break;
				}
			kfree(slot[k].p);
			live -= rounded(slot[k].size) > 2048 ?
				page_up(slot[k].size + 16) :
				rounded(slot[k].size);
			slot[k].p = NULL;
			continue;
		}
		slot[k].size = lcg(&x) % 16 == 0 ? 1 + lcg(&x) % 16384 :
						  1 + lcg(&x) % 2048;
		slot[k].fill = (uint8_t)i;
		slot[k].p = kalloc(slot[k].size);
		if (slot[k].p == NULL) {
			ktest_fail(t, "cycle %d: kalloc(%zu) failed", i,
				   slot[k].size);
			failures++;
			break;
		}
		memset(slot[k].p, slot[k].fill, slot[k].size);
		live += rounded(slot[k].size) > 2048 ?
			page_up(slot[k].size + 16) : rounded(slot[k].size);
		if (kalloc_bytes_in_use() != start + live) {
			ktest_fail(t, "cycle %d: %llu bytes in use, want %llu",
				   i, (unsigned long long)kalloc_bytes_in_use(),
				   (unsigned long long)(start + live));
			failures++;
		}
	}
	for (size_t k = 0; k < CYCLE_SLOTS; k++) {
		kfree(slot[k].p);
		slot[k].p = NULL;
	}
	KTEST_EXPECT_EQ(t, kalloc_bytes_in_use(), start);
	KTEST_EXPECT_EQ(t, free_pages(), pages);
}

static const struct ktest_case vm_cases[] = {
	{ "total_counts_match_memory_map", total_counts_match_memory_map },
	{ "boot_memory_is_not_managed", boot_memory_is_not_managed },
	{ "allocating_every_page_spares_kernel_and_modules",
	  allocating_every_page_spares_kernel_and_modules },
	{ "exhaustion_then_free_restores_counts",
	  exhaustion_then_free_restores_counts },
	{ "dma_zone_allocation_stays_below_16mib",
	  dma_zone_allocation_stays_below_16mib },
	{ "single_pages_prefer_dma32_to_dma",
	  single_pages_prefer_dma32_to_dma },
	{ "contiguous_run_honours_alignment_and_window",
	  contiguous_run_honours_alignment_and_window },
	{ "kalloc_objects_are_aligned_and_distinct",
	  kalloc_objects_are_aligned_and_distinct },
	{ "kalloc_large_objects_use_pages", kalloc_large_objects_use_pages },
	{ "kfree_returns_bytes_in_use_to_start",
	  kfree_returns_bytes_in_use_to_start },
	{ "heap_survives_many_alloc_free_cycles",
	  heap_survives_many_alloc_free_cycles },
};
KTEST_SUITE(vm_suite, "vm", vm_cases);
