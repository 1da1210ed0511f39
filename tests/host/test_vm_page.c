/* SPDX-License-Identifier: GPL-2.0-only */
/* Host tests of the page allocator core: zones, runs, frees, panics. */

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kern/ktest.h"
#include "kern/panic.h"
#include "tests/host/host_panic.h"
#include "vm/vm_page_core.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define KIB(x)		((uint64_t)(x) << 10)
#define MIB(x)		((uint64_t)(x) << 20)
#define GIB(x)		((uint64_t)(x) << 30)
#define PG(x)		((uint64_t)(x) * VM_PAGE_SIZE)
#define MAX_RANGES	4

/* Metadata for every core built here: enough for a 16 GiB span. */
static uint64_t meta_buf[1 << 17];

/* Build @c over @n ranges at @r, all pages free; false (and a failure) if
 * the core refuses. */
static bool core_make(struct ktest *t, struct vm_page_core *c,
		      const struct vm_page_range *r, size_t n)
{
	uint64_t need = vm_page_core_metadata_size(r, n);

	if (need > sizeof(meta_buf)) {
		ktest_fail(t, "test needs %llu bytes of metadata",
			   (unsigned long long)need);
		return false;
	}
	if (vm_page_core_init(c, r, n, meta_buf, need) != KERN_SUCCESS) {
		ktest_fail(t, "vm_page_core_init refused %zu ranges", n);
		return false;
	}
	return true;
}

static void counts_of(const struct vm_page_core *c, uint64_t *free_pages)
{
	for (int z = 0; z < VM_ZONE_COUNT; z++)
		free_pages[z] = vm_page_core_free_count(c, z);
}

/* Fail unless the free counts of @c equal @want; @what names the step. */
static void expect_counts(struct ktest *t, const struct vm_page_core *c,
			  const uint64_t *want, const char *what)
{
	for (int z = 0; z < VM_ZONE_COUNT; z++)
		if (vm_page_core_free_count(c, z) != want[z])
			ktest_fail(t, "%s: zone %d has %llu free, want %llu",
				   what, z,
				   (unsigned long long)
				   vm_page_core_free_count(c, z),
				   (unsigned long long)want[z]);
}

struct zone_case {
	const char *name;
	struct vm_page_range r[MAX_RANGES];
	size_t n;
	uint64_t total[VM_ZONE_COUNT];
};

static const struct zone_case zone_cases[] = {
	{ "dma_only_below_16mib", { { KIB(4), MIB(8) } }, 1,
	  { 2047, 0, 0 } },
	{ "range_straddling_16mib_splits", { { MIB(15), MIB(17) } }, 1,
	  { 256, 256, 0 } },
	{ "range_straddling_4gib_splits", { { GIB(4) - MIB(1),
					      GIB(4) + MIB(1) } }, 1,
	  { 0, 256, 256 } },
	{ "range_across_all_zones", { { MIB(15), GIB(4) + MIB(1) } }, 1,
	  { 256, (GIB(4) - MIB(16)) / VM_PAGE_SIZE, 256 } },
	{ "unaligned_range_keeps_whole_pages_inside", { { 0x1800, 0x5800 } },
	  1, { 3, 0, 0 } },
	{ "range_without_a_whole_page_is_empty", { { 0x1001, 0x1fff } }, 1,
	  { 0, 0, 0 } },
	{ "overlapping_ranges_count_once", { { 0, KIB(32) },
					     { KIB(16), KIB(64) } }, 2,
	  { 16, 0, 0 } },
	{ "holes_between_ranges_are_not_counted",
	  { { MIB(1), MIB(2) }, { MIB(3), MIB(4) } }, 2, { 512, 0, 0 } },
	{ "inverted_range_is_ignored", { { MIB(2), MIB(1) },
					 { MIB(1), MIB(1) + KIB(4) } }, 2,
	  { 1, 0, 0 } },
	{ "unordered_ranges", { { MIB(32), MIB(33) }, { MIB(1), MIB(2) } }, 2,
	  { 256, 256, 0 } },
	{ "no_ranges_no_pages", { { 0, 0 } }, 0, { 0, 0, 0 } },
};

static void zones_split_at_16mib_and_4gib(struct ktest *t)
{
	for (size_t i = 0; i < ARRAY_SIZE(zone_cases); i++) {
		const struct zone_case *zc = &zone_cases[i];
		struct vm_page_core c;

		if (!core_make(t, &c, zc->r, zc->n))
			continue;
		for (int z = 0; z < VM_ZONE_COUNT; z++) {
			uint64_t total = vm_page_core_total_count(&c, z);

			if (total != zc->total[z])
				ktest_fail(t, "%s: zone %d has %llu pages, "
					   "want %llu", zc->name, z,
					   (unsigned long long)total,
					   (unsigned long long)zc->total[z]);
			if (vm_page_core_free_count(&c, z) != total)
				ktest_fail(t, "%s: zone %d not all free",
					   zc->name, z);
		}
	}
}

struct meta_case {
	const char *name;
	struct vm_page_range r;
	size_t n;
	uint64_t bytes;
};

/* Two bitmaps of one bit per page, one bit per 64 pages of summary. */
static const struct meta_case meta_cases[] = {
	{ "128mib_is_8kib_plus_summary", { 0, MIB(128) }, 1,
	  (2 * 512 + 8) * 8 },
	{ "4gib_is_256kib_plus_summary", { 0, GIB(4) }, 1,
	  (2 * 16384 + 256) * 8 },
	{ "one_page_is_three_words", { KIB(4), KIB(8) }, 1, 3 * 8 },
	{ "span_not_base_sets_the_size", { GIB(64), GIB(64) + MIB(128) }, 1,
	  (2 * 512 + 8) * 8 },
	{ "no_pages_no_metadata", { 0, KIB(4) - 1 }, 1, 0 },
	{ "no_ranges_no_metadata", { 0, 0 }, 0, 0 },
};

static void metadata_is_two_bits_per_page(struct ktest *t)
{
	for (size_t i = 0; i < ARRAY_SIZE(meta_cases); i++) {
		const struct meta_case *mc = &meta_cases[i];
		uint64_t got = vm_page_core_metadata_size(&mc->r, mc->n);

		if (got != mc->bytes)
			ktest_fail(t, "%s: %llu bytes, want %llu", mc->name,
				   (unsigned long long)got,
				   (unsigned long long)mc->bytes);
	}
}

static void init_rejects_short_or_misaligned_metadata(struct ktest *t)
{
	struct vm_page_range r = { MIB(1), MIB(2) };
	uint64_t need = vm_page_core_metadata_size(&r, 1);
	struct vm_page_core c, before;

	memset(&c, 0xa5, sizeof(c));
	before = c;
	KTEST_EXPECT_EQ(t, vm_page_core_init(&c, &r, 1, meta_buf, need - 8),
			KERN_INVALID_ARGUMENT);
	KTEST_EXPECT_EQ(t, vm_page_core_init(&c, &r, 1,
					     (char *)meta_buf + 4, need),
			KERN_INVALID_ARGUMENT);
	KTEST_EXPECT_EQ(t, vm_page_core_init(&c, &r, 1, NULL, need),
			KERN_INVALID_ARGUMENT);
	KTEST_EXPECT_TRUE(t, memcmp(&c, &before, sizeof(c)) == 0);
	KTEST_EXPECT_EQ(t, vm_page_core_init(&c, &r, 0, NULL, 0),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, vm_page_core_total_count(&c, VM_ZONE_DMA), 0);
	KTEST_EXPECT_EQ(t, vm_page_core_init(&c, &r, 1, meta_buf, need),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, vm_page_core_total_count(&c, VM_ZONE_DMA), 256);
}

/* Four pages in each zone; single pages come highest zone first. */
static const struct vm_page_range three_zones[] = {
	{ MIB(8), MIB(8) + PG(4) },
	{ MIB(32), MIB(32) + PG(4) },
	{ GIB(4) + KIB(64), GIB(4) + KIB(64) + PG(4) },
};

struct alloc_step {
	enum vm_zone highest;
	kern_return_t kr;
	uint64_t pa;
};

static const struct alloc_step alloc_steps[] = {
	{ VM_ZONE_DMA, KERN_SUCCESS, MIB(8) },
	{ VM_ZONE_DMA32, KERN_SUCCESS, MIB(32) },
	{ VM_ZONE_NORMAL, KERN_SUCCESS, GIB(4) + KIB(64) },
	{ VM_ZONE_NORMAL, KERN_SUCCESS, GIB(4) + KIB(68) },
	{ VM_ZONE_NORMAL, KERN_SUCCESS, GIB(4) + KIB(72) },
	{ VM_ZONE_NORMAL, KERN_SUCCESS, GIB(4) + KIB(76) },
	{ VM_ZONE_NORMAL, KERN_SUCCESS, MIB(32) + PG(1) },
	{ VM_ZONE_DMA32, KERN_SUCCESS, MIB(32) + PG(2) },
	{ VM_ZONE_NORMAL, KERN_SUCCESS, MIB(32) + PG(3) },
	{ VM_ZONE_NORMAL, KERN_SUCCESS, MIB(8) + PG(1) },
	{ VM_ZONE_DMA32, KERN_SUCCESS, MIB(8) + PG(2) },
	{ VM_ZONE_DMA, KERN_SUCCESS, MIB(8) + PG(3) },
	{ VM_ZONE_DMA, KERN_RESOURCE_SHORTAGE, 0 },
	{ VM_ZONE_NORMAL, KERN_RESOURCE_SHORTAGE, 0 },
};

static void single_pages_come_from_highest_zone_first(struct ktest *t)
{
	struct vm_page_core c;

	if (!core_make(t, &c, three_zones, ARRAY_SIZE(three_zones)))
		return;
	for (size_t i = 0; i < ARRAY_SIZE(alloc_steps); i++) {
		const struct alloc_step *s = &alloc_steps[i];
		uint64_t pa = 0;
		kern_return_t kr = vm_page_core_alloc(&c, s->highest, &pa);

		if (kr != s->kr)
			ktest_fail(t, "step %zu: returned %d, want %d", i, kr,
				   s->kr);
		else if (kr == KERN_SUCCESS && pa != s->pa)
			ktest_fail(t, "step %zu: got 0x%llx, want 0x%llx", i,
				   (unsigned long long)pa,
				   (unsigned long long)s->pa);
	}
}

static void dma_allocation_never_leaves_dma(struct ktest *t)
{
	struct vm_page_core c;
	uint64_t pa, before[VM_ZONE_COUNT];

	if (!core_make(t, &c, three_zones, ARRAY_SIZE(three_zones)))
		return;
	for (int i = 0; i < 4; i++) {
		KTEST_EXPECT_EQ(t, vm_page_core_alloc(&c, VM_ZONE_DMA, &pa),
				KERN_SUCCESS);
		KTEST_EXPECT_LE(t, pa + VM_PAGE_SIZE, VM_ZONE_DMA_LIMIT);
	}
	counts_of(&c, before);
	KTEST_EXPECT_EQ(t, vm_page_core_alloc(&c, VM_ZONE_DMA, &pa),
			KERN_RESOURCE_SHORTAGE);
	KTEST_EXPECT_EQ(t, vm_page_core_alloc_contig(&c, 1, 0, 0,
						     VM_ZONE_DMA_LIMIT, &pa),
			KERN_RESOURCE_SHORTAGE);
	expect_counts(t, &c, before, "after DMA shortage");
	KTEST_EXPECT_EQ(t, before[VM_ZONE_DMA32], 4);
}

struct contig_case {
	const char *name;
	struct vm_page_range r[MAX_RANGES];
	size_t n;
	uint64_t npages, align, lo, hi;
	kern_return_t kr;
	uint64_t pa;
	uint64_t taken[VM_ZONE_COUNT];	/* pages taken from each zone */
};

#define ALL	0, UINT64_MAX

static const struct contig_case contig_cases[] = {
	{ "64kib_aligned_run_skips_unaligned_start", { { KIB(4), MIB(1) } },
	  1, 16, KIB(64), ALL, KERN_SUCCESS, KIB(64), { 16, 0, 0 } },
	{ "align_zero_means_page", { { KIB(4), MIB(1) } }, 1, 3, 0, ALL,
	  KERN_SUCCESS, KIB(4), { 3, 0, 0 } },
	{ "align_below_a_page_means_page", { { KIB(4), MIB(1) } }, 1, 1, 512,
	  ALL, KERN_SUCCESS, KIB(4), { 1, 0, 0 } },
	{ "2mib_aligned_run", { { MIB(1), MIB(8) } }, 1, 4, MIB(2), ALL,
	  KERN_SUCCESS, MIB(2), { 4, 0, 0 } },
	{ "alignment_past_all_memory_is_shortage", { { MIB(1), MIB(2) } }, 1,
	  1, GIB(1), ALL, KERN_RESOURCE_SHORTAGE, 0, { 0 } },
	{ "alignment_of_2_pow_63_does_not_overflow",
	  { { GIB(4), GIB(4) + MIB(1) } }, 1, 1, 1ull << 63, ALL,
	  KERN_RESOURCE_SHORTAGE, 0, { 0 } },
	{ "highest_zone_first_without_window", { { MIB(15), MIB(17) } }, 1, 4,
	  0, ALL, KERN_SUCCESS, MIB(16), { 0, 4, 0 } },
	{ "window_below_16mib_only", { { MIB(15), MIB(17) } }, 1, 4, 0, 0,
	  VM_ZONE_DMA_LIMIT, KERN_SUCCESS, MIB(15), { 4, 0, 0 } },
	{ "window_below_16mib_too_small", { { MIB(15), MIB(17) } }, 1, 257, 0,
	  0, VM_ZONE_DMA_LIMIT, KERN_RESOURCE_SHORTAGE, 0, { 0 } },
	{ "window_start_rounds_up_to_a_page", { { MIB(15), MIB(17) } }, 1, 1,
	  0, MIB(16) + 1, MIB(17), KERN_SUCCESS, MIB(16) + KIB(4),
	  { 0, 1, 0 } },
	{ "window_end_rounds_down_to_a_page", { { MIB(15), MIB(17) } }, 1, 3,
	  0, MIB(16), MIB(16) + PG(3) - 1, KERN_RESOURCE_SHORTAGE, 0, { 0 } },
	{ "run_fits_window_end_exactly", { { MIB(15), MIB(17) } }, 1, 3, 0,
	  MIB(16) + PG(1), MIB(16) + PG(4), KERN_SUCCESS, MIB(16) + PG(1),
	  { 0, 3, 0 } },
	{ "run_straddles_16mib_when_no_zone_holds_it",
	  { { MIB(15), MIB(17) } }, 1, 300, 0, ALL, KERN_SUCCESS, MIB(15),
	  { 256, 44, 0 } },
	{ "run_straddles_4gib_when_no_zone_holds_it",
	  { { GIB(4) - MIB(1), GIB(4) + MIB(1) } }, 1, 384, 0, ALL,
	  KERN_SUCCESS, GIB(4) - MIB(1), { 0, 256, 128 } },
	{ "window_keeps_run_out_of_normal",
	  { { GIB(4) - MIB(1), GIB(4) + MIB(1) } }, 1, 16, 0, 0,
	  VM_ZONE_DMA32_LIMIT, KERN_SUCCESS, GIB(4) - MIB(1), { 0, 16, 0 } },
	{ "hole_breaks_run", { { MIB(1), MIB(2) },
			       { MIB(2) + KIB(4), MIB(3) } }, 2, 257, 0, ALL,
	  KERN_RESOURCE_SHORTAGE, 0, { 0 } },
	{ "run_fills_range_before_hole", { { MIB(1), MIB(2) },
					   { MIB(2) + KIB(4), MIB(3) } }, 2,
	  256, 0, ALL, KERN_SUCCESS, MIB(1), { 256, 0, 0 } },
	{ "window_outside_memory_is_shortage", { { MIB(1), MIB(2) } }, 1, 1,
	  0, MIB(64), MIB(128), KERN_RESOURCE_SHORTAGE, 0, { 0 } },
	{ "more_pages_than_memory_is_shortage", { { MIB(1), MIB(2) } }, 1,
	  UINT64_MAX, 0, ALL, KERN_RESOURCE_SHORTAGE, 0, { 0 } },
	{ "no_memory_is_shortage", { { 0, 0 } }, 0, 1, 0, ALL,
	  KERN_RESOURCE_SHORTAGE, 0, { 0 } },
};

static void contiguous_runs_honour_alignment_and_window(struct ktest *t)
{
	for (size_t i = 0; i < ARRAY_SIZE(contig_cases); i++) {
		const struct contig_case *cc = &contig_cases[i];
		uint64_t before[VM_ZONE_COUNT], want[VM_ZONE_COUNT];
		struct vm_page_core c;
		uint64_t pa = 0x5a5a;
		kern_return_t kr;

		if (!core_make(t, &c, cc->r, cc->n))
			continue;
		counts_of(&c, before);
		kr = vm_page_core_alloc_contig(&c, cc->npages, cc->align,
					       cc->lo, cc->hi, &pa);
		if (kr != cc->kr) {
			ktest_fail(t, "%s: returned %d, want %d", cc->name, kr,
				   cc->kr);
			continue;
		}
		if (kr != KERN_SUCCESS) {
			expect_counts(t, &c, before, cc->name);
			if (pa != 0x5a5a)
				ktest_fail(t, "%s: pa written on failure",
					   cc->name);
			continue;
		}
		if (pa != cc->pa)
			ktest_fail(t, "%s: got 0x%llx, want 0x%llx", cc->name,
				   (unsigned long long)pa,
				   (unsigned long long)cc->pa);
		for (int z = 0; z < VM_ZONE_COUNT; z++)
			want[z] = before[z] - cc->taken[z];
		expect_counts(t, &c, want, cc->name);
		if (vm_page_core_page_state(&c, pa) != VM_PAGE_ALLOCATED ||
		    vm_page_core_page_state(&c, pa + PG(cc->npages - 1)) !=
		    VM_PAGE_ALLOCATED)
			ktest_fail(t, "%s: run not marked allocated",
				   cc->name);
		vm_page_core_free(&c, pa, cc->npages);
		expect_counts(t, &c, before, cc->name);
	}
}

struct invalid_case {
	const char *name;
	uint64_t npages, align, lo, hi;
	bool null_pa;
};

static const struct invalid_case invalid_cases[] = {
	{ "zero_pages", 0, 0, ALL, false },
	{ "align_3", 1, 3, ALL, false },
	{ "align_3_pages", 1, 0x3000, ALL, false },
	{ "align_1.5_pages", 1, 0x1800, ALL, false },
	{ "align_all_ones", 1, UINT64_MAX, ALL, false },
	{ "empty_window", 1, 0, MIB(1), MIB(1), false },
	{ "inverted_window", 1, 0, MIB(2), MIB(1), false },
	{ "null_pa", 1, 0, ALL, true },
};

static void invalid_arguments_are_rejected(struct ktest *t)
{
	static const struct vm_page_range r = { MIB(1), MIB(2) };
	uint64_t before[VM_ZONE_COUNT], pa = 0x5a5a;
	struct vm_page_core c;

	if (!core_make(t, &c, &r, 1))
		return;
	counts_of(&c, before);
	for (size_t i = 0; i < ARRAY_SIZE(invalid_cases); i++) {
		const struct invalid_case *ic = &invalid_cases[i];
		kern_return_t kr;

		kr = vm_page_core_alloc_contig(&c, ic->npages, ic->align,
					       ic->lo, ic->hi,
					       ic->null_pa ? NULL : &pa);
		if (kr != KERN_INVALID_ARGUMENT)
			ktest_fail(t, "%s: returned %d", ic->name, kr);
	}
	KTEST_EXPECT_EQ(t, vm_page_core_alloc(&c, VM_ZONE_COUNT, &pa),
			KERN_INVALID_ARGUMENT);
	KTEST_EXPECT_EQ(t, vm_page_core_alloc(&c, (enum vm_zone)-1, &pa),
			KERN_INVALID_ARGUMENT);
	KTEST_EXPECT_EQ(t, vm_page_core_alloc(&c, VM_ZONE_NORMAL, NULL),
			KERN_INVALID_ARGUMENT);
	KTEST_EXPECT_EQ(t, pa, 0x5a5a);
	KTEST_EXPECT_EQ(t, vm_page_core_free_count(&c, VM_ZONE_COUNT), 0);
	KTEST_EXPECT_EQ(t, vm_page_core_total_count(&c, VM_ZONE_COUNT), 0);
	expect_counts(t, &c, before, "after invalid calls");
}

static void exhaustion_is_shortage_and_changes_nothing(struct ktest *t)
{
	static const struct vm_page_range r = { MIB(15), MIB(17) };
	static uint64_t pages[512];
	uint64_t full[VM_ZONE_COUNT], empty[VM_ZONE_COUNT] = { 0 }, pa;
	struct vm_page_core c;
	size_t n = 0;

	if (!core_make(t, &c, &r, 1))
		return;
	counts_of(&c, full);
	while (n < ARRAY_SIZE(pages) &&
	       vm_page_core_alloc(&c, VM_ZONE_NORMAL, &pa) == KERN_SUCCESS)
		pages[n++] = pa;
	KTEST_EXPECT_EQ(t, n, 512);
	expect_counts(t, &c, empty, "exhausted");
	KTEST_EXPECT_EQ(t, vm_page_core_alloc(&c, VM_ZONE_NORMAL, &pa),
			KERN_RESOURCE_SHORTAGE);
	KTEST_EXPECT_EQ(t, vm_page_core_alloc_contig(&c, 1, 0, ALL, &pa),
			KERN_RESOURCE_SHORTAGE);
	expect_counts(t, &c, empty, "after shortage");

	/* Free one page: exactly it comes back, then shortage again. */
	vm_page_core_free(&c, pages[100], 1);
	KTEST_EXPECT_EQ(t, vm_page_core_alloc_contig(&c, 2, 0, ALL, &pa),
			KERN_RESOURCE_SHORTAGE);
	KTEST_EXPECT_EQ(t, vm_page_core_alloc(&c, VM_ZONE_DMA32, &pa),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, pa, pages[100]);

	while (n > 0)
		vm_page_core_free(&c, pages[--n], 1);
	expect_counts(t, &c, full, "all freed");
	KTEST_EXPECT_EQ(t, vm_page_core_page_state(&c, MIB(15)), VM_PAGE_FREE);
}

static void freed_middle_run_is_reused_exactly(struct ktest *t)
{
	static const struct vm_page_range r = { MIB(1), MIB(1) + PG(64) };
	uint64_t a, b, d, pa, before[VM_ZONE_COUNT];
	struct vm_page_core c;

	if (!core_make(t, &c, &r, 1))
		return;
	counts_of(&c, before);
	KTEST_EXPECT_EQ(t, vm_page_core_alloc_contig(&c, 16, 0, ALL, &a),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, vm_page_core_alloc_contig(&c, 32, 0, ALL, &b),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, vm_page_core_alloc_contig(&c, 16, 0, ALL, &d),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, b, MIB(1) + PG(16));
	vm_page_core_free(&c, b, 32);
	KTEST_EXPECT_EQ(t, vm_page_core_free_count(&c, VM_ZONE_DMA), 32);
	KTEST_EXPECT_EQ(t, vm_page_core_alloc_contig(&c, 33, 0, ALL, &pa),
			KERN_RESOURCE_SHORTAGE);
	KTEST_EXPECT_EQ(t, vm_page_core_alloc_contig(&c, 32, 0, ALL, &pa),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, pa, b);
	KTEST_EXPECT_EQ(t, vm_page_core_free_count(&c, VM_ZONE_DMA), 0);
	vm_page_core_free(&c, a, 16);
	vm_page_core_free(&c, pa, 32);
	vm_page_core_free(&c, d, 16);
	expect_counts(t, &c, before, "all freed");
}

/*
 * A batch of pages is what as many single allocations give, in order:
 * from a free map with holes (every third page, a run, a page short of
 * a word), over the 16 MiB zone boundary (DMA32 first, then DMA); more
 * than is free is refused and changes nothing.
 */
static void page_batches_match_single_allocations(struct ktest *t)
{
	static const struct vm_page_range r = { MIB(16) - PG(100),
						MIB(16) + PG(300) };
	static uint64_t all[400], batch[400], single[400];
	uint64_t before[VM_ZONE_COUNT], pa;
	struct vm_page_core c;
	size_t n = 0, nfree = 0;

	if (!core_make(t, &c, &r, 1))
		return;
	while (vm_page_core_alloc(&c, VM_ZONE_NORMAL, &pa) == KERN_SUCCESS)
		all[n++] = pa;
	KTEST_EXPECT_EQ(t, n, 400);
	for (size_t i = 0; i < n; i++) {
		if (i % 3 == 0 || (i >= 200 && i < 263) || i == 390) {
			vm_page_core_free(&c, all[i], 1);
			nfree++;
		}
	}
	counts_of(&c, before);
	KTEST_EXPECT_EQ(t, vm_page_core_alloc_pages(&c, VM_ZONE_NORMAL,
						    nfree + 1, batch),
			KERN_RESOURCE_SHORTAGE);
	expect_counts(t, &c, before, "after a refused batch");
	KTEST_EXPECT_EQ(t, vm_page_core_alloc_pages(&c, VM_ZONE_NORMAL, nfree,
						    batch),
			KERN_SUCCESS);
	for (size_t i = 0; i < nfree; i++)
		vm_page_core_free(&c, batch[i], 1);
	expect_counts(t, &c, before, "after the batch was freed");
	for (size_t i = 0; i < nfree; i++)
		KTEST_EXPECT_EQ(t, vm_page_core_alloc(&c, VM_ZONE_NORMAL,
						      &single[i]),
				KERN_SUCCESS);
	for (size_t i = 0; i < nfree; i++) {
		if (batch[i] != single[i]) {
			ktest_fail(t, "page %zu of the batch is 0x%llx, a "
				   "single allocation gave 0x%llx", i,
				   (unsigned long long)batch[i],
				   (unsigned long long)single[i]);
			return;
		}
	}
	KTEST_EXPECT_EQ(t, vm_page_core_alloc_pages(&c, VM_ZONE_DMA, 1,
						    NULL),
			KERN_INVALID_ARGUMENT);
	KTEST_EXPECT_EQ(t, vm_page_core_alloc_pages(&c, VM_ZONE_COUNT, 1,
						    batch),
			KERN_INVALID_ARGUMENT);
}

static void summary_skips_allocated_words_in_a_large_span(struct ktest *t)
{
	/* 16 Ki pages: 256 bitmap words, 4 summary words. */
	static const struct vm_page_range r = { 0, MIB(64) };
	struct vm_page_core c;
	uint64_t pa, run;

	if (!core_make(t, &c, &r, 1))
		return;
	KTEST_EXPECT_EQ(t, vm_page_core_alloc_contig(&c, 16383, 0, ALL, &run),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, run, 0);
	KTEST_EXPECT_EQ(t, vm_page_core_alloc(&c, VM_ZONE_NORMAL, &pa),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, pa, MIB(64) - PG(1));
	vm_page_core_free(&c, MIB(40), 1);
	vm_page_core_free(&c, MIB(9), 1);
	KTEST_EXPECT_EQ(t, vm_page_core_alloc(&c, VM_ZONE_DMA, &pa),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, pa, MIB(9));
	KTEST_EXPECT_EQ(t, vm_page_core_alloc(&c, VM_ZONE_DMA32, &pa),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, pa, MIB(40));
	KTEST_EXPECT_EQ(t, vm_page_core_alloc(&c, VM_ZONE_NORMAL, &pa),
			KERN_RESOURCE_SHORTAGE);
}

struct bad_free_case {
	const char *name;
	uint64_t alloc_pages;	/* allocated at MIB(1) first */
	uint64_t pre_free_pa;	/* freed once first, if not 0 */
	uint64_t pa, npages;
	const char *what;
};

/* Memory is [1 MiB, 2 MiB) and [3 MiB, 4 MiB). */
static const struct bad_free_case bad_free_cases[] = {
	{ "double_free", 1, MIB(1), MIB(1), 1, "double free" },
	{ "run_with_a_free_page", 2, MIB(1) + PG(1), MIB(1), 2,
	  "double free of page 0x101000" },
	{ "never_allocated", 0, 0, MIB(1), 1, "double free" },
	{ "page_in_a_hole", 0, 0, MIB(2), 1, "unmanaged page 0x200000" },
	{ "run_into_a_hole", 256, 0, MIB(1), 257, "unmanaged" },
	{ "below_managed_memory", 0, 0, 0, 1, "outside managed memory" },
	{ "above_managed_memory", 0, 0, MIB(64), 1, "outside managed memory" },
	{ "run_past_the_end", 0, 0, MIB(4) - PG(1), 2,
	  "outside managed memory" },
	{ "run_of_2_pow_64_pages", 0, 0, MIB(1), UINT64_MAX,
	  "outside managed memory" },
	{ "unaligned_address", 1, 0, MIB(1) + 8, 1, "not a page run" },
	{ "zero_pages", 1, 0, MIB(1), 0, "not a page run" },
};

/* One row, in its own function: nothing here changes after setjmp(). */
static void bad_free_one(struct ktest *t, const struct bad_free_case *bc)
{
	static const struct vm_page_range r[] = {
		{ MIB(1), MIB(2) }, { MIB(3), MIB(4) },
	};
	uint64_t before[VM_ZONE_COUNT], pa;
	struct vm_page_core c;

	if (!core_make(t, &c, r, ARRAY_SIZE(r)))
		return;
	if (bc->alloc_pages &&
	    vm_page_core_alloc_contig(&c, bc->alloc_pages, 0, MIB(1), MIB(2),
				      &pa) != KERN_SUCCESS) {
		ktest_fail(t, "%s: setup failed", bc->name);
		return;
	}
	if (bc->pre_free_pa)
		vm_page_core_free(&c, bc->pre_free_pa, 1);
	counts_of(&c, before);
	EXPECT_PANIC(t, bc->name, vm_page_core_free(&c, bc->pa, bc->npages),
		     bc->what);
	expect_counts(t, &c, before, bc->name);
}

static void bad_frees_panic_and_change_nothing(struct ktest *t)
{
	for (size_t i = 0; i < ARRAY_SIZE(bad_free_cases); i++)
		bad_free_one(t, &bad_free_cases[i]);
}

static void page_state_tells_unmanaged_free_and_allocated(struct ktest *t)
{
	static const struct vm_page_range r[] = {
		{ MIB(1), MIB(2) }, { MIB(3), MIB(4) },
	};
	struct vm_page_core c;
	uint64_t pa;

	if (!core_make(t, &c, r, ARRAY_SIZE(r)))
		return;
	KTEST_EXPECT_EQ(t, vm_page_core_alloc(&c, VM_ZONE_DMA, &pa),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, vm_page_core_page_state(&c, pa + 123),
			VM_PAGE_ALLOCATED);
	KTEST_EXPECT_EQ(t, vm_page_core_page_state(&c, MIB(3)), VM_PAGE_FREE);
	KTEST_EXPECT_EQ(t, vm_page_core_page_state(&c, MIB(2)),
			VM_PAGE_UNMANAGED);
	KTEST_EXPECT_EQ(t, vm_page_core_page_state(&c, 0), VM_PAGE_UNMANAGED);
	KTEST_EXPECT_EQ(t, vm_page_core_page_state(&c, MIB(4)),
			VM_PAGE_UNMANAGED);
	KTEST_EXPECT_EQ(t, vm_page_core_page_state(&c, UINT64_MAX),
			VM_PAGE_UNMANAGED);
}

struct subtract_case {
	const char *name;
	struct vm_page_range in[MAX_RANGES];
	size_t n, cap;
	uint64_t lo, hi;
	kern_return_t kr;
	struct vm_page_range out[MAX_RANGES];
	size_t nout;
};

static const struct subtract_case subtract_cases[] = {
	{ "no_overlap_keeps_range", { { MIB(1), MIB(2) } }, 1, 4, MIB(3),
	  MIB(4), KERN_SUCCESS, { { MIB(1), MIB(2) } }, 1 },
	{ "touching_below_keeps_range", { { MIB(1), MIB(2) } }, 1, 4, 0,
	  MIB(1), KERN_SUCCESS, { { MIB(1), MIB(2) } }, 1 },
	{ "touching_above_keeps_range", { { MIB(1), MIB(2) } }, 1, 4, MIB(2),
	  MIB(3), KERN_SUCCESS, { { MIB(1), MIB(2) } }, 1 },
	{ "trims_low_end", { { MIB(1), MIB(2) } }, 1, 4, 0, KIB(1536),
	  KERN_SUCCESS, { { KIB(1536), MIB(2) } }, 1 },
	{ "trims_high_end", { { MIB(1), MIB(2) } }, 1, 4, KIB(1536), MIB(3),
	  KERN_SUCCESS, { { MIB(1), KIB(1536) } }, 1 },
	{ "splits_middle_appending_upper_part",
	  { { MIB(1), MIB(4) }, { MIB(8), MIB(9) } }, 2, 4, MIB(2), MIB(3),
	  KERN_SUCCESS,
	  { { MIB(1), MIB(2) }, { MIB(8), MIB(9) }, { MIB(3), MIB(4) } }, 3 },
	{ "drops_covered_range", { { MIB(1), MIB(2) }, { MIB(3), MIB(4) } },
	  2, 4, 0, MIB(2), KERN_SUCCESS, { { MIB(3), MIB(4) } }, 1 },
	{ "exact_match_drops_range", { { MIB(1), MIB(2) } }, 1, 4, MIB(1),
	  MIB(2), KERN_SUCCESS, { { 0, 0 } }, 0 },
	{ "across_several_ranges",
	  { { MIB(1), MIB(2) }, { MIB(3), MIB(4) }, { MIB(5), MIB(6) } }, 3, 4,
	  KIB(1536), KIB(5632), KERN_SUCCESS,
	  { { MIB(1), KIB(1536) }, { KIB(5632), MIB(6) } }, 2 },
	{ "empty_interval_changes_nothing", { { MIB(1), MIB(2) } }, 1, 4,
	  KIB(1536), KIB(1536), KERN_SUCCESS, { { MIB(1), MIB(2) } }, 1 },
	{ "split_beyond_capacity_fails_untouched", { { MIB(1), MIB(4) } }, 1,
	  1, MIB(2), MIB(3), KERN_RESOURCE_SHORTAGE, { { MIB(1), MIB(4) } },
	  1 },
};

static void range_subtraction_trims_splits_and_drops(struct ktest *t)
{
	for (size_t i = 0; i < ARRAY_SIZE(subtract_cases); i++) {
		const struct subtract_case *sc = &subtract_cases[i];
		struct vm_page_range r[MAX_RANGES];
		size_t n = sc->n;
		kern_return_t kr;

		memcpy(r, sc->in, sizeof(r));
		kr = vm_page_ranges_subtract(r, &n, sc->cap, sc->lo, sc->hi);
		if (kr != sc->kr) {
			ktest_fail(t, "%s: returned %d, want %d", sc->name, kr,
				   sc->kr);
			continue;
		}
		if (n != sc->nout) {
			ktest_fail(t, "%s: %zu ranges, want %zu", sc->name, n,
				   sc->nout);
			continue;
		}
		for (size_t j = 0; j < n; j++)
			if (r[j].base != sc->out[j].base ||
			    r[j].end != sc->out[j].end)
				ktest_fail(t, "%s: range %zu is [0x%llx, "
					   "0x%llx)", sc->name, j,
					   (unsigned long long)r[j].base,
					   (unsigned long long)r[j].end);
	}
}

/*
 * Random operations checked against a page-by-page model that implements
 * the documented policy by brute force.
 */
#define MODEL_PAGES	8192
#define MODEL_LIVE	128

struct model {
	uint64_t base_pfn, npages;
	uint8_t state[MODEL_PAGES];	/* enum vm_page_state */
	struct { uint64_t pa, n; } live[MODEL_LIVE];
	size_t nlive;
	uint64_t rng;
};

static uint64_t model_rand(struct model *m, uint64_t bound)
{
	m->rng = m->rng * 6364136223846793005ull + 1442695040888963407ull;
	return (m->rng >> 33) % bound;
}

static int zone_of_pfn(uint64_t pfn)
{
	if (pfn < VM_ZONE_DMA_LIMIT / VM_PAGE_SIZE)
		return VM_ZONE_DMA;
	if (pfn < VM_ZONE_DMA32_LIMIT / VM_PAGE_SIZE)
		return VM_ZONE_DMA32;
	return VM_ZONE_NORMAL;
}

/* The model's lowest fit in pfns [lo, hi), restricted to zone @z if >= 0. */
static bool model_fit(const struct model *m, uint64_t lo, uint64_t hi,
		      int z, uint64_t n, uint64_t align, uint64_t *pfn)
{
	lo = lo > m->base_pfn ? lo : m->base_pfn;
	hi = hi < m->base_pfn + m->npages ? hi : m->base_pfn + m->npages;
	for (uint64_t p = lo; p < hi && hi - p >= n; p++) {
		uint64_t k;

		if (p % align)
			continue;
		for (k = 0; k < n; k++) {
			uint64_t q = p + k;

			if (m->state[q - m->base_pfn] != VM_PAGE_FREE ||
			    (z >= 0 && zone_of_pfn(q) != z))
				break;
		}
		if (k == n) {
			*pfn = p;
			return true;
		}
	}
	return false;
}

static bool model_contig(const struct model *m, uint64_t n, uint64_t align,
			 uint64_t lo, uint64_t hi, uint64_t *pfn)
{
	for (int z = VM_ZONE_COUNT - 1; z >= 0; z--)
		if (model_fit(m, lo, hi, z, n, align, pfn))
			return true;
	return model_fit(m, lo, hi, -1, n, align, pfn);
}

static void model_check_counts(struct ktest *t, const struct model *m,
			       const struct vm_page_core *c, int step)
{
	uint64_t want[VM_ZONE_COUNT] = { 0 };
	char what[32];

	for (uint64_t i = 0; i < m->npages; i++)
		if (m->state[i] == VM_PAGE_FREE)
			want[zone_of_pfn(m->base_pfn + i)]++;
	snprintf(what, sizeof(what), "step %d", step);
	expect_counts(t, c, want, what);
}

static void model_mark(struct model *m, uint64_t pfn, uint64_t n,
		       enum vm_page_state s)
{
	for (uint64_t i = 0; i < n; i++)
		m->state[pfn + i - m->base_pfn] = (uint8_t)s;
}

/* One random step; false after a mismatch (reported). */
static bool model_step(struct ktest *t, struct model *m,
		       struct vm_page_core *c, int step)
{
	uint64_t op = model_rand(m, 10), pa = 0, pfn = 0, n = 1;
	kern_return_t kr;
	bool fits;

	if (op < 4 && m->nlive > 0) {
		size_t i = model_rand(m, m->nlive);

		vm_page_core_free(c, m->live[i].pa, m->live[i].n);
		model_mark(m, m->live[i].pa / VM_PAGE_SIZE, m->live[i].n,
			   VM_PAGE_FREE);
		m->live[i] = m->live[--m->nlive];
		return true;
	}
	if (m->nlive == MODEL_LIVE)
		return true;
	if (op < 6) {
		enum vm_zone z = (enum vm_zone)model_rand(m, VM_ZONE_COUNT);

		kr = vm_page_core_alloc(c, z, &pa);
		fits = false;
		for (int zz = z; zz >= 0 && !fits; zz--)
			fits = model_fit(m, 0, UINT64_MAX, zz, 1, 1, &pfn);
	} else {
		uint64_t align = 1ull << model_rand(m, 7);
		uint64_t span_lo = m->base_pfn * VM_PAGE_SIZE;
		uint64_t lo = span_lo + model_rand(m, m->npages) *
			      VM_PAGE_SIZE + model_rand(m, 2) * 100;
		uint64_t hi = lo + (1 + model_rand(m, m->npages)) *
			      VM_PAGE_SIZE;

		if (model_rand(m, 4) == 0) {
			lo = 0;
			hi = UINT64_MAX;
		}
		n = 1 + model_rand(m, 48);
		kr = vm_page_core_alloc_contig(c, n, align * VM_PAGE_SIZE, lo,
					       hi, &pa);
		lo = lo / VM_PAGE_SIZE + (lo % VM_PAGE_SIZE != 0);
		fits = model_contig(m, n, align, lo, hi / VM_PAGE_SIZE, &pfn);
	}
	if (kr != (fits ? KERN_SUCCESS : KERN_RESOURCE_SHORTAGE) ||
	    (fits && pa != pfn * VM_PAGE_SIZE)) {
		ktest_fail(t, "step %d (op %llu, %llu pages): got %d at 0x%llx,"
			   " model %d at 0x%llx", step,
			   (unsigned long long)op, (unsigned long long)n, kr,
			   (unsigned long long)pa, fits,
			   (unsigned long long)(pfn * VM_PAGE_SIZE));
		return false;
	}
	if (fits) {
		model_mark(m, pfn, n, VM_PAGE_ALLOCATED);
		m->live[m->nlive].pa = pa;
		m->live[m->nlive].n = n;
		m->nlive++;
	}
	return true;
}

static void model_run(struct ktest *t, const struct vm_page_range *r,
		      size_t nr, uint64_t seed)
{
	static struct model m;
	struct vm_page_core c;
	uint64_t first, end;

	if (!core_make(t, &c, r, nr))
		return;
	memset(&m, 0, sizeof(m));
	m.rng = seed;
	first = UINT64_MAX;
	end = 0;
	for (size_t i = 0; i < nr; i++) {
		if (r[i].base / VM_PAGE_SIZE < first)
			first = r[i].base / VM_PAGE_SIZE;
		if (r[i].end / VM_PAGE_SIZE > end)
			end = r[i].end / VM_PAGE_SIZE;
	}
	m.base_pfn = first;
	m.npages = end - first;
	if (m.npages > MODEL_PAGES) {
		ktest_fail(t, "model too small for %llu pages",
			   (unsigned long long)m.npages);
		return;
	}
	for (size_t i = 0; i < nr; i++)
		model_mark(&m, r[i].base / VM_PAGE_SIZE,
			   (r[i].end - r[i].base) / VM_PAGE_SIZE, VM_PAGE_FREE);
	for (int step = 0; step < 4000; step++) {
		if (!model_step(t, &m, &c, step))
			return;
		if (step % 16 == 0)
			model_check_counts(t, &m, &c, step);
	}
	for (uint64_t i = 0; i < m.npages; i++)
		if (vm_page_core_page_state(&c, (m.base_pfn + i) *
					    VM_PAGE_SIZE) != m.state[i]) {
			ktest_fail(t, "page 0x%llx state differs",
				   (unsigned long long)((m.base_pfn + i) *
							VM_PAGE_SIZE));
			return;
		}
}

static void random_operations_match_model_around_16mib(struct ktest *t)
{
	static const struct vm_page_range r[] = {
		{ MIB(12), MIB(14) - PG(3) }, { MIB(14), MIB(20) },
		{ MIB(20) + PG(1), MIB(20) + PG(7) }, { MIB(22), MIB(36) },
	};

	model_run(t, r, ARRAY_SIZE(r), 1);
	model_run(t, r, ARRAY_SIZE(r), 12345);
}

static void random_operations_match_model_around_4gib(struct ktest *t)
{
	static const struct vm_page_range r[] = {
		{ GIB(4) - MIB(8), GIB(4) - MIB(7) }, { GIB(4) - MIB(6),
						       GIB(4) + MIB(3) },
		{ GIB(4) + MIB(4), GIB(4) + MIB(8) },
	};

	model_run(t, r, ARRAY_SIZE(r), 7);
}

static const struct ktest_case vm_page_cases[] = {
	{ "zones_split_at_16mib_and_4gib", zones_split_at_16mib_and_4gib },
	{ "metadata_is_two_bits_per_page", metadata_is_two_bits_per_page },
	{ "init_rejects_short_or_misaligned_metadata",
	  init_rejects_short_or_misaligned_metadata },
	{ "single_pages_come_from_highest_zone_first",
	  single_pages_come_from_highest_zone_first },
	{ "dma_allocation_never_leaves_dma", dma_allocation_never_leaves_dma },
	{ "contiguous_runs_honour_alignment_and_window",
	  contiguous_runs_honour_alignment_and_window },
	{ "invalid_arguments_are_rejected", invalid_arguments_are_rejected },
	{ "exhaustion_is_shortage_and_changes_nothing",
	  exhaustion_is_shortage_and_changes_nothing },
	{ "freed_middle_run_is_reused_exactly",
	  freed_middle_run_is_reused_exactly },
	{ "page_batches_match_single_allocations",
	  page_batches_match_single_allocations },
	{ "summary_skips_allocated_words_in_a_large_span",
	  summary_skips_allocated_words_in_a_large_span },
	{ "bad_frees_panic_and_change_nothing",
	  bad_frees_panic_and_change_nothing },
	{ "page_state_tells_unmanaged_free_and_allocated",
	  page_state_tells_unmanaged_free_and_allocated },
	{ "range_subtraction_trims_splits_and_drops",
	  range_subtraction_trims_splits_and_drops },
	{ "random_operations_match_model_around_16mib",
	  random_operations_match_model_around_16mib },
	{ "random_operations_match_model_around_4gib",
	  random_operations_match_model_around_4gib },
};

KTEST_SUITE(vm_page_suite, "vm-page", vm_page_cases);
