/* SPDX-License-Identifier: GPL-2.0-only */
/* A task's own pages held for a device to write into (device_read_into). */
/*
 * Design.  vm_map_pin gives a device the frames of a writable anonymous
 * range of a map, as a copy that holds them through the loan registry
 * (vm_page_loan.h): the map keeps mapping them, writable, and the device
 * writes into them while the request runs, as Linux's O_DIRECT reads
 * into pinned user pages.  What the registry's rules do with a held
 * frame (vm_map.c) keeps it from going to anyone else: a page removed
 * meanwhile leaves its frame an orphan, freed when the copy gives it
 * back; copying the range with dealloc copies the frame.  Whatever the
 * task does to the range while the read runs (writing it, lending it to
 * a device_write, which write-protects it so that a later write gives
 * the page a frame of its own) changes only what the task sees of the
 * data, never another task's memory.
 */
#include <stdbool.h>
#include <stdint.h>

#include "vm/vm_map.h"
#include "vm/vm_map_copy.h"
#include "vm/vm_map_entry.h"
#include "vm/vm_map_priv.h"
#include "vm/vm_page.h"
#include "vm/vm_page_loan.h"
#include "x86_64/cpu.h"
#include "x86_64/pmap.h"

/* Whether every page of [start, end) lies in an anonymous region of @map
 * that may be written: KERN_SUCCESS, KERN_INVALID_ADDRESS (a hole),
 * KERN_INVALID_ARGUMENT (physical or device memory) or
 * KERN_PROTECTION_FAILURE (not writable).  Interrupts off. */
static kern_return_t pin_check(struct vm_map *map, uint64_t start,
			       uint64_t end)
{
	for (uint64_t va = start; va < end;) {
		const struct vm_map_entry *e =
			vm_map_entry_lookup(&map->entries, va);

		if (e == NULL)
			return KERN_INVALID_ADDRESS;
		if (e->kind != VM_MAP_ENTRY_ANON)
			return KERN_INVALID_ARGUMENT;
		if (!(e->prot & VM_PROT_WRITE))
			return KERN_PROTECTION_FAILURE;
		va = e->end;
	}
	return KERN_SUCCESS;
}

/* Give back the holds on the first @n frames of @c. */
static void pin_undo(struct vm_map_copy *c, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		vm_page_loan_give(c->frames[i]);
}

kern_return_t vm_map_pin(struct vm_map *map, uint64_t addr, uint64_t size,
			 struct vm_map_copy **copy)
{
	uint64_t start, end, flags, i = 0;
	struct vm_map_copy *c;
	kern_return_t kr;

	if (map == NULL || copy == NULL || size == 0)
		return KERN_INVALID_ARGUMENT;
	kr = vm_map_copy_record(addr, size, &start, &end, &c);
	if (kr != KERN_SUCCESS)
		return kr;
	flags = cpu_intr_save();	/* the loan registry's rule */
	kr = pin_check(map, start, end);
	if (kr == KERN_SUCCESS && !vm_page_loan_room(c->npages))
		kr = KERN_RESOURCE_SHORTAGE;
	for (uint64_t va = start; kr == KERN_SUCCESS && va < end;
	     va += VM_PAGE_SIZE, i++) {
		uint64_t pa;

		/* Untouched, or write-protected (lent to a device_write,
		 * or a loan that ended): a write fault makes it the map's
		 * own writable frame. */
		if (!pmap_extract_writable(map->pmap, va, &pa)) {
			kr = vm_map_fault(map, va, VM_PROT_WRITE);
			if (kr == KERN_SUCCESS &&
			    !pmap_extract_writable(map->pmap, va, &pa))
				kr = KERN_PROTECTION_FAILURE;
			if (kr != KERN_SUCCESS)
				break;
		}
		vm_page_loan_take(pa);
		c->frames[i] = pa;
	}
	if (kr != KERN_SUCCESS) {
		pin_undo(c, i);
		cpu_intr_restore(flags);
		vm_map_copy_free(c);
		return kr;
	}
	cpu_intr_restore(flags);
	c->loaned = true;
	*copy = c;
	return KERN_SUCCESS;
}
