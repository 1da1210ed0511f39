/* SPDX-License-Identifier: GPL-2.0-only */
/* Host tests of the region list: rounding, lookup, holes, splits, merges. */

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kern/ktest.h"
#include "kern/panic.h"
#include "tests/host/host_panic.h"
#include "vm/vm_map_entry.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define PG(x)		((uint64_t)(x) * VM_PAGE_SIZE)
#define MIN		PG(1)
#define MAX		0x0000800000000000ull

static struct vm_map_entry pool[16];
static unsigned int pool_used;

static struct vm_map_entry *entry(uint64_t start, uint64_t end,
				  enum vm_map_entry_kind kind, uint64_t phys)
{
	struct vm_map_entry *e = &pool[pool_used++ % ARRAY_SIZE(pool)];

	memset(e, 0, sizeof(*e));
	e->start = start;
	e->end = end;
	e->kind = kind;
	e->phys = phys;
	e->prot = VM_PROT_DEFAULT;
	e->max_prot = VM_PROT_ALL;
	return e;
}

static struct vm_map_entry *anon(uint64_t start, uint64_t end)
{
	return entry(start, end, VM_MAP_ENTRY_ANON, 0);
}

/* A list over [MIN, MAX) with anonymous entries at the page ranges of
 * @bounds (pairs, in any order). */
static void list_make(struct vm_map_entry_list *l, const uint64_t *bounds,
		      size_t npairs)
{
	pool_used = 0;
	vm_map_entry_list_init(l, MIN, MAX);
	for (size_t i = 0; i < npairs; i++)
		vm_map_entry_insert(l, anon(PG(bounds[2 * i]),
					    PG(bounds[2 * i + 1])));
}

/* Check that @l holds exactly the page ranges of @bounds, sorted. */
static void expect_list(struct ktest *t, const struct vm_map_entry_list *l,
			const uint64_t *bounds, size_t npairs)
{
	const struct vm_map_entry *e = vm_map_entry_first(l);
	size_t i = 0;

	for (; e != NULL; e = vm_map_entry_next(l, e), i++) {
		if (i >= npairs) {
			ktest_fail(t, "extra entry [0x%llx, 0x%llx)",
				   (unsigned long long)e->start,
				   (unsigned long long)e->end);
			return;
		}
		if (e->start != PG(bounds[2 * i]) ||
		    e->end != PG(bounds[2 * i + 1]))
			ktest_fail(t, "entry %zu is [0x%llx, 0x%llx), want "
				   "pages [%llu, %llu)", i,
				   (unsigned long long)e->start,
				   (unsigned long long)e->end,
				   (unsigned long long)bounds[2 * i],
				   (unsigned long long)bounds[2 * i + 1]);
		if (e->next->prev != e)
			ktest_fail(t, "entry %zu: broken back link", i);
	}
	KTEST_EXPECT_EQ(t, i, npairs);
	KTEST_EXPECT_EQ(t, l->count, npairs);
}

struct round_case {
	uint64_t addr, size;
	kern_return_t kr;
	uint64_t start, end;
};

static const struct round_case round_cases[] = {
	{ PG(1), 1, KERN_SUCCESS, PG(1), PG(2) },
	{ PG(1) + 5, PG(1), KERN_SUCCESS, PG(1), PG(3) },
	{ PG(3) - 1, 2, KERN_SUCCESS, PG(2), PG(4) },
	{ PG(2), PG(2), KERN_SUCCESS, PG(2), PG(4) },
	{ MAX - PG(1), PG(1), KERN_SUCCESS, MAX - PG(1), MAX },
	{ MIN, MAX - MIN, KERN_SUCCESS, MIN, MAX },
	{ PG(1), 0, KERN_INVALID_ARGUMENT, 0, 0 },
	{ 0, 1, KERN_INVALID_ADDRESS, 0, 0 },
	{ PG(1) - 1, 2, KERN_INVALID_ADDRESS, 0, 0 },
	{ MAX - PG(1), PG(1) + 1, KERN_INVALID_ADDRESS, 0, 0 },
	{ MAX, 1, KERN_INVALID_ADDRESS, 0, 0 },
	{ UINT64_MAX, 1, KERN_INVALID_ADDRESS, 0, 0 },
	{ UINT64_MAX - 10, 20, KERN_INVALID_ADDRESS, 0, 0 },
	{ PG(1), UINT64_MAX, KERN_INVALID_ADDRESS, 0, 0 },
	{ UINT64_MAX - PG(1) + 1, PG(1), KERN_INVALID_ADDRESS, 0, 0 },
	{ 0xffffffff80000000ull, 8, KERN_INVALID_ADDRESS, 0, 0 },
};

static void round_rejects_wrapping_and_outside_ranges(struct ktest *t)
{
	for (size_t i = 0; i < ARRAY_SIZE(round_cases); i++) {
		const struct round_case *c = &round_cases[i];
		uint64_t s = 0x42, e = 0x42;
		kern_return_t kr = vm_map_entry_round(MIN, MAX, c->addr,
						      c->size, &s, &e);

		if (kr != c->kr) {
			ktest_fail(t, "row %zu: returned %d, want %d", i, kr,
				   c->kr);
			continue;
		}
		if (kr == KERN_SUCCESS && (s != c->start || e != c->end))
			ktest_fail(t, "row %zu: [0x%llx, 0x%llx)", i,
				   (unsigned long long)s,
				   (unsigned long long)e);
		if (kr != KERN_SUCCESS && (s != 0x42 || e != 0x42))
			ktest_fail(t, "row %zu: results written on failure",
				   i);
	}
}

static void insert_keeps_entries_sorted(struct ktest *t)
{
	static const uint64_t in[] = { 10, 12, 2, 4, 20, 30, 4, 6, 1, 2 };
	static const uint64_t want[] = { 1, 2, 2, 4, 4, 6, 10, 12, 20, 30 };
	struct vm_map_entry_list l;

	list_make(&l, in, ARRAY_SIZE(in) / 2);
	expect_list(t, &l, want, ARRAY_SIZE(want) / 2);
	EXPECT_PANIC(t, "overlap", vm_map_entry_insert(&l, anon(PG(11),
								PG(13))),
		     "overlaps");
	EXPECT_PANIC(t, "covering", vm_map_entry_insert(&l, anon(PG(7),
								PG(40))),
		     "overlaps");
	EXPECT_PANIC(t, "below min", vm_map_entry_insert(&l, anon(0, PG(1))),
		     "bad entry");
	EXPECT_PANIC(t, "above max", vm_map_entry_insert(&l, anon(MAX,
								 MAX + PG(1))),
		     "bad entry");
	EXPECT_PANIC(t, "empty", vm_map_entry_insert(&l, anon(PG(8), PG(8))),
		     "bad entry");
	EXPECT_PANIC(t, "unaligned", vm_map_entry_insert(&l, anon(PG(8) + 1,
								 PG(9))),
		     "bad entry");
	expect_list(t, &l, want, ARRAY_SIZE(want) / 2);
}

static void lookup_finds_the_containing_entry(struct ktest *t)
{
	static const uint64_t in[] = { 2, 4, 6, 8 };
	struct vm_map_entry_list l;

	list_make(&l, in, 2);
	KTEST_EXPECT_TRUE(t, vm_map_entry_lookup(&l, PG(1)) == NULL);
	KTEST_EXPECT_EQ(t, vm_map_entry_lookup(&l, PG(2))->start, PG(2));
	KTEST_EXPECT_EQ(t, vm_map_entry_lookup(&l, PG(4) - 1)->start, PG(2));
	KTEST_EXPECT_TRUE(t, vm_map_entry_lookup(&l, PG(4)) == NULL);
	KTEST_EXPECT_EQ(t, vm_map_entry_lookup(&l, PG(7) + 3)->start, PG(6));
	KTEST_EXPECT_TRUE(t, vm_map_entry_lookup(&l, PG(8)) == NULL);
	KTEST_EXPECT_EQ(t, vm_map_entry_from(&l, PG(4))->start, PG(6));
	KTEST_EXPECT_EQ(t, vm_map_entry_from(&l, 0)->start, PG(2));
	KTEST_EXPECT_TRUE(t, vm_map_entry_from(&l, PG(8)) == NULL);
}

static void free_and_covered_ranges(struct ktest *t)
{
	static const uint64_t in[] = { 2, 4, 4, 6, 8, 9 };
	struct vm_map_entry_list l;

	list_make(&l, in, 3);
	KTEST_EXPECT_TRUE(t, vm_map_entry_range_free(&l, PG(1), PG(2)));
	KTEST_EXPECT_TRUE(t, vm_map_entry_range_free(&l, PG(6), PG(8)));
	KTEST_EXPECT_TRUE(t, vm_map_entry_range_free(&l, PG(9), MAX));
	KTEST_EXPECT_FALSE(t, vm_map_entry_range_free(&l, PG(1), PG(3)));
	KTEST_EXPECT_FALSE(t, vm_map_entry_range_free(&l, PG(7), PG(9)));
	KTEST_EXPECT_FALSE(t, vm_map_entry_range_free(&l, PG(5), PG(6)));
	KTEST_EXPECT_FALSE(t, vm_map_entry_range_free(&l, MIN, MAX));
	KTEST_EXPECT_TRUE(t, vm_map_entry_range_covered(&l, PG(2), PG(6)));
	KTEST_EXPECT_TRUE(t, vm_map_entry_range_covered(&l, PG(3), PG(5)));
	KTEST_EXPECT_TRUE(t, vm_map_entry_range_covered(&l, PG(8), PG(9)));
	KTEST_EXPECT_FALSE(t, vm_map_entry_range_covered(&l, PG(2), PG(7)));
	KTEST_EXPECT_FALSE(t, vm_map_entry_range_covered(&l, PG(1), PG(3)));
	KTEST_EXPECT_FALSE(t, vm_map_entry_range_covered(&l, PG(5), PG(9)));
	KTEST_EXPECT_FALSE(t, vm_map_entry_range_covered(&l, PG(9), PG(10)));
	KTEST_EXPECT_FALSE(t, vm_map_entry_range_covered(&l, PG(3), PG(3)));
}

static void find_space_takes_the_lowest_hole(struct ktest *t)
{
	static const uint64_t in[] = { 1, 3, 4, 6, 9, 10 };
	struct vm_map_entry_list l;
	uint64_t at = 0;

	vm_map_entry_list_init(&l, MIN, MAX);
	KTEST_EXPECT_EQ(t, vm_map_entry_find_space(&l, PG(5), &at),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, at, MIN);
	KTEST_EXPECT_EQ(t, vm_map_entry_find_space(&l, MAX - MIN, &at),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, vm_map_entry_find_space(&l, MAX, &at),
			KERN_NO_SPACE);
	list_make(&l, in, 3);
	KTEST_EXPECT_EQ(t, vm_map_entry_find_space(&l, PG(1), &at),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, at, PG(3));
	KTEST_EXPECT_EQ(t, vm_map_entry_find_space(&l, PG(3), &at),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, at, PG(6));
	KTEST_EXPECT_EQ(t, vm_map_entry_find_space(&l, PG(4), &at),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, at, PG(10));
	KTEST_EXPECT_EQ(t, vm_map_entry_find_space(&l, MAX - PG(10), &at),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, at, PG(10));
	at = 7;
	KTEST_EXPECT_EQ(t, vm_map_entry_find_space(&l, MAX - PG(9), &at),
			KERN_NO_SPACE);
	KTEST_EXPECT_EQ(t, at, 7);
	/* A list filled to the top has no hole at all. */
	vm_map_entry_insert(&l, anon(PG(10), MAX));
	KTEST_EXPECT_EQ(t, vm_map_entry_find_space(&l, PG(4), &at),
			KERN_NO_SPACE);
	EXPECT_PANIC(t, "size 0", vm_map_entry_find_space(&l, 0, &at),
		     "bad size");
	EXPECT_PANIC(t, "unaligned", vm_map_entry_find_space(&l, 5, &at),
		     "bad size");
}

static void clip_splits_straddling_entries(struct ktest *t)
{
	static const uint64_t want[] = { 2, 4, 4, 7, 7, 10 };
	struct vm_map_entry_list l;
	struct vm_map_entry *spares[2];
	struct vm_map_entry *e;

	pool_used = 0;
	vm_map_entry_list_init(&l, MIN, MAX);
	e = entry(PG(2), PG(10), VM_MAP_ENTRY_PHYS_OWNED, 0x100000);
	e->prot = VM_PROT_READ;
	vm_map_entry_insert(&l, e);
	KTEST_EXPECT_EQ(t, vm_map_entry_clip_needs(&l, PG(4), PG(7)), 2);
	KTEST_EXPECT_EQ(t, vm_map_entry_clip_needs(&l, PG(2), PG(7)), 1);
	KTEST_EXPECT_EQ(t, vm_map_entry_clip_needs(&l, PG(1), PG(10)), 0);
	KTEST_EXPECT_EQ(t, vm_map_entry_clip_needs(&l, MIN, MAX), 0);
	spares[0] = anon(0, 0);
	spares[1] = anon(0, 0);
	vm_map_entry_clip(&l, PG(4), PG(7), spares);
	KTEST_EXPECT_TRUE(t, spares[0] == NULL && spares[1] == NULL);
	expect_list(t, &l, want, 3);
	for (e = vm_map_entry_first(&l); e; e = vm_map_entry_next(&l, e)) {
		KTEST_EXPECT_EQ(t, e->phys, 0x100000 + e->start - PG(2));
		KTEST_EXPECT_EQ(t, e->kind, VM_MAP_ENTRY_PHYS_OWNED);
		KTEST_EXPECT_EQ(t, e->prot, VM_PROT_READ);
	}
	/* Already on boundaries: nothing to split, no spare taken. */
	KTEST_EXPECT_EQ(t, vm_map_entry_clip_needs(&l, PG(4), PG(10)), 0);
	spares[0] = anon(0, 0);
	spares[1] = NULL;
	vm_map_entry_clip(&l, PG(4), PG(10), spares);
	KTEST_EXPECT_TRUE(t, spares[0] != NULL);
	expect_list(t, &l, want, 3);
	spares[0] = NULL;
	EXPECT_PANIC(t, "no spare", vm_map_entry_clip(&l, PG(5), PG(6),
						      spares),
		     "out of spare");
}

static void merge_joins_only_matching_anonymous_neighbours(struct ktest *t)
{
	static const uint64_t in[] = { 2, 4, 4, 6, 7, 8 };
	static const uint64_t merged[] = { 2, 6, 7, 8 };
	struct vm_map_entry_list l;
	struct vm_map_entry *e, *gone, *phys;

	list_make(&l, in, 3);
	e = vm_map_entry_first(&l);
	e->prot = VM_PROT_READ;
	KTEST_EXPECT_TRUE(t, vm_map_entry_merge_next(&l, e) == NULL);
	e->prot = VM_PROT_DEFAULT;
	e->max_prot = VM_PROT_READ;
	KTEST_EXPECT_TRUE(t, vm_map_entry_merge_next(&l, e) == NULL);
	e->max_prot = VM_PROT_ALL;
	gone = vm_map_entry_merge_next(&l, e);
	KTEST_EXPECT_TRUE(t, gone != NULL && gone->start == PG(4));
	expect_list(t, &l, merged, 2);
	/* Not touching. */
	KTEST_EXPECT_TRUE(t, vm_map_entry_merge_next(&l, e) == NULL);
	/* The last entry and the head have nothing after them. */
	KTEST_EXPECT_TRUE(t, vm_map_entry_merge_next(&l, e->next) == NULL);
	KTEST_EXPECT_TRUE(t, vm_map_entry_merge_next(&l, &l.head) == NULL);
	/* Physical neighbours stay apart. */
	phys = entry(PG(8), PG(9), VM_MAP_ENTRY_PHYS, 0x200000);
	vm_map_entry_insert(&l, phys);
	KTEST_EXPECT_TRUE(t, vm_map_entry_merge_next(&l, e->next) == NULL);
	vm_map_entry_unlink(&l, phys);
	expect_list(t, &l, merged, 2);
}

static const struct ktest_case vm_map_cases[] = {
	{ "round_rejects_wrapping_and_outside_ranges",
	  round_rejects_wrapping_and_outside_ranges },
	{ "insert_keeps_entries_sorted", insert_keeps_entries_sorted },
	{ "lookup_finds_the_containing_entry",
	  lookup_finds_the_containing_entry },
	{ "free_and_covered_ranges", free_and_covered_ranges },
	{ "find_space_takes_the_lowest_hole",
	  find_space_takes_the_lowest_hole },
	{ "clip_splits_straddling_entries", clip_splits_straddling_entries },
	{ "merge_joins_only_matching_anonymous_neighbours",
	  merge_joins_only_matching_anonymous_neighbours },
};

KTEST_SUITE(vm_map_suite, "vm-map", vm_map_cases);
