/* SPDX-License-Identifier: GPL-2.0-only */
/* kmalloc and kfree over the host allocator, honouring GFP_DMA and GFP_DMA32. */
/*
 * Linux promises that kmalloc memory is physically contiguous, aligned to
 * its size for power-of-two sizes, and inside the zone the GFP flags name;
 * lx_host_alloc() promises the same (see lx_host.h).  There are no slab
 * caches (kmem_cache_*) yet.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/page-flags.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <lx_host.h>
#include <lx_world.h>
#include <lx_slab.h>

/* lx_slab_zone - the host zone that GFP @flags ask for (lx_slab.h). */
enum lx_host_zone lx_slab_zone(gfp_t flags)
{
	if (flags & GFP_DMA)
		return LX_HOST_ZONE_DMA;
	if (flags & GFP_DMA32)
		return LX_HOST_ZONE_DMA32;
	return LX_HOST_ZONE_ANY;
}

/*
 * Once the struct page array exists, a page that held kmalloc memory is
 * marked PG_slab (Linux code such as kernel/resource.c asks); the mark
 * stays until whoever allocates the page next as a page sets its flags.
 */
void *__kmalloc(size_t size, gfp_t flags)
{
	void *p;

	if (size == 0)
		return ZERO_SIZE_PTR;
	p = lx_host_alloc(size, lx_slab_zone(flags), !!(flags & __GFP_ZERO));
	if (p && lx_page_ready())
		__SetPageSlab(virt_to_head_page(p));
	return p;
}

void *__kmalloc_node(size_t size, gfp_t flags, int node)
{
	return __kmalloc(size, flags);
}

/* What devm_kmalloc and kvasprintf call (the caller is not recorded). */
void *__kmalloc_node_track_caller(size_t size, gfp_t flags, int node,
				  unsigned long caller)
{
	return __kmalloc(size, flags);
}

void *kmalloc_large(size_t size, gfp_t flags)
{
	return __kmalloc(size, flags);
}

void *kmalloc_large_node(size_t size, gfp_t flags, int node)
{
	return __kmalloc(size, flags);
}

void kfree(const void *p)
{
	if (!ZERO_OR_NULL_PTR(p))
		lx_host_free((void *)p);
}

char *kstrdup(const char *s, gfp_t gfp)
{
	size_t len;
	char *copy;

	if (!s)
		return NULL;
	len = strlen(s) + 1;
	copy = kmalloc(len, gfp);
	if (copy)
		memcpy(copy, s, len);
	return copy;
}

/* kmemdup - a kmalloc'd copy of @len bytes at @src, or NULL. */
void *kmemdup(const void *src, size_t len, gfp_t gfp)
{
	void *copy = kmalloc(len, gfp);

	if (copy)
		memcpy(copy, src, len);
	return copy;
}
