/* SPDX-License-Identifier: GPL-2.0-only */
/* sk_buff data: put, push, trim, pull from fragments, grow the head, copy out, pad. */
/*
 * The semantics are Linux's (see <linux/skbuff.h> for the inlines these
 * complete); the code is linux-emu's.  An skb here is never a clone and
 * never has a frag_list (lx_skb.c): where Linux would walk one, these
 * functions say so and fail.
 */
#include <linux/bug.h>
#include <linux/highmem.h>
#include <linux/skbuff.h>
#include <linux/slab.h>

#include <lx_net.h>

static void __noreturn skb_overrun(struct sk_buff *skb, unsigned int len,
				   const char *what)
{
	pr_emerg("linux-emu: %s: %u bytes do not fit: len %u headroom %u tailroom %u (dev %s)\n",
		 what, len, skb->len, skb_headroom(skb), skb_tailroom(skb),
		 skb->dev ? skb->dev->name : "<none>");
	BUG();
}

/* skb_put - extend the linear data by @len bytes at the tail; returns
 * where they start.  Overrunning the end is a bug (stops, as Linux). */
void *skb_put(struct sk_buff *skb, unsigned int len)
{
	void *tail = skb_tail_pointer(skb);

	if (skb_is_nonlinear(skb) || len > (unsigned int)skb_tailroom(skb))
		skb_overrun(skb, len, "skb_put");
	skb->tail += len;
	skb->len += len;
	return tail;
}

/* skb_push - extend the data by @len bytes at the front. */
void *skb_push(struct sk_buff *skb, unsigned int len)
{
	if (len > skb_headroom(skb))
		skb_overrun(skb, len, "skb_push");
	skb->data -= len;
	skb->len += len;
	return skb->data;
}

/* skb_pull - drop @len bytes at the front; NULL if the linear part is
 * shorter. */
void *skb_pull(struct sk_buff *skb, unsigned int len)
{
	return skb_pull_inline(skb, len);
}

/* skb_trim - cut a linear skb to @len bytes (nothing if shorter). */
void skb_trim(struct sk_buff *skb, unsigned int len)
{
	if (skb->len <= len)
		return;
	if (skb_is_nonlinear(skb)) {
		pr_err("linux-emu: skb_trim on a nonlinear skb (use pskb_trim)\n");
		return;
	}
	skb->len = len;
	skb_set_tail_pointer(skb, len);
}

static int frag_list_unsupported(const char *what)
{
	pr_err("linux-emu: %s: skbs with a frag_list are not implemented\n",
	       what);
	return -EOPNOTSUPP;
}

/* ___pskb_trim - cut @skb (linear part and page fragments) to @len <
 * skb->len bytes; fragments past the end are released.  0, or
 * -EOPNOTSUPP for a frag_list. */
int ___pskb_trim(struct sk_buff *skb, unsigned int len)
{
	struct skb_shared_info *shinfo = skb_shinfo(skb);
	unsigned int headlen = skb_headlen(skb), offset = headlen;
	int i, kept = 0;

	if (skb_has_frag_list(skb))
		return frag_list_unsupported(__func__);
	for (i = 0; i < shinfo->nr_frags; i++) {
		skb_frag_t *frag = &shinfo->frags[i];
		unsigned int size = skb_frag_size(frag);

		if (offset >= len) {
			put_page(skb_frag_page(frag));
			continue;
		}
		if (offset + size > len)
			skb_frag_size_set(frag, len - offset);
		offset += skb_frag_size(frag);
		shinfo->frags[kept++] = *frag;
	}
	shinfo->nr_frags = kept;
	if (len < headlen) {
		skb->data_len = 0;
		skb->len = len;
		skb_set_tail_pointer(skb, len);
	} else {
		skb->data_len = len - headlen;
		skb->len = len;
	}
	return 0;
}

void skb_headers_offset_update(struct sk_buff *skb, int off)
{
	if (skb->ip_summed == CHECKSUM_PARTIAL)
		skb->csum_start += off;
	if (skb_transport_header_was_set(skb))
		skb->transport_header += off;
	skb->network_header += off;
	if (skb_mac_header_was_set(skb))
		skb->mac_header += off;
	skb->inner_transport_header += off;
	skb->inner_network_header += off;
	skb->inner_mac_header += off;
}

/*
 * pskb_expand_head - move @skb's head to new memory with @nhead more
 * bytes in front and @ntail more at the end; the data, the headers'
 * offsets and the fragments move along (pointers into the old head are
 * stale afterwards).  @skb must not be shared.  0, -ENOMEM (the skb is
 * unchanged), -EINVAL for a negative @nhead or @ntail.
 */
int pskb_expand_head(struct sk_buff *skb, int nhead, int ntail, gfp_t gfp)
{
	unsigned int size, used = skb_tail_pointer(skb) - skb->head;
	struct skb_shared_info *shinfo = skb_shinfo(skb);
	u8 *data;

	if (nhead < 0 || ntail < 0 || skb_shared(skb)) {
		pr_err("linux-emu: pskb_expand_head(%d, %d) on %s skb refused\n",
		       nhead, ntail, skb_shared(skb) ? "a shared" : "an");
		return -EINVAL;
	}
	size = SKB_DATA_ALIGN(nhead + skb_end_offset(skb) + ntail);
	data = kmalloc(size + SKB_DATA_ALIGN(sizeof(struct skb_shared_info)),
		       gfp & ~__GFP_ZERO);
	if (!data)
		return -ENOMEM;
	memcpy(data + nhead, skb->head, used);
	memcpy(data + size, shinfo,
	       offsetof(struct skb_shared_info, frags[shinfo->nr_frags]));
	/* The fragments' page references now belong to the new head. */
	if (skb->head_frag)
		page_frag_free(skb->head);
	else
		kfree(skb->head);
	skb->data = data + nhead + (skb->data - skb->head);
	skb->head = data;
	skb->head_frag = 0;
	skb->tail += nhead;
	skb_set_end_offset(skb, size);
	skb_headers_offset_update(skb, nhead);
	skb->cloned = 0;
	skb->hdr_len = 0;
	skb->nohdr = 0;
	atomic_set(&skb_shinfo(skb)->dataref, 1);
	skb->truesize = SKB_TRUESIZE(size);
	return 0;
}

/*
 * skb_copy_bits - copy @len bytes of @skb's data from @offset (linear
 * part, then fragments) to @to.  0, or -EFAULT if the range is not in
 * the skb; -EOPNOTSUPP if it reaches a frag_list.
 */
int skb_copy_bits(const struct sk_buff *skb, int offset, void *to, int len)
{
	const struct skb_shared_info *shinfo = skb_shinfo(skb);
	int start = skb_headlen(skb), copy;

	if (offset < 0 || len < 0 || offset > (int)skb->len - len)
		return -EFAULT;
	copy = min(start - offset, len);
	if (copy > 0) {
		memcpy(to, skb->data + offset, copy);
		len -= copy;
		offset += copy;
		to += copy;
	}
	for (int i = 0; len > 0 && i < shinfo->nr_frags; i++) {
		const skb_frag_t *frag = &shinfo->frags[i];
		int end = start + skb_frag_size(frag);

		if (offset < end) {
			copy = min(end - offset, len);
			memcpy(to, skb_frag_address(frag) + (offset - start),
			       copy);
			len -= copy;
			offset += copy;
			to += copy;
		}
		start = end;
	}
	return len ? frag_list_unsupported(__func__) : 0;
}

/*
 * __pskb_pull_tail - move @delta bytes from the fragments into the
 * linear part (growing the head if needed); the linear tail or NULL if
 * the skb is shorter than that or memory is short.
 */
void *__pskb_pull_tail(struct sk_buff *skb, int delta)
{
	struct skb_shared_info *shinfo = skb_shinfo(skb);
	int eat = delta, kept = 0;

	if (delta < 0 || delta > (int)skb->data_len)
		return NULL;
	if (delta > skb_tailroom(skb) &&
	    pskb_expand_head(skb, 0, delta - skb_tailroom(skb) + 128,
			     GFP_ATOMIC))
		return NULL;
	shinfo = skb_shinfo(skb);
	if (skb_copy_bits(skb, skb_headlen(skb), skb_tail_pointer(skb), delta))
		return NULL;
	for (int i = 0; i < shinfo->nr_frags; i++) {
		skb_frag_t *frag = &shinfo->frags[i];
		int size = skb_frag_size(frag);

		if (eat >= size) {
			put_page(skb_frag_page(frag));
			eat -= size;
			continue;
		}
		if (eat) {
			skb_frag_off_add(frag, eat);
			skb_frag_size_sub(frag, eat);
			eat = 0;
		}
		shinfo->frags[kept++] = *frag;
	}
	shinfo->nr_frags = kept;
	skb->tail += delta;
	skb->data_len -= delta;
	return skb_tail_pointer(skb);
}

/*
 * __skb_pad - zero @pad bytes after the data (skb->len does not change;
 * skb_put_padto() adds them).  The skb is made linear and its tail grown
 * if needed.  0, or -ENOMEM/-EOPNOTSUPP; on failure the skb is freed if
 * @free_on_error.
 */
int __skb_pad(struct sk_buff *skb, int pad, bool free_on_error)
{
	int err = 0, ntail;

	if (!skb_is_nonlinear(skb) && skb_tailroom(skb) >= pad)
		goto zero;
	ntail = skb->data_len + pad - skb_tailroom(skb);
	if (ntail > 0)
		err = pskb_expand_head(skb, 0, ntail, GFP_ATOMIC);
	if (!err && skb_is_nonlinear(skb) &&
	    !__pskb_pull_tail(skb, skb->data_len))
		err = -ENOMEM;
	if (err) {
		if (free_on_error)
			kfree_skb(skb);
		return err;
	}
zero:
	memset(skb->data + skb->len, 0, pad);
	return 0;
}
