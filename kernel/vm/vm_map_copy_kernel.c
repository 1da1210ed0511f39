/* SPDX-License-Identifier: GPL-2.0-only */
/* Out-of-line memory made and read by the kernel: fresh pages, direct map. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kern/kalloc.h"
#include "kern/panic.h"
#include "kern/string.h"
#include "vm/vm_map.h"
#include "vm/vm_map_copy.h"
#include "vm/vm_map_copy_kernel.h"
#include "vm/vm_page.h"
#include "x86_64/layout.h"

kern_return_t vm_map_copy_kernel_alloc(uint64_t size,
				       struct vm_map_copy **copy)
{
	uint64_t npages = (size + VM_PAGE_SIZE - 1) / VM_PAGE_SIZE;
	struct vm_map_copy *c;
	uint64_t tail;

	if (size == 0)
		return KERN_INVALID_ARGUMENT;
	c = kalloc(sizeof(*c) + npages * sizeof(c->frames[0]));
	if (c == NULL)
		return KERN_RESOURCE_SHORTAGE;
	c->size = size;
	c->offset = 0;
	c->npages = npages;
	c->bytes = NULL;
	c->loaned = false;
	if (vm_page_alloc_pages(VM_ZONE_DMA32, npages, c->frames) !=
	    KERN_SUCCESS) {
		kfree(c);
		return KERN_RESOURCE_SHORTAGE;
	}
	tail = npages * VM_PAGE_SIZE - size;
	if (tail != 0)
		memset((uint8_t *)phys_to_virt(c->frames[npages - 1]) +
		       VM_PAGE_SIZE - tail, 0, tail);
	*copy = c;
	return KERN_SUCCESS;
}

/* Declared in vm_map.h: alloc, then write. */
kern_return_t vm_map_copy_from_kernel(const void *data, uint64_t size,
				      struct vm_map_copy **copy)
{
	kern_return_t kr;

	*copy = NULL;
	if (size == 0)
		return KERN_SUCCESS;
	kr = vm_map_copy_kernel_alloc(size, copy);
	if (kr == KERN_SUCCESS)
		vm_map_copy_kernel_write(*copy, 0, data, size);
	return kr;
}

/* Check that [off, off + len) lies in @c's data. */
static void check_range(const struct vm_map_copy *c, uint64_t off,
			size_t len)
{
	if (c == NULL || off > c->size || len > c->size - off)
		panic("vm_map_copy_kernel: range %llu+%llu outside the copy",
		      (unsigned long long)off, (unsigned long long)len);
}

/* Copy @len bytes between @buf and @copy at @off: into the copy if
 * @to_copy, else out of it (pages never touched read as zeros). */
static void walk(const struct vm_map_copy *copy, uint64_t off, uint8_t *buf,
		 size_t len, bool to_copy)
{
	check_range(copy, off, len);
	if (copy->bytes != NULL && to_copy) {
		memcpy(copy->bytes + off, buf, len);
		return;
	}
	if (copy->bytes != NULL) {
		memcpy(buf, copy->bytes + off, len);
		return;
	}
	off += copy->offset;
	while (len > 0) {
		uint64_t page = off / VM_PAGE_SIZE, in = off % VM_PAGE_SIZE;
		size_t n = VM_PAGE_SIZE - in < len ? VM_PAGE_SIZE - in : len;
		uint8_t *p = copy->frames[page] == 0 ? NULL :
			     (uint8_t *)phys_to_virt(copy->frames[page]) + in;

		if (to_copy && p == NULL)
			panic("vm_map_copy_kernel_write: no page %llu",
			      (unsigned long long)page);
		if (to_copy)
			memcpy(p, buf, n);
		else if (p == NULL)
			memset(buf, 0, n);
		else
			memcpy(buf, p, n);
		buf += n;
		off += n;
		len -= n;
	}
}

void vm_map_copy_kernel_write(struct vm_map_copy *copy, uint64_t off,
			      const void *src, size_t len)
{
	walk(copy, off, (uint8_t *)src, len, true);
}

void vm_map_copy_kernel_read(const struct vm_map_copy *copy, uint64_t off,
			     void *dst, size_t len)
{
	walk(copy, off, dst, len, false);
}
