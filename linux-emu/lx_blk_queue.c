/* SPDX-License-Identifier: GPL-2.0-only */
/* Request queues: made with or without a disk, destroyed and put; frozen and unfrozen; quiesced and unquiesced; their flags; their tag set's maps made again. */
/*
 * A queue's users stand for Linux's q_usage_counter: its allocated
 * requests and the host commands that entered it.  A freeze (Linux's
 * blk_freeze_queue_start) keeps new users out: blk_mq_alloc_request
 * waits, host commands are held; blk_mq_freeze_queue_wait waits until
 * no user is left.  A quiesced queue gives nothing to queue_rq.  Only
 * the thread holding the world dispatches, and queue_rq never gives the
 * world up unless the set is BLK_MQ_F_BLOCKING, so quiescing waits only
 * for a blocking dispatch in progress.  Callers hold the world.
 */
#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/delay.h>
#include <linux/slab.h>

#include <lx_blk.h>
#include <lx_host.h>

/* @hctx's type: that of the map whose queues it is among. */
static void hctx_set_type(struct blk_mq_tag_set *set,
			  struct blk_mq_hw_ctx *hctx)
{
	unsigned int i = hctx->queue_num;

	hctx->type = HCTX_TYPE_DEFAULT;
	for (unsigned int t = 0; t < set->nr_maps; t++) {
		struct blk_mq_queue_map *map = &set->map[t];

		if (map->nr_queues && i >= map->queue_offset &&
		    i < map->queue_offset + map->nr_queues)
			hctx->type = t;
	}
}

struct lx_blk_disk *lx_blk_queue_alloc(struct blk_mq_tag_set *set,
				       void *queuedata)
{
	struct lx_blk_disk *bd;
	struct request_queue *q;
	struct queue_limits *lim;
	unsigned long flags;
	unsigned int i;

	bd = kzalloc(struct_size(bd, hctx, set->nr_hw_queues), GFP_KERNEL);
	if (!bd)
		return NULL;
	q = &bd->q;
	lim = &q->limits;
	bd->nr_hw = set->nr_hw_queues;
	bd->refs = 1;
	q->queuedata = queuedata;
	q->tag_set = set;
	q->mq_ops = set->ops;
	q->nr_hw_queues = bd->nr_hw;
	q->queue_depth = set->queue_depth;
	q->rq_timeout = set->timeout ? set->timeout : 30 * HZ;
	q->node = NUMA_NO_NODE;
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
	INIT_LIST_HEAD(&bd->pending);
	INIT_LIST_HEAD(&bd->held);
	INIT_LIST_HEAD(&bd->dispatch);
	INIT_LIST_HEAD(&q->requeue_list);
	init_waitqueue_head(&q->mq_freeze_wq);
	lx_blk_dispatch_init(bd);
	if (lx_blk_timeout_init(bd)) {
		kfree(bd);
		return NULL;
	}
	for (i = 0; i < bd->nr_hw; i++) {
		struct blk_mq_hw_ctx *hctx = &bd->hctx[i];

		hctx->queue = q;
		hctx->queue_num = i;
		hctx->numa_node = NUMA_NO_NODE;
		hctx->tags = set->tags[i];
		hctx->flags = set->flags;
		hctx->nr_ctx = 1;
		hctx_set_type(set, hctx);
		if (set->ops->init_hctx &&
		    set->ops->init_hctx(hctx, set->driver_data, i))
			goto err_hctx;
	}
	local_irq_save(flags);
	list_add_tail(&q->tag_set_list, &set->tag_list);
	local_irq_restore(flags);
	return bd;

err_hctx:
	while (i-- > 0)
		if (set->ops->exit_hctx)
			set->ops->exit_hctx(&bd->hctx[i], i);
	kfree(bd);
	return NULL;
}

void lx_blk_queue_free(struct lx_blk_disk *bd)
{
	struct blk_mq_tag_set *set = bd->q.tag_set;
	unsigned long flags;

	blk_sync_queue(&bd->q);
	cancel_delayed_work_sync(&bd->run_work);
	cancel_delayed_work_sync(&bd->q.requeue_work);
	local_irq_save(flags);
	list_del(&bd->q.tag_set_list);
	local_irq_restore(flags);
	for (unsigned int i = 0; i < bd->nr_hw; i++)
		if (set->ops->exit_hctx)
			set->ops->exit_hctx(&bd->hctx[i], i);
	kfree(bd);
}

/* blk_mq_init_queue - a request queue of @set without a disk (an
 * admin queue).  The queue; ERR_PTR(-EINVAL) for a set without tags;
 * ERR_PTR(-ENOMEM). */
struct request_queue *blk_mq_init_queue(struct blk_mq_tag_set *set)
{
	struct lx_blk_disk *bd;

	if (!set->tags)
		return ERR_PTR(-EINVAL);
	bd = lx_blk_queue_alloc(set, NULL);
	return bd ? &bd->q : ERR_PTR(-ENOMEM);
}

/* blk_mq_destroy_queue - @q dies: its waiting host commands fail with
 * -ENODEV, those at the driver are waited for, its timer and works
 * stop.  The memory stays until blk_put_queue.  Thread context. */
void blk_mq_destroy_queue(struct request_queue *q)
{
	struct lx_blk_disk *bd = lx_blk_disk(q);

	blk_queue_flag_set(QUEUE_FLAG_DYING, q);
	bd->dead = true;
	wake_up_all(&q->mq_freeze_wq);
	lx_blk_drain(bd);
	blk_sync_queue(q);
}

/* blk_put_queue - drop a reference to @q; the last frees it (a disk's
 * queue goes with put_disk). */
void blk_put_queue(struct request_queue *q)
{
	struct lx_blk_disk *bd = lx_blk_disk(q);

	if (--bd->refs)
		return;
	if (!bd->dead)
		blk_mq_destroy_queue(q);
	lx_blk_queue_free(bd);
}

/* blk_sync_queue - @q's timeout timer and work stopped and done. */
void blk_sync_queue(struct request_queue *q)
{
	del_timer_sync(&q->timeout);
	cancel_work_sync(&q->timeout_work);
}

/* blk_queue_flag_set, blk_queue_flag_clear - QUEUE_FLAG_* @flag of @q. */
void blk_queue_flag_set(unsigned int flag, struct request_queue *q)
{
	set_bit(flag, &q->queue_flags);
}

void blk_queue_flag_clear(unsigned int flag, struct request_queue *q)
{
	clear_bit(flag, &q->queue_flags);
}

/* blk_freeze_queue_start - keep new users out of @q (nested). */
void blk_freeze_queue_start(struct request_queue *q)
{
	q->mq_freeze_depth++;
}

/* blk_mq_freeze_queue_wait - wait until @q has no user.  Sleeps. */
void blk_mq_freeze_queue_wait(struct request_queue *q)
{
	struct lx_blk_disk *bd = lx_blk_disk(q);

	wait_event(q->mq_freeze_wq, !READ_ONCE(bd->users));
}

/* blk_mq_freeze_queue_wait_timeout - the same for at most @timeout
 * jiffies: what was left of it (> 0), or 0 when it ran out. */
int blk_mq_freeze_queue_wait_timeout(struct request_queue *q,
				     unsigned long timeout)
{
	struct lx_blk_disk *bd = lx_blk_disk(q);

	return wait_event_timeout(q->mq_freeze_wq, !READ_ONCE(bd->users),
				  timeout);
}

/* blk_mq_freeze_queue - blk_freeze_queue_start, then wait. */
void blk_mq_freeze_queue(struct request_queue *q)
{
	blk_freeze_queue_start(q);
	blk_mq_freeze_queue_wait(q);
}

/* blk_mq_unfreeze_queue - end one freeze of @q; after the last, held
 * host commands enter and waiting allocations go on. */
void blk_mq_unfreeze_queue(struct request_queue *q)
{
	struct lx_blk_disk *bd = lx_blk_disk(q);
	unsigned long flags;

	if (WARN_ON_ONCE(q->mq_freeze_depth <= 0))
		return;
	if (--q->mq_freeze_depth)
		return;
	local_irq_save(flags);
	while (!list_empty(&bd->held)) {
		list_move_tail(bd->held.next, &bd->pending);
		bd->users++;
	}
	local_irq_restore(flags);
	wake_up_all(&q->mq_freeze_wq);
	lx_blk_run_async(bd, 0);
}

/* blk_mq_quiesce_queue_nowait - give nothing more to @q's driver until
 * as many unquiesces (nested). */
void blk_mq_quiesce_queue_nowait(struct request_queue *q)
{
	if (!q->quiesce_depth++)
		blk_queue_flag_set(QUEUE_FLAG_QUIESCED, q);
}

/* blk_mq_wait_quiesce_done - wait for a dispatch of @q in progress:
 * only a BLK_MQ_F_BLOCKING driver's queue_rq can be one while the
 * caller holds the world. */
void blk_mq_wait_quiesce_done(struct request_queue *q)
{
	while (READ_ONCE(lx_blk_disk(q)->dispatching))
		msleep(1);
}

/* blk_mq_quiesce_queue - quiesce @q and wait for its dispatch. */
void blk_mq_quiesce_queue(struct request_queue *q)
{
	blk_mq_quiesce_queue_nowait(q);
	blk_mq_wait_quiesce_done(q);
}

/* blk_mq_unquiesce_queue - end one quiesce of @q; after the last, what
 * waits is dispatched from a worker. */
void blk_mq_unquiesce_queue(struct request_queue *q)
{
	if (WARN_ON_ONCE(q->quiesce_depth <= 0))
		return;
	if (--q->quiesce_depth)
		return;
	blk_queue_flag_clear(QUEUE_FLAG_QUIESCED, q);
	lx_blk_run_async(lx_blk_disk(q), 0);
}

/*
 * blk_mq_update_nr_hw_queues - @set keeps @nr_hw_queues hardware queues
 * after its driver changed them (nvme's controller reset): every queue
 * of the set frozen, the maps made again (map_queues), the hardware
 * contexts' types set anew, then unfrozen.  Fewer than one: nothing, as
 * Linux.  A different count needs tags and contexts made or freed,
 * which is not done: it stops loudly.  Thread context (sleeps).
 */
void blk_mq_update_nr_hw_queues(struct blk_mq_tag_set *set, int nr_hw_queues)
{
	struct request_queue *q;

	if (nr_hw_queues < 1)
		return;
	if (nr_hw_queues != set->nr_hw_queues)
		lx_host_missing("blk_mq_update_nr_hw_queues to another count");
	if (set->nr_maps == 1)
		return;
	mutex_lock(&set->tag_list_lock);
	list_for_each_entry(q, &set->tag_list, tag_set_list)
		blk_mq_freeze_queue(q);
	for (unsigned int i = 0; i < set->nr_maps; i++)
		memset(set->map[i].mq_map, 0, nr_cpu_ids * sizeof(unsigned int));
	if (set->ops->map_queues)
		set->ops->map_queues(set);
	else
		blk_mq_map_queues(&set->map[HCTX_TYPE_DEFAULT]);
	list_for_each_entry(q, &set->tag_list, tag_set_list) {
		struct lx_blk_disk *bd = lx_blk_disk(q);

		for (unsigned int i = 0; i < bd->nr_hw; i++)
			hctx_set_type(set, &bd->hctx[i]);
		blk_mq_unfreeze_queue(q);
	}
	mutex_unlock(&set->tag_list_lock);
}
