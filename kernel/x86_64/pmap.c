/* SPDX-License-Identifier: GPL-2.0-only */
/* x86_64 page tables for user address spaces: enter, remove, protect. */
/*
 * Design.  Levels are numbered as the walk meets them: 4 is the PML4, 1
 * the page table whose entries map 4 KiB pages; an entry of level L covers
 * 1 << (12 + 9 * (L - 1)) bytes.  Intermediate entries are present,
 * writable and user (the leaf decides).  Leaf entries holding a frame carry
 * the software bit PTE_FRAME whether or not they are present, which is how
 * a VM_PROT_NONE page keeps its frame.
 *
 * Removal and protection recurse over the tables that exist, so a range
 * costs what is mapped in it rather than its length.  An entry that
 * points to a table counts the table's non-zero entries in bits the CPU
 * ignores there (PTE_COUNT), so a removal frees a table it emptied
 * without scanning it.  Such a table is all zeros: up to
 * PMAP_SPARE_TABLES of them stay with the pmap as spares, and the next
 * table it needs is one of them, taken without the page allocator and
 * without zeroing a page (a task that receives one page out of line and
 * deallocates it, alone in its 2 MiB, would otherwise free a page table
 * and zero another on every message).  The TLB of the active pmap is
 * invalidated after the walk, every entry cleared: an invlpg per present
 * page removed, which also drops every paging-structure cache entry, so
 * the tables freed need no invlpg of their own (one when no page was
 * present).  A removal of more than FLUSH_ALL_PAGES pages reloads CR3
 * once instead (as Linux's tlb_single_page_flush_ceiling).  Under QEMU
 * TCG both cost host time that no instruction count shows: a reload
 * empties the vCPU's whole software TLB, to be refilled page by page,
 * and every invlpg empties its translated-code jump cache.  Measured on
 * the wall clock (graft-wall-disk, alternating boots), the 64 pages of a
 * 256 KiB device_read's reply cost less as invlpgs, the 256 of a 1 MiB
 * one less as one reload.
 * Interrupts stay off meanwhile, so nothing reaches a removed page before
 * its invalidation.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kern/kalloc.h"
#include "kern/panic.h"
#include "kern/string.h"
#include "vm/vm_page.h"
#include "x86_64/cpu.h"
#include "x86_64/layout.h"
#include "x86_64/pmap.h"
#include "x86_64/pte.h"

#define PTE_FRAME	(1ull << 9)	/* software: a leaf holding a frame */
#define PTE_TABLE	(PTE_P | PTE_W | PTE_U)
/* In an entry that points to a table: how many entries of that table are
 * not zero, in bits 52-61, which the CPU ignores in such entries. */
#define PTE_COUNT_SHIFT	52
#define PTE_COUNT	(0x3ffull << PTE_COUNT_SHIFT)

#define PAGE_MASK	(VM_PAGE_SIZE - 1)
#define ENTRIES		512
#define KERNEL_FIRST	256	/* PML4 entries shared with boot_pml4 */
#define FLUSH_ALL_PAGES	64	/* more: one CR3 reload, not invlpgs */

extern uint64_t boot_pml4[ENTRIES];

static struct pmap *active;

static uint64_t *table_at(uint64_t pa)
{
	return phys_to_virt(pa);
}

static unsigned int level_shift(int level)
{
	return 12 + 9 * (level - 1);
}

static unsigned int index_of(uint64_t va, int level)
{
	return (va >> level_shift(level)) & (ENTRIES - 1);
}

/* A zeroed page for a page table, or 0 without memory: a spare if
 * @pmap keeps one, else a new page. */
static uint64_t table_alloc(struct pmap *pmap)
{
	uint64_t pa;

	if (pmap->nspare > 0)
		return pmap->spare[--pmap->nspare];
	if (vm_page_alloc(VM_ZONE_DMA32, &pa) != KERN_SUCCESS)
		return 0;
	memset(table_at(pa), 0, VM_PAGE_SIZE);
	pmap->table_pages++;
	return pa;
}

static void table_free(struct pmap *pmap, uint64_t pa)
{
	vm_page_free_contig(pa, 1);
	pmap->table_pages--;
}

/* Table @pa, emptied by a removal (every entry zero), kept as a spare
 * while @pmap has room for one, else freed. */
static void table_release(struct pmap *pmap, uint64_t pa)
{
	if (pmap->nspare < PMAP_SPARE_TABLES)
		pmap->spare[pmap->nspare++] = pa;
	else
		table_free(pmap, pa);
}

/* One more (@delta 1) or one fewer (-1) non-zero entry in the table that
 * entry @e points to; @e NULL (the PML4's own count) is not kept. */
static void count_add(uint64_t *e, int delta)
{
	if (e != NULL)
		*e += (uint64_t)(int64_t)delta << PTE_COUNT_SHIFT;
}

static bool table_empty(uint64_t e)
{
	return (e & PTE_COUNT) == 0;
}

/* The leaf entry of @va, creating missing tables; in *@pde the entry that
 * points to its page table.  NULL when a table could not be made. */
static uint64_t *leaf_of(struct pmap *pmap, uint64_t va, uint64_t **pde)
{
	uint64_t *t = table_at(pmap->pml4), *up = NULL;

	for (int level = 4; level > 1; level--) {
		uint64_t *e = &t[index_of(va, level)];

		if (!(*e & PTE_P)) {
			uint64_t pa = table_alloc(pmap);

			if (pa == 0)
				return NULL;
			*e = pa | PTE_TABLE;
			count_add(up, 1);
		}
		up = e;
		t = table_at(*e & PTE_ADDR);
	}
	*pde = up;
	return &t[index_of(va, 1)];
}

/* The flags of a leaf for @prot (PTE_FRAME always; the address apart). */
static uint64_t leaf_flags(vm_prot_t prot, bool user)
{
	uint64_t f = PTE_FRAME;

	if (prot & VM_PROT_ALL)
		f |= PTE_P;
	if (prot & VM_PROT_WRITE)
		f |= PTE_W;
	if (!(prot & VM_PROT_EXECUTE))
		f |= PTE_NX;
	if (user)
		f |= PTE_U;
	return f;
}

static void check_range(const char *who, uint64_t start, uint64_t end)
{
	if ((start | end) & PAGE_MASK || start > end || end > PMAP_USER_END)
		panic("%s: bad range [0x%llx, 0x%llx)", who,
		      (unsigned long long)start, (unsigned long long)end);
}

struct pmap *pmap_create(void)
{
	struct pmap *pmap = kzalloc(sizeof(*pmap));
	uint64_t *pml4;
	uint64_t flags;

	if (pmap == NULL)
		return NULL;
	flags = cpu_intr_save();
	pmap->pml4 = table_alloc(pmap);
	cpu_intr_restore(flags);
	if (pmap->pml4 == 0) {
		kfree(pmap);
		return NULL;
	}
	pml4 = table_at(pmap->pml4);
	for (unsigned int i = KERNEL_FIRST; i < ENTRIES; i++)
		pml4[i] = boot_pml4[i];
	return pmap;
}

/* Free the tables below entry array @t of @level (not @t itself). */
static void free_below(struct pmap *pmap, uint64_t *t, int level,
		       unsigned int first, unsigned int last)
{
	for (unsigned int i = first; i < last; i++) {
		uint64_t pa = t[i] & PTE_ADDR;

		if (!(t[i] & PTE_P))
			continue;
		if (level > 2)
			free_below(pmap, table_at(pa), level - 1, 0, ENTRIES);
		table_free(pmap, pa);
		t[i] = 0;
	}
}

void pmap_destroy(struct pmap *pmap)
{
	uint64_t flags;

	if (pmap == NULL)
		return;
	if (pmap == active)
		panic("pmap_destroy: pmap %p is active", pmap);
	if (pmap->resident != 0)
		panic("pmap_destroy: %llu frames still mapped",
		      (unsigned long long)pmap->resident);
	flags = cpu_intr_save();
	free_below(pmap, table_at(pmap->pml4), 4, 0, KERNEL_FIRST);
	while (pmap->nspare > 0)
		table_free(pmap, pmap->spare[--pmap->nspare]);
	table_free(pmap, pmap->pml4);
	cpu_intr_restore(flags);
	if (pmap->table_pages != 0)
		panic("pmap_destroy: %llu page tables unaccounted for",
		      (unsigned long long)pmap->table_pages);
	kfree(pmap);
}

/* Enter @pa at @va with the leaf flags of @prot and @user, plus @attr
 * (cache attribute bits). */
static kern_return_t enter(struct pmap *pmap, uint64_t va, uint64_t pa,
			   vm_prot_t prot, bool user, uint64_t attr)
{
	uint64_t *e, *pde, old, flags;

	if ((va | pa) & PAGE_MASK || va >= PMAP_USER_END ||
	    (pa & ~PTE_ADDR) != 0 || (prot & ~VM_PROT_ALL) != 0)
		return KERN_INVALID_ARGUMENT;
	flags = cpu_intr_save();
	e = leaf_of(pmap, va, &pde);
	if (e == NULL) {
		cpu_intr_restore(flags);
		return KERN_RESOURCE_SHORTAGE;
	}
	old = *e;
	*e = pa | leaf_flags(prot, user) | attr;
	if (!(old & PTE_FRAME)) {
		pmap->resident++;
		count_add(pde, 1);
	}
	if ((old & PTE_P) && pmap == active)
		invlpg(va);
	cpu_intr_restore(flags);
	return KERN_SUCCESS;
}

kern_return_t pmap_enter(struct pmap *pmap, uint64_t va, uint64_t pa,
			 vm_prot_t prot, bool user)
{
	return enter(pmap, va, pa, prot, user, 0);
}

kern_return_t pmap_enter_pages(struct pmap *pmap, uint64_t va,
			       const uint64_t *frames, uint64_t n,
			       vm_prot_t prot)
{
	uint64_t leaf = leaf_flags(prot, true), i = 0, flags;

	if (va & PAGE_MASK || va >= PMAP_USER_END ||
	    n > (PMAP_USER_END - va) / VM_PAGE_SIZE ||
	    (prot & ~VM_PROT_ALL) != 0)
		return KERN_INVALID_ARGUMENT;
	for (uint64_t k = 0; k < n; k++)
		if (frames[k] & ~PTE_ADDR)
			return KERN_INVALID_ARGUMENT;
	flags = cpu_intr_save();
	while (i < n) {
		uint64_t at = va + i * VM_PAGE_SIZE, *pde;
		uint64_t *e = leaf_of(pmap, at, &pde);

		if (e == NULL) {
			pmap_remove(pmap, va, at, NULL, NULL);
			cpu_intr_restore(flags);
			return KERN_RESOURCE_SHORTAGE;
		}
		/* the rest of this page table: no walk per page */
		for (uint64_t left = ENTRIES - index_of(at, 1);
		     left > 0 && i < n; left--, i++, e++) {
			if (frames[i] == 0)
				continue;
			if (*e & PTE_FRAME)
				panic("pmap_enter_pages: 0x%llx is mapped",
				      (unsigned long long)(va +
							   i * VM_PAGE_SIZE));
			*e = frames[i] | leaf;
			pmap->resident++;
			count_add(pde, 1);
		}
	}
	cpu_intr_restore(flags);
	return KERN_SUCCESS;
}

kern_return_t pmap_enter_device(struct pmap *pmap, uint64_t va, uint64_t pa,
				vm_prot_t prot)
{
	/* PCD and PWT: PAT entry 3, uncached in the power-on PAT */
	return enter(pmap, va, pa, prot, true, PTE_PCD | PTE_PWT);
}

struct remove_walk {
	struct pmap *pmap;
	void (*fn)(void *arg, uint64_t va, uint64_t pa);
	void *arg;
	bool changed;		/* an entry was cleared */
	bool table_freed;
	unsigned int npages;	/* present pages cleared: */
	uint64_t *pages;	/* their addresses (FLUSH_ALL_PAGES at most) */
};

/* Remove the leaves of [start, end), all in page table @pt, which entry
 * @up points to. */
static void remove_leaves(struct remove_walk *w, uint64_t *pt,
			  uint64_t start, uint64_t end, uint64_t *up)
{
	uint64_t *e = &pt[index_of(start, 1)];

	for (uint64_t va = start; va < end; va += VM_PAGE_SIZE, e++) {
		uint64_t old = *e;

		if (!(old & PTE_FRAME))
			continue;
		*e = 0;
		count_add(up, -1);
		w->pmap->resident--;
		w->changed = true;
		if ((old & PTE_P) && w->npages < FLUSH_ALL_PAGES)
			w->pages[w->npages++] = va;
		if (w->fn != NULL)
			w->fn(w->arg, va, old & PTE_ADDR);
	}
}

/* Remove the leaves of [start, end) under table @t of @level (2 or
 * more), which entry @up points to (NULL for the PML4). */
static void remove_in(struct remove_walk *w, uint64_t *t, int level,
		      uint64_t start, uint64_t end, uint64_t *up)
{
	uint64_t span = 1ull << level_shift(level);

	for (uint64_t va = start; va < end;) {
		uint64_t next = (va & ~(span - 1)) + span;
		uint64_t *e = &t[index_of(va, level)];

		if (*e & PTE_P) {
			uint64_t pa = *e & PTE_ADDR;
			uint64_t stop = next < end ? next : end;

			if (level == 2)
				remove_leaves(w, table_at(pa), va, stop, e);
			else
				remove_in(w, table_at(pa), level - 1, va, stop,
					  e);
			if (table_empty(*e)) {
				*e = 0;
				count_add(up, -1);
				w->changed = true;
				w->table_freed = true;
				table_release(w->pmap, pa);
			}
		}
		va = next;
	}
}

void pmap_remove(struct pmap *pmap, uint64_t start, uint64_t end,
		 void (*fn)(void *arg, uint64_t va, uint64_t pa), void *arg)
{
	uint64_t pages[FLUSH_ALL_PAGES];	/* not zeroed: w.npages says */
	struct remove_walk w = { .pmap = pmap, .fn = fn, .arg = arg,
				 .pages = pages };
	uint64_t flags;

	check_range("pmap_remove", start, end);
	flags = cpu_intr_save();
	remove_in(&w, table_at(pmap->pml4), 4, start, end, NULL);
	if (pmap == active && w.changed) {
		/* after every entry is cleared, so that an INVLPG also
		 * drops the paging-structure caches' entries of the
		 * tables freed (it drops them all) */
		if ((end - start) / VM_PAGE_SIZE > FLUSH_ALL_PAGES)
			write_cr3(pmap->pml4);
		else if (w.npages == 0 && w.table_freed)
			invlpg(start);
		else
			for (unsigned int i = 0; i < w.npages; i++)
				invlpg(w.pages[i]);
	}
	cpu_intr_restore(flags);
}

/* Give the leaves of [start, end), all in page table @pt, protection
 * @prot (the flags of both kinds of leaf computed once: a write's loan
 * protects every page of its buffer). */
static void protect_leaves(struct pmap *pmap, uint64_t *pt, uint64_t start,
			   uint64_t end, vm_prot_t prot)
{
	const uint64_t keep = PTE_ADDR | PTE_PCD | PTE_PWT;
	const uint64_t user = leaf_flags(prot, true);
	const uint64_t kernel = leaf_flags(prot, false);
	uint64_t *e = &pt[index_of(start, 1)];

	for (uint64_t va = start; va < end; va += VM_PAGE_SIZE, e++) {
		uint64_t old = *e;

		if (!(old & PTE_FRAME))
			continue;
		*e = (old & keep) | (old & PTE_U ? user : kernel);
		if ((old & PTE_P) && *e != old && pmap == active)
			invlpg(va);
	}
}

/* Give the leaves of [start, end) under table @t of @level (2 or more)
 * protection @prot. */
static void protect_in(struct pmap *pmap, uint64_t *t, int level,
		       uint64_t start, uint64_t end, vm_prot_t prot)
{
	uint64_t span = 1ull << level_shift(level);

	for (uint64_t va = start; va < end;) {
		uint64_t next = (va & ~(span - 1)) + span;
		uint64_t *e = &t[index_of(va, level)];
		uint64_t stop = next < end ? next : end;

		if ((*e & PTE_P) && level == 2)
			protect_leaves(pmap, table_at(*e & PTE_ADDR), va, stop,
				       prot);
		else if (*e & PTE_P)
			protect_in(pmap, table_at(*e & PTE_ADDR), level - 1, va,
				   stop, prot);
		va = next;
	}
}

void pmap_protect(struct pmap *pmap, uint64_t start, uint64_t end,
		  vm_prot_t prot)
{
	uint64_t flags;

	check_range("pmap_protect", start, end);
	if (prot & ~VM_PROT_ALL)
		panic("pmap_protect: bad protection 0x%x", prot);
	flags = cpu_intr_save();
	protect_in(pmap, table_at(pmap->pml4), 4, start, end, prot);
	cpu_intr_restore(flags);
}

bool pmap_extract(const struct pmap *pmap, uint64_t va, uint64_t *pa)
{
	const uint64_t *t = table_at(pmap->pml4);

	uint64_t e;

	if (va >= PMAP_USER_END)
		return false;
	/* The three upper levels, unrolled (a device_write's frame is
	 * looked up here on every call). */
	e = t[index_of(va, 4)];
	if (!(e & PTE_P))
		return false;
	t = table_at(e & PTE_ADDR);
	e = t[index_of(va, 3)];
	if (!(e & PTE_P))
		return false;
	t = table_at(e & PTE_ADDR);
	e = t[index_of(va, 2)];
	if (!(e & PTE_P))
		return false;
	t = table_at(e & PTE_ADDR);
	e = t[index_of(va, 1)];
	if (!(e & PTE_FRAME))
		return false;
	*pa = (e & PTE_ADDR) | (va & PAGE_MASK);
	return true;
}

/* The page table holding the leaf of @va, or NULL if there is none. */
static const uint64_t *page_table_of(const struct pmap *pmap, uint64_t va)
{
	const uint64_t *t = table_at(pmap->pml4);

	for (int level = 4; level > 1; level--) {
		uint64_t e = t[index_of(va, level)];

		if (!(e & PTE_P))
			return NULL;
		t = table_at(e & PTE_ADDR);
	}
	return t;
}

uint64_t pmap_frames(const struct pmap *pmap, uint64_t va, uint64_t n,
		     uint64_t *frames)
{
	uint64_t found = 0, i = 0;

	check_range("pmap_frames", va, va + n * VM_PAGE_SIZE);
	while (i < n) {
		uint64_t at = va + i * VM_PAGE_SIZE;
		unsigned int first = index_of(at, 1);
		uint64_t k = ENTRIES - first < n - i ? ENTRIES - first : n - i;
		const uint64_t *pt = page_table_of(pmap, at);

		for (uint64_t j = 0; j < k; j++, i++) {
			uint64_t e = pt != NULL ? pt[first + j] : 0;

			frames[i] = e & PTE_FRAME ? e & PTE_ADDR : 0;
			found += (e & PTE_FRAME) != 0;
		}
	}
	return found;
}

bool pmap_extract_writable(const struct pmap *pmap, uint64_t va,
			   uint64_t *pa)
{
	const uint64_t *t = table_at(pmap->pml4);

	if (va >= PMAP_USER_END)
		return false;
	for (int level = 4; level > 1; level--) {
		uint64_t e = t[index_of(va, level)];

		if (!(e & PTE_P))
			return false;
		t = table_at(e & PTE_ADDR);
	}
	if ((t[index_of(va, 1)] & (PTE_P | PTE_W)) != (PTE_P | PTE_W))
		return false;
	*pa = (t[index_of(va, 1)] & PTE_ADDR) | (va & PAGE_MASK);
	return true;
}

void pmap_activate(struct pmap *pmap)
{
	uint64_t flags = cpu_intr_save();

	if (pmap != active) {
		active = pmap;
		if (pmap != NULL)
			write_cr3(pmap->pml4);
		else
			write_cr3(kernel_virt_to_phys(boot_pml4));
	}
	cpu_intr_restore(flags);
}

struct pmap *pmap_active(void)
{
	return active;
}
