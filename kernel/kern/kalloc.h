/* SPDX-License-Identifier: GPL-2.0-only */
/* The kernel heap for small objects. */
#ifndef KERN_KALLOC_H
#define KERN_KALLOC_H

#include <stddef.h>
#include <stdint.h>

/*
 * kalloc - allocate @size bytes, 16-byte aligned, not zeroed, from the
 * direct map.  Returns NULL when @size is 0 or memory is exhausted (callers
 * turn that into KERN_RESOURCE_SHORTAGE).  Sizes up to 2048 bytes come from
 * power-of-two classes (16 to 2048); larger ones come whole from
 * vm_page_alloc_contig() below 4 GiB, with a 16-byte header in the first
 * page.  Disables interrupts while it works.
 */
void *kalloc(size_t size);

/* kzalloc - kalloc() and zero. */
void *kzalloc(size_t size);

/* kfree - free @p from kalloc(); NULL is ignored; a pointer kalloc() did not
 * return, or a double free, is a kernel bug: panic(). */
void kfree(void *p);

/* Bytes currently allocated (requested sizes rounded to their class; whole
 * pages, header included, above 2048 bytes), for leak checks in tests. */
uint64_t kalloc_bytes_in_use(void);

#endif
