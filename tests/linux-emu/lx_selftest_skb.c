/* SPDX-License-Identifier: GPL-2.0-only */
/* Checks of the linux-net suite on sk_buffs and pages: geometry, data operations, fragments (Linux world). */
#include <linux/gfp.h>
#include <net/checksum.h>
#include <linux/mm.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/slab.h>

#include <lx_emul.h>
#include <lx_net.h>

#include <lx_world.h>

#include "lx_selftest_net.h"
#include "lx_selftest_check.h"

/* Linear geometry: alloc_skb(alloc), then reserve, put, push, pull,
 * trim in that order (0: skipped); then headroom, tailroom, len. */
struct geometry_case {
	const char *name;
	unsigned int alloc, reserve, put, push, pull, trim;
	int headroom, tailroom, len;
};

static const struct geometry_case geometry_cases[] = {
	{ "fresh_skb_is_all_tailroom", 128, 0, 0, 0, 0, 0, 0, 128, 0 },
	{ "room_rounds_up_to_a_cache_line", 100, 0, 0, 0, 0, 0, 0, 128, 0 },
	{ "reserve_moves_room_to_the_front", 128, 32, 0, 0, 0, 0, 32, 96, 0 },
	{ "put_grows_at_the_tail", 128, 32, 50, 0, 0, 0, 32, 46, 50 },
	{ "push_grows_into_headroom", 128, 32, 50, 14, 0, 0, 18, 46, 64 },
	{ "pull_gives_headroom_back", 128, 32, 50, 0, 20, 0, 52, 46, 30 },
	{ "trim_shortens_and_gives_tailroom", 128, 32, 50, 0, 0, 10,
	  32, 86, 10 },
	{ "trim_longer_than_data_changes_nothing", 128, 32, 50, 0, 0, 80,
	  32, 46, 50 },
};

static int geometry_one(const struct geometry_case *c)
{
	struct sk_buff *skb = alloc_skb(c->alloc, GFP_KERNEL);
	int line = 0;

	CHECK(skb);
	/* Linux's layout: shared info right at the (aligned) end. */
	if (skb_end_offset(skb) != SKB_DATA_ALIGN(c->alloc) ||
	    (u8 *)skb_shinfo(skb) != skb->head + SKB_DATA_ALIGN(c->alloc) ||
	    atomic_read(&skb_shinfo(skb)->dataref) != 1 ||
	    skb->truesize != SKB_TRUESIZE(SKB_DATA_ALIGN(c->alloc)))
		line = __LINE__;
	if (c->reserve)
		skb_reserve(skb, c->reserve);
	if (c->put)
		memset(skb_put(skb, c->put), 0x5a, c->put);
	if (c->push)
		skb_push(skb, c->push);
	if (c->pull && !skb_pull(skb, c->pull))
		line = __LINE__;
	if (c->trim)
		skb_trim(skb, c->trim);
	if (!line && (skb_headroom(skb) != c->headroom ||
		      skb_tailroom(skb) != c->tailroom || skb->len != c->len))
		line = __LINE__;
	if (line)
		pr_err("lx_selftest_net: %s: headroom %u tailroom %d len %u, expected %d %d %d\n",
		       c->name, skb_headroom(skb), skb_tailroom(skb), skb->len,
		       c->headroom, c->tailroom, c->len);
	kfree_skb(skb);
	return line;
}

static void fill(u8 *p, unsigned int len, u8 seed)
{
	for (unsigned int i = 0; i < len; i++)
		p[i] = seed + i * 7;
}

static bool filled(const u8 *p, unsigned int len, u8 seed)
{
	for (unsigned int i = 0; i < len; i++)
		if (p[i] != (u8)(seed + i * 7))
			return false;
	return true;
}

/* expand_head keeps the data and the header offsets, adds the room. */
static int expand_head_keeps_data_and_headers(void)
{
	struct sk_buff *skb = alloc_skb(64, GFP_KERNEL);
	int tailroom;
	u8 *old;

	CHECK(skb);
	skb_reserve(skb, 16);
	fill(skb_put(skb, 40), 40, 1);
	skb_reset_mac_header(skb);
	skb_set_network_header(skb, ETH_HLEN);
	tailroom = skb_tailroom(skb);
	old = skb->head;
	CHECK(pskb_expand_head(skb, 64, 100, GFP_ATOMIC) == 0);
	CHECK(skb->head != old && skb_headroom(skb) == 80);
	CHECK(skb_tailroom(skb) >= tailroom + 100 && skb->len == 40);
	CHECK(filled(skb->data, 40, 1));
	CHECK(skb_mac_header(skb) == skb->data);
	CHECK(skb_network_header(skb) == skb->data + ETH_HLEN);
	CHECK(pskb_expand_head(skb, -1, 0, GFP_ATOMIC) == -EINVAL);
	kfree_skb(skb);
	return 0;
}

/* put_padto zeroes up to the length, growing the skb if needed. */
static int padto_zeroes_and_grows(void)
{
	struct sk_buff *skb = alloc_skb(64, GFP_KERNEL);

	CHECK(skb);
	memset(skb_put(skb, 64), 0xaa, 64);
	skb_trim(skb, 20);
	CHECK(skb_put_padto(skb, ETH_ZLEN) == 0 && skb->len == ETH_ZLEN);
	CHECK(!memchr_inv(skb->data + 20, 0, ETH_ZLEN - 20));
	CHECK(skb_put_padto(skb, 200) == 0 && skb->len == 200);
	CHECK(!memchr_inv(skb->data + 20, 0, 180));
	kfree_skb(skb);
	return 0;
}

/*
 * An skb of 20 linear bytes and two fragments of one page (200 bytes at
 * 100, 100 bytes at 400): copy_bits across them, pull_tail, pskb_trim
 * dropping a fragment, and the page references each takes and gives.
 */
static int fragments_copy_pull_trim_and_free(void)
{
	struct page *page = alloc_page(GFP_KERNEL);
	u8 expect[320], out[320];
	struct sk_buff *skb;
	u8 *va;

	CHECK(page && page_ref_count(page) == 1 && !PageSlab(page));
	va = page_address(page);
	fill(va, PAGE_SIZE, 9);
	skb = alloc_skb(128, GFP_KERNEL);
	CHECK(skb);
	fill(skb_put(skb, 20), 20, 3);
	get_page(page);
	get_page(page);				/* ours stays for the checks */
	skb_add_rx_frag(skb, 0, page, 100, 200, PAGE_SIZE / 2);
	skb_add_rx_frag(skb, 1, page, 400, 100, PAGE_SIZE / 2);
	CHECK(skb->len == 320 && skb_headlen(skb) == 20 &&
	      skb->data_len == 300 && page_ref_count(page) == 3);
	memcpy(expect, skb->data, 20);
	memcpy(expect + 20, va + 100, 200);
	memcpy(expect + 220, va + 400, 100);
	CHECK(skb_copy_bits(skb, 0, out, 320) == 0 &&
	      !memcmp(out, expect, 320));
	CHECK(skb_copy_bits(skb, 10, out, 50) == 0 &&
	      !memcmp(out, expect + 10, 50));
	CHECK(skb_copy_bits(skb, 300, out, 21) == -EFAULT);

	CHECK(__pskb_pull_tail(skb, 30) && skb_headlen(skb) == 50);
	CHECK(skb->data_len == 270 && skb_shinfo(skb)->nr_frags == 2);
	CHECK(!memcmp(skb->data, expect, 50));
	CHECK(skb_copy_bits(skb, 0, out, 320) == 0 &&
	      !memcmp(out, expect, 320));

	CHECK(pskb_trim(skb, 100) == 0 && skb->len == 100);
	CHECK(skb_shinfo(skb)->nr_frags == 1 && skb->data_len == 50);
	CHECK(page_ref_count(page) == 2);	/* the dropped fragment's */
	CHECK(skb_copy_bits(skb, 0, out, 100) == 0 &&
	      !memcmp(out, expect, 100));

	CHECK(skb_linearize(skb) == 0 && !skb_is_nonlinear(skb));
	CHECK(page_ref_count(page) == 1 && !memcmp(skb->data, expect, 100));
	kfree_skb(skb);
	CHECK(page_ref_count(page) == 1);
	put_page(page);				/* back to the host */
	return 0;
}

/* napi_build_skb wraps a page fragment; freeing gives the fragment's
 * page reference back. */
static int built_skb_on_fragment_frees_it(void)
{
	unsigned int size = SKB_DATA_ALIGN(NET_SKB_PAD + 1536) +
			    SKB_DATA_ALIGN(sizeof(struct skb_shared_info));
	void *a = netdev_alloc_frag(size), *b = netdev_alloc_frag(64);
	struct sk_buff *skb;
	struct page *page;

	CHECK(a && b && virt_to_head_page(a) == virt_to_head_page(b));
	CHECK(b == a + size);			/* carved one after another */
	page = virt_to_head_page(a);
	CHECK(page_ref_count(page) == 3);	/* the cache's, a's, b's */
	skb = napi_build_skb(a, size);
	CHECK(skb && skb->head_frag && skb->head == a);
	skb_reserve(skb, NET_SKB_PAD);
	CHECK(skb_tailroom(skb) == SKB_DATA_ALIGN(NET_SKB_PAD + 1536) -
				   NET_SKB_PAD);
	fill(skb_put(skb, 100), 100, 4);
	CHECK(pskb_expand_head(skb, 0, 4096, GFP_ATOMIC) == 0);
	CHECK(!skb->head_frag && page_ref_count(page) == 2);
	CHECK(filled(skb->data, 100, 4));
	kfree_skb(skb);
	page_frag_free(b);
	CHECK(page_ref_count(page) == 1);	/* the cache's alone */
	CHECK(!napi_build_skb(a, 0));		/* kmalloc'd heads: refused */
	return 0;
}

/* Structs come from the pool while it has some, then from the heap;
 * each is zeroed, and a freed one goes back where it came from. */
static int structs_come_from_the_pool_then_the_heap(void)
{
	struct sk_buff *skbs[40];
	unsigned int free = lx_skb_pool_free_count();
	unsigned long count = lx_emul_skb_count();
	unsigned int n = free + 2;

	CHECK(n <= ARRAY_SIZE(skbs));
	for (unsigned int i = 0; i < n; i++) {
		skbs[i] = alloc_skb(64, GFP_ATOMIC);
		CHECK(skbs[i] && !skbs[i]->len && !skbs[i]->destructor &&
		      !skbs[i]->dev && refcount_read(&skbs[i]->users) == 1);
		CHECK(lx_skb_pool_free_count() ==
		      (i + 1 < free ? free - i - 1 : 0));
		skbs[i]->dev = (struct net_device *)skbs;  /* not zero */
	}
	CHECK(lx_emul_skb_count() == count + n);
	for (unsigned int i = 0; i < n; i++)
		kfree_skb(skbs[i]);
	CHECK(lx_skb_pool_free_count() == free);
	CHECK(lx_emul_skb_count() == count);
	/* A struct given back is zeroed when taken again. */
	skbs[0] = alloc_skb(64, GFP_ATOMIC);
	CHECK(skbs[0] && !skbs[0]->dev);
	kfree_skb(skbs[0]);
	return 0;
}

/* Pages come from the zone asked for, compound when asked. */
static int pages_honour_zones_and_compound(void)
{
	struct page *dma = alloc_pages(GFP_DMA, 0);
	struct page *dma32 = alloc_pages(GFP_DMA32 | __GFP_COMP, 2);
	struct page *zero = alloc_pages(GFP_KERNEL | __GFP_ZERO, 1);
	int line = 0;

	if (!dma || !dma32 || !zero)
		line = __LINE__;
	else if (page_to_phys(dma) + PAGE_SIZE > (16ul << 20) ||
		 page_to_phys(dma32) + 4 * PAGE_SIZE > (1ul << 32))
		line = __LINE__;
	else if (!PageHead(dma32) || compound_order(dma32) != 2 ||
		 virt_to_head_page(page_address(dma32) + 3 * PAGE_SIZE +
				   5) != dma32 ||
		 page_ref_count(dma32 + 3) != 0)
		line = __LINE__;
	else if (PageHead(zero) ||
		 memchr_inv(page_address(zero), 0, 2 * PAGE_SIZE))
		line = __LINE__;
	else if (PageSlab(dma) || PageSlab(dma32) || PageSlab(zero))
		line = __LINE__;
	if (dma)
		put_page(dma);
	if (dma32)
		put_page(dma32 + 2);		/* a tail finds its head */
	if (zero)
		__free_pages(zero, 1);
	return line;
}

/* The Internet checksum comes from Linux's library (arch/x86/lib):
 * a textbook IPv4 header sums to b861. */
static int internet_checksum_of_ipv4_header(void)
{
	static const u8 header[20] = {
		0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11,
		0x00, 0x00, 0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8, 0x00, 0xc7,
	};

	CHECK(ip_compute_csum(header, sizeof(header)) ==
	      (__force __sum16)htons(0xb861));
	return 0;
}

struct skb_check {
	const char *name;
	int (*run)(void);
};

static const struct skb_check skb_checks[] = {
	{ "expand_head_keeps_data_and_headers",
	  expand_head_keeps_data_and_headers },
	{ "padto_zeroes_and_grows", padto_zeroes_and_grows },
	{ "fragments_copy_pull_trim_and_free",
	  fragments_copy_pull_trim_and_free },
	{ "built_skb_on_fragment_frees_it", built_skb_on_fragment_frees_it },
	{ "structs_come_from_the_pool_then_the_heap",
	  structs_come_from_the_pool_then_the_heap },
	{ "pages_honour_zones_and_compound", pages_honour_zones_and_compound },
	{ "internet_checksum_of_ipv4_header",
	  internet_checksum_of_ipv4_header },
};

static int in_skb(void)
{
	int line;

	for (int i = 0; i < ARRAY_SIZE(geometry_cases); i++) {
		line = geometry_one(&geometry_cases[i]);
		if (line)
			return line;
	}
	for (int i = 0; i < ARRAY_SIZE(skb_checks); i++) {
		line = skb_checks[i].run();
		if (line) {
			pr_err("lx_selftest_net: %s failed at line %d\n",
			       skb_checks[i].name, line);
			return line;
		}
	}
	lx_net_frag_caches_drain();
	return 0;
}

/* Called by the host: each holds the Linux world (lx_world.h). */

IN_WORLD(net_skb, in_skb)
