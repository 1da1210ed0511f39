/* SPDX-License-Identifier: GPL-2.0-only */
/* The kernel heap: one-page slabs for 16 to 2048 bytes, pages above. */
/*
 * Design.  Each size class (16, 32, ..., 2048 bytes) carves single pages
 * from vm_page_alloc(VM_ZONE_NORMAL, ...) into equal objects.  A page of a
 * class starts with a 64-byte header (struct kalloc_slab): a magic number,
 * the class, the free count, the links of the class's list of slabs that
 * have a free object, and a 256-bit map of its free objects; the objects
 * follow at offset 64, so they are 16-byte aligned.  Per page:
 *
 *   class   16   32   64  128  256  512  1024  2048
 *   objects 252  126  63   31   15    7     3     1
 *
 * (the header costs one object in most classes, half the page for 2048).
 * kalloc takes the lowest free object of the first slab on its class's
 * list, allocating a page when the list is empty; kfree finds the header
 * by rounding the pointer down to its page, so both are O(1).  A slab that
 * becomes empty goes back to vm_page at once, so a heap with nothing
 * allocated holds no pages.
 *
 * Larger sizes take whole pages from vm_page_alloc_contig() below 4 GiB
 * (the direct map): a 16-byte header (struct kalloc_large, magic and page
 * count) then the object, so kfree sees page offset 16.
 *
 * kfree rejects (panic) pointers outside the direct map or not 16-byte
 * aligned, pages without a heap header, offsets that are not an object's
 * start, and objects already free (their bit in the slab's map).  A page
 * freed back to vm_page has its magic cleared; a stale pointer into a page
 * that has been reused may go unnoticed.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <mach/kern_return.h>

#include "kern/kalloc.h"
#include "kern/panic.h"
#include "kern/string.h"
#include "vm/vm_page.h"
#include "x86_64/cpu.h"
#include "x86_64/layout.h"

#define KALLOC_CLASSES		8	/* 16 << 0 ... 16 << 7 = 2048 */
#define KALLOC_MAX_SMALL	2048
#define SLAB_MAGIC		0x534c4142u	/* "SLAB" */
#define LARGE_MAGIC		0x4c524745u	/* "LRGE" */

struct kalloc_slab {
	uint32_t magic;			/* SLAB_MAGIC */
	uint16_t cls;			/* object size is 16 << cls */
	uint16_t nfree;
	struct kalloc_slab *next;	/* on the class's list while nfree */
	struct kalloc_slab *prev;
	uint64_t pa;			/* of this page */
	uint64_t free_map[4];		/* bit i set: object i is free */
};

struct kalloc_large {
	uint32_t magic;			/* LARGE_MAGIC */
	uint32_t reserved;
	uint64_t npages;
};

#define SLAB_HEADER	sizeof(struct kalloc_slab)
#define LARGE_HEADER	sizeof(struct kalloc_large)

_Static_assert(SLAB_HEADER == 64, "slab header keeps objects aligned");
_Static_assert(LARGE_HEADER == 16, "large header keeps objects aligned");
_Static_assert((VM_PAGE_SIZE - 64) / 16 <= 256, "free map too small");

/* Slabs of each class with at least one free object. */
static struct kalloc_slab *partial[KALLOC_CLASSES];
static uint64_t bytes_in_use;

static size_t class_size(unsigned int cls)
{
	return (size_t)16 << cls;
}

static unsigned int class_objects(unsigned int cls)
{
	return (unsigned int)((VM_PAGE_SIZE - SLAB_HEADER) / class_size(cls));
}

static unsigned int class_of(size_t size)
{
	unsigned int cls = 0;

	while (class_size(cls) < size)
		cls++;
	return cls;
}

static void list_add(struct kalloc_slab *s)
{
	s->prev = NULL;
	s->next = partial[s->cls];
	if (s->next)
		s->next->prev = s;
	partial[s->cls] = s;
}

static void list_remove(struct kalloc_slab *s)
{
	if (s->prev)
		s->prev->next = s->next;
	else
		partial[s->cls] = s->next;
	if (s->next)
		s->next->prev = s->prev;
	s->next = s->prev = NULL;
}

/* A new empty slab of class @cls on its list, or NULL without memory. */
static struct kalloc_slab *slab_new(unsigned int cls)
{
	unsigned int n = class_objects(cls);
	struct kalloc_slab *s;
	uint64_t pa;

	if (vm_page_alloc(VM_ZONE_NORMAL, &pa) != KERN_SUCCESS)
		return NULL;
	if (pa >= DIRECT_MAP_SIZE)
		panic("kalloc: page 0x%llx is beyond the direct map",
		      (unsigned long long)pa);
	s = phys_to_virt(pa);
	s->magic = SLAB_MAGIC;
	s->cls = (uint16_t)cls;
	s->nfree = (uint16_t)n;
	s->pa = pa;
	for (unsigned int w = 0; w < 4; w++) {
		unsigned int lo = w * 64;

		if (n >= lo + 64)
			s->free_map[w] = ~0ull;
		else if (n > lo)
			s->free_map[w] = (1ull << (n - lo)) - 1;
		else
			s->free_map[w] = 0;
	}
	list_add(s);
	return s;
}

static void *small_alloc(size_t size)
{
	unsigned int cls = class_of(size), w = 0, i;
	struct kalloc_slab *s = partial[cls];

	if (s == NULL)
		s = slab_new(cls);
	if (s == NULL)
		return NULL;
	while (s->free_map[w] == 0)
		w++;
	i = w * 64 + (unsigned int)__builtin_ctzll(s->free_map[w]);
	s->free_map[w] &= ~(1ull << (i % 64));
	if (--s->nfree == 0)
		list_remove(s);
	bytes_in_use += class_size(cls);
	return (char *)s + SLAB_HEADER + i * class_size(cls);
}

static void *large_alloc(size_t size)
{
	struct kalloc_large *h;
	uint64_t npages, pa;

	if (size > UINT64_MAX - LARGE_HEADER - VM_PAGE_SIZE)
		return NULL;
	npages = (size + LARGE_HEADER + VM_PAGE_SIZE - 1) / VM_PAGE_SIZE;
	if (vm_page_alloc_contig(npages, 0, 0, DIRECT_MAP_SIZE, &pa) !=
	    KERN_SUCCESS)
		return NULL;
	h = phys_to_virt(pa);
	h->magic = LARGE_MAGIC;
	h->reserved = 0;
	h->npages = npages;
	bytes_in_use += npages * VM_PAGE_SIZE;
	return h + 1;
}

static void small_free(struct kalloc_slab *s, uint64_t offset, void *p)
{
	size_t size = class_size(s->cls);
	unsigned int n = class_objects(s->cls), i;

	if (offset < SLAB_HEADER || (offset - SLAB_HEADER) % size ||
	    (offset - SLAB_HEADER) / size >= n)
		panic("kfree: %p is not the start of a %zu-byte object", p,
		      size);
	i = (unsigned int)((offset - SLAB_HEADER) / size);
	if (s->free_map[i / 64] & (1ull << (i % 64)))
		panic("kfree: double free of %p (%zu bytes)", p, size);

	s->free_map[i / 64] |= 1ull << (i % 64);
	bytes_in_use -= size;
	if (s->nfree++ == 0)
		list_add(s);
	if (s->nfree == n) {
		list_remove(s);
		s->magic = 0;
		vm_page_free_contig(s->pa, 1);
	}
}

static void large_free(struct kalloc_large *h)
{
	uint64_t npages = h->npages;

	h->magic = 0;
	bytes_in_use -= npages * VM_PAGE_SIZE;
	vm_page_free_contig((uint64_t)h - DIRECT_MAP_BASE, npages);
}

void *kalloc(size_t size)
{
	uint64_t flags;
	void *p;

	if (size == 0)
		return NULL;
	flags = cpu_intr_save();
	if (size <= KALLOC_MAX_SMALL)
		p = small_alloc(size);
	else
		p = large_alloc(size);
	cpu_intr_restore(flags);
	return p;
}

void *kzalloc(size_t size)
{
	void *p = kalloc(size);

	if (p)
		memset(p, 0, size);
	return p;
}

void kfree(void *p)
{
	uint64_t va = (uint64_t)p, offset, flags;
	const uint32_t *magic;

	if (p == NULL)
		return;
	if (va < DIRECT_MAP_BASE || va - DIRECT_MAP_BASE >= DIRECT_MAP_SIZE ||
	    va % 16)
		panic("kfree: %p was not returned by kalloc", p);
	offset = va % VM_PAGE_SIZE;
	magic = (const uint32_t *)(va - offset);

	flags = cpu_intr_save();
	if (*magic == LARGE_MAGIC && offset == LARGE_HEADER)
		large_free((struct kalloc_large *)(va - offset));
	else if (*magic == SLAB_MAGIC)
		small_free((struct kalloc_slab *)(va - offset), offset, p);
	else
		panic("kfree: %p is not in a heap page (freed twice?)", p);
	cpu_intr_restore(flags);
}

uint64_t kalloc_bytes_in_use(void)
{
	return bytes_in_use;
}
