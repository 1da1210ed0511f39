/* SPDX-License-Identifier: GPL-2.0-only */
/* The physical page allocator: a bitmap core and the kernel's instance. */
/*
 * Design.  One bitmap covers the span from the lowest managed page to the
 * highest, one bit per page (1 = free); zones are ranges of indices into
 * it, so a contiguous run may cross a zone boundary and the zone counts are
 * kept by intersecting each run with the three zone ranges.  A second
 * bitmap marks the pages handed over at init (managed), so that freeing a
 * hole or reserved page is caught, and a summary bitmap has one bit per
 * 64-page word of the free bitmap, set iff that word has a free page.
 *
 * Cost, with N pages in the span: finding the lowest free page of a zone
 * reads one free word and then at most N / 4096 summary words, so one page
 * is O(N / 4096) worst case and O(1) when the zone's low end has free
 * pages.  A contiguous run of n pages in a window of W pages costs
 * O(W / 64 + F) word reads, F the number of free fragments skipped; taking
 * or freeing it costs O(n / 64).  Free checks every page of the run (managed
 * and allocated), O(n / 64).  Counts are O(1).
 *
 * Metadata: 2 bits per page plus 1 bit per 64 pages, rounded to 8 bytes:
 * 128 MiB of span is 32768 pages, 8 KiB + 64 bytes; 4 GiB is 1 Mi pages,
 * 256 KiB + 2 KiB.  A buddy allocator would make single pages O(log N) but
 * makes [lo, hi) windows, odd run lengths and alignments above the run
 * size awkward; runs are rare here, single pages are cheap enough.
 *
 * The core never touches the memory it manages, only its metadata, so
 * tests/host/test_vm_page.c runs it on the host.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kern/panic.h"
#include "kern/string.h"
#include "vm/vm_page.h"
#include "vm/vm_page_core.h"
#include "x86_64/cpu.h"

#define PAGE_SHIFT	12

struct vm_page_core vm_page_kernel_core;

/* Zone z holds page frames [zone_first_pfn[z], zone_first_pfn[z + 1]). */
static const uint64_t zone_first_pfn[VM_ZONE_COUNT + 1] = {
	0,
	VM_ZONE_DMA_LIMIT >> PAGE_SHIFT,
	VM_ZONE_DMA32_LIMIT >> PAGE_SHIFT,
	UINT64_MAX,
};

static uint64_t words_for(uint64_t nbits)
{
	return nbits / 64 + (nbits % 64 != 0);
}

/* The whole pages of @r as frame numbers [*first, *end); false if none. */
static bool range_pfns(const struct vm_page_range *r, uint64_t *first,
		       uint64_t *end)
{
	*first = r->base / VM_PAGE_SIZE + (r->base % VM_PAGE_SIZE != 0);
	*end = r->end / VM_PAGE_SIZE;
	return *first < *end;
}

/* The frames from the lowest managed page to the highest; false if none. */
static bool span_of(const struct vm_page_range *ranges, size_t n,
		    uint64_t *first, uint64_t *end)
{
	bool any = false;
	uint64_t f, e;

	for (size_t i = 0; i < n; i++) {
		if (!range_pfns(&ranges[i], &f, &e))
			continue;
		if (!any || f < *first)
			*first = f;
		if (!any || e > *end)
			*end = e;
		any = true;
	}
	return any;
}

static uint64_t metadata_bytes(uint64_t npages)
{
	uint64_t nwords = words_for(npages);

	return (2 * nwords + words_for(nwords)) * sizeof(uint64_t);
}

/* Bits [s, e) of one word, 0 <= s < e <= 64. */
static uint64_t word_mask(uint64_t s, uint64_t e)
{
	uint64_t high = e == 64 ? ~0ull : (1ull << e) - 1;

	return high & (~0ull << s);
}

/* Set (@on) or clear bits [a, b) of @map. */
static void map_assign(uint64_t *map, uint64_t a, uint64_t b, bool on)
{
	while (a < b) {
		uint64_t w = a / 64, s = a % 64;
		uint64_t e = b - w * 64 >= 64 ? 64 : b - w * 64;
		uint64_t m = word_mask(s, e);

		if (on)
			map[w] |= m;
		else
			map[w] &= ~m;
		a = w * 64 + e;
	}
}

/* The first index in [a, b) whose bit in @map equals @set, or b. */
static uint64_t map_find(const uint64_t *map, uint64_t a, uint64_t b,
			 bool set)
{
	while (a < b) {
		uint64_t w = a / 64, s = a % 64;
		uint64_t e = b - w * 64 >= 64 ? 64 : b - w * 64;
		uint64_t bits = (set ? map[w] : ~map[w]) & word_mask(s, e);

		if (bits)
			return w * 64 + (uint64_t)__builtin_ctzll(bits);
		a = w * 64 + e;
	}
	return b;
}

/* The number of set bits of @map in [a, b). */
static uint64_t map_count(const uint64_t *map, uint64_t a, uint64_t b)
{
	uint64_t n = 0;

	while (a < b) {
		uint64_t w = a / 64, s = a % 64;
		uint64_t e = b - w * 64 >= 64 ? 64 : b - w * 64;

		n += (uint64_t)__builtin_popcountll(map[w] & word_mask(s, e));
		a = w * 64 + e;
	}
	return n;
}

/* Recompute the summary bits of the free words holding indices [a, b). */
static void summary_update(struct vm_page_core *c, uint64_t a, uint64_t b)
{
	for (uint64_t w = a / 64; w < words_for(b); w++)
		map_assign(c->summary, w, w + 1, c->free_map[w] != 0);
}

/* The lowest free page index in [a, b), or b; uses the summary. */
static uint64_t find_free(const struct vm_page_core *c, uint64_t a,
			  uint64_t b)
{
	uint64_t w, bits, i;

	if (a >= b)
		return b;
	w = a / 64;
	bits = c->free_map[w] & (~0ull << (a % 64));
	if (!bits) {
		w = map_find(c->summary, w + 1, words_for(b), true);
		if (w >= words_for(b))
			return b;
		bits = c->free_map[w];
	}
	i = w * 64 + (uint64_t)__builtin_ctzll(bits);
	return i < b ? i : b;
}

/* The page index of frame @pfn clamped to [0, npages]. */
static uint64_t clamp_index(const struct vm_page_core *c, uint64_t pfn)
{
	if (pfn <= c->base_pfn)
		return 0;
	if (pfn - c->base_pfn >= c->npages)
		return c->npages;
	return pfn - c->base_pfn;
}

/* Add (@freed) or remove the pages [a, b) from the zones' free counts. */
static void account(struct vm_page_core *c, uint64_t a, uint64_t b,
		    bool freed)
{
	for (int z = 0; z < VM_ZONE_COUNT; z++) {
		uint64_t lo = a > c->zone_lo[z] ? a : c->zone_lo[z];
		uint64_t hi = b < c->zone_hi[z] ? b : c->zone_hi[z];

		if (lo >= hi)
			continue;
		if (freed)
			c->free_pages[z] += hi - lo;
		else
			c->free_pages[z] -= hi - lo;
	}
}

/* Mark [a, b) allocated (@freed false) or free, with summary and counts. */
static void assign(struct vm_page_core *c, uint64_t a, uint64_t b,
		   bool freed)
{
	map_assign(c->free_map, a, b, freed);
	summary_update(c, a, b);
	account(c, a, b, freed);
}

/*
 * The lowest index i in [a, b) with [i, i + n) free and frame base_pfn + i
 * a multiple of @align_pages (a power of two); false if there is none.
 */
static bool find_run(const struct vm_page_core *c, uint64_t a, uint64_t b,
		     uint64_t n, uint64_t align_pages, uint64_t *out)
{
	uint64_t cand = a, rem, used;

	for (;;) {
		if (cand >= b || b - cand < n)
			return false;
		cand = find_free(c, cand, b);
		if (cand >= b)
			return false;
		rem = (c->base_pfn + cand) & (align_pages - 1);
		if (rem) {
			if (align_pages - rem >= b - cand)
				return false;
			cand += align_pages - rem;
		}
		if (b - cand < n)
			return false;
		used = map_find(c->free_map, cand, cand + n, false);
		if (used == cand + n) {
			*out = cand;
			return true;
		}
		cand = used + 1;
	}
}

uint64_t vm_page_core_metadata_size(const struct vm_page_range *ranges,
				    size_t nranges)
{
	uint64_t first, end;

	if (!span_of(ranges, nranges, &first, &end))
		return 0;
	return metadata_bytes(end - first);
}

kern_return_t vm_page_core_init(struct vm_page_core *c,
				const struct vm_page_range *ranges,
				size_t nranges, void *meta, uint64_t meta_size)
{
	uint64_t first = 0, end = 0, need = 0, f, e;

	if (span_of(ranges, nranges, &first, &end))
		need = metadata_bytes(end - first);
	if (meta_size < need || (need && meta == NULL) ||
	    (uintptr_t)meta % sizeof(uint64_t))
		return KERN_INVALID_ARGUMENT;

	memset(c, 0, sizeof(*c));
	c->base_pfn = first;
	c->npages = end - first;
	c->nwords = words_for(c->npages);
	c->meta = meta;
	c->meta_size = need;
	if (need == 0)
		return KERN_SUCCESS;
	memset(meta, 0, need);
	c->free_map = meta;
	c->managed_map = c->free_map + c->nwords;
	c->summary = c->managed_map + c->nwords;

	for (size_t i = 0; i < nranges; i++)
		if (range_pfns(&ranges[i], &f, &e))
			map_assign(c->managed_map, f - first, e - first, true);
	memcpy(c->free_map, c->managed_map, c->nwords * sizeof(uint64_t));
	summary_update(c, 0, c->npages);
	for (int z = 0; z < VM_ZONE_COUNT; z++) {
		c->zone_lo[z] = clamp_index(c, zone_first_pfn[z]);
		c->zone_hi[z] = clamp_index(c, zone_first_pfn[z + 1]);
		c->total_pages[z] = map_count(c->managed_map, c->zone_lo[z],
					      c->zone_hi[z]);
		c->free_pages[z] = c->total_pages[z];
	}
	return KERN_SUCCESS;
}

kern_return_t vm_page_core_alloc_contig(struct vm_page_core *c,
					uint64_t npages, uint64_t align,
					uint64_t lo, uint64_t hi, uint64_t *pa)
{
	uint64_t a, b, align_pages, idx;
	bool found = false;
	int zones = 0;

	if (pa == NULL || npages == 0 || (align & (align - 1)) || lo >= hi)
		return KERN_INVALID_ARGUMENT;
	align_pages = align < VM_PAGE_SIZE ? 1 : align >> PAGE_SHIFT;
	a = clamp_index(c, lo / VM_PAGE_SIZE + (lo % VM_PAGE_SIZE != 0));
	b = clamp_index(c, hi / VM_PAGE_SIZE);

	for (int z = VM_ZONE_COUNT - 1; z >= 0 && !found; z--) {
		uint64_t za = a > c->zone_lo[z] ? a : c->zone_lo[z];
		uint64_t zb = b < c->zone_hi[z] ? b : c->zone_hi[z];

		zones += za < zb;
		if (za < zb && c->free_pages[z] >= npages)
			found = find_run(c, za, zb, npages, align_pages, &idx);
	}
	/* Only a run crossing a zone boundary can still fit. */
	if (!found && zones > 1)
		found = find_run(c, a, b, npages, align_pages, &idx);
	if (!found)
		return KERN_RESOURCE_SHORTAGE;
	assign(c, idx, idx + npages, false);
	*pa = (c->base_pfn + idx) << PAGE_SHIFT;
	return KERN_SUCCESS;
}

kern_return_t vm_page_core_alloc(struct vm_page_core *c,
				 enum vm_zone highest, uint64_t *pa)
{
	uint64_t idx;

	if (pa == NULL || (unsigned int)highest >= VM_ZONE_COUNT)
		return KERN_INVALID_ARGUMENT;
	for (int z = (int)highest; z >= 0; z--) {
		if (c->free_pages[z] == 0)
			continue;
		idx = find_free(c, c->zone_lo[z], c->zone_hi[z]);
		if (idx >= c->zone_hi[z])
			panic("vm_page: zone %d counts %llu free pages but has "
			      "none", z, (unsigned long long)c->free_pages[z]);
		assign(c, idx, idx + 1, false);
		*pa = (c->base_pfn + idx) << PAGE_SHIFT;
		return KERN_SUCCESS;
	}
	return KERN_RESOURCE_SHORTAGE;
}

kern_return_t vm_page_core_alloc_pages(struct vm_page_core *c,
				       enum vm_zone highest, uint64_t n,
				       uint64_t *pas)
{
	uint64_t avail = 0, got = 0;

	if (pas == NULL || (unsigned int)highest >= VM_ZONE_COUNT)
		return KERN_INVALID_ARGUMENT;
	for (int z = (int)highest; z >= 0; z--)
		avail += c->free_pages[z];
	if (n > avail)
		return KERN_RESOURCE_SHORTAGE;
	/* Whole free words at a time: the pages n single calls would give,
	 * in the same order (lowest first, highest zone first). */
	for (int z = (int)highest; z >= 0 && got < n; z--) {
		uint64_t idx = c->zone_lo[z];

		while (got < n && c->free_pages[z] != 0) {
			uint64_t w, e, bits, take = 0;

			idx = find_free(c, idx, c->zone_hi[z]);
			if (idx >= c->zone_hi[z])
				panic("vm_page: zone %d counts %llu free pages "
				      "but has none", z,
				      (unsigned long long)c->free_pages[z]);
			w = idx / 64;
			e = c->zone_hi[z] - w * 64 < 64 ?
			    c->zone_hi[z] - w * 64 : 64;
			bits = c->free_map[w] & word_mask(idx % 64, e);
			while (bits != 0 && got < n) {
				uint64_t b = (uint64_t)__builtin_ctzll(bits);

				pas[got++] = (c->base_pfn + w * 64 + b) <<
					     PAGE_SHIFT;
				take |= 1ull << b;
				bits &= bits - 1;
			}
			c->free_map[w] &= ~take;
			summary_update(c, w * 64, w * 64 + 1);
			c->free_pages[z] -= (uint64_t)__builtin_popcountll(take);
			idx = w * 64 + e;
		}
	}
	return KERN_SUCCESS;
}

void vm_page_core_free(struct vm_page_core *c, uint64_t pa, uint64_t npages)
{
	uint64_t pfn = pa >> PAGE_SHIFT, idx, bad;

	if (pa % VM_PAGE_SIZE || npages == 0)
		panic("vm_page: free of %llu pages at 0x%llx: not a page run",
		      (unsigned long long)npages, (unsigned long long)pa);
	if (pfn < c->base_pfn || pfn - c->base_pfn >= c->npages ||
	    npages > c->npages - (pfn - c->base_pfn))
		panic("vm_page: free of %llu pages at 0x%llx: outside managed "
		      "memory", (unsigned long long)npages,
		      (unsigned long long)pa);
	idx = pfn - c->base_pfn;
	bad = map_find(c->managed_map, idx, idx + npages, false);
	if (bad < idx + npages)
		panic("vm_page: free of unmanaged page 0x%llx",
		      (unsigned long long)((c->base_pfn + bad) << PAGE_SHIFT));
	bad = map_find(c->free_map, idx, idx + npages, true);
	if (bad < idx + npages)
		panic("vm_page: double free of page 0x%llx",
		      (unsigned long long)((c->base_pfn + bad) << PAGE_SHIFT));
	assign(c, idx, idx + npages, true);
}

uint64_t vm_page_core_free_count(const struct vm_page_core *c,
				 enum vm_zone z)
{
	return (unsigned int)z < VM_ZONE_COUNT ? c->free_pages[z] : 0;
}

uint64_t vm_page_core_total_count(const struct vm_page_core *c,
				  enum vm_zone z)
{
	return (unsigned int)z < VM_ZONE_COUNT ? c->total_pages[z] : 0;
}

enum vm_page_state vm_page_core_page_state(const struct vm_page_core *c,
					   uint64_t pa)
{
	uint64_t pfn = pa >> PAGE_SHIFT, idx;

	if (pfn < c->base_pfn || pfn - c->base_pfn >= c->npages)
		return VM_PAGE_UNMANAGED;
	idx = pfn - c->base_pfn;
	if (map_find(c->managed_map, idx, idx + 1, true) != idx)
		return VM_PAGE_UNMANAGED;
	if (map_find(c->free_map, idx, idx + 1, true) == idx)
		return VM_PAGE_FREE;
	return VM_PAGE_ALLOCATED;
}

kern_return_t vm_page_ranges_subtract(struct vm_page_range *ranges,
				      size_t *nranges, size_t cap,
				      uint64_t lo, uint64_t hi)
{
	size_t n = *nranges, splits = 0, j = 0;

	if (lo >= hi)
		return KERN_SUCCESS;
	for (size_t i = 0; i < n; i++)
		if (ranges[i].base < lo && ranges[i].end > hi)
			splits++;
	if (splits > cap || n > cap - splits)
		return KERN_RESOURCE_SHORTAGE;

	for (size_t i = 0; i < n; i++) {
		struct vm_page_range *r = &ranges[i];

		if (r->base >= hi || r->end <= lo)
			continue;
		if (r->base < lo && r->end > hi) {
			ranges[*nranges].base = hi;
			ranges[*nranges].end = r->end;
			(*nranges)++;
			r->end = lo;
		} else if (r->base < lo) {
			r->end = lo;
		} else if (r->end > hi) {
			r->base = hi;
		} else {
			r->end = r->base;	/* emptied: dropped below */
		}
	}
	for (size_t i = 0; i < *nranges; i++)
		if (ranges[i].base < ranges[i].end)
			ranges[j++] = ranges[i];
	*nranges = j;
	return KERN_SUCCESS;
}

kern_return_t vm_page_alloc_contig(uint64_t npages, uint64_t align,
				   uint64_t lo, uint64_t hi, uint64_t *pa)
{
	uint64_t flags = cpu_intr_save();
	kern_return_t kr;

	kr = vm_page_core_alloc_contig(&vm_page_kernel_core, npages, align, lo,
				       hi, pa);
	cpu_intr_restore(flags);
	return kr;
}

kern_return_t vm_page_alloc(enum vm_zone highest, uint64_t *pa)
{
	uint64_t flags = cpu_intr_save();
	kern_return_t kr;

	kr = vm_page_core_alloc(&vm_page_kernel_core, highest, pa);
	cpu_intr_restore(flags);
	return kr;
}

kern_return_t vm_page_alloc_pages(enum vm_zone highest, uint64_t n,
				  uint64_t *pas)
{
	uint64_t flags = cpu_intr_save();
	kern_return_t kr;

	kr = vm_page_core_alloc_pages(&vm_page_kernel_core, highest, n, pas);
	cpu_intr_restore(flags);
	return kr;
}

void vm_page_free_contig(uint64_t pa, uint64_t npages)
{
	uint64_t flags = cpu_intr_save();

	vm_page_core_free(&vm_page_kernel_core, pa, npages);
	cpu_intr_restore(flags);
}

void vm_page_run_flush(struct vm_page_run *r)
{
	if (r->npages != 0)
		vm_page_free_contig(r->pa, r->npages);
	r->npages = 0;
}

void vm_page_run_add(struct vm_page_run *r, uint64_t pa)
{
	if (r->npages != 0 && pa == r->pa + r->npages * VM_PAGE_SIZE) {
		r->npages++;
		return;
	}
	vm_page_run_flush(r);
	r->pa = pa;
	r->npages = 1;
}

uint64_t vm_page_free_count(enum vm_zone z)
{
	return vm_page_core_free_count(&vm_page_kernel_core, z);
}

uint64_t vm_page_total_count(enum vm_zone z)
{
	return vm_page_core_total_count(&vm_page_kernel_core, z);
}
