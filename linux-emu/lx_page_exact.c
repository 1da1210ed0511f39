/* SPDX-License-Identifier: GPL-2.0-only */
/* alloc_pages_exact, free_pages_exact: physically contiguous memory of a size that is not a power of two pages. */
/*
 * Linux splits the power-of-two block and gives the pages past the size
 * back at once.  lx_page_alloc.c's blocks go back to the host whole, so
 * here the block is kept whole until free_pages_exact; the caller sees
 * no difference but the memory used (less than twice the size).
 */
#include <linux/gfp.h>
#include <linux/mm.h>

/*
 * alloc_pages_exact - @size bytes (rounded up to pages) of physically
 * contiguous, page-aligned memory from the zone @gfp_mask names
 * (__GFP_COMP is not allowed, as in Linux); NULL without memory.
 */
void *alloc_pages_exact(size_t size, gfp_t gfp_mask)
{
	if (WARN_ON_ONCE(gfp_mask & __GFP_COMP))
		gfp_mask &= ~__GFP_COMP;
	return (void *)__get_free_pages(gfp_mask, get_order(size));
}

/* free_pages_exact - free what alloc_pages_exact(@size) gave as @virt. */
void free_pages_exact(void *virt, size_t size)
{
	free_pages((unsigned long)virt, get_order(size));
}
