/* SPDX-License-Identifier: GPL-2.0-only */
/* Asynchronous function calls (async_schedule_node, async_synchronize_cookie) on one ordered workqueue. */
/*
 * Linux runs async calls in parallel; here they run one after the other
 * in cookie order on the ordered workqueue "async", which is one of the
 * schedules Linux allows.  async_synchronize_cookie(c) waits until every
 * call with a cookie below c has returned.  The first call creates the
 * workqueue (thread context).
 */
#include <linux/async.h>
#include <linux/list.h>
#include <linux/slab.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

struct async_call {
	struct work_struct work;
	struct list_head link;		/* on pending, in cookie order */
	async_cookie_t cookie;
	async_func_t func;
	void *data;
};

static struct workqueue_struct *async_wq;
static LIST_HEAD(pending);
static async_cookie_t next_cookie = 1;
static DECLARE_WAIT_QUEUE_HEAD(async_done);

static void async_run(struct work_struct *work)
{
	struct async_call *call = container_of(work, struct async_call, work);
	unsigned long flags;

	call->func(call->data, call->cookie);
	local_irq_save(flags);
	list_del(&call->link);
	local_irq_restore(flags);
	kfree(call);
	wake_up_all(&async_done);
}

/*
 * async_schedule_node - run @func(@data, cookie) later in thread context
 * (@node ignored: uniprocessor).  The cookie; if no memory, @func runs
 * now, as Linux does.
 */
async_cookie_t async_schedule_node(async_func_t func, void *data, int node)
{
	struct async_call *call;
	async_cookie_t cookie;
	unsigned long flags;

	if (!async_wq)
		async_wq = alloc_ordered_workqueue("async", 0);
	call = async_wq ? kzalloc(sizeof(*call), GFP_KERNEL) : NULL;
	local_irq_save(flags);
	cookie = next_cookie++;
	if (call) {
		call->cookie = cookie;
		call->func = func;
		call->data = data;
		INIT_WORK(&call->work, async_run);
		list_add_tail(&call->link, &pending);
	}
	local_irq_restore(flags);
	if (!call) {
		func(data, cookie);
		return cookie;
	}
	queue_work(async_wq, &call->work);
	return cookie;
}

/* The lowest cookie still pending, or next_cookie if none is. */
static async_cookie_t lowest_pending(void)
{
	struct async_call *first;
	async_cookie_t c;
	unsigned long flags;

	local_irq_save(flags);
	first = list_first_entry_or_null(&pending, struct async_call, link);
	c = first ? first->cookie : next_cookie;
	local_irq_restore(flags);
	return c;
}

/* async_synchronize_cookie - wait until every call scheduled with a
 * cookie below @cookie has returned.  Thread context. */
void async_synchronize_cookie(async_cookie_t cookie)
{
	wait_event(async_done, lowest_pending() >= cookie);
}

/* async_synchronize_full - wait for every call scheduled so far. */
void async_synchronize_full(void)
{
	async_synchronize_cookie(next_cookie);
}
