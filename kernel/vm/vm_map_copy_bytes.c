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
 * More data for a kernel object borrows the sender's frames
 * (vm_map_copyin_loan); vm_map_copy_pages gives such a copy frames of
 * its own, vm_map_copy_frames keeps the loan.
 */
#include <stddef.h>
#include <stdint.h>

#include "kern/kalloc.h"
#include "kern/rec_pool.h"
#include "kern/string.h"
#include "vm/vm_map.h"
#include "vm/vm_map_copy.h"
#include "vm/vm_map_copy_kernel.h"
#include "vm/vm_map_entry.h"
#include "x86_64/cpu.h"
#include "vm/vm_page.h"
#include "vm/vm_page_loan.h"
#include "x86_64/layout.h"

#define PAGE_MASK	(VM_PAGE_SIZE - 1)

/* Bytes spanning at most two pages: a record with two frame slots. */
#define SLOTS		2
#define POOL		8

union pool_rec {
	struct vm_map_copy copy;
	uint8_t bytes[sizeof(struct vm_map_copy) + SLOTS * sizeof(uint64_t) +
		      VM_MAP_COPY_BYTES_MAX];
};

_Static_assert(VM_MAP_COPY_BYTES_MAX <= VM_PAGE_SIZE,
	       "a copy of bytes spans at most two pages");

static union pool_rec pool_records[POOL] __attribute__((aligned(16)));
static struct rec_pool pool = REC_POOL(pool_records);

void vm_map_copy_free(struct vm_map_copy *copy)
{
	rec_pool_free(&pool, copy);
}

kern_return_t vm_map_copy_record(uint64_t addr, uint64_t size,
				 uint64_t *start, uint64_t *end,
				 struct vm_map_copy **copy)
{
	struct vm_map_copy *c;
	kern_return_t kr;
	uint64_t npages;

	kr = vm_map_entry_round(VM_MIN_ADDRESS, VM_MAX_ADDRESS, addr, size,
				start, end);
	if (kr != KERN_SUCCESS)
		return kr;
	npages = (*end - *start) / VM_PAGE_SIZE;
	c = kalloc(sizeof(*c) + npages * sizeof(c->frames[0]));
	if (c == NULL)
		return KERN_RESOURCE_SHORTAGE;
	c->size = size;
	c->offset = addr & PAGE_MASK;
	c->npages = npages;
	c->bytes = NULL;
	c->loaned = false;
	*copy = c;
	return KERN_SUCCESS;
}

kern_return_t vm_map_copyin_bytes(struct vm_map *map, uint64_t addr,
				  uint64_t size, struct vm_map_copy **copy)
{
	struct vm_map_copy *c;
	uint64_t npages;
	kern_return_t kr;

	if (size > VM_MAP_COPY_BYTES_MAX)
		return vm_map_copyin_loan(map, addr, size, copy);
	if (size == 0 || map == NULL || copy == NULL || addr + size < addr)
		return vm_map_copyin(map, addr, size, false, copy);
	npages = (((addr + size + PAGE_MASK) & ~PAGE_MASK) -
		  (addr & ~PAGE_MASK)) / VM_PAGE_SIZE;
	c = rec_pool_alloc(&pool, sizeof(struct vm_map_copy) +
			   npages * sizeof(uint64_t) + size);
	if (c == NULL)
		return KERN_RESOURCE_SHORTAGE;
	c->bytes = (uint8_t *)&c->frames[npages];
	c->loaned = false;
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

/* A loaned copy takes frames of its own with the same contents and gives
 * the lent ones back; KERN_RESOURCE_SHORTAGE leaves it as it was. */
static kern_return_t unloan(struct vm_map_copy *copy)
{
	uint64_t *fresh = kalloc(copy->npages * sizeof(*fresh));
	uint64_t i, flags;

	if (fresh == NULL)
		return KERN_RESOURCE_SHORTAGE;
	for (i = 0; i < copy->npages; i++) {
		fresh[i] = 0;
		if (copy->frames[i] != 0 &&
		    vm_page_alloc(VM_ZONE_DMA32, &fresh[i]) != KERN_SUCCESS)
			goto err_pages;
	}
	flags = cpu_intr_save();	/* the loan registry's rule */
	for (i = 0; i < copy->npages; i++) {
		if (copy->frames[i] == 0)
			continue;
		memcpy(phys_to_virt(fresh[i]),
		       phys_to_virt(copy->frames[i]), VM_PAGE_SIZE);
		vm_page_loan_give(copy->frames[i]);
		copy->frames[i] = fresh[i];
	}
	copy->loaned = false;
	cpu_intr_restore(flags);
	kfree(fresh);
	return KERN_SUCCESS;

err_pages:
	while (i-- > 0)
		if (fresh[i] != 0)
			vm_page_free_contig(fresh[i], 1);
	kfree(fresh);
	return KERN_RESOURCE_SHORTAGE;
}

const void *vm_map_copy_bytes(const struct vm_map_copy *copy)
{
	return copy != NULL ? copy->bytes : NULL;
}

kern_return_t vm_map_copy_frames(struct vm_map_copy *copy)
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

kern_return_t vm_map_copy_pages(struct vm_map_copy *copy)
{
	if (copy != NULL && copy->loaned)
		return unloan(copy);
	return vm_map_copy_frames(copy);
}
