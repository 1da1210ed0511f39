/* SPDX-License-Identifier: GPL-2.0-only */
/* skb_to_sgvec: an sk_buff's bytes as a scatterlist. */
/*
 * The head's bytes become one entry, each page fragment's another, in
 * order; skbs here never have a frag_list (lx_skb.c).
 */
#include <linux/scatterlist.h>
#include <linux/skbuff.h>

/*
 * skb_to_sgvec - describe @len bytes of @skb from @offset in @sg (at
 * least one entry per piece: the head, then each fragment touched), the
 * last entry marked the end.  The number of entries used; -EMSGSIZE if
 * the range is not inside the skb or the skb has a frag_list (named on
 * the console).
 */
int skb_to_sgvec(struct sk_buff *skb, struct scatterlist *sg, int offset,
		 int len)
{
	int head = skb_headlen(skb), n = 0;

	if (offset < 0 || len < 0 || offset + len > skb->len)
		return -EMSGSIZE;
	if (skb_has_frag_list(skb)) {
		pr_err("linux-emu: skb_to_sgvec: skbs with a frag_list are not implemented\n");
		return -EMSGSIZE;
	}
	if (offset < head && len) {
		int chunk = min(head - offset, len);

		sg_set_buf(&sg[n++], skb->data + offset, chunk);
		len -= chunk;
		offset += chunk;
	}
	for (int i = 0, start = head; i < skb_shinfo(skb)->nr_frags && len;
	     i++) {
		const skb_frag_t *frag = &skb_shinfo(skb)->frags[i];
		int end = start + skb_frag_size(frag);

		if (offset < end) {
			int chunk = min(end - offset, len);

			sg_set_page(&sg[n++], skb_frag_page(frag), chunk,
				    skb_frag_off(frag) + offset - start);
			len -= chunk;
			offset += chunk;
		}
		start = end;
	}
	if (len)
		return -EMSGSIZE;
	if (n)
		sg_mark_end(&sg[n - 1]);
	return n;
}
