/* SPDX-License-Identifier: GPL-2.0-only */
/* Request timeouts of blk-mq queues: the queue's timer, and its work asking the driver about each request past its deadline. */
/*
 * As Linux's blk-timeout.c and blk_mq_timeout_work: a started request's
 * deadline is jiffies + rq->timeout (the queue's rq_timeout when the
 * driver set none); one timer per queue fires at the earliest deadline
 * and queues the timeout work (system_highpri_wq, Linux's kblockd),
 * which calls ops->timeout for each request of the queue still in
 * flight past its deadline: BLK_EH_RESET_TIMER gives it a new
 * deadline, BLK_EH_DONE leaves it to the driver.  A driver without a
 * timeout handler gets its requests' timers re-armed (Linux does so).
 */
#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/jiffies.h>
#include <linux/timer.h>
#include <linux/workqueue.h>

#include <lx_blk.h>

static void timer_arm(struct request_queue *q, unsigned long deadline)
{
	if (!timer_pending(&q->timeout) ||
	    time_before(deadline, q->timeout.expires))
		mod_timer(&q->timeout, deadline);
}

void lx_blk_timeout_add(struct request *rq)
{
	if (!rq->timeout)
		rq->timeout = rq->q->rq_timeout;
	rq->rq_flags &= ~RQF_TIMED_OUT;
	WRITE_ONCE(rq->deadline, jiffies + rq->timeout);
	timer_arm(rq->q, rq->deadline);
}

struct expiry {
	struct request_queue *q;
	unsigned long now;
	unsigned long next;
	bool has_next;
};

static bool check_rq(struct request *rq, void *data)
{
	struct expiry *e = data;
	unsigned long deadline;

	if (rq->q != e->q || blk_mq_rq_state(rq) != MQ_RQ_IN_FLIGHT)
		return true;
	deadline = READ_ONCE(rq->deadline);
	if (time_after_eq(e->now, deadline) &&
	    !(rq->rq_flags & RQF_TIMED_OUT)) {
		enum blk_eh_timer_return ret = BLK_EH_RESET_TIMER;

		if (rq->q->mq_ops->timeout)
			ret = rq->q->mq_ops->timeout(rq);
		if (ret == BLK_EH_DONE) {
			rq->rq_flags |= RQF_TIMED_OUT;
			return true;
		}
		/* still the same request in flight: a new deadline */
		if (blk_mq_rq_state(rq) != MQ_RQ_IN_FLIGHT)
			return true;
		deadline = jiffies + rq->timeout;
		WRITE_ONCE(rq->deadline, deadline);
	}
	if (!e->has_next || time_before(deadline, e->next)) {
		e->next = deadline;
		e->has_next = true;
	}
	return true;
}

static void timeout_work_fn(struct work_struct *work)
{
	struct request_queue *q = container_of(work, struct request_queue,
					       timeout_work);
	struct expiry e = { .q = q, .now = jiffies };

	if (blk_queue_dying(q))
		return;
	blk_mq_tagset_busy_iter(q->tag_set, check_rq, &e);
	if (e.has_next)
		timer_arm(q, e.next);
}

static struct workqueue_struct *timeout_wq;

static void timer_fn(struct timer_list *t)
{
	struct request_queue *q = from_timer(q, t, timeout);

	queue_work(timeout_wq, &q->timeout_work);
}

int lx_blk_timeout_init(struct lx_blk_disk *bd)
{
	if (!timeout_wq)
		timeout_wq = alloc_workqueue("lx-blk-timeout", WQ_MEM_RECLAIM,
					     0);
	if (!timeout_wq)
		return -ENOMEM;
	timer_setup(&bd->q.timeout, timer_fn, 0);
	INIT_WORK(&bd->q.timeout_work, timeout_work_fn);
	return 0;
}
