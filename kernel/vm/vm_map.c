/* SPDX-License-Identifier: GPL-2.0-only */
/* Task address spaces: regions over a pmap, demand-zero faults, copies. */
/*
 * Design.  A map is a sorted region list (vm_map_entry.c) over a pmap
 * (x86_64/pmap.c).  The pmap is also the record of the frames of
 * anonymous regions: a page is resident iff its leaf holds a frame, and a
 * VM_PROT_NONE page keeps its frame in a not-present leaf.  Physical
 * regions need no record: the frame of a page is the region's base plus
 * its offset, entered on first touch like anonymous memory.
 *
 * Every operation validates its arguments and allocates what it needs
 * (entries for splits, frames for copies) before it changes anything, so a
 * failure leaves the map as it was.
 *
 * Copies.  vm_map_copyin() copies the contents of every resident page
 * into new frames at once (pages never touched stay zero pages and cost
 * nothing); with dealloc it moves the frames of anonymous pages instead
 * of copying them.  A copy for a kernel receiver larger than
 * VM_MAP_COPY_BYTES_MAX borrows the resident anonymous frames instead
 * (vm_map_copyin_loan, vm_page_loan.h): the map keeps them, mapped
 * without write access, and whatever would change or free a lent frame
 * leaves it to the copy:
 * - a write fault gives the page a new frame with the same contents
 *   (loan_break), and so does vm_map_copy_overwrite before it writes;
 * - vm_map_protect keeps lent pages without write access;
 * - removing the page (vm_map_remove, vm_map_destroy) makes the frame an
 *   orphan, freed when the last copy holding it is discarded;
 * - vm_map_copyin with dealloc copies a lent frame instead of moving it.
 * A page whose loan ended keeps its frame; its next write fault only
 * makes it writable again.  vm_map_pin (vm_map_pin.c) holds a range's
 * frames in the same registry for a device to write into, the pages
 * left writable: the same rules keep a held frame from being freed.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kern/kalloc.h"
#include "kern/panic.h"
#include "kern/string.h"
#include "vm/vm_map.h"
#include "vm/vm_map_copy.h"
#include "vm/vm_map_copy_kernel.h"
#include "vm/vm_map_entry.h"
#include "vm/vm_map_priv.h"
#include "vm/vm_page.h"
#include "vm/vm_page_loan.h"
#include "x86_64/cpu.h"
#include "x86_64/layout.h"
#include "x86_64/pmap.h"

#define PAGE_MASK	(VM_PAGE_SIZE - 1)

/* Memory a kernel object lent the map (vm_map_lend): never copied. */
static bool lent(const struct vm_map_entry *e)
{
	return e->kind == VM_MAP_ENTRY_DEVICE || e->kind == VM_MAP_ENTRY_LENT;
}

_Static_assert(VM_MAX_ADDRESS == PMAP_USER_END,
	       "user space is the pmap's user half");

static struct vm_map *active_map;

static kern_return_t user_range(uint64_t addr, uint64_t size, uint64_t *start,
				uint64_t *end)
{
	return vm_map_entry_round(VM_MIN_ADDRESS, VM_MAX_ADDRESS, addr, size,
				  start, end);
}

static struct vm_map_entry *entry_new(enum vm_map_entry_kind kind,
				      uint64_t phys)
{
	struct vm_map_entry *e = kzalloc(sizeof(*e));

	if (e == NULL)
		return NULL;
	e->kind = kind;
	e->phys = phys;
	e->prot = VM_PROT_DEFAULT;
	e->max_prot = VM_PROT_ALL;
	return e;
}

/* Allocate the @n (at most 2) spare entries a clip needs; false if out of
 * memory (then none is held). */
static bool spares_get(struct vm_map_entry *spares[2], unsigned int n)
{
	spares[0] = NULL;
	spares[1] = NULL;
	for (unsigned int i = 0; i < n; i++) {
		spares[i] = kzalloc(sizeof(*spares[i]));
		if (spares[i] == NULL) {
			kfree(spares[0]);
			spares[0] = NULL;
			return false;
		}
	}
	return true;
}

static void spares_put(struct vm_map_entry *spares[2])
{
	kfree(spares[0]);
	kfree(spares[1]);
}

/* Free what merging @e with its neighbours unlinks. */
static void merge_around(struct vm_map *map, struct vm_map_entry *e)
{
	kfree(vm_map_entry_merge_next(&map->entries, e));
	kfree(vm_map_entry_merge_next(&map->entries, e->prev));
}

/* pmap_remove's callback: @pa goes to the run @arg (vm_page_run). */
static void free_frame(void *arg, uint64_t va, uint64_t pa)
{
	(void)va;
	if (vm_page_loans_active != 0 && vm_page_loan_orphan(pa))
		return;		/* the copies holding it free it */
	vm_page_run_add(arg, pa);
}

/* Whether frame @pa of an anonymous page is lent to a copy. */
static bool frame_lent(uint64_t pa)
{
	return vm_page_loans_active != 0 && vm_page_loaned(pa);
}

/*
 * Page @page of @map holds frame @pa, lent to a copy: give the page a
 * new frame with the same contents, mapped with @prot, and leave @pa to
 * the copies (an orphan).  KERN_SUCCESS or KERN_RESOURCE_SHORTAGE (the
 * page unchanged).  Interrupts off.
 */
static kern_return_t loan_break(struct vm_map *map, uint64_t page,
				uint64_t pa, vm_prot_t prot)
{
	uint64_t fresh;
	kern_return_t kr;

	if (vm_page_alloc(VM_ZONE_DMA32, &fresh) != KERN_SUCCESS)
		return KERN_RESOURCE_SHORTAGE;
	memcpy(phys_to_virt(fresh), phys_to_virt(pa), VM_PAGE_SIZE);
	kr = pmap_enter(map->pmap, page, fresh, prot, true);
	if (kr != KERN_SUCCESS) {
		vm_page_free_contig(fresh, 1);
		return kr;
	}
	vm_page_loan_orphan(pa);
	return KERN_SUCCESS;
}

/* Take write access from the lent pages of anonymous entry @e.
 * Interrupts off. */
static void loans_protect(struct vm_map *map, const struct vm_map_entry *e)
{
	uint64_t pa;

	if (vm_page_loans_active == 0 || e->kind != VM_MAP_ENTRY_ANON ||
	    !(e->prot & VM_PROT_WRITE))
		return;
	for (uint64_t va = e->start; va < e->end; va += VM_PAGE_SIZE)
		if (pmap_extract(map->pmap, va, &pa) && vm_page_loaned(pa))
			pmap_protect(map->pmap, va, va + VM_PAGE_SIZE,
				     e->prot & ~VM_PROT_WRITE);
}

/* Unmap entry @e (whole) and give back the memory it owns; unlink and free
 * it. */
static void entry_destroy(struct vm_map *map, struct vm_map_entry *e)
{
	uint64_t npages = (e->end - e->start) / VM_PAGE_SIZE;
	struct vm_page_run run = { 0 };

	pmap_remove(map->pmap, e->start, e->end,
		    e->kind == VM_MAP_ENTRY_ANON ? free_frame : NULL, &run);
	vm_page_run_flush(&run);
	if (e->kind == VM_MAP_ENTRY_PHYS_OWNED)
		vm_page_free_contig(e->phys, npages);
	vm_map_entry_unlink(&map->entries, e);
	kfree(e);
}

/* Remove [start, end) (validated) with the spares its clip needs. */
static void remove_range(struct vm_map *map, uint64_t start, uint64_t end,
			 struct vm_map_entry *spares[2])
{
	struct vm_map_entry *e, *next;

	vm_map_entry_clip(&map->entries, start, end, spares);
	for (e = vm_map_entry_from(&map->entries, start);
	     e != NULL && e->start < end; e = next) {
		next = vm_map_entry_next(&map->entries, e);
		entry_destroy(map, e);
	}
}

struct vm_map *vm_map_create(void)
{
	struct vm_map *map = kzalloc(sizeof(*map));

	if (map == NULL)
		return NULL;
	map->pmap = pmap_create();
	if (map->pmap == NULL) {
		kfree(map);
		return NULL;
	}
	vm_map_entry_list_init(&map->entries, VM_MIN_ADDRESS, VM_MAX_ADDRESS);
	return map;
}

void vm_map_destroy(struct vm_map *map)
{
	struct vm_map_entry *spares[2] = { NULL, NULL };
	uint64_t flags;

	if (map == NULL)
		return;
	if (map == active_map)
		panic("vm_map_destroy: map %p is active", map);
	flags = cpu_intr_save();
	if (pmap_active() == map->pmap)	/* loaded still (vm_map_activate) */
		pmap_activate(NULL);
	remove_range(map, VM_MIN_ADDRESS, VM_MAX_ADDRESS, spares);
	cpu_intr_restore(flags);
	pmap_destroy(map->pmap);
	kfree(map);
}

/* Insert a new entry of @kind over [*addr, *addr + size) (anywhere or
 * fixed), checked as vm_map_allocate() says. */
static kern_return_t enter_region(struct vm_map *map, uint64_t *addr,
				  uint64_t size, bool anywhere,
				  enum vm_map_entry_kind kind, uint64_t phys)
{
	struct vm_map_entry *e;
	uint64_t start, end, flags;
	kern_return_t kr;

	if (anywhere) {
		if (size > VM_MAX_ADDRESS - VM_MIN_ADDRESS)
			return KERN_NO_SPACE;
	} else {
		kr = user_range(*addr, size, &start, &end);
		if (kr != KERN_SUCCESS)
			return kr;
	}
	e = entry_new(kind, phys);
	if (e == NULL)
		return KERN_RESOURCE_SHORTAGE;
	flags = cpu_intr_save();
	if (anywhere) {
		uint64_t len = (size + PAGE_MASK) & ~PAGE_MASK;

		kr = vm_map_entry_find_space(&map->entries, len, &start);
		end = start + len;
	} else if (!vm_map_entry_range_free(&map->entries, start, end)) {
		kr = KERN_NO_SPACE;
	}
	if (kr != KERN_SUCCESS) {
		cpu_intr_restore(flags);
		kfree(e);
		return kr;
	}
	e->start = start;
	e->end = end;
	vm_map_entry_insert(&map->entries, e);
	if (kind == VM_MAP_ENTRY_ANON)
		merge_around(map, e);
	cpu_intr_restore(flags);
	*addr = start;
	return KERN_SUCCESS;
}

kern_return_t vm_map_allocate(struct vm_map *map, uint64_t *addr,
			      uint64_t size, bool anywhere)
{
	if (map == NULL || addr == NULL || size == 0)
		return KERN_INVALID_ARGUMENT;
	return enter_region(map, addr, size, anywhere, VM_MAP_ENTRY_ANON, 0);
}

kern_return_t vm_map_allocate_physical(struct vm_map *map, uint64_t *addr,
				       uint64_t pa, uint64_t size, bool owned)
{
	if (map == NULL || addr == NULL || size == 0 || (pa & PAGE_MASK) ||
	    size > (1ull << 52) || pa > (1ull << 52) - size)
		return KERN_INVALID_ARGUMENT;
	return enter_region(map, addr, size, true,
			    owned ? VM_MAP_ENTRY_PHYS_OWNED : VM_MAP_ENTRY_PHYS,
			    pa);
}

static bool lend_args_valid(struct vm_map *map, uint64_t pa, uint64_t size)
{
	return map != NULL && size != 0 && !(pa & PAGE_MASK) &&
	       !(size & PAGE_MASK) && size <= (1ull << 52) &&
	       pa <= (1ull << 52) - size;
}

kern_return_t vm_map_lend(struct vm_map *map, uint64_t *addr, uint64_t pa,
			  uint64_t size, bool device)
{
	if (addr == NULL || !lend_args_valid(map, pa, size))
		return KERN_INVALID_ARGUMENT;
	return enter_region(map, addr, size, true,
			    device ? VM_MAP_ENTRY_DEVICE : VM_MAP_ENTRY_LENT,
			    pa);
}

kern_return_t vm_map_lend_at(struct vm_map *map, uint64_t addr, uint64_t pa,
			     uint64_t size)
{
	if (!lend_args_valid(map, pa, size) || (addr & PAGE_MASK))
		return KERN_INVALID_ARGUMENT;
	return enter_region(map, &addr, size, false, VM_MAP_ENTRY_LENT, pa);
}

bool vm_map_take_back(struct vm_map *map, uint64_t addr, uint64_t pa,
		      uint64_t size)
{
	struct vm_map_entry *e;
	uint64_t flags = cpu_intr_save();
	bool found;

	e = vm_map_entry_lookup(&map->entries, addr);
	found = e != NULL && lent(e) && e->start == addr &&
		e->end == addr + size && e->phys == pa;
	if (found)
		entry_destroy(map, e);
	cpu_intr_restore(flags);
	return found;
}

kern_return_t vm_map_remove(struct vm_map *map, uint64_t addr,
				uint64_t size)
{
	struct vm_map_entry *spares[2];
	uint64_t start, end, flags;
	kern_return_t kr;

	if (map == NULL)
		return KERN_INVALID_ARGUMENT;
	if (size == 0)
		return KERN_SUCCESS;
	kr = user_range(addr, size, &start, &end);
	if (kr != KERN_SUCCESS)
		return kr;
	flags = cpu_intr_save();
	if (!spares_get(spares, vm_map_entry_clip_needs(&map->entries, start,
							end))) {
		cpu_intr_restore(flags);
		return KERN_RESOURCE_SHORTAGE;
	}
	remove_range(map, start, end, spares);
	cpu_intr_restore(flags);
	spares_put(spares);
	return KERN_SUCCESS;
}

/* The check of vm_map_protect(): every entry of [start, end) allows
 * @prot under its maximum. */
static bool protect_allowed(const struct vm_map *map, uint64_t start,
			    uint64_t end, vm_prot_t prot)
{
	const struct vm_map_entry *e;

	for (e = vm_map_entry_from(&map->entries, start);
	     e != NULL && e->start < end;
	     e = vm_map_entry_next(&map->entries, e))
		if ((prot & e->max_prot) != prot)
			return false;
	return true;
}

/* Merge the entries around and inside [start, end) where they match. */
static void merge_range(struct vm_map *map, uint64_t start, uint64_t end)
{
	struct vm_map_entry *head = &map->entries.head;
	struct vm_map_entry *e = vm_map_entry_lookup(&map->entries, start);

	if (e->prev != head)
		e = e->prev;
	while (e != head && e->end <= end) {
		struct vm_map_entry *n = vm_map_entry_merge_next(&map->entries,
								 e);

		if (n != NULL)
			kfree(n);
		else
			e = e->next;
	}
}

kern_return_t vm_map_protect(struct vm_map *map, uint64_t addr,
			     uint64_t size, bool set_max, vm_prot_t prot)
{
	struct vm_map_entry *spares[2], *e;
	uint64_t start, end, flags;
	kern_return_t kr;

	if (map == NULL || (prot & ~VM_PROT_ALL) != 0)
		return KERN_INVALID_ARGUMENT;
	if (size == 0)
		return KERN_SUCCESS;
	kr = user_range(addr, size, &start, &end);
	if (kr != KERN_SUCCESS)
		return kr;
	flags = cpu_intr_save();
	if (!vm_map_entry_range_covered(&map->entries, start, end))
		kr = KERN_INVALID_ADDRESS;
	else if (!protect_allowed(map, start, end, prot))
		kr = KERN_PROTECTION_FAILURE;
	else if (!spares_get(spares, vm_map_entry_clip_needs(&map->entries,
							     start, end)))
		kr = KERN_RESOURCE_SHORTAGE;
	if (kr != KERN_SUCCESS) {
		cpu_intr_restore(flags);
		return kr;
	}
	vm_map_entry_clip(&map->entries, start, end, spares);
	for (e = vm_map_entry_from(&map->entries, start);
	     e != NULL && e->start < end;
	     e = vm_map_entry_next(&map->entries, e)) {
		if (set_max) {
			e->max_prot = prot;
			e->prot &= prot;
		} else {
			e->prot = prot;
		}
		pmap_protect(map->pmap, e->start, e->end, e->prot);
		loans_protect(map, e);
	}
	merge_range(map, start, end);
	cpu_intr_restore(flags);
	spares_put(spares);
	return KERN_SUCCESS;
}

kern_return_t vm_map_fault(struct vm_map *map, uint64_t va, vm_prot_t type)
{
	struct vm_map_entry *e;
	uint64_t page = va & ~PAGE_MASK, pa, flags;
	kern_return_t kr;

	if (map == NULL || (type & ~VM_PROT_ALL) != 0)
		return KERN_INVALID_ARGUMENT;
	if (va < VM_MIN_ADDRESS || va >= VM_MAX_ADDRESS)
		return KERN_INVALID_ADDRESS;
	if (type == VM_PROT_NONE)
		type = VM_PROT_READ;
	flags = cpu_intr_save();
	e = vm_map_entry_lookup(&map->entries, va);
	if (e == NULL) {
		kr = KERN_INVALID_ADDRESS;
	} else if ((type & e->prot) != type) {
		kr = KERN_PROTECTION_FAILURE;
	} else if (e->kind == VM_MAP_ENTRY_DEVICE) {
		kr = pmap_enter_device(map->pmap, page,
				       e->phys + (page - e->start), e->prot);
	} else if (pmap_extract(map->pmap, page, &pa) &&
		   e->kind == VM_MAP_ENTRY_ANON && frame_lent(pa)) {
		/* Lent to a copy: a write takes a frame of its own. */
		if (type & VM_PROT_WRITE)
			kr = loan_break(map, page, pa, e->prot);
		else
			kr = pmap_enter(map->pmap, page, pa,
					e->prot & ~VM_PROT_WRITE, true);
	} else if (pmap_extract(map->pmap, page, &pa)) {
		/* Resident already (a stale TLB entry, or write access
		 * taken for a loan that ended): enter it again. */
		kr = pmap_enter(map->pmap, page, pa, e->prot, true);
	} else if (e->kind != VM_MAP_ENTRY_ANON) {
		kr = pmap_enter(map->pmap, page, e->phys + (page - e->start),
				e->prot, true);
	} else if (vm_page_alloc(VM_ZONE_DMA32, &pa) != KERN_SUCCESS) {
		kr = KERN_RESOURCE_SHORTAGE;
	} else {
		memset(phys_to_virt(pa), 0, VM_PAGE_SIZE);
		kr = pmap_enter(map->pmap, page, pa, e->prot, true);
		if (kr != KERN_SUCCESS)
			vm_page_free_contig(pa, 1);
	}
	cpu_intr_restore(flags);
	return kr;
}

void vm_map_activate(struct vm_map *map)
{
	uint64_t flags = cpu_intr_save();

	if (map != NULL)
		pmap_activate(map->pmap);
	active_map = map;
	cpu_intr_restore(flags);
}

struct vm_map *vm_map_active(void)
{
	return active_map;
}

/*
 * The frame holding the contents of page @va of entry @e, in *@pa: true
 * for a resident anonymous page or any physical page, false for an
 * anonymous page never touched.
 */
static bool source_frame(const struct vm_map *map,
			 const struct vm_map_entry *e, uint64_t va,
			 uint64_t *pa)
{
	if (e->kind != VM_MAP_ENTRY_ANON) {
		*pa = e->phys + (va - e->start);
		return true;
	}
	return pmap_extract(map->pmap, va, pa);
}

/* The check of vm_map_copyin() (@access VM_PROT_READ) and
 * vm_map_copy_overwrite() (VM_PROT_WRITE): [start, end) is covered by
 * entries allowing @access whose physical memory the direct map
 * reaches. */
static kern_return_t copy_check(const struct vm_map *map, uint64_t start,
				uint64_t end, vm_prot_t access)
{
	const struct vm_map_entry *e;

	if (!vm_map_entry_range_covered(&map->entries, start, end))
		return KERN_INVALID_ADDRESS;
	for (e = vm_map_entry_from(&map->entries, start);
	     e != NULL && e->start < end;
	     e = vm_map_entry_next(&map->entries, e)) {
		if (!(e->prot & access) || lent(e))
			return KERN_PROTECTION_FAILURE;
		if (e->kind != VM_MAP_ENTRY_ANON &&
		    e->phys + (e->end - e->start) > DIRECT_MAP_SIZE)
			return KERN_PROTECTION_FAILURE;
	}
	return KERN_SUCCESS;
}

static void copy_free_frames(struct vm_map_copy *c)
{
	uint64_t flags = cpu_intr_save();	/* the loan registry's rule */
	struct vm_page_run run = { 0 };

	for (uint64_t i = 0; i < c->npages; i++) {
		if (c->frames[i] == 0)
			continue;
		if (c->loaned)
			vm_page_loan_give(c->frames[i]);
		else
			vm_page_run_add(&run, c->frames[i]);
	}
	vm_page_run_flush(&run);
	cpu_intr_restore(flags);
}

/*
 * Give copy @c a new frame for every page of [start, end) that has
 * contents and is not to be moved (moved: anonymous pages when
 * @dealloc).  False if out of memory (then @c has no frames).
 */
static bool copy_reserve(const struct vm_map *map, struct vm_map_copy *c,
			 uint64_t start, uint64_t end, bool dealloc)
{
	const struct vm_map_entry *e = vm_map_entry_from(&map->entries, start);
	uint64_t va, pa, i = 0;

	memset(c->frames, 0, c->npages * sizeof(c->frames[0]));
	for (va = start; va < end; va += VM_PAGE_SIZE, i++) {
		if (va >= e->end)
			e = vm_map_entry_next(&map->entries, e);
		if (dealloc && e->kind == VM_MAP_ENTRY_ANON &&
		    !(pmap_extract(map->pmap, va, &pa) && frame_lent(pa)))
			continue;
		if (source_frame(map, e, va, &pa) &&
		    vm_page_alloc(VM_ZONE_DMA32, &c->frames[i]) !=
		    KERN_SUCCESS) {
			c->frames[i] = 0;
			copy_free_frames(c);
			return false;
		}
	}
	return true;
}

/* Fill @c from [start, end): copy into the reserved frames, move the
 * anonymous frames of a @dealloc copy out of the pmap. */
static void copy_fill(struct vm_map *map, struct vm_map_copy *c,
		      uint64_t start, uint64_t end, bool dealloc)
{
	const struct vm_map_entry *e = vm_map_entry_from(&map->entries, start);
	uint64_t va, pa, i = 0;

	for (va = start; va < end; va += VM_PAGE_SIZE, i++) {
		if (va >= e->end)
			e = vm_map_entry_next(&map->entries, e);
		if (!source_frame(map, e, va, &pa))
			continue;
		if (dealloc && e->kind == VM_MAP_ENTRY_ANON &&
		    c->frames[i] == 0) {
			pmap_remove(map->pmap, va, va + VM_PAGE_SIZE, NULL,
				    NULL);
			c->frames[i] = pa;
		} else {
			memcpy(phys_to_virt(c->frames[i]), phys_to_virt(pa),
			       VM_PAGE_SIZE);
		}
	}
}

kern_return_t vm_map_copyin(struct vm_map *map, uint64_t addr, uint64_t size,
			    bool dealloc, struct vm_map_copy **copy)
{
	struct vm_map_entry *spares[2] = { NULL, NULL };
	struct vm_map_copy *c;
	uint64_t start, end, flags;
	kern_return_t kr;

	if (map == NULL || copy == NULL)
		return KERN_INVALID_ARGUMENT;
	if (size == 0) {
		*copy = NULL;
		return KERN_SUCCESS;
	}
	kr = user_range(addr, size, &start, &end);
	if (kr != KERN_SUCCESS)
		return kr;
	flags = cpu_intr_save();
	kr = copy_check(map, start, end, VM_PROT_READ);
	if (kr != KERN_SUCCESS)
		goto out;
	kr = vm_map_copy_record(addr, size, &start, &end, &c);
	if (kr != KERN_SUCCESS)
		goto out;
	if ((dealloc && !spares_get(spares, vm_map_entry_clip_needs(
					&map->entries, start, end))) ||
	    !copy_reserve(map, c, start, end, dealloc)) {
		spares_put(spares);
		kfree(c);
		kr = KERN_RESOURCE_SHORTAGE;
		goto out;
	}
	copy_fill(map, c, start, end, dealloc);
	if (dealloc)
		remove_range(map, start, end, spares);
	spares_put(spares);
	*copy = c;
out:
	cpu_intr_restore(flags);
	return kr;
}

/*
 * vm_map_copyin_loan - see vm_map_copy.h.  Every page must be anonymous
 * (resident or not) and the registry must have room for the resident
 * ones; else vm_map_copyin copies.
 */
kern_return_t vm_map_copyin_loan(struct vm_map *map, uint64_t addr,
				 uint64_t size, struct vm_map_copy **copy)
{
	const struct vm_map_entry *e;
	struct vm_map_copy *c;
	uint64_t start, end, resident = 0, i, flags;
	kern_return_t kr;

	if (map == NULL || copy == NULL || size == 0)
		return vm_map_copyin(map, addr, size, false, copy);
	kr = vm_map_copy_record(addr, size, &start, &end, &c);
	if (kr != KERN_SUCCESS)
		return kr;
	flags = cpu_intr_save();
	kr = copy_check(map, start, end, VM_PROT_READ);
	if (kr != KERN_SUCCESS)
		goto out;
	for (e = vm_map_entry_from(&map->entries, start);
	     e != NULL && e->start < end;
	     e = vm_map_entry_next(&map->entries, e))
		if (e->kind != VM_MAP_ENTRY_ANON)
			break;
	/* a frame for each page, 0 for one never touched (zeros) */
	if (e == NULL || e->start >= end)
		resident = pmap_frames(map->pmap, start,
				       (end - start) / VM_PAGE_SIZE, c->frames);
	if ((e != NULL && e->start < end) || !vm_page_loan_room(resident)) {
		cpu_intr_restore(flags);
		vm_map_copy_free(c);
		return vm_map_copyin(map, addr, size, false, copy);
	}
	c->loaned = true;
	for (i = 0; i < (end - start) / VM_PAGE_SIZE; i++)
		if (c->frames[i] != 0)
			vm_page_loan_take(c->frames[i]);
	/* No page of the range may be written while lent. */
	for (e = vm_map_entry_from(&map->entries, start);
	     e != NULL && e->start < end;
	     e = vm_map_entry_next(&map->entries, e))
		if (e->prot & VM_PROT_WRITE)
			pmap_protect(map->pmap,
				     e->start > start ? e->start : start,
				     e->end < end ? e->end : end,
				     e->prot & ~VM_PROT_WRITE);
	*copy = c;
	c = NULL;
out:
	cpu_intr_restore(flags);
	kfree(c);
	return kr;
}

/* May [the page of] @e be read by a copy?  (copy_check's test of one
 * entry.) */
static kern_return_t entry_readable(const struct vm_map_entry *e)
{
	if (!(e->prot & VM_PROT_READ) || lent(e))
		return KERN_PROTECTION_FAILURE;
	if (e->kind != VM_MAP_ENTRY_ANON &&
	    e->phys + (e->end - e->start) > DIRECT_MAP_SIZE)
		return KERN_PROTECTION_FAILURE;
	return KERN_SUCCESS;
}

/* One pass over the entries: each page of [addr, addr + size) checked
 * as copy_check does and its bytes copied to @dst.  Interrupts off. */
static kern_return_t bytes_fill(const struct vm_map *map, uint64_t addr,
				uint64_t size, uint8_t *dst)
{
	const struct vm_map_entry *e = vm_map_entry_from(&map->entries,
							 addr & ~PAGE_MASK);
	uint64_t va = addr, end = addr + size;
	kern_return_t kr;

	while (va < end) {
		uint64_t page = va & ~PAGE_MASK, pa;
		uint64_t n = page + VM_PAGE_SIZE - va < end - va ?
			     page + VM_PAGE_SIZE - va : end - va;

		if (e != NULL && page >= e->end)
			e = vm_map_entry_next(&map->entries, e);
		if (e == NULL || e->start > page)
			return KERN_INVALID_ADDRESS;
		kr = entry_readable(e);
		if (kr != KERN_SUCCESS)
			return kr;
		if (source_frame(map, e, page, &pa))
			memcpy(dst, (uint8_t *)phys_to_virt(pa) + (va - page),
			       n);
		else
			memset(dst, 0, n);
		dst += n;
		va += n;
	}
	return KERN_SUCCESS;
}

kern_return_t vm_map_read_bytes(struct vm_map *map, uint64_t addr,
				uint64_t size, void *dst)
{
	uint64_t start, end, flags;
	kern_return_t kr;

	kr = user_range(addr, size, &start, &end);
	if (kr != KERN_SUCCESS)
		return kr;
	flags = cpu_intr_save();
	kr = bytes_fill(map, addr, size, dst);
	cpu_intr_restore(flags);
	return kr;
}

kern_return_t vm_map_copyout(struct vm_map *map, struct vm_map_copy *copy,
			     uint64_t *addr)
{
	struct vm_map_entry *e;
	uint64_t start, flags;
	kern_return_t kr = KERN_SUCCESS;

	if (map == NULL || addr == NULL)
		return KERN_INVALID_ARGUMENT;
	if (copy == NULL) {
		*addr = 0;
		return KERN_SUCCESS;
	}
	if (vm_map_copy_pages(copy) != KERN_SUCCESS)
		return KERN_RESOURCE_SHORTAGE;
	e = entry_new(VM_MAP_ENTRY_ANON, 0);
	if (e == NULL)
		return KERN_RESOURCE_SHORTAGE;
	flags = cpu_intr_save();
	if (vm_map_entry_find_space(&map->entries,
				    copy->npages * VM_PAGE_SIZE, &start) !=
	    KERN_SUCCESS) {
		cpu_intr_restore(flags);
		kfree(e);
		return KERN_NO_SPACE;
	}
	e->start = start;
	e->end = start + copy->npages * VM_PAGE_SIZE;
	kr = pmap_enter_pages(map->pmap, start, copy->frames, copy->npages,
			      e->prot);
	if (kr != KERN_SUCCESS) {
		/* Nothing entered: the frames are still the copy's. */
		cpu_intr_restore(flags);
		kfree(e);
		return kr;
	}
	vm_map_entry_insert(&map->entries, e);
	cpu_intr_restore(flags);
	*addr = start + copy->offset;
	vm_map_copy_free(copy);
	return KERN_SUCCESS;
}

void vm_map_copy_discard(struct vm_map_copy *copy)
{
	if (copy == NULL)
		return;
	if (copy->bytes == NULL)	/* a copy of bytes has no frames */
		copy_free_frames(copy);
	vm_map_copy_free(copy);
}

uint64_t vm_map_copy_size(const struct vm_map_copy *copy)
{
	return copy == NULL ? 0 : copy->size;
}

/*
 * Enter the copy's frames at the anonymous pages of [start, end) never
 * touched (the only step that can fail: page tables); on failure remove
 * those entered, so the frames stay the copy's.  A page holds its copy
 * frame afterwards iff this entered it.
 */
static kern_return_t overwrite_enter(struct vm_map *map,
				     const struct vm_map_copy *c,
				     uint64_t start, uint64_t end)
{
	const struct vm_map_entry *e = vm_map_entry_from(&map->entries, start);
	uint64_t va, pa, i = 0;
	kern_return_t kr = KERN_SUCCESS;

	for (va = start; va < end; va += VM_PAGE_SIZE, i++) {
		if (va >= e->end)
			e = vm_map_entry_next(&map->entries, e);
		if (e->kind != VM_MAP_ENTRY_ANON || c->frames[i] == 0 ||
		    pmap_extract(map->pmap, va, &pa))
			continue;
		kr = pmap_enter(map->pmap, va, c->frames[i], e->prot, true);
		if (kr != KERN_SUCCESS)
			break;
	}
	if (kr == KERN_SUCCESS)
		return KERN_SUCCESS;
	while (va > start) {
		va -= VM_PAGE_SIZE;
		i--;
		if (c->frames[i] != 0 && pmap_extract(map->pmap, va, &pa) &&
		    pa == c->frames[i])
			pmap_remove(map->pmap, va, va + VM_PAGE_SIZE, NULL,
				    NULL);
	}
	return kr;
}

/* Give every lent page of [start, end) (anonymous, writable: checked) a
 * frame of its own before the kernel writes into them.  KERN_SUCCESS or
 * KERN_RESOURCE_SHORTAGE (the pages done so far keep their new frames,
 * which no one can tell).  Interrupts off. */
static kern_return_t loans_break(struct vm_map *map, uint64_t start,
				 uint64_t end)
{
	const struct vm_map_entry *e;
	uint64_t va, pa;
	kern_return_t kr;

	if (vm_page_loans_active == 0)
		return KERN_SUCCESS;
	e = vm_map_entry_from(&map->entries, start);
	for (va = start; va < end; va += VM_PAGE_SIZE) {
		if (va >= e->end)
			e = vm_map_entry_next(&map->entries, e);
		if (e->kind != VM_MAP_ENTRY_ANON ||
		    !pmap_extract(map->pmap, va, &pa) || !frame_lent(pa))
			continue;
		kr = loan_break(map, va, pa, e->prot);
		if (kr != KERN_SUCCESS)
			return kr;
	}
	return KERN_SUCCESS;
}

kern_return_t vm_map_copy_overwrite(struct vm_map *map, uint64_t addr,
				    struct vm_map_copy *copy)
{
	const struct vm_map_entry *e;
	uint64_t start, end, va, pa, i = 0, flags;
	kern_return_t kr;

	if (map == NULL)
		return KERN_INVALID_ARGUMENT;
	if (copy == NULL)
		return KERN_SUCCESS;
	if ((addr & PAGE_MASK) != 0 || copy->offset != 0 ||
	    (copy->size & PAGE_MASK) != 0)
		return KERN_INVALID_ARGUMENT;
	kr = user_range(addr, copy->size, &start, &end);
	if (kr != KERN_SUCCESS)
		return kr;
	if (vm_map_copy_pages(copy) != KERN_SUCCESS)
		return KERN_RESOURCE_SHORTAGE;
	flags = cpu_intr_save();
	kr = copy_check(map, start, end, VM_PROT_WRITE);
	if (kr == KERN_SUCCESS)
		kr = loans_break(map, start, end);
	if (kr == KERN_SUCCESS)
		kr = overwrite_enter(map, copy, start, end);
	if (kr != KERN_SUCCESS) {
		cpu_intr_restore(flags);
		return kr;
	}
	e = vm_map_entry_from(&map->entries, start);
	for (va = start; va < end; va += VM_PAGE_SIZE, i++) {
		uint64_t src = copy->frames[i];

		if (va >= e->end)
			e = vm_map_entry_next(&map->entries, e);
		if (e->kind != VM_MAP_ENTRY_ANON)
			pa = e->phys + (va - e->start);
		else if (!pmap_extract(map->pmap, va, &pa))
			continue;	/* untouched, and the copy's is zeros */
		if (src != 0 && pa == src)
			copy->frames[i] = 0;	/* entered: the map's now */
		else if (src != 0)
			memcpy(phys_to_virt(pa), phys_to_virt(src),
			       VM_PAGE_SIZE);
		else
			memset(phys_to_virt(pa), 0, VM_PAGE_SIZE);
	}
	cpu_intr_restore(flags);
	vm_map_copy_discard(copy);
	return KERN_SUCCESS;
}

uint64_t vm_map_resident_pages(const struct vm_map *map)
{
	return map == NULL ? 0 : map->pmap->resident;
}

/* Copy entry @e of @src into @dst as vm_map_fork says. */
static kern_return_t fork_entry(struct vm_map *dst, const struct vm_map *src,
				const struct vm_map_entry *e)
{
	bool shared = e->kind == VM_MAP_ENTRY_PHYS;
	struct vm_map_entry *n;
	uint64_t va, spa, pa;
	kern_return_t kr;

	if (lent(e))
		return KERN_SUCCESS;	/* the lender's, for this task only */

	n = entry_new(shared ? VM_MAP_ENTRY_PHYS : VM_MAP_ENTRY_ANON,
		      shared ? e->phys : 0);
	if (n == NULL)
		return KERN_RESOURCE_SHORTAGE;
	n->start = e->start;
	n->end = e->end;
	n->prot = e->prot;
	n->max_prot = e->max_prot;
	vm_map_entry_insert(&dst->entries, n);
	if (shared)
		return KERN_SUCCESS;
	for (va = e->start; va < e->end; va += VM_PAGE_SIZE) {
		if (!source_frame(src, e, va, &spa))
			continue;
		if (vm_page_alloc(VM_ZONE_DMA32, &pa) != KERN_SUCCESS)
			return KERN_RESOURCE_SHORTAGE;
		memcpy(phys_to_virt(pa), phys_to_virt(spa), VM_PAGE_SIZE);
		kr = pmap_enter(dst->pmap, va, pa, n->prot, true);
		if (kr != KERN_SUCCESS) {
			vm_page_free_contig(pa, 1);
			return kr;
		}
	}
	return KERN_SUCCESS;
}

kern_return_t vm_map_fork(struct vm_map *src, struct vm_map **out)
{
	const struct vm_map_entry *e;
	struct vm_map *dst;
	kern_return_t kr = KERN_SUCCESS;
	uint64_t flags;

	if (src == NULL || out == NULL)
		return KERN_INVALID_ARGUMENT;
	dst = vm_map_create();
	if (dst == NULL)
		return KERN_RESOURCE_SHORTAGE;
	flags = cpu_intr_save();
	for (e = vm_map_entry_first(&src->entries);
	     e != NULL && kr == KERN_SUCCESS;
	     e = vm_map_entry_next(&src->entries, e))
		kr = fork_entry(dst, src, e);
	cpu_intr_restore(flags);
	if (kr != KERN_SUCCESS) {
		vm_map_destroy(dst);	/* frees what was copied so far */
		return KERN_RESOURCE_SHORTAGE;
	}
	*out = dst;
	return KERN_SUCCESS;
}

uint64_t vm_map_virtual_size(const struct vm_map *map)
{
	const struct vm_map_entry *e;
	uint64_t size = 0;

	if (map == NULL)
		return 0;
	for (e = vm_map_entry_first(&map->entries); e != NULL;
	     e = vm_map_entry_next(&map->entries, e))
		size += e->end - e->start;
	return size;
}
