/* SPDX-License-Identifier: GPL-2.0-only */
/* sk_buff life: allocation (__alloc_skb, netdev/napi variants, napi_build_skb, build_skb) and freeing. */
/*
 * Linux's net/core/skbuff.c is not compiled: its 60-odd undefined
 * symbols reach into sockets (sk_free, sock_wfree, kernel_sendmsg),
 * splice and pipes, user namespaces, iov_iter, kmem caches and rbtrees,
 * and it needs foreign data (init_user_ns, nosteal_pipe_buf_ops,
 * memalloc_socks_key, sysctl_tstamp_allow_data).  This file and
 * lx_skb_data.c are the part drivers use, written anew:
 *
 *  - struct sk_buff comes from a static pool of SKB_POOL structs, then
 *    from kmalloc when they are all in use (where Linux has its
 *    skbuff_head_cache): a frame's skb takes no heap object and moves
 *    no heap counter.  Its head
 *    is either kmalloc'd (head_frag 0) or a page fragment handed in by
 *    napi_build_skb (head_frag 1).  Heads of __netdev_alloc_skb and
 *    __napi_alloc_skb are kmalloc'd (Linux carves small ones from page
 *    fragments; drivers cannot tell).
 *  - The layout is Linux's: skb_shared_info sits at skb->head + skb->end,
 *    SKB_DATA_ALIGN'ed sizes, NET_SKB_PAD headroom, so the inlines of
 *    <linux/skbuff.h> work unchanged.
 *  - No clones, no fclones, no frag_list, no page pools, no sockets: the
 *    paths that would need them say so and fail.
 */
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/slab.h>

#include <lx_net.h>

/* sk_buff structs allocated and not yet freed (lx_emul_skb_count). */
static atomic_long_t skbs;

/* The pool of structs; a free one holds the next free one's address in
 * its first bytes.  Interrupts off guard it (any context allocates). */
#define SKB_POOL	16

static struct sk_buff skb_pool[SKB_POOL];
static struct sk_buff *skb_pool_free;
static bool skb_pool_threaded;

static bool skb_from_pool(const struct sk_buff *skb)
{
	return skb >= skb_pool && skb < skb_pool + SKB_POOL;
}

/* A struct of the pool, NULL if none is free.  Interrupts off. */
static struct sk_buff *skb_pool_take(void)
{
	struct sk_buff *skb;

	if (!skb_pool_threaded) {
		for (int i = SKB_POOL - 1; i >= 0; i--) {
			*(struct sk_buff **)&skb_pool[i] = skb_pool_free;
			skb_pool_free = &skb_pool[i];
		}
		skb_pool_threaded = true;
	}
	skb = skb_pool_free;
	if (skb)
		skb_pool_free = *(struct sk_buff **)skb;
	return skb;
}

unsigned int lx_skb_pool_free_count(void)
{
	unsigned int n = 0;
	unsigned long flags;

	local_irq_save(flags);
	if (!skb_pool_threaded)
		n = SKB_POOL;
	for (struct sk_buff *skb = skb_pool_free; skb;
	     skb = *(struct sk_buff **)skb)
		n++;
	local_irq_restore(flags);
	return n;
}

/* A zeroed struct sk_buff, counted; NULL if memory is short. */
static struct sk_buff *skb_struct_alloc(gfp_t gfp)
{
	struct sk_buff *skb;
	unsigned long flags;

	local_irq_save(flags);
	skb = skb_pool_take();
	local_irq_restore(flags);
	if (skb)
		__memset(skb, 0, sizeof(*skb));	/* not inline 4 bytes a step */
	else
		skb = kzalloc(sizeof(*skb), gfp);
	if (skb)
		atomic_long_inc(&skbs);
	return skb;
}

static void skb_struct_free(struct sk_buff *skb)
{
	unsigned long flags;

	atomic_long_dec(&skbs);
	if (!skb_from_pool(skb)) {
		kfree(skb);
		return;
	}
	local_irq_save(flags);
	*(struct sk_buff **)skb = skb_pool_free;
	skb_pool_free = skb;
	local_irq_restore(flags);
}

unsigned long lx_emul_skb_count(void)
{
	return atomic_long_read(&skbs);
}

/* Dress the zeroed @skb around @data, of @size bytes then the shared
 * info. */
static void skb_dress(struct sk_buff *skb, u8 *data, unsigned int size)
{
	struct skb_shared_info *shinfo;

	skb->truesize = SKB_TRUESIZE(size);
	refcount_set(&skb->users, 1);
	skb->head = data;
	skb->data = data;
	skb_reset_tail_pointer(skb);
	skb_set_end_offset(skb, size);
	skb->mac_header = (typeof(skb->mac_header))~0U;
	skb->transport_header = (typeof(skb->transport_header))~0U;
	shinfo = skb_shinfo(skb);
	memset(shinfo, 0, offsetof(struct skb_shared_info, dataref));
	atomic_set(&shinfo->dataref, 1);
}

static gfp_t head_gfp(gfp_t gfp)
{
	return gfp & ~(__GFP_DMA | __GFP_DMA32 | __GFP_ZERO);
}

/*
 * __alloc_skb - an skb with @size bytes of linear room (no headroom), the
 * head kmalloc'd with @gfp (its zone honoured).  @flags: SKB_ALLOC_RX
 * and SKB_ALLOC_NAPI accepted; SKB_ALLOC_FCLONE is not implemented (says
 * so, NULL).  NULL if memory is short.
 */
struct sk_buff *__alloc_skb(unsigned int size, gfp_t gfp, int flags, int node)
{
	struct sk_buff *skb;
	u8 *data;

	if (flags & SKB_ALLOC_FCLONE) {
		pr_err("linux-emu: __alloc_skb: fast clones are not implemented\n");
		return NULL;
	}
	skb = skb_struct_alloc(head_gfp(gfp));
	if (!skb)
		return NULL;
	size = SKB_DATA_ALIGN(size);
	data = kmalloc(size + SKB_DATA_ALIGN(sizeof(struct skb_shared_info)),
		       gfp & ~__GFP_ZERO);
	if (!data) {
		skb_struct_free(skb);
		return NULL;
	}
	skb_dress(skb, data, size);
	return skb;
}

struct sk_buff *lx_skb_build(void *data, unsigned int size, gfp_t gfp)
{
	struct sk_buff *skb = skb_struct_alloc(head_gfp(gfp));

	if (skb)
		skb_dress(skb, data, size);
	return skb;
}

struct sk_buff *__netdev_alloc_skb(struct net_device *dev, unsigned int len,
				   gfp_t gfp)
{
	struct sk_buff *skb = __alloc_skb(len + NET_SKB_PAD, gfp,
					  SKB_ALLOC_RX, NUMA_NO_NODE);

	if (!skb)
		return NULL;
	skb_reserve(skb, NET_SKB_PAD);
	skb->dev = dev;
	return skb;
}

struct sk_buff *__napi_alloc_skb(struct napi_struct *napi, unsigned int len,
				 gfp_t gfp)
{
	struct sk_buff *skb = __alloc_skb(len + NET_SKB_PAD + NET_IP_ALIGN, gfp,
					  SKB_ALLOC_RX | SKB_ALLOC_NAPI,
					  NUMA_NO_NODE);

	if (!skb)
		return NULL;
	skb_reserve(skb, NET_SKB_PAD + NET_IP_ALIGN);
	skb->dev = napi->dev;
	return skb;
}

/*
 * napi_build_skb - an skb around @data, a page fragment of @frag_size
 * bytes whose end holds room for the shared info.  @frag_size 0 (a
 * kmalloc'd head) is not implemented: says so, NULL.
 */
struct sk_buff *napi_build_skb(void *data, unsigned int frag_size)
{
	struct sk_buff *skb;

	if (!frag_size) {
		pr_err("linux-emu: napi_build_skb: kmalloc'd heads (frag_size 0) are not implemented\n");
		return NULL;
	}
	skb = skb_struct_alloc(GFP_ATOMIC);
	if (!skb)
		return NULL;
	skb_dress(skb, data, SKB_WITH_OVERHEAD(frag_size));
	skb->head_frag = 1;
	return skb;
}

/* build_skb - napi_build_skb, from any context (the struct allocated
 * atomically either way). */
struct sk_buff *build_skb(void *data, unsigned int frag_size)
{
	return napi_build_skb(data, frag_size);
}

static void skb_head_free(struct sk_buff *skb)
{
	if (skb->head_frag)
		page_frag_free(skb->head);
	else
		kfree(skb->head);
}

/* Drop the head and the page references of the fragments. */
static void skb_data_release(struct sk_buff *skb)
{
	struct skb_shared_info *shinfo = skb_shinfo(skb);

	if (!atomic_dec_and_test(&shinfo->dataref))
		return;
	for (int i = 0; i < shinfo->nr_frags; i++)
		put_page(skb_frag_page(&shinfo->frags[i]));
	if (shinfo->frag_list)
		pr_err("linux-emu: skb with a frag_list freed: its list is leaked (frag lists are not implemented)\n");
	skb_head_free(skb);
}

/* Free @skb whatever its user count: destructor, data, the skb. */
static void skb_free(struct sk_buff *skb)
{
	if (skb->destructor)
		skb->destructor(skb);
	skb_data_release(skb);
	skb_struct_free(skb);
}

/* kfree_skb_reason - drop a reference to @skb; the last one frees it
 * (the destructor runs first).  Any context.  @reason is not recorded
 * (no tracepoints). */
void kfree_skb_reason(struct sk_buff *skb, enum skb_drop_reason reason)
{
	if (!skb || !skb_unref(skb))
		return;
	skb_free(skb);
}

/* __dev_kfree_skb_any - as kfree_skb, from any context: Linux defers
 * frees in hard-IRQ context to NET_TX_SOFTIRQ; here they happen at once
 * (kfree and the host's free may run with interrupts off). */
void __dev_kfree_skb_any(struct sk_buff *skb, enum skb_free_reason reason)
{
	kfree_skb_reason(skb, SKB_DROP_REASON_NOT_SPECIFIED);
}

/* __dev_kfree_skb_irq - as __dev_kfree_skb_any, for hard-IRQ context. */
void __dev_kfree_skb_irq(struct sk_buff *skb, enum skb_free_reason reason)
{
	kfree_skb_reason(skb, SKB_DROP_REASON_NOT_SPECIFIED);
}

void napi_consume_skb(struct sk_buff *skb, int budget)
{
	kfree_skb_reason(skb, SKB_NOT_DROPPED_YET);
}

/*
 * skb_tstamp_tx - report a software transmit time stamp to the socket
 * that asked for one.  Graft's skbs never belong to a socket (and only
 * sockets set SKBTX_SW_TSTAMP), so there is never anyone to tell; an skb
 * with a socket would be a bug and is reported.
 */
void skb_tstamp_tx(struct sk_buff *orig_skb,
		   struct skb_shared_hwtstamps *hwtstamps)
{
	if (orig_skb->sk)
		pr_err("linux-emu: skb_tstamp_tx: sockets are not implemented; time stamp dropped\n");
}
