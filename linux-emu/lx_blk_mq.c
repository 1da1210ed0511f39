/* SPDX-License-Identifier: GPL-2.0-only */
/* blk-mq dispatch as a driver sees it: host commands and inserted requests to queue_rq, their start, completion, end (alone or in batches) and requeueing, stopped hardware queues. */
/*
 * Linux's block/blk-mq*.c are not compiled: bios, plugging, schedulers,
 * per-CPU software queues and the rest sit above the driver, where
 * Graft's host (mach-glue/block) already turns device requests into
 * commands within the queue's limits (lx_emul_disk.h).  Here a host
 * command becomes a request of the tag set on the hardware queue the
 * set maps CPU 0 to (its data one bio of the host's segments) and goes
 * alone to ops->queue_rq (bd->last set, so commit_rqs is never needed);
 * requests the driver inserts (blk_execute_rq*) and requeued ones wait
 * on the queue's dispatch list and go first.  Nothing goes while the
 * queue is quiesced or the hardware queue stopped.  A busy answer
 * (BLK_STS_RESOURCE, BLK_STS_DEV_RESOURCE) puts the request back at the
 * head, tried again when a request ends, the driver restarts its queue,
 * or a tick later when none is at the driver.
 *
 * The driver's completion (blk_mq_complete_request, or its own after
 * blk_mq_complete_request_remote said false) runs ops->complete in the
 * caller's context, as Linux does for a queue with one CPU;
 * blk_mq_end_request gives the host its result there and hands the
 * dispatch of waiting commands to a worker (system_highpri_wq, Linux's
 * kblockd), never to the completion.  No polling.  The lists change
 * with interrupts off.
 */
#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/delay.h>
#include <linux/interrupt.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>

#include <lx_blk.h>
#include <lx_disk.h>

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

static void run_work_fn(struct work_struct *work)
{
	struct lx_blk_disk *bd = container_of(to_delayed_work(work),
					      struct lx_blk_disk, run_work);

	local_bh_disable();
	lx_blk_run(bd);
	local_bh_enable();
}

static void requeue_work_fn(struct work_struct *work)
{
	struct request_queue *q = container_of(to_delayed_work(work),
					       struct request_queue,
					       requeue_work);
	struct lx_blk_disk *bd = lx_blk_disk(q);
	unsigned long flags;

	local_irq_save(flags);
	list_splice_init(&q->requeue_list, &bd->dispatch);
	local_irq_restore(flags);
	local_bh_disable();
	lx_blk_run(bd);
	local_bh_enable();
}

void lx_blk_dispatch_init(struct lx_blk_disk *bd)
{
	INIT_DELAYED_WORK(&bd->run_work, run_work_fn);
	INIT_DELAYED_WORK(&bd->q.requeue_work, requeue_work_fn);
}

void lx_blk_run_async(struct lx_blk_disk *bd, unsigned long delay)
{
	mod_delayed_work(system_highpri_wq, &bd->run_work, delay);
}

void lx_blk_rq_init(struct lx_blk_disk *bd, struct blk_mq_hw_ctx *hctx,
		    struct lx_blk_rq *slot, blk_opf_t opf)
{
	struct request *rq = &slot->rq;

	slot->cmd = NULL;
	slot->copy = NULL;
	slot->at_driver = false;
	rq->q = &bd->q;
	rq->mq_hctx = hctx;
	rq->mq_ctx = NULL;
	rq->cmd_flags = opf;
	rq->rq_flags = 0;
	rq->__sector = (sector_t)-1;
	rq->__data_len = 0;
	rq->nr_phys_segments = 0;
	rq->bio = NULL;
	rq->biotail = NULL;
	rq->part = bd->has_disk ? bd->disk.part0 : NULL;
	rq->ioprio = 0;
	rq->timeout = 0;
	rq->deadline = 0;
	rq->start_time_ns = 0;
	rq->end_io = NULL;
	rq->end_io_data = NULL;
	rq->rq_next = NULL;
	WRITE_ONCE(rq->state, MQ_RQ_IDLE);
}

/* The host's answer, when a request carrying its command ends. */
static enum rq_end_io_ret host_end_io(struct request *rq, blk_status_t error)
{
	struct lx_blk_rq *slot = lx_blk_slot(rq);
	struct lx_emul_disk_cmd *cmd = slot->cmd;
	struct lx_blk_disk *bd = lx_blk_disk(rq->q);

	if (error)
		pr_err_ratelimited("%s: I/O error %d, %s of %u sectors at sector %llu\n",
				   bd->disk.disk_name,
				   blk_status_to_errno(error),
				   rq_data_dir(rq) == WRITE ? "write" : "read",
				   blk_rq_sectors(rq),
				   (unsigned long long)blk_rq_pos(rq));
	/* a piece blk_update_request ended with an error fails the whole */
	if (!error)
		error = slot->bio.bi_status;
	slot->cmd = NULL;
	cmd->done(cmd, blk_status_to_errno(error));
	return RQ_END_IO_FREE;
}

void lx_blk_bio_set(struct lx_blk_rq *slot, struct bio_vec *vecs,
		    unsigned int n, unsigned int size, sector_t sector,
		    blk_opf_t opf)
{
	struct bio *bio = &slot->bio;

	memset(bio, 0, sizeof(*bio));
	bio->bi_opf = opf;
	bio->bi_io_vec = vecs;
	bio->bi_max_vecs = n;
	bio->bi_vcnt = n;
	bio->bi_iter.bi_sector = sector;
	bio->bi_iter.bi_size = size;
	atomic_set(&bio->__bi_remaining, 1);
	atomic_set(&bio->__bi_cnt, 1);
	slot->rq.bio = bio;
	slot->rq.biotail = bio;
}

/* Fill @slot's request and bio from host command @cmd of disk @bd. */
static void rq_from_cmd(struct lx_blk_disk *bd, struct blk_mq_hw_ctx *hctx,
			struct lx_blk_rq *slot, struct lx_emul_disk_cmd *cmd,
			struct bio_vec *vecs)
{
	struct request *rq = &slot->rq;
	unsigned int shift = ilog2(queue_logical_block_size(&bd->q)) - 9;

	lx_blk_rq_init(bd, hctx, slot, cmd->write ? REQ_OP_WRITE : REQ_OP_READ);
	slot->cmd = cmd;
	rq->__sector = cmd->lba << shift;
	rq->__data_len = cmd->blocks << (shift + 9);
	rq->nr_phys_segments = cmd->nsegs;
	rq->end_io = host_end_io;
	for (unsigned int i = 0; i < cmd->nsegs; i++) {
		u64 phys = cmd->segs[i].phys;

		vecs[i].bv_page = pfn_to_page(phys >> PAGE_SHIFT);
		vecs[i].bv_offset = offset_in_page(phys);
		vecs[i].bv_len = cmd->segs[i].len;
	}
	lx_blk_bio_set(slot, vecs, cmd->nsegs, rq->__data_len, rq->__sector,
		       rq->cmd_flags);
}

/* The next host command of @bd as a request with a tag, or NULL (none
 * waits, its hardware queue is stopped, no tag or no memory for its
 * vectors: it stays first). */
static struct request *take_cmd(struct lx_blk_disk *bd)
{
	struct blk_mq_tag_set *set = bd->q.tag_set;
	struct lx_emul_disk_cmd *cmd;
	struct blk_mq_hw_ctx *hctx;
	struct bio_vec *vecs;
	struct lx_blk_rq *slot;
	unsigned long flags;

	local_irq_save(flags);
	if (list_empty(&bd->pending)) {
		local_irq_restore(flags);
		return NULL;
	}
	cmd = link_cmd(bd->pending.next);
	hctx = &bd->hctx[lx_blk_hctx_for(set, cmd->write ? REQ_OP_WRITE :
					 REQ_OP_READ)];
	slot = NULL;
	if (!test_bit(BLK_MQ_S_STOPPED, &hctx->state))
		slot = lx_blk_tag_get(lx_blk_tags(hctx->tags), false);
	if (slot)
		list_del(cmd_link(cmd));
	local_irq_restore(flags);
	if (!slot)
		return NULL;
	vecs = slot->vecs;
	if (cmd->nsegs > LX_BLK_INLINE_VECS)
		vecs = kmalloc_array(cmd->nsegs, sizeof(*vecs), GFP_ATOMIC);
	if (!vecs) {
		local_irq_save(flags);
		list_add(cmd_link(cmd), &bd->pending);
		local_irq_restore(flags);
		lx_blk_tag_put(set, lx_blk_tags(hctx->tags), slot);
		lx_blk_run_async(bd, 1);
		return NULL;
	}
	rq_from_cmd(bd, hctx, slot, cmd, vecs);
	return &slot->rq;
}

void lx_blk_run(struct lx_blk_disk *bd)
{
	struct request_queue *q = &bd->q;
	struct request *rq;
	unsigned long flags;
	blk_status_t sts;

	for (;;) {
		struct blk_mq_queue_data data = { .last = true };
		struct lx_blk_rq *slot;

		local_irq_save(flags);
		if (blk_queue_quiesced(q) || bd->dead) {
			local_irq_restore(flags);
			return;
		}
		slot = list_first_entry_or_null(&bd->dispatch,
						struct lx_blk_rq, link);
		if (slot && test_bit(BLK_MQ_S_STOPPED,
				     &slot->rq.mq_hctx->state))
			slot = NULL;
		if (slot)
			list_del_init(&slot->link);
		local_irq_restore(flags);
		if (slot) {
			rq = &slot->rq;
		} else {
			if (!list_empty(&bd->dispatch))
				return;	/* its hardware queue is stopped */
			rq = take_cmd(bd);
			if (!rq)
				return;
			slot = lx_blk_slot(rq);
		}

		local_irq_save(flags);
		slot->at_driver = true;
		bd->in_flight++;
		local_irq_restore(flags);
		data.rq = rq;
		lx_disk_probe(LX_EMUL_DISK_PROBE_QUEUECOMMAND);
		bd->dispatching++;
		sts = q->mq_ops->queue_rq(rq->mq_hctx, &data);
		bd->dispatching--;
		if (sts == BLK_STS_OK)
			continue;
		if (sts != BLK_STS_RESOURCE && sts != BLK_STS_DEV_RESOURCE) {
			blk_mq_end_request(rq, sts);
			continue;
		}
		/* busy: back to the head, tried again later */
		local_irq_save(flags);
		slot->at_driver = false;
		bd->in_flight--;
		list_add(&slot->link, &bd->dispatch);
		if (!bd->in_flight)
			lx_blk_run_async(bd, 1);
		local_irq_restore(flags);
		return;
	}
}

void lx_blk_submit(struct lx_blk_disk *bd, struct lx_emul_disk_cmd *cmd)
{
	unsigned long flags;

	local_irq_save(flags);
	if (bd->q.mq_freeze_depth) {
		list_add_tail(cmd_link(cmd), &bd->held);
		local_irq_restore(flags);
		return;
	}
	list_add_tail(cmd_link(cmd), &bd->pending);
	bd->users++;
	local_irq_restore(flags);
	local_bh_disable();
	lx_blk_run(bd);
	local_bh_enable();
}

/* Fail the host commands of @list (users: whether they count). */
static void fail_cmds(struct lx_blk_disk *bd, struct list_head *list,
		      bool users)
{
	struct lx_emul_disk_cmd *cmd;
	unsigned long flags;

	for (;;) {
		local_irq_save(flags);
		if (list_empty(list)) {
			local_irq_restore(flags);
			return;
		}
		cmd = link_cmd(list->next);
		list_del(cmd_link(cmd));
		if (users && !--bd->users)
			wake_up_all(&bd->q.mq_freeze_wq);
		local_irq_restore(flags);
		cmd->done(cmd, -ENODEV);
	}
}

void lx_blk_fail_waiting(struct lx_blk_disk *bd)
{
	struct lx_blk_rq *slot;
	unsigned long flags;

	fail_cmds(bd, &bd->held, false);
	fail_cmds(bd, &bd->pending, true);
	local_irq_save(flags);
	list_splice_init(&bd->q.requeue_list, &bd->dispatch);
	local_irq_restore(flags);
	for (;;) {
		local_irq_save(flags);
		slot = list_first_entry_or_null(&bd->dispatch,
						struct lx_blk_rq, link);
		if (slot)
			list_del_init(&slot->link);
		local_irq_restore(flags);
		if (!slot)
			break;
		blk_mq_end_request(&slot->rq, BLK_STS_OFFLINE);
	}
}

void lx_blk_drain(struct lx_blk_disk *bd)
{
	cancel_delayed_work_sync(&bd->run_work);
	cancel_delayed_work_sync(&bd->q.requeue_work);
	lx_blk_fail_waiting(bd);
	while (READ_ONCE(bd->in_flight))
		msleep(1);
}

/* blk_mq_start_request - @rq goes to the device now (its driver says):
 * in flight, its timeout running. */
void blk_mq_start_request(struct request *rq)
{
	WRITE_ONCE(rq->state, MQ_RQ_IN_FLIGHT);
	lx_blk_timeout_add(rq);
}

/* blk_mq_complete_request_remote - @rq is complete; false: the caller
 * runs its completion here (one CPU, nothing runs elsewhere). */
bool blk_mq_complete_request_remote(struct request *rq)
{
	WRITE_ONCE(rq->state, MQ_RQ_COMPLETE);
	return false;
}

/* blk_mq_complete_request - the driver has @rq's result: ops->complete
 * runs now, in the caller's context. */
void blk_mq_complete_request(struct request *rq)
{
	if (!blk_mq_complete_request_remote(rq))
		rq->q->mq_ops->complete(rq);
}

/* Take @rq off the driver's count. */
static void off_driver(struct lx_blk_disk *bd, struct lx_blk_rq *slot)
{
	unsigned long flags;

	local_irq_save(flags);
	if (slot->at_driver) {
		slot->at_driver = false;
		bd->in_flight--;
	}
	local_irq_restore(flags);
}

/*
 * blk_update_request - the first @nr_bytes of @rq's data are done, with
 * @error (which its bio keeps): the bio moves on past them and, once
 * all its bytes are done, ends (bio_endio) and leaves the request.
 * True while data is left (@rq starts where it is left), false when
 * none is (the caller ends @rq: __blk_mq_end_request).  Any context.
 */
bool blk_update_request(struct request *rq, blk_status_t error,
			unsigned int nr_bytes)
{
	struct bio *bio = rq->bio;
	unsigned int done;

	if (!bio)
		return false;
	done = min(bio->bi_iter.bi_size, nr_bytes);
	if (error)
		bio->bi_status = error;
	bio_advance(bio, done);
	if (!bio->bi_iter.bi_size) {
		rq->bio = bio->bi_next;
		if (!rq->bio)
			rq->biotail = NULL;
		bio_endio(bio);
	}
	if (!rq->bio) {
		rq->__data_len = 0;
		return false;
	}
	rq->__data_len -= done;
	if (!blk_rq_is_passthrough(rq))
		rq->__sector += done >> 9;
	return true;
}

/* blk_mq_end_request - __blk_mq_end_request: the driver's data is done
 * with @rq's (a submitted bio still on it ends in its end_io). */
void blk_mq_end_request(struct request *rq, blk_status_t error)
{
	__blk_mq_end_request(rq, error);
}

/*
 * __blk_mq_end_request - @rq is over with @error: a copied buffer goes
 * back to its owner (a read), then rq->end_io (a host command's answer,
 * blk_execute_rq's waiter, a submitted bio's end), and the request is
 * freed unless end_io keeps it.  Any context.  The driver is done with
 * @rq here (its completion calls this last): for a host command, the
 * disk probe point of a finished command, as scsi_done is a SCSI
 * host's.
 */
void __blk_mq_end_request(struct request *rq, blk_status_t error)
{
	struct lx_blk_rq *slot = lx_blk_slot(rq);

	if (slot->cmd)
		lx_disk_probe(LX_EMUL_DISK_PROBE_SCSI_DONE);
	off_driver(lx_blk_disk(rq->q), slot);
	if (slot->copy && !op_is_write(req_op(rq)))
		memcpy(slot->copy_of, slot->copy, slot->copy_len);
	WRITE_ONCE(rq->state, MQ_RQ_IDLE);
	if (rq->end_io && rq->end_io(rq, error) == RQ_END_IO_NONE)
		return;
	blk_mq_free_request(rq);
}

/* blk_mq_end_request_batch - end each request of @iob without error. */
void blk_mq_end_request_batch(struct io_comp_batch *iob)
{
	struct request *rq;

	while ((rq = rq_list_pop(&iob->req_list)))
		blk_mq_end_request(rq, BLK_STS_OK);
}

/* blk_mq_requeue_request - @rq (with its tag) goes back to its queue's
 * requeue list, dispatched again when the list is kicked (now if
 * @kick_requeue_list). */
void blk_mq_requeue_request(struct request *rq, bool kick_requeue_list)
{
	struct lx_blk_disk *bd = lx_blk_disk(rq->q);
	struct lx_blk_rq *slot = lx_blk_slot(rq);
	unsigned long flags;

	off_driver(bd, slot);
	WRITE_ONCE(rq->state, MQ_RQ_IDLE);
	rq->rq_flags &= ~RQF_TIMED_OUT;
	local_irq_save(flags);
	list_add(&slot->link, &rq->q->requeue_list);
	local_irq_restore(flags);
	if (kick_requeue_list)
		blk_mq_delay_kick_requeue_list(rq->q, 0);
}

/* blk_mq_delay_kick_requeue_list - dispatch @q's requeued requests
 * again in @msecs milliseconds (a worker). */
void blk_mq_delay_kick_requeue_list(struct request_queue *q,
				    unsigned long msecs)
{
	mod_delayed_work(system_highpri_wq, &q->requeue_work,
			 msecs_to_jiffies(msecs));
}

/* blk_mq_kick_requeue_list - the same, now. */
void blk_mq_kick_requeue_list(struct request_queue *q)
{
	blk_mq_delay_kick_requeue_list(q, 0);
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
		lx_blk_run_async(bd, 0);
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
