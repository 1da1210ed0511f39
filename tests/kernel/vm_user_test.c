/* SPDX-License-Identifier: GPL-2.0-only */
/* Suite "vm-user": user address spaces, page tables, copyin/copyout, copies. */
/*
 * No user thread exists yet, so every case drives the maps from kernel
 * mode: it activates a map, moves data with copyin/copyout (the path
 * mach_msg will use) and puts the boot page tables back with
 * vm_map_activate(NULL) before it ends.  Leak checks compare vm_page free
 * counts, which come back exactly because kalloc returns empty slabs.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kern/kalloc.h"
#include "kern/ktest.h"
#include "kern/string.h"
#include "vm/vm_map.h"
#include "vm/vm_map_priv.h"
#include "vm/vm_page.h"
#include "x86_64/copy.h"
#include "x86_64/layout.h"
#include "x86_64/pmap.h"
#include "x86_64/trap.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define PAGE		VM_PAGE_SIZE
#define GIB(x)		((uint64_t)(x) << 30)

static uint8_t buf_a[4 * PAGE], buf_b[4 * PAGE];

static uint64_t free_pages(void)
{
	uint64_t n = 0;

	for (int z = 0; z < VM_ZONE_COUNT; z++)
		n += vm_page_free_count(z);
	return n;
}

/* The emptied page tables @m's pmap keeps for its next ones (pmap.h):
 * held, not free, until they serve again or the map goes. */
static uint64_t spare_tables(const struct vm_map *m)
{
	return m->pmap->nspare;
}

static void fill(uint8_t *p, size_t n, unsigned int seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(i * 7 + seed + (i >> 8));
}

static bool all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != 0)
			return false;
	return true;
}

static void *uptr(uint64_t addr)
{
	return (void *)addr;
}

/* A new map, made active; NULL (and a failure) if it cannot be made. */
static struct vm_map *map_begin(struct ktest *t)
{
	struct vm_map *m = vm_map_create();

	if (m == NULL)
		ktest_fail(t, "vm_map_create failed");
	else
		vm_map_activate(m);
	return m;
}

static void map_end(struct vm_map *m)
{
	vm_map_activate(NULL);
	vm_map_destroy(m);
}

/* Two maps, the first one active; false (and @t failed) if either could
 * not be made, with nothing left behind. */
static bool map_pair_begin(struct ktest *t, struct vm_map **src,
			   struct vm_map **dst)
{
	*src = map_begin(t);
	*dst = vm_map_create();
	if (*src != NULL && *dst != NULL)
		return true;
	if (*dst == NULL)
		ktest_fail(t, "vm_map_create failed");
	map_end(*src);
	vm_map_destroy(*dst);
	return false;
}

static void map_pair_end(struct vm_map *src, struct vm_map *dst)
{
	vm_map_activate(NULL);
	vm_map_destroy(dst);
	vm_map_destroy(src);
}

static void allocate_then_copyout_and_copyin_round_trip(struct ktest *t)
{
	struct vm_map *m = map_begin(t);
	uint64_t addr = 0;

	if (m == NULL)
		return;
	KTEST_EXPECT_EQ(t, vm_map_allocate(m, &addr, 3 * PAGE, true),
			KERN_SUCCESS);
	KTEST_EXPECT_GE(t, addr, VM_MIN_ADDRESS);
	KTEST_EXPECT_EQ(t, addr % PAGE, 0);
	KTEST_EXPECT_EQ(t, vm_map_resident_pages(m), 0);
	fill(buf_a, 10000, 1);
	KTEST_EXPECT_EQ(t, copyout(buf_a, uptr(addr + 100), 10000), 0);
	KTEST_EXPECT_EQ(t, vm_map_resident_pages(m), 3);
	memset(buf_b, 0, sizeof(buf_b));
	KTEST_EXPECT_EQ(t, copyin(uptr(addr + 100), buf_b, 10000), 0);
	KTEST_EXPECT_MEMEQ(t, buf_a, buf_b, 10000);
	/* The kernel sees the same bytes through the user mapping. */
	KTEST_EXPECT_EQ(t, *(volatile uint8_t *)uptr(addr + 100 + 5000),
			buf_a[5000]);
	KTEST_EXPECT_EQ(t, copyin(uptr(addr), buf_b, 0), 0);
	map_end(m);
}

static void untouched_memory_reads_as_zero(struct ktest *t)
{
	struct vm_map *m = map_begin(t);
	uint64_t addr = 0;

	if (m == NULL)
		return;
	KTEST_EXPECT_EQ(t, vm_map_allocate(m, &addr, 4 * PAGE, true),
			KERN_SUCCESS);
	memset(buf_b, 0xa5, sizeof(buf_b));
	KTEST_EXPECT_EQ(t, copyin(uptr(addr + PAGE), buf_b, 2 * PAGE), 0);
	KTEST_EXPECT_TRUE(t, all_zero(buf_b, 2 * PAGE));
	KTEST_EXPECT_EQ(t, vm_map_resident_pages(m), 2);
	/* A direct kernel read demand-zeroes too. */
	KTEST_EXPECT_EQ(t, *(volatile uint64_t *)uptr(addr + 3 * PAGE + 8),
			0);
	KTEST_EXPECT_EQ(t, vm_map_resident_pages(m), 3);
	map_end(m);
}

static void copyin_from_unmapped_address_fails_cleanly(struct ktest *t)
{
	struct vm_map *m = map_begin(t);
	uint64_t addr = 0x40000000;

	if (m == NULL)
		return;
	KTEST_EXPECT_EQ(t, vm_map_allocate(m, &addr, PAGE, false),
			KERN_SUCCESS);
	fill(buf_a, PAGE, 3);
	KTEST_EXPECT_EQ(t, copyout(buf_a, uptr(addr), PAGE), 0);
	KTEST_EXPECT_EQ(t, copyin(uptr(addr + 16 * PAGE), buf_b, 8), -1);
	KTEST_EXPECT_EQ(t, copyout(buf_a, uptr(addr - PAGE), 8), -1);
	/* Crossing the end of the region: the mapped part is copied. */
	memset(buf_b, 0, sizeof(buf_b));
	KTEST_EXPECT_EQ(t, copyin(uptr(addr + PAGE - 64), buf_b, 128), -1);
	KTEST_EXPECT_MEMEQ(t, buf_b, buf_a + PAGE - 64, 64);
	/* Nothing was broken on the way: copies still work. */
	KTEST_EXPECT_EQ(t, copyin(uptr(addr), buf_b, PAGE), 0);
	KTEST_EXPECT_MEMEQ(t, buf_a, buf_b, PAGE);
	KTEST_EXPECT_EQ(t, vm_map_resident_pages(m), 1);
	map_end(m);
	/* Without an active map nothing is user memory. */
	KTEST_EXPECT_EQ(t, copyin(uptr(addr), buf_b, 8), -1);
	KTEST_EXPECT_EQ(t, copyout(buf_a, uptr(addr), 8), -1);
}

static void copyout_to_read_only_memory_fails(struct ktest *t)
{
	struct vm_map *m = map_begin(t);
	uint64_t addr = 0;

	if (m == NULL)
		return;
	KTEST_EXPECT_EQ(t, vm_map_allocate(m, &addr, 2 * PAGE, true),
			KERN_SUCCESS);
	fill(buf_a, PAGE, 5);
	KTEST_EXPECT_EQ(t, copyout(buf_a, uptr(addr), PAGE), 0);
	KTEST_EXPECT_EQ(t, vm_map_protect(m, addr, 2 * PAGE, false,
					  VM_PROT_READ), KERN_SUCCESS);
	/* Resident and not yet touched pages both refuse writes. */
	KTEST_EXPECT_EQ(t, copyout(buf_b, uptr(addr), 8), -1);
	KTEST_EXPECT_EQ(t, copyout(buf_b, uptr(addr + PAGE), 8), -1);
	KTEST_EXPECT_EQ(t, vm_map_fault(m, addr, VM_PROT_WRITE),
			KERN_PROTECTION_FAILURE);
	KTEST_EXPECT_EQ(t, copyin(uptr(addr), buf_b, 2 * PAGE), 0);
	KTEST_EXPECT_MEMEQ(t, buf_a, buf_b, PAGE);
	KTEST_EXPECT_TRUE(t, all_zero(buf_b + PAGE, PAGE));
	/* Writable again: the write goes through. */
	KTEST_EXPECT_EQ(t, vm_map_protect(m, addr, 2 * PAGE, false,
					  VM_PROT_DEFAULT), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, copyout(buf_a, uptr(addr + PAGE), 8), 0);
	map_end(m);
}

struct bad_range {
	uint64_t addr;
	size_t n;
};

static const struct bad_range bad_ranges[] = {
	{ 0, 8 },
	{ VM_MIN_ADDRESS - 1, 2 },
	{ VM_MAX_ADDRESS, 1 },
	{ VM_MAX_ADDRESS - 8, 16 },
	{ VM_MAX_ADDRESS - PAGE, PAGE + 1 },
	{ UINT64_MAX - 7, 16 },
	{ VM_MIN_ADDRESS, SIZE_MAX },
	{ VM_MAX_ADDRESS - PAGE, SIZE_MAX - 100 },
	{ KERNEL_BASE, 8 },
	{ DIRECT_MAP_BASE, 8 },
	{ 0x0000800000001000ull, 8 },	/* not canonical */
};

static void copyin_beyond_user_space_fails(struct ktest *t)
{
	struct vm_map *m = map_begin(t);
	uint64_t top = VM_MAX_ADDRESS - PAGE, low = VM_MIN_ADDRESS;

	if (m == NULL)
		return;
	/* The user-space parts of the ranges are mapped. */
	KTEST_EXPECT_EQ(t, vm_map_allocate(m, &top, PAGE, false),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, vm_map_allocate(m, &low, PAGE, false),
			KERN_SUCCESS);
	for (size_t i = 0; i < ARRAY_SIZE(bad_ranges); i++) {
		const struct bad_range *r = &bad_ranges[i];

		memset(buf_b, 0x5a, 64);
		if (copyin(uptr(r->addr), buf_b, r->n) != -1)
			ktest_fail(t, "copyin 0x%llx+%zu did not fail",
				   (unsigned long long)r->addr, r->n);
		if (copyout(buf_a, uptr(r->addr), r->n) != -1)
			ktest_fail(t, "copyout 0x%llx+%zu did not fail",
				   (unsigned long long)r->addr, r->n);
		if (buf_b[0] != 0x5a)
			ktest_fail(t, "copyin 0x%llx+%zu copied",
				   (unsigned long long)r->addr, r->n);
	}
	/* Nothing was touched on the way. */
	KTEST_EXPECT_EQ(t, vm_map_resident_pages(m), 0);
	KTEST_EXPECT_EQ(t, copyout(buf_a, uptr(VM_MAX_ADDRESS - 8), 8), 0);
	map_end(m);
}

static void allocate_fixed_over_existing_region_is_no_space(struct ktest *t)
{
	struct vm_map *m = map_begin(t);
	uint64_t base = 0x10000000, a;

	if (m == NULL)
		return;
	a = base;
	KTEST_EXPECT_EQ(t, vm_map_allocate(m, &a, 3 * PAGE, false),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, a, base);
	a = base;
	KTEST_EXPECT_EQ(t, vm_map_allocate(m, &a, PAGE, false),
			KERN_NO_SPACE);
	a = base + 2 * PAGE;
	KTEST_EXPECT_EQ(t, vm_map_allocate(m, &a, 2 * PAGE, false),
			KERN_NO_SPACE);
	a = base - PAGE + 1;	/* rounds to [base - PAGE, base + PAGE) */
	KTEST_EXPECT_EQ(t, vm_map_allocate(m, &a, PAGE, false),
			KERN_NO_SPACE);
	a = base + 3 * PAGE + 10;
	KTEST_EXPECT_EQ(t, vm_map_allocate(m, &a, 10, false), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, a, base + 3 * PAGE);
	/* Outside user space. */
	a = 0;
	KTEST_EXPECT_EQ(t, vm_map_allocate(m, &a, PAGE, false),
			KERN_INVALID_ADDRESS);
	a = VM_MAX_ADDRESS - PAGE;
	KTEST_EXPECT_EQ(t, vm_map_allocate(m, &a, 2 * PAGE, false),
			KERN_INVALID_ADDRESS);
	a = UINT64_MAX - PAGE;
	KTEST_EXPECT_EQ(t, vm_map_allocate(m, &a, 3 * PAGE, false),
			KERN_INVALID_ADDRESS);
	a = KERNEL_BASE;
	KTEST_EXPECT_EQ(t, vm_map_allocate(m, &a, PAGE, false),
			KERN_INVALID_ADDRESS);
	a = 0x20000000;
	KTEST_EXPECT_EQ(t, vm_map_allocate(m, &a, UINT64_MAX, false),
			KERN_INVALID_ADDRESS);
	KTEST_EXPECT_EQ(t, vm_map_allocate(m, &a, UINT64_MAX, true),
			KERN_NO_SPACE);
	KTEST_EXPECT_EQ(t, vm_map_allocate(m, &a, VM_MAX_ADDRESS, true),
			KERN_NO_SPACE);
	map_end(m);
}

static void allocate_anywhere_avoids_existing_regions(struct ktest *t)
{
	struct vm_map *m = map_begin(t);
	uint64_t fixed = VM_MIN_ADDRESS, a = 0, b = 0;

	if (m == NULL)
		return;
	KTEST_EXPECT_EQ(t, vm_map_allocate(m, &fixed, 2 * PAGE, false),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, vm_map_allocate(m, &a, PAGE + 1, true),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, vm_map_allocate(m, &b, PAGE, true), KERN_SUCCESS);
	KTEST_EXPECT_GE(t, a, fixed + 2 * PAGE);
	KTEST_EXPECT_TRUE(t, b >= a + 2 * PAGE || b + PAGE <= a);
	KTEST_EXPECT_TRUE(t, b >= fixed + 2 * PAGE);
	/* A hole left by a deallocation is reused. */
	KTEST_EXPECT_EQ(t, vm_map_remove(m, fixed, PAGE), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, vm_map_allocate(m, &a, PAGE, true), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, a, fixed);
	map_end(m);
}

static void allocate_zero_size_is_invalid_argument(struct ktest *t)
{
	struct vm_map *m = map_begin(t);
	uint64_t a = 0x10000;

	if (m == NULL)
		return;
	KTEST_EXPECT_EQ(t, vm_map_allocate(m, &a, 0, false),
			KERN_INVALID_ARGUMENT);
	KTEST_EXPECT_EQ(t, vm_map_allocate(m, &a, 0, true),
			KERN_INVALID_ARGUMENT);
	KTEST_EXPECT_EQ(t, vm_map_allocate_physical(m, &a, 0x200000, 0, true),
			KERN_INVALID_ARGUMENT);
	KTEST_EXPECT_EQ(t, vm_map_allocate_physical(m, &a, 0x200010, PAGE,
						    false),
			KERN_INVALID_ARGUMENT);
	KTEST_EXPECT_EQ(t, vm_map_allocate_physical(m, &a, -PAGE, 2 * PAGE,
						    false),
			KERN_INVALID_ARGUMENT);
	KTEST_EXPECT_EQ(t, vm_map_allocate(NULL, &a, PAGE, true),
			KERN_INVALID_ARGUMENT);
	KTEST_EXPECT_EQ(t, vm_map_allocate(m, NULL, PAGE, true),
			KERN_INVALID_ARGUMENT);
	KTEST_EXPECT_EQ(t, a, 0x10000);
	/* Zero-size deallocate and protect do nothing, successfully. */
	KTEST_EXPECT_EQ(t, vm_map_remove(m, 0x10000, 0), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, vm_map_protect(m, 0x10000, 0, false, VM_PROT_READ),
			KERN_SUCCESS);
	map_end(m);
}

static void deallocate_returns_pages(struct ktest *t)
{
	struct vm_map *m = map_begin(t);
	uint64_t base = 0x30000000, a = base, empty;

	if (m == NULL)
		return;
	empty = free_pages();
	KTEST_EXPECT_EQ(t, vm_map_allocate(m, &a, 16 * PAGE, false),
			KERN_SUCCESS);
	for (uint64_t i = 0; i < 16; i++) {
		fill(buf_a, PAGE, (unsigned int)i);
		KTEST_EXPECT_EQ(t, copyout(buf_a, uptr(base + i * PAGE), PAGE),
				0);
	}
	KTEST_EXPECT_EQ(t, vm_map_resident_pages(m), 16);
	/* 16 pages, a PDPT, a PD and a page table. */
	KTEST_EXPECT_LE(t, free_pages() + 16 + 3, empty);
	/* A hole in the middle splits the region; the rest keeps its data. */
	KTEST_EXPECT_EQ(t, vm_map_remove(m, base + 4 * PAGE + 1,
					     PAGE - 1), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, vm_map_resident_pages(m), 15);
	KTEST_EXPECT_EQ(t, copyin(uptr(base + 4 * PAGE), buf_b, 8), -1);
	KTEST_EXPECT_EQ(t, copyin(uptr(base + 5 * PAGE), buf_b, PAGE), 0);
	fill(buf_a, PAGE, 5);
	KTEST_EXPECT_MEMEQ(t, buf_a, buf_b, PAGE);
	KTEST_EXPECT_EQ(t, copyin(uptr(base + 3 * PAGE), buf_b, PAGE), 0);
	fill(buf_a, PAGE, 3);
	KTEST_EXPECT_MEMEQ(t, buf_a, buf_b, PAGE);
	/* Unmapped parts are ignored; bad ranges are refused. */
	KTEST_EXPECT_EQ(t, vm_map_remove(m, base - 8 * PAGE, 32 * PAGE),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, vm_map_resident_pages(m), 0);
	/* The PDPT, the PD and the page table emptied: kept as spares. */
	KTEST_EXPECT_EQ(t, spare_tables(m), 3);
	KTEST_EXPECT_EQ(t, free_pages() + spare_tables(m), empty);
	KTEST_EXPECT_EQ(t, vm_map_remove(m, base, 0), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, vm_map_remove(m, VM_MAX_ADDRESS - PAGE,
					     2 * PAGE), KERN_INVALID_ADDRESS);
	KTEST_EXPECT_EQ(t, vm_map_remove(m, KERNEL_BASE, PAGE),
			KERN_INVALID_ADDRESS);
	KTEST_EXPECT_EQ(t, vm_map_remove(m, PAGE, UINT64_MAX),
			KERN_INVALID_ADDRESS);
	map_end(m);
}

/*
 * A page alone in its 2 MiB, mapped and removed again and again (a
 * small out-of-line message received and deallocated): its page table
 * goes to the pmap's spares when emptied and serves the next mapping,
 * zeroed, so no table is allocated or freed on the way; at most
 * PMAP_SPARE_TABLES are kept, and destroying the map returns them.
 */
static void emptied_tables_serve_again(struct ktest *t)
{
	uint64_t before = free_pages(), base = 0x32000000, a, mapped = 0;
	struct vm_map *m = map_begin(t);

	if (m == NULL)
		return;
	a = base + 0x200000;	/* a neighbour: the PD and PDPT stay */
	KTEST_EXPECT_EQ(t, vm_map_allocate(m, &a, PAGE, false), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, copyout(buf_a, uptr(a), 8), 0);
	for (int i = 0; i < 4; i++) {
		a = base;
		KTEST_EXPECT_EQ(t, vm_map_allocate(m, &a, PAGE, false),
				KERN_SUCCESS);
		fill(buf_a, PAGE, (unsigned int)i);
		KTEST_EXPECT_EQ(t, copyout(buf_a, uptr(base), PAGE), 0);
		KTEST_EXPECT_EQ(t, spare_tables(m), 0);
		/* the first time a new page table, then the spare */
		if (i == 0)
			mapped = free_pages();
		KTEST_EXPECT_EQ(t, free_pages(), mapped);
		/* the table taken again holds no other page */
		KTEST_EXPECT_EQ(t, copyin(uptr(base + PAGE), buf_b, 8), -1);
		KTEST_EXPECT_EQ(t, vm_map_remove(m, base, PAGE),
				KERN_SUCCESS);
		/* the page went back, its table stayed as a spare */
		KTEST_EXPECT_EQ(t, spare_tables(m), 1);
		KTEST_EXPECT_EQ(t, free_pages(), mapped + 1);
		KTEST_EXPECT_EQ(t, copyin(uptr(base), buf_b, 8), -1);
	}
	/* Regions far apart: at most PMAP_SPARE_TABLES kept. */
	for (uint64_t i = 0; i < 4; i++) {
		a = 0x40000000ull * (i + 2);
		KTEST_EXPECT_EQ(t, vm_map_allocate(m, &a, PAGE, false),
				KERN_SUCCESS);
		KTEST_EXPECT_EQ(t, copyout(buf_a, uptr(a), 8), 0);
	}
	for (uint64_t i = 0; i < 4; i++)
		KTEST_EXPECT_EQ(t, vm_map_remove(m, 0x40000000ull * (i + 2),
						 PAGE), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, spare_tables(m), PMAP_SPARE_TABLES);
	map_end(m);
	KTEST_EXPECT_EQ(t, free_pages(), before);
}

/*
 * A removal of more than 32 pages of the active map flushes the TLB once
 * at its end instead of page by page: no removed page stays reachable
 * through a translation cached before, and memory allocated again in
 * the same place is fresh.
 */
static void large_removal_leaves_no_stale_translation(struct ktest *t)
{
	struct vm_map *m = map_begin(t);
	uint64_t base = 0x31000000, a = base, empty;
	const uint64_t pages = 64;

	if (m == NULL)
		return;
	empty = free_pages();
	KTEST_EXPECT_EQ(t, vm_map_allocate(m, &a, pages * PAGE, false),
			KERN_SUCCESS);
	fill(buf_a, PAGE, 9);
	for (uint64_t i = 0; i < pages; i++)
		KTEST_EXPECT_EQ(t, copyout(buf_a, uptr(base + i * PAGE), PAGE),
				0);
	/* every page's translation cached: read through it */
	for (uint64_t i = 0; i < pages; i++)
		KTEST_EXPECT_EQ(t, *(volatile uint8_t *)uptr(base + i * PAGE +
							       1),
				buf_a[1]);
	KTEST_EXPECT_EQ(t, vm_map_remove(m, base, pages * PAGE),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, free_pages() + spare_tables(m), empty);
	for (uint64_t i = 0; i < pages; i += 7)
		KTEST_EXPECT_EQ(t, copyin(uptr(base + i * PAGE), buf_b, 8), -1);
	KTEST_EXPECT_EQ(t, vm_map_allocate(m, &a, pages * PAGE, false),
			KERN_SUCCESS);
	for (uint64_t i = 0; i < pages; i++)
		KTEST_EXPECT_EQ(t, *(volatile uint8_t *)uptr(base + i * PAGE +
							       1),
				0);
	map_end(m);
}

static void protect_above_maximum_fails(struct ktest *t)
{
	struct vm_map *m = map_begin(t);
	uint64_t a = 0, hole;

	if (m == NULL)
		return;
	KTEST_EXPECT_EQ(t, vm_map_allocate(m, &a, 4 * PAGE, true),
			KERN_SUCCESS);
	fill(buf_a, 4 * PAGE, 9);
	KTEST_EXPECT_EQ(t, copyout(buf_a, uptr(a), 4 * PAGE), 0);
	KTEST_EXPECT_EQ(t, vm_map_protect(m, a + PAGE, PAGE, true,
					  VM_PROT_READ), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, vm_map_protect(m, a + PAGE, PAGE, false,
					  VM_PROT_DEFAULT),
			KERN_PROTECTION_FAILURE);
	KTEST_EXPECT_EQ(t, vm_map_protect(m, a, 4 * PAGE, false,
					  VM_PROT_DEFAULT),
			KERN_PROTECTION_FAILURE);
	KTEST_EXPECT_EQ(t, vm_map_protect(m, a + PAGE, PAGE, true,
					  VM_PROT_ALL),
			KERN_PROTECTION_FAILURE);
	/* Setting the maximum lowered the current protection. */
	KTEST_EXPECT_EQ(t, copyout(buf_a, uptr(a + PAGE), 8), -1);
	KTEST_EXPECT_EQ(t, copyout(buf_a, uptr(a + 2 * PAGE), 8), 0);
	/* Holes and bad protections. */
	hole = a + 4 * PAGE;
	KTEST_EXPECT_EQ(t, vm_map_remove(m, hole, PAGE), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, vm_map_protect(m, a, 5 * PAGE, false,
					  VM_PROT_READ), KERN_INVALID_ADDRESS);
	KTEST_EXPECT_EQ(t, vm_map_protect(m, a, PAGE, false, 0x8),
			KERN_INVALID_ARGUMENT);
	KTEST_EXPECT_EQ(t, vm_map_protect(m, KERNEL_BASE, PAGE, false,
					  VM_PROT_READ), KERN_INVALID_ADDRESS);
	/* VM_PROT_NONE hides the data; it is still there afterwards. */
	KTEST_EXPECT_EQ(t, vm_map_protect(m, a, 4 * PAGE, false,
					  VM_PROT_NONE), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, copyin(uptr(a + 3 * PAGE), buf_b, 8), -1);
	KTEST_EXPECT_EQ(t, vm_map_resident_pages(m), 4);
	KTEST_EXPECT_EQ(t, vm_map_protect(m, a, 4 * PAGE, false,
					  VM_PROT_READ), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, copyin(uptr(a), buf_b, 4 * PAGE), 0);
	fill(buf_a, 4 * PAGE, 9);
	KTEST_EXPECT_MEMEQ(t, buf_a, buf_b, 2 * PAGE);
	KTEST_EXPECT_MEMEQ(t, buf_a, buf_b + 2 * PAGE, 8);
	KTEST_EXPECT_MEMEQ(t, buf_a + 2 * PAGE + 8, buf_b + 2 * PAGE + 8,
			   2 * PAGE - 8);
	map_end(m);
}

static void vm_map_fault_checks_region_and_access(struct ktest *t)
{
	struct vm_map *m = map_begin(t);
	uint64_t a = 0;

	if (m == NULL)
		return;
	KTEST_EXPECT_EQ(t, vm_map_allocate(m, &a, PAGE, true), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, vm_map_fault(m, a + 5, VM_PROT_EXECUTE),
			KERN_PROTECTION_FAILURE);
	KTEST_EXPECT_EQ(t, vm_map_fault(m, a + PAGE, VM_PROT_READ),
			KERN_INVALID_ADDRESS);
	KTEST_EXPECT_EQ(t, vm_map_fault(m, 0, VM_PROT_READ),
			KERN_INVALID_ADDRESS);
	KTEST_EXPECT_EQ(t, vm_map_fault(m, KERNEL_BASE, VM_PROT_READ),
			KERN_INVALID_ADDRESS);
	KTEST_EXPECT_EQ(t, vm_map_resident_pages(m), 0);
	KTEST_EXPECT_EQ(t, vm_map_fault(m, a + 5, VM_PROT_WRITE),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, vm_map_fault(m, a + 6, VM_PROT_READ),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, vm_map_resident_pages(m), 1);
	map_end(m);
}

static void unresolved_kernel_fault_still_reaches_trap_catch(struct ktest *t)
{
	struct vm_map *m = map_begin(t);
	struct trap_catch c;
	volatile uint64_t *p = uptr(0x50000);

	if (m == NULL)
		return;
	if (trap_catch_enter(&c) == 0) {
		(void)*p;
		trap_catch_disarm();
		ktest_fail(t, "read of unmapped user memory did not fault");
	} else {
		KTEST_EXPECT_EQ(t, c.vector, TRAP_PF);
		KTEST_EXPECT_EQ(t, c.cr2, 0x50000);
	}
	map_end(m);
}

static void each_map_has_its_own_pages(struct ktest *t)
{
	struct vm_map *m1 = map_begin(t), *m2 = vm_map_create();
	uint64_t a1 = 0x70000000, a2 = a1;

	if (m1 == NULL || m2 == NULL) {
		ktest_fail(t, "vm_map_create failed");
		vm_map_activate(NULL);
		vm_map_destroy(m1);
		vm_map_destroy(m2);
		return;
	}
	KTEST_EXPECT_TRUE(t, vm_map_active() == m1);
	KTEST_EXPECT_EQ(t, vm_map_allocate(m1, &a1, PAGE, false),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, vm_map_allocate(m2, &a2, PAGE, false),
			KERN_SUCCESS);
	fill(buf_a, PAGE, 11);
	KTEST_EXPECT_EQ(t, copyout(buf_a, uptr(a1), PAGE), 0);
	vm_map_activate(m2);
	KTEST_EXPECT_EQ(t, copyin(uptr(a2), buf_b, PAGE), 0);
	KTEST_EXPECT_TRUE(t, all_zero(buf_b, PAGE));
	vm_map_activate(m1);
	KTEST_EXPECT_EQ(t, copyin(uptr(a1), buf_b, PAGE), 0);
	KTEST_EXPECT_MEMEQ(t, buf_a, buf_b, PAGE);
	vm_map_activate(NULL);
	KTEST_EXPECT_TRUE(t, vm_map_active() == NULL);
	vm_map_destroy(m2);
	vm_map_destroy(m1);
}

static const uint64_t far_addresses[] = {
	VM_MIN_ADDRESS,
	0x200000,			/* the next page table */
	GIB(1),				/* the next page directory */
	GIB(4),
	GIB(8) + 0x1234000,
	GIB(512),			/* the next PML4 entry */
	GIB(512 * 77) + GIB(3),
	VM_MAX_ADDRESS - 2 * PAGE,
};

static void destroy_map_returns_every_page(struct ktest *t)
{
	uint64_t before = free_pages(), heap = kalloc_bytes_in_use();
	struct vm_map *m = map_begin(t);
	uint64_t big = 0;

	if (m == NULL)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(far_addresses); i++) {
		uint64_t a = far_addresses[i];

		if (vm_map_allocate(m, &a, 2 * PAGE, false) != KERN_SUCCESS) {
			ktest_fail(t, "allocate at 0x%llx failed",
				   (unsigned long long)far_addresses[i]);
			continue;
		}
		if (copyout(buf_a, uptr(a + PAGE - 4), 8) != 0)
			ktest_fail(t, "copyout at 0x%llx failed",
				   (unsigned long long)a);
	}
	KTEST_EXPECT_EQ(t, vm_map_resident_pages(m),
			2 * ARRAY_SIZE(far_addresses));
	KTEST_EXPECT_EQ(t, vm_map_allocate(m, &big, 600 * PAGE, true),
			KERN_SUCCESS);
	for (uint64_t i = 0; i < 600; i++)
		KTEST_EXPECT_EQ(t, copyout(&i, uptr(big + i * PAGE), 8), 0);
	KTEST_EXPECT_EQ(t, vm_map_protect(m, big + PAGE, 10 * PAGE, false,
					  VM_PROT_NONE), KERN_SUCCESS);
	KTEST_EXPECT_LE(t, free_pages() + 600 + 15, before);
	map_end(m);
	KTEST_EXPECT_EQ(t, free_pages(), before);
	KTEST_EXPECT_EQ(t, kalloc_bytes_in_use(), heap);
}

static void copy_snapshot_survives_source_change(struct ktest *t)
{
	uint64_t a = 0, b = 0, before = free_pages();
	struct vm_map *src, *dst;
	struct vm_map_copy *copy = NULL;

	if (!map_pair_begin(t, &src, &dst))
		return;
	KTEST_EXPECT_EQ(t, vm_map_allocate(src, &a, 3 * PAGE, true),
			KERN_SUCCESS);
	fill(buf_a, 3 * PAGE, 21);
	KTEST_EXPECT_EQ(t, copyout(buf_a, uptr(a), 3 * PAGE), 0);
	KTEST_EXPECT_EQ(t, vm_map_copyin(src, a + 50, 9000, false, &copy),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, vm_map_copy_size(copy), 9000);
	/* The source changes after the snapshot, and stays. */
	fill(buf_b, 3 * PAGE, 99);
	KTEST_EXPECT_EQ(t, copyout(buf_b, uptr(a), 3 * PAGE), 0);
	KTEST_EXPECT_EQ(t, vm_map_resident_pages(src), 3);
	vm_map_activate(dst);
	KTEST_EXPECT_EQ(t, vm_map_copyout(dst, copy, &b), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, b % PAGE, 50);
	memset(buf_b, 0, sizeof(buf_b));
	KTEST_EXPECT_EQ(t, copyin(uptr(b), buf_b, 9000), 0);
	KTEST_EXPECT_MEMEQ(t, buf_a + 50, buf_b, 9000);
	KTEST_EXPECT_EQ(t, vm_map_resident_pages(dst), 3);
	/* The copy's region is ordinary memory of the destination. */
	KTEST_EXPECT_EQ(t, vm_map_remove(dst, b, 9000), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, vm_map_resident_pages(dst), 0);
	map_pair_end(src, dst);
	KTEST_EXPECT_EQ(t, free_pages(), before);
}

static void copyin_with_dealloc_removes_source(struct ktest *t)
{
	uint64_t a = 0, b = 0, before = free_pages();
	struct vm_map *src, *dst;
	struct vm_map_copy *copy = NULL;

	if (!map_pair_begin(t, &src, &dst))
		return;
	KTEST_EXPECT_EQ(t, vm_map_allocate(src, &a, 6 * PAGE, true),
			KERN_SUCCESS);
	/* Pages 1 and 3 are touched, 2 and 4 never; 0 and 5 stay. */
	fill(buf_a, 4 * PAGE, 31);
	KTEST_EXPECT_EQ(t, copyout(buf_a, uptr(a + PAGE), PAGE), 0);
	KTEST_EXPECT_EQ(t, copyout(buf_a + 2 * PAGE, uptr(a + 3 * PAGE),
				   PAGE), 0);
	KTEST_EXPECT_EQ(t, copyout(buf_a, uptr(a), 8), 0);
	KTEST_EXPECT_EQ(t, vm_map_copyin(src, a + PAGE, 4 * PAGE, true, &copy),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, vm_map_resident_pages(src), 1);
	KTEST_EXPECT_EQ(t, copyin(uptr(a + PAGE), buf_b, 8), -1);
	KTEST_EXPECT_EQ(t, copyin(uptr(a + 4 * PAGE), buf_b, 8), -1);
	KTEST_EXPECT_EQ(t, copyin(uptr(a), buf_b, 8), 0);
	KTEST_EXPECT_EQ(t, copyout(buf_a, uptr(a + 5 * PAGE), 8), 0);
	vm_map_activate(dst);
	KTEST_EXPECT_EQ(t, vm_map_copyout(dst, copy, &b), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, vm_map_resident_pages(dst), 2);
	KTEST_EXPECT_EQ(t, copyin(uptr(b), buf_b, 4 * PAGE), 0);
	KTEST_EXPECT_MEMEQ(t, buf_a, buf_b, PAGE);
	KTEST_EXPECT_TRUE(t, all_zero(buf_b + PAGE, PAGE));
	KTEST_EXPECT_MEMEQ(t, buf_a + 2 * PAGE, buf_b + 2 * PAGE, PAGE);
	KTEST_EXPECT_TRUE(t, all_zero(buf_b + 3 * PAGE, PAGE));
	map_pair_end(src, dst);
	KTEST_EXPECT_EQ(t, free_pages(), before);
}

static void zero_size_copy_is_null(struct ktest *t)
{
	struct vm_map *m = map_begin(t);
	struct vm_map_copy *copy = (struct vm_map_copy *)1;
	uint64_t a = 0, b = 1;

	if (m == NULL)
		return;
	KTEST_EXPECT_EQ(t, vm_map_copyin(m, 0x12345, 0, false, &copy),
			KERN_SUCCESS);
	KTEST_EXPECT_TRUE(t, copy == NULL);
	KTEST_EXPECT_EQ(t, vm_map_copy_size(copy), 0);
	KTEST_EXPECT_EQ(t, vm_map_copyout(m, NULL, &b), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, b, 0);
	vm_map_copy_discard(NULL);
	/* Bad sources are refused with the header's codes. */
	KTEST_EXPECT_EQ(t, vm_map_allocate(m, &a, 2 * PAGE, true),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, vm_map_copyin(m, a, 3 * PAGE, false, &copy),
			KERN_INVALID_ADDRESS);
	KTEST_EXPECT_EQ(t, vm_map_copyin(m, KERNEL_BASE, 8, false, &copy),
			KERN_INVALID_ADDRESS);
	KTEST_EXPECT_EQ(t, vm_map_copyin(m, a, UINT64_MAX, false, &copy),
			KERN_INVALID_ADDRESS);
	KTEST_EXPECT_EQ(t, vm_map_protect(m, a + PAGE, PAGE, false,
					  VM_PROT_WRITE), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, vm_map_copyin(m, a, 2 * PAGE, true, &copy),
			KERN_PROTECTION_FAILURE);
	KTEST_EXPECT_EQ(t, vm_map_copyin(m, a, 8, false, NULL),
			KERN_INVALID_ARGUMENT);
	/* The failed dealloc copyin left the region in place. */
	KTEST_EXPECT_EQ(t, copyout(buf_a, uptr(a), 8), 0);
	map_end(m);
}

static void discarded_copy_returns_pages(struct ktest *t)
{
	struct vm_map *m = map_begin(t);
	struct vm_map_copy *copy = NULL;
	uint64_t a = 0, before;

	if (m == NULL)
		return;
	KTEST_EXPECT_EQ(t, vm_map_allocate(m, &a, 8 * PAGE, true),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, copyout(buf_a, uptr(a), 4 * PAGE), 0);
	before = free_pages();
	KTEST_EXPECT_EQ(t, vm_map_copyin(m, a, 8 * PAGE, false, &copy),
			KERN_SUCCESS);
	KTEST_EXPECT_LE(t, free_pages() + 4, before);
	vm_map_copy_discard(copy);
	KTEST_EXPECT_EQ(t, free_pages(), before);
	map_end(m);
}

static void physical_mapping_of_contiguous_pages(struct ktest *t)
{
	struct vm_map *m = map_begin(t);
	uint64_t pa, a = 0, b = 0, base;
	uint8_t *direct;

	if (m == NULL)
		return;
	if (vm_page_alloc_contig(4, 0, 0, DIRECT_MAP_SIZE, &pa) !=
	    KERN_SUCCESS) {
		ktest_fail(t, "no contiguous pages");
		map_end(m);
		return;
	}
	direct = phys_to_virt(pa);
	fill(direct, 4 * PAGE, 41);
	base = free_pages();
	KTEST_EXPECT_EQ(t, vm_map_allocate_physical(m, &a, pa, 4 * PAGE,
						    true), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, copyin(uptr(a), buf_b, 4 * PAGE), 0);
	KTEST_EXPECT_MEMEQ(t, direct, buf_b, 4 * PAGE);
	fill(buf_a, 64, 43);
	KTEST_EXPECT_EQ(t, copyout(buf_a, uptr(a + 2 * PAGE + 8), 64), 0);
	KTEST_EXPECT_MEMEQ(t, direct + 2 * PAGE + 8, buf_a, 64);
	/* The same frames, mapped a second time without ownership. */
	KTEST_EXPECT_EQ(t, vm_map_allocate_physical(m, &b, pa + PAGE, PAGE,
						    false), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, copyin(uptr(b), buf_b, PAGE), 0);
	KTEST_EXPECT_MEMEQ(t, direct + PAGE, buf_b, PAGE);
	KTEST_EXPECT_EQ(t, vm_map_remove(m, b, PAGE), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, vm_map_resident_pages(m), 4);
	/* Owned: a page deallocated alone goes back, then the rest. */
	KTEST_EXPECT_EQ(t, vm_map_remove(m, a + PAGE, PAGE), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, copyin(uptr(a + 2 * PAGE + 8), buf_b, 64), 0);
	KTEST_EXPECT_MEMEQ(t, buf_a, buf_b, 64);
	KTEST_EXPECT_EQ(t, vm_map_remove(m, a, 4 * PAGE), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, free_pages() + spare_tables(m), base + 4);
	map_end(m);
}

/* Free runs chained through their first page (as in vm_test.c). */
static uint64_t chain_push(uint64_t head, uint64_t pa)
{
	*(uint64_t *)phys_to_virt(pa) = head;
	return pa;
}

static void chain_free(uint64_t head)
{
	while (head) {
		uint64_t next = *(uint64_t *)phys_to_virt(head);

		vm_page_free_contig(head, 1);
		head = next;
	}
}

static void out_of_memory_fails_without_changes(struct ktest *t)
{
	struct vm_map *m = map_begin(t);
	struct vm_map_copy *copy = NULL;
	uint64_t a = 0, head = 0, pa;

	if (m == NULL)
		return;
	KTEST_EXPECT_EQ(t, vm_map_allocate(m, &a, 4 * PAGE, true),
			KERN_SUCCESS);
	fill(buf_a, PAGE, 51);
	KTEST_EXPECT_EQ(t, copyout(buf_a, uptr(a), PAGE), 0);
	while (vm_page_alloc(VM_ZONE_NORMAL, &pa) == KERN_SUCCESS)
		head = chain_push(head, pa);
	KTEST_EXPECT_EQ(t, vm_map_fault(m, a + PAGE, VM_PROT_WRITE),
			KERN_RESOURCE_SHORTAGE);
	KTEST_EXPECT_EQ(t, copyout(buf_a, uptr(a + 2 * PAGE), 8), -1);
	KTEST_EXPECT_EQ(t, vm_map_copyin(m, a, PAGE, false, &copy),
			KERN_RESOURCE_SHORTAGE);
	KTEST_EXPECT_EQ(t, vm_map_resident_pages(m), 1);
	KTEST_EXPECT_EQ(t, copyin(uptr(a), buf_b, PAGE), 0);
	KTEST_EXPECT_MEMEQ(t, buf_a, buf_b, PAGE);
	chain_free(head);
	KTEST_EXPECT_EQ(t, copyout(buf_a, uptr(a + 2 * PAGE), 8), 0);
	map_end(m);
}

static void kernel_data_copy_maps_in_a_task(struct ktest *t)
{
	uint64_t before = free_pages(), heap = kalloc_bytes_in_use(), a = 0;
	struct vm_map_copy *copy = NULL;
	struct vm_map *m = map_begin(t);

	if (m == NULL)
		return;
	fill(buf_a, 5000, 61);
	KTEST_EXPECT_EQ(t, vm_map_copy_from_kernel(buf_a, 5000, &copy),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, vm_map_copy_size(copy), 5000);
	KTEST_EXPECT_EQ(t, vm_map_copyout(m, copy, &a), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, a % PAGE, 0);
	KTEST_EXPECT_EQ(t, vm_map_resident_pages(m), 2);
	memset(buf_b, 0xff, sizeof(buf_b));
	KTEST_EXPECT_EQ(t, copyin(uptr(a), buf_b, 2 * PAGE), 0);
	KTEST_EXPECT_MEMEQ(t, buf_a, buf_b, 5000);
	if (!all_zero(buf_b + 5000, 2 * PAGE - 5000))
		ktest_fail(t, "the rest of the last page is not zero");
	KTEST_EXPECT_EQ(t, vm_map_copy_from_kernel(buf_a, 0, &copy),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, (uint64_t)(uintptr_t)copy, 0);
	map_end(m);
	KTEST_EXPECT_EQ(t, free_pages(), before);
	KTEST_EXPECT_EQ(t, kalloc_bytes_in_use(), heap);
}

/* Four pages at @a in @src: 0 and 2 written, 1 untouched, 3 written
 * then made read-only. */
static void fork_source(struct ktest *t, struct vm_map *src, uint64_t *a)
{
	KTEST_EXPECT_EQ(t, vm_map_allocate(src, a, 4 * PAGE, true),
			KERN_SUCCESS);
	fill(buf_a, 4 * PAGE, 71);
	KTEST_EXPECT_EQ(t, copyout(buf_a, uptr(*a), PAGE), 0);
	KTEST_EXPECT_EQ(t, copyout(buf_a + 2 * PAGE, uptr(*a + 2 * PAGE),
				   2 * PAGE), 0);
	KTEST_EXPECT_EQ(t, vm_map_protect(src, *a + 3 * PAGE, PAGE, false,
					  VM_PROT_READ), KERN_SUCCESS);
}

static void fork_copies_resident_pages_apart(struct ktest *t)
{
	uint64_t before = free_pages(), heap = kalloc_bytes_in_use(), a = 0;
	struct vm_map *src = map_begin(t), *dst = NULL;

	if (src == NULL)
		return;
	fork_source(t, src, &a);
	KTEST_EXPECT_EQ(t, vm_map_fork(src, &dst), KERN_SUCCESS);
	if (dst == NULL) {
		map_end(src);
		return;
	}
	KTEST_EXPECT_EQ(t, vm_map_resident_pages(dst), 3);
	KTEST_EXPECT_EQ(t, vm_map_virtual_size(dst), 4 * PAGE);
	vm_map_activate(dst);
	memset(buf_b, 0xff, sizeof(buf_b));
	KTEST_EXPECT_EQ(t, copyin(uptr(a), buf_b, 4 * PAGE), 0);
	KTEST_EXPECT_MEMEQ(t, buf_a, buf_b, PAGE);
	if (!all_zero(buf_b + PAGE, PAGE))
		ktest_fail(t, "the untouched page is not zero in the copy");
	KTEST_EXPECT_MEMEQ(t, buf_a + 2 * PAGE, buf_b + 2 * PAGE, 2 * PAGE);
	/* Protections travel; the copy's pages are its own. */
	KTEST_EXPECT_EQ(t, copyout(buf_a, uptr(a + 3 * PAGE), 8), -1);
	memset(buf_b, 0x5a, PAGE);
	KTEST_EXPECT_EQ(t, copyout(buf_b, uptr(a), PAGE), 0);
	vm_map_activate(src);
	KTEST_EXPECT_EQ(t, copyin(uptr(a), buf_b, PAGE), 0);
	KTEST_EXPECT_MEMEQ(t, buf_a, buf_b, PAGE);
	map_pair_end(src, dst);
	KTEST_EXPECT_EQ(t, free_pages(), before);
	KTEST_EXPECT_EQ(t, kalloc_bytes_in_use(), heap);
}

/* Out of pages part-way through the copy: nothing is made, nothing
 * stays taken. */
static void fork_without_memory_leaves_nothing(struct ktest *t)
{
	uint64_t before = free_pages(), heap, a = 0, head = 0, pa;
	struct vm_map *src = map_begin(t), *dst = NULL;

	if (src == NULL)
		return;
	fork_source(t, src, &a);
	heap = kalloc_bytes_in_use();
	while (vm_page_alloc(VM_ZONE_NORMAL, &pa) == KERN_SUCCESS)
		head = chain_push(head, pa);
	/* Room for the new map's tables, not for all three copies. */
	for (int i = 0; i < 6 && head != 0; i++) {
		uint64_t next = *(uint64_t *)phys_to_virt(head);

		vm_page_free_contig(head, 1);
		head = next;
	}
	KTEST_EXPECT_EQ(t, vm_map_fork(src, &dst), KERN_RESOURCE_SHORTAGE);
	KTEST_EXPECT_EQ(t, (uint64_t)(uintptr_t)dst, 0);
	chain_free(head);
	KTEST_EXPECT_EQ(t, kalloc_bytes_in_use(), heap);
	map_end(src);
	KTEST_EXPECT_EQ(t, free_pages(), before);
}

static const struct ktest_case vm_user_cases[] = {
	{ "allocate_then_copyout_and_copyin_round_trip",
	  allocate_then_copyout_and_copyin_round_trip },
	{ "untouched_memory_reads_as_zero", untouched_memory_reads_as_zero },
	{ "copyin_from_unmapped_address_fails_cleanly",
	  copyin_from_unmapped_address_fails_cleanly },
	{ "copyout_to_read_only_memory_fails",
	  copyout_to_read_only_memory_fails },
	{ "copyin_beyond_user_space_fails", copyin_beyond_user_space_fails },
	{ "allocate_fixed_over_existing_region_is_no_space",
	  allocate_fixed_over_existing_region_is_no_space },
	{ "allocate_anywhere_avoids_existing_regions",
	  allocate_anywhere_avoids_existing_regions },
	{ "allocate_zero_size_is_invalid_argument",
	  allocate_zero_size_is_invalid_argument },
	{ "deallocate_returns_pages", deallocate_returns_pages },
	{ "emptied_tables_serve_again", emptied_tables_serve_again },
	{ "large_removal_leaves_no_stale_translation",
	  large_removal_leaves_no_stale_translation },
	{ "protect_above_maximum_fails", protect_above_maximum_fails },
	{ "vm_map_fault_checks_region_and_access",
	  vm_map_fault_checks_region_and_access },
	{ "unresolved_kernel_fault_still_reaches_trap_catch",
	  unresolved_kernel_fault_still_reaches_trap_catch },
	{ "each_map_has_its_own_pages", each_map_has_its_own_pages },
	{ "destroy_map_returns_every_page", destroy_map_returns_every_page },
	{ "copy_snapshot_survives_source_change",
	  copy_snapshot_survives_source_change },
	{ "copyin_with_dealloc_removes_source",
	  copyin_with_dealloc_removes_source },
	{ "zero_size_copy_is_null", zero_size_copy_is_null },
	{ "discarded_copy_returns_pages", discarded_copy_returns_pages },
	{ "physical_mapping_of_contiguous_pages",
	  physical_mapping_of_contiguous_pages },
	{ "out_of_memory_fails_without_changes",
	  out_of_memory_fails_without_changes },
	{ "kernel_data_copy_maps_in_a_task", kernel_data_copy_maps_in_a_task },
	{ "fork_copies_resident_pages_apart",
	  fork_copies_resident_pages_apart },
	{ "fork_without_memory_leaves_nothing",
	  fork_without_memory_leaves_nothing },
};

KTEST_SUITE(vm_user_suite, "vm-user", vm_user_cases);
