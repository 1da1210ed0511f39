/* SPDX-License-Identifier: GPL-2.0-only */
/* Whole pages (alloc_pages, put_page) and page fragments (page_frag_*, netdev_alloc_frag) over the host allocator. */
/*
 * A block of 2^order pages comes from lx_host_alloc() in the zone the GFP
 * flags name and is page aligned; only in the DMA zone is it aligned to
 * its size, as Linux's buddy allocator makes every block (ISA DMA
 * buffers must not cross 64 KiB).  Its struct pages (lx_page.c) are made
 * fresh: flag bits cleared (PG_slab from an earlier kmalloc use too), the
 * zone and section links kept, reference count 1 on the first page.
 * With __GFP_COMP the block is a compound page, so virt_to_head_page()
 * and put_page() on any of its pages find the head.  The block goes back
 * to the host when the last reference is put.
 *
 * The fragment allocator carves fragments out of single pages (Linux
 * uses 32 KiB compound blocks): every fragment handed out holds one page
 * reference, the cache holds one more while the page is current.  So
 * page_frag_free() on the last fragment of a page that the cache has
 * moved on from gives the page back.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/page_ref.h>
#include <linux/skbuff.h>

#include <lx_host.h>
#include <lx_net.h>
#include <lx_slab.h>

static void page_fresh(struct page *page, int count)
{
	page->flags &= ~PAGEFLAGS_MASK;
	page->mapping = NULL;
	page->private = 0;
	page_mapcount_reset(page);
	set_page_count(page, count);
}

struct page *__alloc_pages(gfp_t gfp, unsigned int order, int preferred_nid,
			   nodemask_t *nodemask)
{
	unsigned long n = 1ul << order;
	struct page *page;
	void *block;

	if (order > MAX_ORDER - 1)
		return NULL;
	block = lx_host_alloc(PAGE_SIZE * n, lx_slab_zone(gfp),
			      !!(gfp & __GFP_ZERO));
	if (!block)
		return NULL;
	page = virt_to_page(block);
	page_fresh(page, 1);
	for (unsigned long i = 1; i < n; i++)
		page_fresh(page + i, 0);
	if (order && (gfp & __GFP_COMP)) {
		__SetPageHead(page);
		for (unsigned long i = 1; i < n; i++)
			set_compound_head(page + i, page);
		set_compound_order(page, order);
	}
	return page;
}

/* Give the block headed by @page (reference count already 0) back. */
static void block_free(struct page *page)
{
	if (PageOwnerPriv1(page))
		lx_page_frag_refill_freed(page);
	if (PageHead(page)) {
		for (unsigned long i = 1; i < compound_nr(page); i++)
			clear_compound_head(page + i);
		__ClearPageHead(page);
	}
	lx_host_free(page_address(page));
}

void __free_pages(struct page *page, unsigned int order)
{
	if (put_page_testzero(page))
		block_free(page);
}

void free_pages(unsigned long addr, unsigned int order)
{
	if (addr)
		__free_pages(virt_to_page((void *)addr), order);
}

/* __get_free_pages - alloc_pages, as an address (never highmem). */
unsigned long __get_free_pages(gfp_t gfp, unsigned int order)
{
	struct page *page = alloc_pages(gfp & ~__GFP_HIGHMEM, order);

	return page ? (unsigned long)page_address(page) : 0;
}

/* put_page() found the count of @folio at 0. */
void __folio_put(struct folio *folio)
{
	block_free(&folio->page);
}

void *page_frag_alloc_align(struct page_frag_cache *nc, unsigned int fragsz,
			    gfp_t gfp, unsigned int align_mask)
{
	unsigned int offset = (nc->offset + ~align_mask) & align_mask;
	struct page *page;

	if (fragsz > PAGE_SIZE)
		return NULL;
	if (!nc->va || offset + fragsz > PAGE_SIZE) {
		page = alloc_page(gfp & ~__GFP_ZERO);
		if (!page)
			return NULL;
		if (nc->va)
			page_frag_free(nc->va);	/* the cache's reference */
		nc->va = page_address(page);
		nc->pfmemalloc = false;
		offset = 0;
	}
	page_ref_inc(virt_to_page(nc->va));
	nc->offset = offset + fragsz;
	return nc->va + offset;
}

void page_frag_free(void *addr)
{
	struct page *page = virt_to_head_page(addr);

	if (put_page_testzero(page))
		block_free(page);
}

void lx_page_frag_cache_drain(struct page_frag_cache *nc)
{
	if (nc->va)
		page_frag_free(nc->va);
	nc->va = NULL;
	nc->offset = 0;
}

static struct page_frag_cache netdev_frag_cache;

void *__netdev_alloc_frag_align(unsigned int fragsz, unsigned int align_mask)
{
	unsigned long flags;
	void *frag;

	local_irq_save(flags);
	frag = page_frag_alloc_align(&netdev_frag_cache, fragsz, GFP_ATOMIC,
				     align_mask);
	local_irq_restore(flags);
	return frag;
}

void lx_net_frag_caches_drain(void)
{
	unsigned long flags;

	local_irq_save(flags);
	lx_page_frag_cache_drain(&netdev_frag_cache);
	local_irq_restore(flags);
}
