/* SPDX-License-Identifier: GPL-2.0-only */
/* Requests a driver makes itself (passthrough: admin commands): allocated, given a kernel buffer, executed and waited for or not, freed; a request's data as a scatterlist. */
/*
 * blk_mq_alloc_request enters the queue as Linux's blk_queue_enter
 * (waits while it is frozen; a dying queue refuses) and takes a tag of
 * the hardware queue serving CPU 0, waiting for one unless told not to.
 * blk_rq_map_kern always copies the buffer into pages of its own (Linux
 * copies only an unaligned or on-stack buffer): a world thread's stack
 * need not be in the direct map, and this is the admin path only.  The
 * copy is the request's one bio, page-sized pieces merged where they
 * are physically contiguous within the queue's segment limits.
 */
#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/completion.h>
#include <linux/gfp.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>

#include <lx_blk.h>

static struct request *alloc_on(struct request_queue *q, blk_opf_t opf,
				blk_mq_req_flags_t flags, unsigned int hctx_idx)
{
	struct lx_blk_disk *bd = lx_blk_disk(q);
	bool reserved = flags & BLK_MQ_REQ_RESERVED;
	struct blk_mq_hw_ctx *hctx;
	struct lx_blk_tags *tags;
	struct lx_blk_rq *slot;
	unsigned long irqflags;

	if (hctx_idx >= bd->nr_hw)
		return ERR_PTR(-EINVAL);
	hctx = &bd->hctx[hctx_idx];
	tags = lx_blk_tags(hctx->tags);
	if (reserved && !tags->tags.nr_reserved_tags)
		return ERR_PTR(-EINVAL);
	if (q->mq_freeze_depth && !blk_queue_dying(q)) {
		if (flags & BLK_MQ_REQ_NOWAIT)
			return ERR_PTR(-EAGAIN);
		wait_event(q->mq_freeze_wq,
			   !q->mq_freeze_depth || blk_queue_dying(q));
	}
	if (blk_queue_dying(q))
		return ERR_PTR(-ENODEV);
	slot = lx_blk_tag_get(tags, reserved);
	if (!slot) {
		if (flags & BLK_MQ_REQ_NOWAIT)
			return ERR_PTR(-EWOULDBLOCK);
		wait_event(tags->wait,
			   (slot = lx_blk_tag_get(tags, reserved)) != NULL);
	}
	lx_blk_rq_init(bd, hctx, slot, opf);
	if (flags & BLK_MQ_REQ_PM)
		slot->rq.rq_flags |= RQF_PM;
	local_irq_save(irqflags);
	bd->users++;
	local_irq_restore(irqflags);
	return &slot->rq;
}

/*
 * blk_mq_alloc_request - a request of @q for @opf with no data, on the
 * hardware queue serving CPU 0 (a reserved tag with
 * BLK_MQ_REQ_RESERVED).  Sleeps for a tag or a frozen queue unless
 * BLK_MQ_REQ_NOWAIT.  ERR_PTR: -ENODEV (queue dying), -EAGAIN (frozen,
 * NOWAIT), -EWOULDBLOCK (no tag, NOWAIT), -EINVAL (no reserved tags).
 */
struct request *blk_mq_alloc_request(struct request_queue *q, blk_opf_t opf,
				     blk_mq_req_flags_t flags)
{
	return alloc_on(q, opf, flags, lx_blk_hctx_for(q->tag_set, opf));
}

/* blk_mq_alloc_request_hctx - the same on hardware queue @hctx_idx;
 * BLK_MQ_REQ_NOWAIT required, as Linux's (-EINVAL, or -EINVAL for a
 * queue it does not have). */
struct request *blk_mq_alloc_request_hctx(struct request_queue *q,
					  blk_opf_t opf,
					  blk_mq_req_flags_t flags,
					  unsigned int hctx_idx)
{
	if (!(flags & BLK_MQ_REQ_NOWAIT))
		return ERR_PTR(-EINVAL);
	return alloc_on(q, opf, flags, hctx_idx);
}

/* blk_mq_free_request - give back @rq's tag, its vectors and copy; the
 * queue has one user less.  Any context. */
void blk_mq_free_request(struct request *rq)
{
	struct lx_blk_disk *bd = lx_blk_disk(rq->q);
	struct lx_blk_rq *slot = lx_blk_slot(rq);
	unsigned long flags;

	if (slot->bio.bi_io_vec && slot->bio.bi_io_vec != slot->vecs)
		kfree(slot->bio.bi_io_vec);
	slot->bio.bi_io_vec = NULL;
	if (slot->copy)
		free_pages((unsigned long)slot->copy, slot->copy_order);
	slot->copy = NULL;
	rq->bio = NULL;
	rq->end_io = NULL;
	WRITE_ONCE(rq->state, MQ_RQ_IDLE);
	local_irq_save(flags);
	if (!--bd->users)
		wake_up_all(&rq->q->mq_freeze_wq);
	local_irq_restore(flags);
	lx_blk_tag_put(rq->q->tag_set, lx_blk_tags(rq->mq_hctx->tags), slot);
}

/*
 * blk_rq_map_kern - @len bytes at @kbuf become @rq's data: copied into
 * pages of the request's own (back into @kbuf when a read ends).  0;
 * -EINVAL (no buffer or length, beyond max_hw_sectors, data already
 * there); -ENOMEM.
 */
int blk_rq_map_kern(struct request_queue *q, struct request *rq, void *kbuf,
		    unsigned int len, gfp_t gfp_mask)
{
	struct lx_blk_rq *slot = lx_blk_slot(rq);
	const struct queue_limits *lim = &q->limits;
	unsigned int order = get_order(len), n = 0, nvecs;
	struct bio_vec *vecs = slot->vecs;
	void *copy;

	if (!kbuf || !len || rq->bio || len > queue_max_hw_sectors(q) << 9)
		return -EINVAL;
	nvecs = DIV_ROUND_UP(len, PAGE_SIZE);
	if (nvecs > LX_BLK_INLINE_VECS)
		vecs = kmalloc_array(nvecs, sizeof(*vecs), gfp_mask);
	copy = (void *)__get_free_pages(gfp_mask, order);
	if (!vecs || !copy) {
		if (vecs != slot->vecs)
			kfree(vecs);
		if (copy)
			free_pages((unsigned long)copy, order);
		return -ENOMEM;
	}
	if (op_is_write(req_op(rq)))
		memcpy(copy, kbuf, len);
	for (unsigned int done = 0; done < len; ) {
		unsigned int piece = min_t(unsigned int, len - done, PAGE_SIZE);
		struct page *page = virt_to_page(copy + done);
		struct bio_vec *prev = n ? &vecs[n - 1] : NULL;
		phys_addr_t at = page_to_phys(page);

		if (prev && page_to_phys(prev->bv_page) + prev->bv_offset +
		    prev->bv_len == at &&
		    prev->bv_len + piece <= lim->max_segment_size &&
		    ((at - prev->bv_len) | lim->seg_boundary_mask) ==
		    ((at + piece - 1) | lim->seg_boundary_mask)) {
			prev->bv_len += piece;
		} else {
			vecs[n].bv_page = page;
			vecs[n].bv_offset = 0;
			vecs[n].bv_len = piece;
			n++;
		}
		done += piece;
	}
	slot->copy = copy;
	slot->copy_of = kbuf;
	slot->copy_len = len;
	slot->copy_order = order;
	lx_blk_bio_set(slot, vecs, n, len, 0, rq->cmd_flags);
	rq->__data_len = len;
	rq->nr_phys_segments = n;
	return 0;
}

/*
 * blk_execute_rq_nowait - insert @rq (at the head of its queue if
 * @at_head) and dispatch now; rq->end_io, if set, runs when it ends
 * (at once, BLK_STS_OFFLINE, on a dead queue).
 */
void blk_execute_rq_nowait(struct request *rq, bool at_head)
{
	struct lx_blk_disk *bd = lx_blk_disk(rq->q);
	struct lx_blk_rq *slot = lx_blk_slot(rq);
	unsigned long flags;

	if (bd->dead) {
		blk_mq_end_request(rq, BLK_STS_OFFLINE);
		return;
	}
	local_irq_save(flags);
	if (at_head)
		list_add(&slot->link, &bd->dispatch);
	else
		list_add_tail(&slot->link, &bd->dispatch);
	local_irq_restore(flags);
	local_bh_disable();
	lx_blk_run(bd);
	local_bh_enable();
}

struct sync_wait {
	struct completion done;
	blk_status_t status;
};

static enum rq_end_io_ret sync_end_io(struct request *rq, blk_status_t status)
{
	struct sync_wait *wait = rq->end_io_data;

	wait->status = status;
	complete(&wait->done);
	return RQ_END_IO_NONE;
}

/* blk_execute_rq - blk_execute_rq_nowait and wait for the end; @rq
 * stays the caller's (blk_mq_free_request).  Its status.  Sleeps. */
blk_status_t blk_execute_rq(struct request *rq, bool at_head)
{
	struct sync_wait wait = { .status = BLK_STS_IOERR };

	init_completion(&wait.done);
	rq->end_io_data = &wait;
	rq->end_io = sync_end_io;
	blk_execute_rq_nowait(rq, at_head);
	wait_for_completion(&wait.done);
	return wait.status;
}

/*
 * __blk_rq_map_sg - @rq's data as scatterlist entries from @sglist on
 * (following chains), one per bio vector (each within the queue's
 * limits already), the last marked the end and left in *@last_sg.
 * The number of entries.
 */
int __blk_rq_map_sg(struct request_queue *q, struct request *rq,
		    struct scatterlist *sglist, struct scatterlist **last_sg)
{
	struct scatterlist *sg = *last_sg;
	struct bio *bio = rq->bio;
	int n = 0;

	for (unsigned int i = 0; bio && i < bio->bi_vcnt; i++) {
		struct bio_vec *bv = &bio->bi_io_vec[i];

		if (sg)
			sg_unmark_end(sg);
		sg = sg ? sg_next(sg) : sglist;
		sg_set_page(sg, bv->bv_page, bv->bv_len, bv->bv_offset);
		n++;
	}
	if (sg)
		sg_mark_end(sg);
	*last_sg = sg;
	return n;
}
