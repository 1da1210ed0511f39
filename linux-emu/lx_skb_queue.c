/* SPDX-License-Identifier: GPL-2.0-only */
/* sk_buff queues with their lock (skb_queue_tail, skb_dequeue, skb_queue_purge) and skb_add_rx_frag. */
/*
 * The unlocked variants (__skb_queue_tail, __skb_dequeue) are Linux's
 * inlines; these take the queue's lock with interrupts off around them,
 * as Linux's do.
 */
#include <linux/skbuff.h>

void skb_queue_tail(struct sk_buff_head *list, struct sk_buff *newsk)
{
	unsigned long flags;

	spin_lock_irqsave(&list->lock, flags);
	__skb_queue_tail(list, newsk);
	spin_unlock_irqrestore(&list->lock, flags);
}

void skb_queue_head(struct sk_buff_head *list, struct sk_buff *newsk)
{
	unsigned long flags;

	spin_lock_irqsave(&list->lock, flags);
	__skb_queue_head(list, newsk);
	spin_unlock_irqrestore(&list->lock, flags);
}

struct sk_buff *skb_dequeue(struct sk_buff_head *list)
{
	unsigned long flags;
	struct sk_buff *skb;

	spin_lock_irqsave(&list->lock, flags);
	skb = __skb_dequeue(list);
	spin_unlock_irqrestore(&list->lock, flags);
	return skb;
}

/* skb_queue_purge - free every skb on @list. */
void skb_queue_purge(struct sk_buff_head *list)
{
	struct sk_buff *skb;

	while ((skb = skb_dequeue(list)))
		kfree_skb(skb);
}

/* skb_add_rx_frag - attach @size bytes at @off of @page (the caller's
 * reference goes with it) as fragment @i; len, data_len and truesize
 * grow. */
void skb_add_rx_frag(struct sk_buff *skb, int i, struct page *page, int off,
		     int size, unsigned int truesize)
{
	skb_fill_page_desc(skb, i, page, off, size);
	skb->len += size;
	skb->data_len += size;
	skb->truesize += truesize;
}
