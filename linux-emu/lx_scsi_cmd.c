/* SPDX-License-Identifier: GPL-2.0-only */
/* The emulated midlayer's command path: requests to command slots, queuecommand, scsi_done, BLOCK_SOFTIRQ completion, timeouts, blk_abort_request, __scsi_execute. */
/*
 * A request waits on its device's pending list (in order) until the host
 * has a free slot (can_queue of them, the tags), the device is below its
 * queue_depth and the host is not in error recovery; then it becomes the
 * slot's struct scsi_cmnd and goes to hostt->queuecommand.  A busy answer
 * (SCSI_MLQUEUE_*) puts it back at the head; the next completion, or a
 * timer a tick later when nothing is outstanding, tries again.
 *
 * The adapter completes with scsi_done(), usually in its interrupt
 * handler: the slot goes on the done list and BLOCK_SOFTIRQ finishes it
 * (requeue for a busy status, else the result to the request's owner)
 * and starts the next commands, as Linux's blk-mq completion does; the
 * error handler's finished commands also end there.  A
 * command whose timer expires, or that blk_abort_request() names, takes
 * Linux's timeout path: hostt->eh_timed_out, then to the error handler
 * (lx_scsi_error.c) with DID_TIME_OUT unless scsi_done() came first.
 *
 * Locking: the pending lists, slots and counters change only in thread
 * context with bottom halves off or in softirq context (which do not
 * nest); the done and abort lists also in hard IRQs, under interrupts
 * off.  lx_scsi_run_host() does not nest: a call while one runs asks it
 * to go round again.
 */
#include <linux/blk-mq.h>
#include <linux/bottom_half.h>
#include <linux/completion.h>
#include <linux/interrupt.h>
#include <linux/slab.h>
#include <scsi/scsi.h>
#include <scsi/scsi_common.h>
#include <scsi/scsi_eh.h>

#include <lx_disk.h>
#include <lx_scsi.h>

static LIST_HEAD(done_list);
static LIST_HEAD(abort_list);
static LIST_HEAD(finish_list);
static LIST_HEAD(refused_list);	/* lx_scsi_req that never started */

/* Retries Linux's sd allows a command; Linux's SD_TIMEOUT. */
#define LX_SCSI_ALLOWED		5
#define LX_SCSI_TIMEOUT		(30 * HZ)

static void slot_timeout(struct timer_list *t)
{
	struct lx_scsi_slot *slot = from_timer(slot, t, timer);

	lx_scsi_timed_out(lx_slot_cmd(slot));
}

/* lx_scsi_slots_alloc - @host's can_queue command slots; 0 or -ENOMEM. */
int lx_scsi_slots_alloc(struct Scsi_Host *host)
{
	struct lx_shost *lh = lx_shost(host);
	size_t size = offsetof(struct lx_scsi_slot, rq) +
		      sizeof(struct request) + sizeof(struct scsi_cmnd) +
		      host->hostt->cmd_size;
	unsigned int nsg = max_t(unsigned int, host->sg_tablesize, 1);

	lh->slots = kcalloc(host->can_queue, sizeof(*lh->slots), GFP_KERNEL);
	if (!lh->slots)
		return -ENOMEM;
	for (int tag = 0; tag < host->can_queue; tag++) {
		struct lx_scsi_slot *slot = kzalloc(size, GFP_KERNEL);

		if (!slot)
			goto err_free;
		lh->slots[tag] = slot;
		slot->sgl = kcalloc(nsg, sizeof(*slot->sgl), GFP_KERNEL);
		slot->sense = kzalloc(SCSI_SENSE_BUFFERSIZE, GFP_KERNEL);
		if (!slot->sgl || !slot->sense)
			goto err_free;
		slot->rq.tag = tag;
		timer_setup(&slot->timer, slot_timeout, 0);
		list_add_tail(&slot->link, &lh->slots_free);
	}
	return 0;

err_free:
	lx_scsi_slots_free(host);
	return -ENOMEM;
}

void lx_scsi_slots_free(struct Scsi_Host *host)
{
	struct lx_shost *lh = lx_shost(host);

	if (!lh->slots)
		return;
	for (int tag = 0; tag < host->can_queue; tag++) {
		struct lx_scsi_slot *slot = lh->slots[tag];

		if (!slot)
			continue;
		timer_shutdown_sync(&slot->timer);
		kfree(slot->sgl);
		kfree(slot->sense);
		kfree(slot);
	}
	kfree(lh->slots);
	lh->slots = NULL;
	INIT_LIST_HEAD(&lh->slots_free);
}

/* Fill @slot's request and command from @req (Linux's scsi_prepare_cmd). */
static void slot_prepare(struct lx_scsi_slot *slot, struct lx_scsi_req *req)
{
	struct scsi_cmnd *cmd = lx_slot_cmd(slot);
	struct Scsi_Host *host = req->sdev->host;
	struct request *rq = &slot->rq;
	struct scatterlist *sg = slot->sgl;
	unsigned int n = 0;

	slot->req = req;
	slot->aborting = false;
	rq->q = req->sdev->request_queue;
	rq->cmd_flags = req->opf;
	rq->rq_flags = req->rq_flags;
	rq->__data_len = req->bytes;
	rq->__sector = req->sector;
	rq->timeout = req->timeout;
	rq->deadline = jiffies + req->timeout;
	rq->ioprio = 0;
	rq->internal_tag = -1U;
	memset(cmd, 0, sizeof(*cmd) + host->hostt->cmd_size);
	INIT_LIST_HEAD(&cmd->eh_entry);
	cmd->device = req->sdev;
	cmd->budget_token = -1;
	cmd->jiffies_at_alloc = jiffies;
	cmd->retries = req->retries;
	cmd->allowed = req->allowed;
	cmd->submitter = SUBMITTED_BY_BLOCK_LAYER;
	/* one command per dispatch: each is the last of its batch (the
	 * adapter kicks its queue now, no commit_rqs follows) */
	cmd->flags = SCMD_LAST;
	cmd->cmd_len = req->cdb_len;
	memcpy(cmd->cmnd, req->cdb, req->cdb_len);
	cmd->sc_data_direction = req->dir;
	memset(slot->sense, 0, SCSI_SENSE_BUFFERSIZE);
	cmd->sense_buffer = slot->sense;
	cmd->transfersize = req->sdev->sector_size;
	cmd->underflow = req->bytes;
	if (req->bytes && req->segs) {
		n = req->nsegs;
		sg_init_table(sg, n);
		for (unsigned int i = 0; i < n; i++) {
			u64 phys = req->segs[i].phys;

			sg_set_page(&sg[i], pfn_to_page(phys >> PAGE_SHIFT),
				    req->segs[i].len, offset_in_page(phys));
		}
	} else if (req->bytes) {
		n = 1;
		sg_init_one(sg, req->buf, req->bytes);
	}
	cmd->sdb.table.sgl = n ? sg : NULL;
	cmd->sdb.table.nents = n;
	cmd->sdb.table.orig_nents = n;
	cmd->sdb.length = req->bytes;
}

/* Complete @req with @result from BLOCK_SOFTIRQ without starting it. */
static void refuse(struct lx_scsi_req *req, int result)
{
	unsigned long flags;

	req->result = result;
	get_device(&req->sdev->sdev_gendev);	/* until it is completed */
	local_irq_save(flags);
	list_add_tail(&req->link, &refused_list);
	raise_softirq_irqoff(BLOCK_SOFTIRQ);
	local_irq_restore(flags);
}

static bool sdev_accepts(struct scsi_device *sdev)
{
	return sdev->sdev_state == SDEV_RUNNING ||
	       sdev->sdev_state == SDEV_CREATED ||
	       sdev->sdev_state == SDEV_QUIESCE;
}

/* A quiesced device runs power-management requests only; the others
 * wait (lx_scsi_quiesce.c). */
static bool sdev_holds(struct scsi_device *sdev, struct lx_scsi_req *req)
{
	return sdev->sdev_state == SDEV_QUIESCE && !(req->rq_flags & RQF_PM);
}

/* The first request of @ls that may start (or be refused) now. */
static struct lx_scsi_req *next_req(struct lx_sdev *ls)
{
	struct lx_scsi_req *req;

	list_for_each_entry(req, &ls->pending, link)
		if (!sdev_holds(&ls->sdev, req))
			return req;
	return NULL;
}

/* Start what can start on @sdev; false if the host stopped taking
 * commands (busy answer). */
static bool run_sdev(struct lx_shost *lh, struct lx_sdev *ls)
{
	struct Scsi_Host *host = &lh->host;
	struct lx_scsi_slot *slot;
	struct lx_scsi_req *req;
	struct scsi_cmnd *cmd;
	int rtn;

	while ((req = next_req(ls)) != NULL) {
		if (!sdev_accepts(&ls->sdev)) {
			list_del(&req->link);
			refuse(req, DID_NO_CONNECT << 16);
			continue;
		}
		if (host->shost_state != SHOST_RUNNING ||
		    list_empty(&lh->slots_free) ||
		    ls->busy >= ls->sdev.queue_depth)
			return true;
		list_del(&req->link);
		slot = list_first_entry(&lh->slots_free, struct lx_scsi_slot,
					link);
		list_del(&slot->link);
		slot_prepare(slot, req);
		cmd = lx_slot_cmd(slot);
		get_device(&ls->sdev.sdev_gendev);	/* until slot_release */
		lh->busy++;
		ls->busy++;
		set_bit(SCMD_STATE_INFLIGHT, &cmd->state);
		mod_timer(&slot->timer, slot->rq.deadline);
		lx_disk_probe(LX_EMUL_DISK_PROBE_QUEUECOMMAND);
		rtn = host->hostt->queuecommand(host, cmd);
		if (rtn == 0)
			continue;
		/* busy: back to the head, retried later */
		timer_delete(&slot->timer);
		lh->busy--;
		ls->busy--;
		slot->req = NULL;
		list_add(&slot->link, &lh->slots_free);
		put_device(&ls->sdev.sdev_gendev);
		list_add(&req->link, &ls->pending);
		if (!lh->busy)
			mod_timer(&lh->retry_timer, jiffies + 1);
		return rtn != SCSI_MLQUEUE_HOST_BUSY;
	}
	return true;
}

void lx_scsi_run_host(struct Scsi_Host *host)
{
	struct lx_shost *lh = lx_shost(host);
	struct scsi_device *sdev;

	if (lh->dispatching) {
		lh->again = true;
		return;
	}
	lh->dispatching = true;
	do {
		lh->again = false;
		list_for_each_entry(sdev, &host->__devices, siblings)
			if (!run_sdev(lh, lx_sdev(sdev)))
				break;
	} while (lh->again);
	lh->dispatching = false;
}

/* lx_scsi_queue - see lx_scsi.h. */
void lx_scsi_queue(struct lx_scsi_req *req)
{
	local_bh_disable();
	list_add_tail(&req->link, &lx_sdev(req->sdev)->pending);
	lx_scsi_run_host(req->sdev->host);
	local_bh_enable();
}

/* Give @slot back and its request its result; bottom halves off. */
static void slot_release(struct lx_scsi_slot *slot)
{
	struct scsi_cmnd *cmd = lx_slot_cmd(slot);
	struct scsi_device *sdev = cmd->device;
	struct lx_shost *lh = lx_shost(sdev->host);

	timer_delete(&slot->timer);
	lh->busy--;
	lx_sdev(sdev)->busy--;
	slot->req = NULL;
	cmd->state = 0;
	list_add_tail(&slot->link, &lh->slots_free);
	if (sdev->host->shost_state != SHOST_RUNNING)
		lx_scsi_eh_wakeup(sdev->host);	/* the last busy one may be due */
	put_device(&sdev->sdev_gendev);
}

void lx_scsi_finish(struct lx_scsi_slot *slot, int result)
{
	struct lx_scsi_req *req = slot->req;
	struct scsi_device *sdev = req->sdev;
	struct Scsi_Host *host = sdev->host;

	get_device(&sdev->sdev_gendev);		/* across the owner's call */
	slot_release(slot);
	req->complete(req, result, slot->sense);
	put_device(&sdev->sdev_gendev);
	lx_scsi_run_host(host);
}

void lx_scsi_requeue(struct lx_scsi_slot *slot, struct list_head *retry)
{
	struct lx_scsi_req *req = slot->req;
	struct scsi_cmnd *cmd = lx_slot_cmd(slot);

	req->retries = cmd->retries;
	slot_release(slot);
	list_add_tail(&req->link, retry);
}

void lx_scsi_requeue_splice(struct list_head *retry)
{
	struct lx_scsi_req *req, *prev;

	list_for_each_entry_safe_reverse(req, prev, retry, link) {
		list_del(&req->link);
		list_add(&req->link, &lx_sdev(req->sdev)->pending);
	}
}

void lx_scsi_fail_pending(struct scsi_device *sdev, int result)
{
	struct lx_scsi_req *req, *next;
	LIST_HEAD(gone);

	local_bh_disable();
	list_splice_init(&lx_sdev(sdev)->pending, &gone);
	list_for_each_entry_safe(req, next, &gone, link) {
		list_del(&req->link);
		refuse(req, result);
	}
	local_bh_enable();
}

/*
 * scsi_done - the adapter finished @cmd (any context, interrupts
 * possibly off).  Ignored if the timeout path owns it already.
 */
void scsi_done(struct scsi_cmnd *cmd)
{
	struct lx_scsi_slot *slot = lx_scsi_slot(cmd);
	unsigned long flags;

	lx_disk_probe(LX_EMUL_DISK_PROBE_SCSI_DONE);
	if (test_and_set_bit(SCMD_STATE_COMPLETE, &cmd->state))
		return;
	local_irq_save(flags);
	list_add_tail(&slot->link, &done_list);
	raise_softirq_irqoff(BLOCK_SOFTIRQ);
	local_irq_restore(flags);
}

/*
 * scsi_done_direct - as scsi_done, from thread context with no lock
 * held (usb-storage's control thread): BLOCK_SOFTIRQ runs in the
 * caller before it returns, as Linux completes such a command in its
 * caller, instead of waking the lx-softirq thread.  In interrupt
 * context the softirq runs at the interrupt's exit, as for scsi_done.
 */
void scsi_done_direct(struct scsi_cmnd *cmd)
{
	local_bh_disable();
	scsi_done(cmd);
	local_bh_enable();
}

/* blk_abort_request - run @rq's timeout path now (from BLOCK_SOFTIRQ),
 * as libata does to hand a failed command to its error handler. */
void blk_abort_request(struct request *rq)
{
	struct lx_scsi_slot *slot = container_of(rq, struct lx_scsi_slot, rq);
	unsigned long flags;

	if (test_bit(SCMD_STATE_COMPLETE, &lx_slot_cmd(slot)->state))
		return;		/* scsi_done came first: it is finishing */
	local_irq_save(flags);
	if (!slot->aborting) {
		slot->aborting = true;
		list_add_tail(&slot->link, &abort_list);
	}
	raise_softirq_irqoff(BLOCK_SOFTIRQ);
	local_irq_restore(flags);
}

/* lx_scsi_finish_later - lx_scsi_finish(@slot, its cmd->result) from
 * BLOCK_SOFTIRQ, so that owners always hear in softirq context. */
void lx_scsi_finish_later(struct lx_scsi_slot *slot)
{
	unsigned long flags;

	local_irq_save(flags);
	list_add_tail(&slot->link, &finish_list);
	raise_softirq_irqoff(BLOCK_SOFTIRQ);
	local_irq_restore(flags);
}

static bool wants_requeue(int result)
{
	u8 status = result & 0xff;

	return status == SAM_STAT_TASK_SET_FULL || status == SAM_STAT_BUSY ||
	       ((result >> 16) & 0xff) == DID_REQUEUE ||
	       ((result >> 16) & 0xff) == DID_IMM_RETRY;
}

static struct lx_scsi_slot *take(struct list_head *list)
{
	struct lx_scsi_slot *slot;
	unsigned long flags;

	local_irq_save(flags);
	slot = list_first_entry_or_null(list, struct lx_scsi_slot, link);
	if (slot)
		list_del(&slot->link);
	local_irq_restore(flags);
	return slot;
}

static struct lx_scsi_req *take_req(void)
{
	struct lx_scsi_req *req;
	unsigned long flags;

	local_irq_save(flags);
	req = list_first_entry_or_null(&refused_list, struct lx_scsi_req,
				       link);
	if (req)
		list_del(&req->link);
	local_irq_restore(flags);
	return req;
}

static void block_softirq(struct softirq_action *h)
{
	struct lx_scsi_req *req;
	struct lx_scsi_slot *slot;
	struct scsi_cmnd *cmd;

	while ((slot = take(&abort_list)) != NULL) {
		timer_delete(&slot->timer);
		lx_scsi_timed_out(lx_slot_cmd(slot));
	}
	while ((slot = take(&done_list)) != NULL) {
		struct Scsi_Host *host;
		LIST_HEAD(retry);

		cmd = lx_slot_cmd(slot);
		host = cmd->device->host;
		if (wants_requeue(cmd->result)) {
			lx_scsi_requeue(slot, &retry);
			lx_scsi_requeue_splice(&retry);
			lx_scsi_run_host(host);
			continue;
		}
		lx_scsi_finish(slot, cmd->result);
	}
	while ((slot = take(&finish_list)) != NULL)
		lx_scsi_finish(slot, lx_slot_cmd(slot)->result);
	while ((req = take_req()) != NULL) {
		struct scsi_device *sdev = req->sdev;

		req->complete(req, req->result, NULL);
		put_device(&sdev->sdev_gendev);
	}
}

static void retry_timer_fn(struct timer_list *t)
{
	struct lx_shost *lh = from_timer(lh, t, retry_timer);

	lx_scsi_run_host(&lh->host);
}

void lx_scsi_softirq_init(void)
{
	open_softirq(BLOCK_SOFTIRQ, block_softirq);
}

void lx_scsi_retry_timer_init(struct Scsi_Host *host)
{
	timer_setup(&lx_shost(host)->retry_timer, retry_timer_fn, 0);
}

struct execute {
	struct lx_scsi_req req;
	struct completion done;
	int result;
	unsigned char sense[SCSI_SENSE_BUFFERSIZE];
};

static void execute_complete(struct lx_scsi_req *req, int result,
			     const unsigned char *sense)
{
	struct execute *ex = container_of(req, struct execute, req);

	ex->result = result;
	if (sense)
		memcpy(ex->sense, sense, SCSI_SENSE_BUFFERSIZE);
	complete(&ex->done);
}

/*
 * __scsi_execute - run the CDB @cmd on @sdev with @buffer (@bufflen
 * bytes, kernel memory) and wait for it.  Its result (Linux's
 * scmd->result: 0 for success); -ENOMEM.  @sense gets the sense buffer,
 * @sshdr its decoded header; @resid is 0 (no residue is reported).
 * Thread context.
 */
int __scsi_execute(struct scsi_device *sdev, const unsigned char *cmd,
		   int data_direction, void *buffer, unsigned int bufflen,
		   unsigned char *sense, struct scsi_sense_hdr *sshdr,
		   int timeout, int retries, blk_opf_t flags,
		   req_flags_t rq_flags, int *resid)
{
	struct execute *ex = kzalloc(sizeof(*ex), GFP_KERNEL);
	int result;

	if (!ex)
		return -ENOMEM;
	init_completion(&ex->done);
	ex->req.sdev = sdev;
	ex->req.cdb_len = scsi_command_size(cmd);
	memcpy(ex->req.cdb, cmd, min_t(int, ex->req.cdb_len, 16));
	ex->req.dir = data_direction;
	ex->req.bytes = buffer ? bufflen : 0;
	ex->req.buf = buffer;
	ex->req.timeout = timeout ? timeout : LX_SCSI_TIMEOUT;
	ex->req.allowed = retries;
	ex->req.opf = data_direction == DMA_TO_DEVICE ? REQ_OP_DRV_OUT :
						       REQ_OP_DRV_IN;
	ex->req.rq_flags = rq_flags;
	ex->req.complete = execute_complete;
	lx_scsi_queue(&ex->req);
	wait_for_completion(&ex->done);
	result = ex->result;
	if (sense)
		memcpy(sense, ex->sense, SCSI_SENSE_BUFFERSIZE);
	if (sshdr)
		scsi_normalize_sense(ex->sense, SCSI_SENSE_BUFFERSIZE, sshdr);
	if (resid)
		*resid = 0;
	kfree(ex);
	return result;
}

/* lx_scsi_req_defaults - timeout and retries of Linux's sd. */
void lx_scsi_req_defaults(struct lx_scsi_req *req)
{
	req->timeout = LX_SCSI_TIMEOUT;
	req->retries = 0;
	req->allowed = LX_SCSI_ALLOWED;
}
