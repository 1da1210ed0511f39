/* SPDX-License-Identifier: GPL-2.0-only */
/* The region list of an address space: lookup, holes, insertion, splits. */
/*
 * Design.  A circular doubly linked list through a sentinel, sorted by
 * address; every operation is a linear walk, O(number of entries).  Tasks
 * have a handful of regions today; a tree or a lookup hint can replace the
 * walk behind the same functions when they have many.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kern/panic.h"
#include "vm/vm_map_entry.h"

#define PAGE_MASK	(VM_PAGE_SIZE - 1)

void vm_map_entry_list_init(struct vm_map_entry_list *l, uint64_t min,
			    uint64_t max)
{
	if ((min | max) & PAGE_MASK || min >= max ||
	    max > UINT64_MAX - PAGE_MASK)
		panic("vm_map_entry_list_init: bad bounds [0x%llx, 0x%llx)",
		      (unsigned long long)min, (unsigned long long)max);
	l->head.prev = &l->head;
	l->head.next = &l->head;
	l->head.start = 0;
	l->head.end = 0;
	l->min = min;
	l->max = max;
	l->count = 0;
}

struct vm_map_entry *vm_map_entry_first(const struct vm_map_entry_list *l)
{
	return vm_map_entry_next(l, &l->head);
}

struct vm_map_entry *vm_map_entry_next(const struct vm_map_entry_list *l,
				       const struct vm_map_entry *e)
{
	return e->next == &l->head ? NULL : e->next;
}

struct vm_map_entry *vm_map_entry_from(const struct vm_map_entry_list *l,
				       uint64_t addr)
{
	struct vm_map_entry *e;

	for (e = vm_map_entry_first(l); e != NULL; e = vm_map_entry_next(l, e))
		if (e->end > addr)
			return e;
	return NULL;
}

struct vm_map_entry *vm_map_entry_lookup(const struct vm_map_entry_list *l,
					 uint64_t addr)
{
	struct vm_map_entry *e = vm_map_entry_from(l, addr);

	return e != NULL && e->start <= addr ? e : NULL;
}

bool vm_map_entry_range_free(const struct vm_map_entry_list *l,
			     uint64_t start, uint64_t end)
{
	struct vm_map_entry *e = vm_map_entry_from(l, start);

	return e == NULL || e->start >= end;
}

bool vm_map_entry_range_covered(const struct vm_map_entry_list *l,
				uint64_t start, uint64_t end)
{
	struct vm_map_entry *e = vm_map_entry_from(l, start);
	uint64_t at = start;

	if (start >= end)
		return false;
	for (; e != NULL && at < end; e = vm_map_entry_next(l, e)) {
		if (e->start > at)
			return false;
		at = e->end;
	}
	return at >= end;
}

kern_return_t vm_map_entry_find_space(const struct vm_map_entry_list *l,
				      uint64_t size, uint64_t *start)
{
	struct vm_map_entry *e;
	uint64_t at = l->min;

	if (size == 0 || size & PAGE_MASK)
		panic("vm_map_entry_find_space: bad size 0x%llx",
		      (unsigned long long)size);
	for (e = vm_map_entry_first(l); e != NULL;
	     e = vm_map_entry_next(l, e)) {
		if (e->start - at >= size)
			break;
		at = e->end;
	}
	if (e == NULL && l->max - at < size)
		return KERN_NO_SPACE;
	*start = at;
	return KERN_SUCCESS;
}

/* Link @e before @pos (the head to append). */
static void link_before(struct vm_map_entry_list *l, struct vm_map_entry *e,
			struct vm_map_entry *pos)
{
	e->next = pos;
	e->prev = pos->prev;
	pos->prev->next = e;
	pos->prev = e;
	l->count++;
}

void vm_map_entry_insert(struct vm_map_entry_list *l, struct vm_map_entry *e)
{
	struct vm_map_entry *pos;

	if ((e->start | e->end) & PAGE_MASK || e->start >= e->end ||
	    e->start < l->min || e->end > l->max)
		panic("vm_map_entry_insert: bad entry [0x%llx, 0x%llx)",
		      (unsigned long long)e->start,
		      (unsigned long long)e->end);
	pos = vm_map_entry_from(l, e->start);
	if (pos != NULL && pos->start < e->end)
		panic("vm_map_entry_insert: [0x%llx, 0x%llx) overlaps "
		      "[0x%llx, 0x%llx)", (unsigned long long)e->start,
		      (unsigned long long)e->end,
		      (unsigned long long)pos->start,
		      (unsigned long long)pos->end);
	link_before(l, e, pos != NULL ? pos : &l->head);
}

void vm_map_entry_unlink(struct vm_map_entry_list *l, struct vm_map_entry *e)
{
	if (e == &l->head || l->count == 0)
		panic("vm_map_entry_unlink: not an entry");
	e->prev->next = e->next;
	e->next->prev = e->prev;
	e->next = NULL;
	e->prev = NULL;
	l->count--;
}

unsigned int vm_map_entry_clip_needs(const struct vm_map_entry_list *l,
				     uint64_t start, uint64_t end)
{
	struct vm_map_entry *e = vm_map_entry_lookup(l, start);
	struct vm_map_entry *f = vm_map_entry_lookup(l, end);

	return (e != NULL && e->start < start) + (f != NULL && f->start < end);
}

/* Split @e at @addr (strictly inside it) into @e and @spare. */
static void split(struct vm_map_entry_list *l, struct vm_map_entry *e,
		  uint64_t addr, struct vm_map_entry *spare)
{
	*spare = *e;
	spare->start = addr;
	if (e->kind != VM_MAP_ENTRY_ANON)
		spare->phys = e->phys + (addr - e->start);
	e->end = addr;
	link_before(l, spare, e->next);
}

static struct vm_map_entry *take(struct vm_map_entry *spares[2])
{
	struct vm_map_entry *s;

	for (int i = 0; i < 2; i++) {
		if (spares[i] != NULL) {
			s = spares[i];
			spares[i] = NULL;
			return s;
		}
	}
	panic("vm_map_entry_clip: out of spare entries");
}

void vm_map_entry_clip(struct vm_map_entry_list *l, uint64_t start,
		       uint64_t end, struct vm_map_entry *spares[2])
{
	struct vm_map_entry *e = vm_map_entry_lookup(l, start);

	if (e != NULL && e->start < start)
		split(l, e, start, take(spares));
	e = vm_map_entry_lookup(l, end);
	if (e != NULL && e->start < end)
		split(l, e, end, take(spares));
}

struct vm_map_entry *vm_map_entry_merge_next(struct vm_map_entry_list *l,
					     struct vm_map_entry *e)
{
	struct vm_map_entry *n = e->next;

	if (e == &l->head || n == &l->head || e->end != n->start ||
	    e->kind != VM_MAP_ENTRY_ANON || n->kind != VM_MAP_ENTRY_ANON ||
	    e->prot != n->prot || e->max_prot != n->max_prot)
		return NULL;
	e->end = n->end;
	vm_map_entry_unlink(l, n);
	return n;
}
