/* SPDX-License-Identifier: GPL-2.0-only */
/* kvmalloc_node, kvfree: memory that may be virtually contiguous only. */
/*
 * Linux tries kmalloc and falls back on vmalloc; linux-emu's vmalloc is
 * kmalloc (lx_vmalloc.c), so kmalloc is the whole answer and kvfree is
 * kfree (vfree would be the same).
 */
#include <linux/mm.h>
#include <linux/slab.h>

/* kvmalloc_node - @size bytes with @flags (__GFP_ZERO zeroes them); NULL
 * when there is no memory.  @node: one memory node, ignored. */
void *kvmalloc_node(size_t size, gfp_t flags, int node)
{
	return kmalloc(size, flags);
}

/* kvfree - give back what kvmalloc_node or vmalloc returned (NULL:
 * nothing). */
void kvfree(const void *addr)
{
	kfree(addr);
}
