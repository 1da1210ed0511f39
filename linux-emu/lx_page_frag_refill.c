/* SPDX-License-Identifier: GPL-2.0-only */
/* skb_page_frag_refill: a page with room for the next fragment of a struct page_frag. */
/*
 * The caller carves fragments out of pfrag->page itself, taking a page
 * reference for each one it hands out; the struct page_frag holds one
 * more while the page is current.  Linux tries a 32 KiB compound block
 * first and falls back to one page; here it is always one page, as
 * lx_page_alloc.c's fragment cache does, so a fragment is at most
 * PAGE_SIZE bytes.  Its pages are marked (PG_owner_priv_1) and counted
 * until freed (lx_emul_frag_pages): a driver keeping a receive ring
 * full of fragments between sessions (virtio_net) holds a number of
 * pages that depends on how its buffers straddle them, which leak
 * checks must tell from a leak.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/page_ref.h>
#include <linux/skbuff.h>
#include <net/sock.h>

#include <lx_emul.h>
#include <lx_net.h>

static atomic_long_t frag_pages;

unsigned long lx_emul_frag_pages(void)
{
	return atomic_long_read(&frag_pages);
}

void lx_page_frag_refill_freed(struct page *page)
{
	ClearPageOwnerPriv1(page);
	atomic_long_dec(&frag_pages);
}

/*
 * skb_page_frag_refill - make sure @pfrag has @sz bytes free from
 * pfrag->offset: the current page again from offset 0 if nobody else
 * holds it, the same page if the bytes fit, else a new page (the old
 * one's reference put).  True; false if a new page was needed and
 * @gfp found none, or @sz is above PAGE_SIZE (pfrag->page then NULL).
 */
bool skb_page_frag_refill(unsigned int sz, struct page_frag *pfrag, gfp_t gfp)
{
	if (pfrag->page) {
		if (page_ref_count(pfrag->page) == 1) {
			pfrag->offset = 0;
			if (sz <= pfrag->size)
				return true;
		} else if (pfrag->offset + sz <= pfrag->size) {
			return true;
		}
		put_page(pfrag->page);
	}
	pfrag->page = NULL;
	pfrag->offset = 0;
	pfrag->size = 0;
	if (sz > PAGE_SIZE)
		return false;
	pfrag->page = alloc_page(gfp);
	if (!pfrag->page)
		return false;
	SetPageOwnerPriv1(pfrag->page);
	atomic_long_inc(&frag_pages);
	pfrag->size = PAGE_SIZE;
	return true;
}
