/* SPDX-License-Identifier: GPL-2.0-only */
/* blk-mq as a driver sees it: tag sets, requests from the host's commands to queue_rq, their start, completion and end, stopped hardware queues, scatterlists of a request. */
/*
 * Linux's block/blk-mq*.c are not compiled: bios, plugging, schedulers,
 * per-CPU software queues and the rest sit above the driver, where
 * Graft's host (mach-glue/block) already turns device requests into
 * commands within the queue's limits (lx_emul_disk.h).  Here a command
 * becomes a struct request of the tag set (queue_depth of them, each
 * followed by the driver's cmd_size bytes, init_request run once), on
 * hardware queue 0, and goes alone to ops->queue_rq (bd->last set, so
 * commit_rqs is never needed).  Commands wait in order for a free tag,
 * a hardware queue not stopped, and an answer other than "busy"
 * (BLK_STS_RESOURCE, BLK_STS_DEV_RESOURCE: tried again when a request
 * ends or the driver restarts its queue, or a tick later when none is
 * at the driver).
 *
 * The driver's completion (blk_mq_complete_request, from its interrupt
 * handler) runs ops->complete at once, as Linux does for a queue with
 * one CPU; blk_mq_end_request gives the host its result there (hard
 * IRQ context) and hands the dispatch of waiting commands to a worker
 * (system_highpri_wq, Linux's kblockd), never to the completion.
 * There are no request timeouts (virtio_blk has no timeout handler,
 * and Linux then re-arms the timer for ever), no polling, no batches.
 * The free list and the pending lists change with interrupts off.
 */
#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/delay.h>
#include <linux/interrupt.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>

#include <lx_blk.h>
#include <lx_disk.h>

/* The tags of a set (Linux's struct blk_mq_tags is private to blk-mq:
 * set->tags[] point at this instead). */
struct lx_blk_tags {
	unsigned int nr;
	struct lx_blk_rq **rqs;		/* by tag */
	struct list_head free;
};

static struct lx_blk_tags *set_tags(struct blk_mq_tag_set *set)
{
	return (struct lx_blk_tags *)set->tags[0];
}

static struct lx_blk_rq *to_slot(struct request *rq)
{
	return container_of(rq, struct lx_blk_rq, rq);
}

/* The host command's list node lives in its priv words (ours). */
static struct list_head *cmd_link(struct lx_emul_disk_cmd *cmd)
{
	BUILD_BUG_ON(sizeof(cmd->priv) < sizeof(struct list_head));
	return (struct list_head *)cmd->priv;
}

static struct lx_emul_disk_cmd *link_cmd(struct list_head *link)
{
	return container_of((void *)link, struct lx_emul_disk_cmd, priv);
}

static void tags_free(struct blk_mq_tag_set *set, struct lx_blk_tags *tags)
{
	for (unsigned int i = 0; i < tags->nr; i++) {
		struct lx_blk_rq *slot = tags->rqs[i];

		if (!slot)
			continue;
		if (set->ops->exit_request)
			set->ops->exit_request(set, &slot->rq, 0);
		kfree(slot);
	}
	kfree(tags->rqs);
	kfree(tags);
}

/*
 * blk_mq_alloc_tag_set - @set's queue_depth requests, each with the
 * driver's cmd_size bytes and init_request run (hardware queue 0).  0;
 * -EINVAL (no queue_rq, no depth, no hardware queue); -ENOMEM;
 * init_request's error.
 */
int blk_mq_alloc_tag_set(struct blk_mq_tag_set *set)
{
	size_t size = sizeof(struct lx_blk_rq) + set->cmd_size;
	struct lx_blk_tags *tags;
	int err = -ENOMEM;

	if (!set->ops || !set->ops->queue_rq || !set->queue_depth ||
	    !set->nr_hw_queues)
		return -EINVAL;
	set->tags = kcalloc(set->nr_hw_queues, sizeof(*set->tags), GFP_KERNEL);
	tags = kzalloc(sizeof(*tags), GFP_KERNEL);
	if (!set->tags || !tags)
		goto err_free;
	tags->rqs = kcalloc(set->queue_depth, sizeof(*tags->rqs), GFP_KERNEL);
	if (!tags->rqs)
		goto err_free;
	INIT_LIST_HEAD(&tags->free);
	for (tags->nr = 0; tags->nr < set->queue_depth; tags->nr++) {
		struct lx_blk_rq *slot = kzalloc(size, GFP_KERNEL);

		if (!slot)
			goto err_tags;
		tags->rqs[tags->nr] = slot;
		slot->rq.tag = tags->nr;
		slot->rq.internal_tag = -1;	/* no scheduler tags */
		if (set->ops->init_request) {
			err = set->ops->init_request(set, &slot->rq, 0,
						     NUMA_NO_NODE);
			if (err) {
				kfree(slot);
				tags->rqs[tags->nr] = NULL;
				goto err_tags;
			}
		}
		list_add_tail(&slot->link, &tags->free);
	}
	for (unsigned int i = 0; i < set->nr_hw_queues; i++)
		set->tags[i] = (struct blk_mq_tags *)tags;
	return 0;

err_tags:
	tags_free(set, tags);
	tags = NULL;
err_free:
	kfree(tags);
	kfree(set->tags);
	set->tags = NULL;
	return err;
}

/* blk_mq_free_tag_set - free what blk_mq_alloc_tag_set made (exit_request
 * on each request); its queues' requests must all have ended. */
void blk_mq_free_tag_set(struct blk_mq_tag_set *set)
{
	if (!set->tags)
		return;
	tags_free(set, set_tags(set));
	kfree(set->tags);
	set->tags = NULL;
}

static void run_work_fn(struct work_struct *work);

void lx_blk_queue_init(struct lx_blk_disk *bd, struct blk_mq_tag_set *set)
{
	struct request_queue *q = &bd->q;
	struct queue_limits *lim = &q->limits;

	q->tag_set = set;
	q->mq_ops = set->ops;
	q->nr_hw_queues = bd->nr_hw;
	q->queue_depth = set->queue_depth;
	/* Linux's defaults (blk_set_default_limits, blk_alloc_queue) */
	lim->max_segments = BLK_MAX_SEGMENTS;
	lim->max_discard_segments = 1;
	lim->seg_boundary_mask = BLK_SEG_BOUNDARY_MASK;
	lim->max_segment_size = BLK_MAX_SEGMENT_SIZE;
	lim->max_sectors = BLK_SAFE_MAX_SECTORS;
	lim->max_hw_sectors = BLK_SAFE_MAX_SECTORS;
	lim->logical_block_size = 512;
	lim->physical_block_size = 512;
	lim->io_min = 512;
	lim->dma_alignment = 511;
	for (unsigned int i = 0; i < bd->nr_hw; i++) {
		bd->hctx[i].queue = q;
		bd->hctx[i].queue_num = i;
		bd->hctx[i].numa_node = NUMA_NO_NODE;
		bd->hctx[i].tags = set->tags[i];
	}
	INIT_LIST_HEAD(&bd->pending);
	INIT_DELAYED_WORK(&bd->run_work, run_work_fn);
}

/* Fill @slot's request from host command @cmd of disk @bd. */
static void rq_prepare(struct lx_blk_disk *bd, struct lx_blk_rq *slot,
		       struct lx_emul_disk_cmd *cmd)
{
	struct request *rq = &slot->rq;
	unsigned int shift = ilog2(queue_logical_block_size(&bd->q)) - 9;

	slot->cmd = cmd;
	rq->q = &bd->q;
	rq->mq_hctx = &bd->hctx[0];
	rq->cmd_flags = cmd->write ? REQ_OP_WRITE : REQ_OP_READ;
	rq->rq_flags = 0;
	rq->__sector = cmd->lba << shift;
	rq->__data_len = cmd->blocks << (shift + 9);
	rq->nr_phys_segments = cmd->nsegs;
	rq->bio = NULL;
	rq->biotail = NULL;
	rq->part = bd->disk.part0;
	rq->ioprio = 0;
	rq->timeout = 0;
	rq->end_io = NULL;
	WRITE_ONCE(rq->state, MQ_RQ_IDLE);
}

/* Start pending commands of @bd while tags and the driver allow. */
static void run(struct lx_blk_disk *bd)
{
	struct lx_blk_tags *tags = set_tags(bd->q.tag_set);
	struct blk_mq_hw_ctx *hctx = &bd->hctx[0];
	struct lx_emul_disk_cmd *cmd;
	struct lx_blk_rq *slot;
	unsigned long flags;
	blk_status_t sts;

	for (;;) {
		struct blk_mq_queue_data bd_data = { .last = true };

		local_irq_save(flags);
		if (test_bit(BLK_MQ_S_STOPPED, &hctx->state) ||
		    list_empty(&bd->pending) || list_empty(&tags->free)) {
			local_irq_restore(flags);
			return;
		}
		cmd = link_cmd(bd->pending.next);
		list_del(cmd_link(cmd));
		slot = list_first_entry(&tags->free, struct lx_blk_rq, link);
		list_del(&slot->link);
		bd->in_flight++;
		local_irq_restore(flags);

		rq_prepare(bd, slot, cmd);
		bd_data.rq = &slot->rq;
		lx_disk_probe(LX_EMUL_DISK_PROBE_QUEUECOMMAND);
		sts = bd->q.mq_ops->queue_rq(hctx, &bd_data);
		if (sts == BLK_STS_OK)
			continue;
		if (sts != BLK_STS_RESOURCE && sts != BLK_STS_DEV_RESOURCE) {
			blk_mq_end_request(&slot->rq, sts);
			continue;
		}
		/* busy: back to the head, tried again later */
		local_irq_save(flags);
		slot->cmd = NULL;
		list_add(&slot->link, &tags->free);
		list_add(cmd_link(cmd), &bd->pending);
		bd->in_flight--;
		if (!bd->in_flight)
			queue_delayed_work(system_highpri_wq, &bd->run_work, 1);
		local_irq_restore(flags);
		return;
	}
}

static void run_work_fn(struct work_struct *work)
{
	struct lx_blk_disk *bd = container_of(to_delayed_work(work),
					      struct lx_blk_disk, run_work);

	local_bh_disable();
	run(bd);
	local_bh_enable();
}

void lx_blk_submit(struct lx_blk_disk *bd, struct lx_emul_disk_cmd *cmd)
{
	unsigned long flags;

	local_irq_save(flags);
	list_add_tail(cmd_link(cmd), &bd->pending);
	local_irq_restore(flags);
	local_bh_disable();
	run(bd);
	local_bh_enable();
}

void lx_blk_drain(struct lx_blk_disk *bd)
{
	struct lx_emul_disk_cmd *cmd;
	unsigned long flags;

	cancel_delayed_work_sync(&bd->run_work);
	for (;;) {
		local_irq_save(flags);
		if (list_empty(&bd->pending)) {
			local_irq_restore(flags);
			break;
		}
		cmd = link_cmd(bd->pending.next);
		list_del(cmd_link(cmd));
		local_irq_restore(flags);
		cmd->done(cmd, -ENODEV);
	}
	while (READ_ONCE(bd->in_flight))
		msleep(1);
}

/* blk_mq_start_request - @rq goes to the device now (its driver says). */
void blk_mq_start_request(struct request *rq)
{
	WRITE_ONCE(rq->state, MQ_RQ_IN_FLIGHT);
}

/* blk_mq_complete_request - the driver has @rq's result: ops->complete
 * runs now, in the caller's context (one CPU: never elsewhere). */
void blk_mq_complete_request(struct request *rq)
{
	WRITE_ONCE(rq->state, MQ_RQ_COMPLETE);
	rq->q->mq_ops->complete(rq);
}

/*
 * blk_mq_end_request - @rq is over with @error: the host's command gets
 * its result (blk_status_to_errno; an error named on the console), the
 * tag is free and waiting commands are dispatched by a worker.  Any
 * context.  The driver is done with @rq here (its ops->complete calls
 * this last): the disk probe point of a finished command, as scsi_done
 * is a SCSI host's.
 */
void blk_mq_end_request(struct request *rq, blk_status_t error)
{
	struct lx_blk_disk *bd = lx_blk_disk(rq->q);
	struct lx_blk_tags *tags = set_tags(rq->q->tag_set);
	struct lx_blk_rq *slot = to_slot(rq);
	struct lx_emul_disk_cmd *cmd = slot->cmd;
	unsigned long flags;

	lx_disk_probe(LX_EMUL_DISK_PROBE_SCSI_DONE);

	if (error)
		pr_err_ratelimited("%s: I/O error %d, %s of %u sectors at sector %llu\n",
				   bd->disk.disk_name,
				   blk_status_to_errno(error),
				   rq_data_dir(rq) == WRITE ? "write" : "read",
				   blk_rq_sectors(rq),
				   (unsigned long long)blk_rq_pos(rq));
	WRITE_ONCE(rq->state, MQ_RQ_IDLE);
	local_irq_save(flags);
	slot->cmd = NULL;
	list_add(&slot->link, &tags->free);
	bd->in_flight--;
	if (!list_empty(&bd->pending) && !bd->dead)
		queue_delayed_work(system_highpri_wq, &bd->run_work, 0);
	local_irq_restore(flags);
	cmd->done(cmd, blk_status_to_errno(error));
}

/* blk_mq_stop_hw_queue - dispatch nothing more to @hctx until the
 * driver starts it again. */
void blk_mq_stop_hw_queue(struct blk_mq_hw_ctx *hctx)
{
	set_bit(BLK_MQ_S_STOPPED, &hctx->state);
}

/* blk_mq_start_stopped_hw_queues - restart @q's stopped hardware
 * queues; their waiting commands go out from a worker (@async or not:
 * the caller may be the driver's completion). */
void blk_mq_start_stopped_hw_queues(struct request_queue *q, bool async)
{
	struct lx_blk_disk *bd = lx_blk_disk(q);
	bool restarted = false;

	for (unsigned int i = 0; i < bd->nr_hw; i++)
		restarted |= test_and_clear_bit(BLK_MQ_S_STOPPED,
						&bd->hctx[i].state);
	if (restarted && !bd->dead)
		queue_delayed_work(system_highpri_wq, &bd->run_work, 0);
}

/*
 * __blk_rq_map_sg - @rq's data as scatterlist entries from @sglist on
 * (following chains), one per host segment (the host clustered them
 * already), the last marked the end and left in *@last_sg.  The number
 * of entries.
 */
int __blk_rq_map_sg(struct request_queue *q, struct request *rq,
		    struct scatterlist *sglist, struct scatterlist **last_sg)
{
	struct lx_emul_disk_cmd *cmd = to_slot(rq)->cmd;
	struct scatterlist *sg = *last_sg;
	int n = 0;

	for (unsigned int i = 0; cmd && i < cmd->nsegs; i++) {
		u64 phys = cmd->segs[i].phys;

		if (sg)
			sg_unmark_end(sg);
		sg = sg ? sg_next(sg) : sglist;
		sg_set_page(sg, pfn_to_page(phys >> PAGE_SHIFT),
			    cmd->segs[i].len, offset_in_page(phys));
		n++;
	}
	if (sg)
		sg_mark_end(sg);
	*last_sg = sg;
	return n;
}

/* blk_status_to_errno - the -errno Linux gives each block status
 * (-EIO for an unknown one). */
int blk_status_to_errno(blk_status_t status)
{
	switch (status) {
	case BLK_STS_OK:		return 0;
	case BLK_STS_NOTSUPP:		return -EOPNOTSUPP;
	case BLK_STS_TIMEOUT:		return -ETIMEDOUT;
	case BLK_STS_NOSPC:		return -ENOSPC;
	case BLK_STS_TRANSPORT:		return -ENOLINK;
	case BLK_STS_TARGET:		return -EREMOTEIO;
	case BLK_STS_NEXUS:		return -EBADE;
	case BLK_STS_MEDIUM:		return -ENODATA;
	case BLK_STS_PROTECTION:	return -EILSEQ;
	case BLK_STS_RESOURCE:		return -ENOMEM;
	case BLK_STS_DEV_RESOURCE:	return -EBUSY;
	case BLK_STS_AGAIN:		return -EAGAIN;
	case BLK_STS_OFFLINE:		return -ENODEV;
	default:			return -EIO;
	}
}
