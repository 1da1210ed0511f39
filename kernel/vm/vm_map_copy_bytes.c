/* SPDX-License-Identifier: GPL-2.0-only */
/* Copies of a few bytes for the kernel: the data in the record, no page. */
/*
 * A message to a kernel object with a little out-of-line data (a
 * device_write of one frame) needs the bytes, not a page: the copy holds
 * them after its frame slots (vm_map_copy.h) and has pages made only if
 * someone maps or lends them (vm_map_copy_pages).  The records of such
 * copies come from a static pool (.bss) before the heap, so a write
 * takes no heap object and moves no heap counter; every copy record is
 * freed through vm_map_copy_free, which knows where it came from.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kern/kalloc.h"
#include "kern/string.h"
#include "vm/vm_map.h"
#include "vm/vm_map_copy.h"
#include "vm/vm_map_copy_kernel.h"
#include "vm/vm_page.h"
#include "x86_64/cpu.h"
#include "x86_64/layout.h"

#define PAGE_MASK	(VM_PAGE_SIZE - 1)

/* Bytes spanning at most two pages: a record with two frame slots. */
#define SLOTS		2
#define POOL		8

union pool_rec {
	struct vm_map_copy copy;
	uint8_t bytes[sizeof(struct vm_map_copy) + SLOTS * sizeof(uint64_t) +
		      VM_MAP_COPY_BYTES_MAX];
	union pool_rec *next;			/* while free */
};

_Static_assert(VM_MAP_COPY_BYTES_MAX <= VM_PAGE_SIZE,
	       "a copy of bytes spans at most two pages");

static union pool_rec pool[POOL] __attribute__((aligned(16)));
static union pool_rec *pool_free;
static bool pool_ready;

static bool from_pool(const struct vm_map_copy *c)
{
	return (const void *)c >= (const void *)pool &&
	       (const void *)c < (const void *)(pool + POOL);
}

/* A record for @npages frame slots and @size bytes; NULL if memory is
 * short. */
static struct vm_map_copy *record_get(uint64_t npages, uint64_t size)
{
	union pool_rec *r = NULL;
	uint64_t flags = cpu_intr_save();

	if (!pool_ready) {
		for (unsigned int i = 0; i < POOL; i++) {
			pool[i].next = pool_free;
			pool_free = &pool[i];
		}
		pool_ready = true;
	}
	if (npages <= SLOTS && pool_free != NULL) {
		r = pool_free;
		pool_free = r->next;
	}
	cpu_intr_restore(flags);
	if (r != NULL)
		return &r->copy;
	return kalloc(sizeof(struct vm_map_copy) +
		      npages * sizeof(uint64_t) + size);
}

void vm_map_copy_free(struct vm_map_copy *copy)
{
	union pool_rec *r = (union pool_rec *)copy;
	uint64_t flags;

	if (!from_pool(copy)) {
		kfree(copy);
		return;
	}
	flags = cpu_intr_save();
	r->next = pool_free;
	pool_free = r;
	cpu_intr_restore(flags);
}

kern_return_t vm_map_copyin_bytes(struct vm_map *map, uint64_t addr,
				  uint64_t size, struct vm_map_copy **copy)
{
	struct vm_map_copy *c;
	uint64_t npages;
	kern_return_t kr;

	if (size > VM_MAP_COPY_BYTES_MAX || size == 0 || map == NULL ||
	    copy == NULL || addr + size < addr)
		return vm_map_copyin(map, addr, size, false, copy);
	npages = (((addr + size + PAGE_MASK) & ~PAGE_MASK) -
		  (addr & ~PAGE_MASK)) / VM_PAGE_SIZE;
	c = record_get(npages, size);
	if (c == NULL)
		return KERN_RESOURCE_SHORTAGE;
	c->bytes = (uint8_t *)&c->frames[npages];
	kr = vm_map_read_bytes(map, addr, size, c->bytes);
	if (kr != KERN_SUCCESS) {
		vm_map_copy_free(c);
		return kr;
	}
	c->size = size;
	c->offset = addr & PAGE_MASK;
	c->npages = npages;
	for (uint64_t i = 0; i < npages; i++)
		c->frames[i] = 0;
	*copy = c;
	return KERN_SUCCESS;
}

kern_return_t vm_map_copy_pages(struct vm_map_copy *copy)
{
	uint8_t *bytes;
	uint64_t i;

	if (copy == NULL || copy->bytes == NULL)
		return KERN_SUCCESS;
	for (i = 0; i < copy->npages; i++) {
		if (vm_page_alloc(VM_ZONE_DMA32, &copy->frames[i]) !=
		    KERN_SUCCESS)
			goto err_pages;
		memset(phys_to_virt(copy->frames[i]), 0, VM_PAGE_SIZE);
	}
	bytes = copy->bytes;
	copy->bytes = NULL;
	vm_map_copy_kernel_write(copy, 0, bytes, copy->size);
	return KERN_SUCCESS;

err_pages:
	while (i-- > 0) {
		vm_page_free_contig(copy->frames[i], 1);
		copy->frames[i] = 0;
	}
	return KERN_RESOURCE_SHORTAGE;
}
