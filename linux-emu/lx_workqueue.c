/* SPDX-License-Identifier: GPL-2.0-only */
/* Workqueues on Linux-world threads: queue, delay, cancel and flush work. */
/*
 * Each workqueue has one worker thread that runs its works in the order
 * they were queued, one at a time (an ordered workqueue: a work that
 * sleeps holds up the works behind it on the same queue, unlike Linux's
 * concurrency-managed pools).  A work is pending from queueing until its
 * function starts, with WORK_STRUCT_PENDING_BIT in ->data as in Linux,
 * and sits on its queue's list through ->entry; a delayed work waits on
 * its timer (delayed_work_timer_fn) before that.  Interrupts off is the
 * lock: works are queued from interrupt handlers and timers.
 */
#include <linux/completion.h>
#include <linux/interrupt.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/timer.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include <lx_world.h>

struct workqueue_struct {
	struct list_head works;		/* queued works, oldest first */
	struct list_head node;		/* all_queues */
	struct task_struct *worker;
	struct work_struct *running;	/* whose function runs now */
	bool stopping;
	struct completion stopped;	/* the worker is done */
	char name[24];
};

struct workqueue_struct *system_wq;
struct workqueue_struct *system_highpri_wq;
struct workqueue_struct *system_long_wq;
struct workqueue_struct *system_unbound_wq;
/* nothing is ever frozen (no suspend): an ordinary queue */
struct workqueue_struct *system_freezable_wq;
/* without power-efficient mode (CONFIG_WQ_POWER_EFFICIENT_DEFAULT off)
 * Linux runs these on system_wq's and system_freezable_wq's per-CPU
 * workers: here they are those queues */
struct workqueue_struct *system_power_efficient_wq;
struct workqueue_struct *system_freezable_power_efficient_wq;
/* runtime PM's queue (usbcore's root hub wake-ups), freezable in Linux:
 * system_freezable_wq here */
struct workqueue_struct *pm_wq;

static LIST_HEAD(all_queues);
static DECLARE_WAIT_QUEUE_HEAD(work_done);	/* after each work */

static void worker_main(void *arg)
{
	struct workqueue_struct *wq = arg;
	struct work_struct *work;
	unsigned long flags;

	for (;;) {
		local_irq_save(flags);
		set_current_state(TASK_INTERRUPTIBLE);
		work = list_first_entry_or_null(&wq->works, struct work_struct,
						entry);
		if (!work) {
			local_irq_restore(flags);
			if (wq->stopping)
				break;
			schedule();
			continue;
		}
		__set_current_state(TASK_RUNNING);
		list_del_init(&work->entry);
		clear_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(work));
		wq->running = work;
		local_irq_restore(flags);
		work->func(work);	/* may free @work */
		wq->running = NULL;
		wake_up_all(&work_done);
	}
	__set_current_state(TASK_RUNNING);
	complete(&wq->stopped);
}

/* Append a pending @work to @wq and wake its worker.  Interrupts off. */
static void enqueue(struct workqueue_struct *wq, struct work_struct *work)
{
	if (!wq) {
		pr_err("linux-emu: work queued on a NULL workqueue\n");
		BUG();
	}
	list_add_tail(&work->entry, &wq->works);
	wake_up_process(wq->worker);
}

bool queue_work_on(int cpu, struct workqueue_struct *wq,
		   struct work_struct *work)
{
	unsigned long flags;
	bool queued = false;

	local_irq_save(flags);
	if (!test_and_set_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(work))) {
		enqueue(wq, work);
		queued = true;
	}
	local_irq_restore(flags);
	return queued;
}

/*
 * The timer runs with interrupts on until here: an interrupt handler's
 * mod_delayed_work may have found the work neither on its timer nor
 * queued, and queued it already; it is not queued twice.
 */
void delayed_work_timer_fn(struct timer_list *t)
{
	struct delayed_work *dwork = from_timer(dwork, t, timer);
	unsigned long flags;

	local_irq_save(flags);
	if (list_empty(&dwork->work.entry))
		enqueue(dwork->wq, &dwork->work);
	local_irq_restore(flags);
}

/* Start a pending @dwork: its timer, or the queue at once.  Irqs off. */
static void start_delayed(int cpu, struct workqueue_struct *wq,
			  struct delayed_work *dwork, unsigned long delay)
{
	dwork->wq = wq;
	dwork->cpu = cpu;
	if (!delay) {
		enqueue(wq, &dwork->work);
		return;
	}
	dwork->timer.expires = jiffies + delay;
	add_timer(&dwork->timer);
}

bool queue_delayed_work_on(int cpu, struct workqueue_struct *wq,
			   struct delayed_work *dwork, unsigned long delay)
{
	unsigned long flags;
	bool queued = false;

	local_irq_save(flags);
	if (!test_and_set_bit(WORK_STRUCT_PENDING_BIT,
			      work_data_bits(&dwork->work))) {
		start_delayed(cpu, wq, dwork, delay);
		queued = true;
	}
	local_irq_restore(flags);
	return queued;
}

/* Take a pending @work off its queue, or its delayed work's timer
 * (@dwork, may be NULL); whether it was pending.  Interrupts off. */
static bool grab_pending(struct work_struct *work, struct delayed_work *dwork)
{
	if (dwork && del_timer(&dwork->timer))
		;
	else if (!list_empty(&work->entry))
		list_del_init(&work->entry);
	else
		return false;
	clear_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(work));
	return true;
}

bool mod_delayed_work_on(int cpu, struct workqueue_struct *wq,
			 struct delayed_work *dwork, unsigned long delay)
{
	unsigned long flags;
	bool was_pending;

	local_irq_save(flags);
	was_pending = grab_pending(&dwork->work, dwork);
	set_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(&dwork->work));
	start_delayed(cpu, wq, dwork, delay);
	local_irq_restore(flags);
	return was_pending;
}

static bool running_anywhere(struct work_struct *work)
{
	struct workqueue_struct *wq;

	list_for_each_entry(wq, &all_queues, node)
		if (wq->running == work)
			return true;
	return false;
}

bool flush_work(struct work_struct *work)
{
	bool busy = work_pending(work) || running_anywhere(work);

	wait_event(work_done, !work_pending(work) && !running_anywhere(work));
	return busy;
}

bool flush_delayed_work(struct delayed_work *dwork)
{
	unsigned long flags;

	local_irq_save(flags);
	if (del_timer(&dwork->timer))
		enqueue(dwork->wq, &dwork->work);
	local_irq_restore(flags);
	return flush_work(&dwork->work);
}

static bool cancel(struct work_struct *work, struct delayed_work *dwork,
		   bool sync)
{
	unsigned long flags;
	bool was_pending;

	local_irq_save(flags);
	was_pending = grab_pending(work, dwork);
	local_irq_restore(flags);
	if (sync)
		wait_event(work_done, !running_anywhere(work));
	return was_pending;
}

bool cancel_work(struct work_struct *work)
{
	return cancel(work, NULL, false);
}

bool cancel_work_sync(struct work_struct *work)
{
	return cancel(work, NULL, true);
}

bool cancel_delayed_work(struct delayed_work *dwork)
{
	return cancel(&dwork->work, dwork, false);
}

bool cancel_delayed_work_sync(struct delayed_work *dwork)
{
	return cancel(&dwork->work, dwork, true);
}

void __flush_workqueue(struct workqueue_struct *wq)
{
	wait_event(work_done, list_empty(&wq->works) && !wq->running);
}

void drain_workqueue(struct workqueue_struct *wq)
{
	__flush_workqueue(wq);
}

static struct workqueue_struct *create(const char *name)
{
	struct workqueue_struct *wq = kzalloc(sizeof(*wq), GFP_KERNEL);

	if (!wq)
		return NULL;
	INIT_LIST_HEAD(&wq->works);
	init_completion(&wq->stopped);
	strscpy(wq->name, name, sizeof(wq->name));
	wq->worker = lx_thread_start(wq->name, worker_main, wq);
	if (!wq->worker) {
		kfree(wq);
		return NULL;
	}
	list_add_tail(&wq->node, &all_queues);
	return wq;
}

struct workqueue_struct *alloc_workqueue(const char *fmt, unsigned int flags,
					 int max_active, ...)
{
	char name[24];
	va_list args;

	va_start(args, max_active);
	vsnprintf(name, sizeof(name), fmt, args);
	va_end(args);
	return create(name);
}

/* Runs what is queued, then ends the worker and frees @wq. */
void destroy_workqueue(struct workqueue_struct *wq)
{
	__flush_workqueue(wq);
	wq->stopping = true;
	wake_up_process(wq->worker);
	wait_for_completion(&wq->stopped);
	list_del(&wq->node);
	kfree(wq);
}

int lx_workqueue_init(void)
{
	system_wq = create("events");
	system_highpri_wq = create("events_highpri");
	system_long_wq = create("events_long");
	system_unbound_wq = create("events_unbound");
	system_freezable_wq = create("events_freezable");
	system_power_efficient_wq = system_wq;
	system_freezable_power_efficient_wq = system_freezable_wq;
	pm_wq = system_freezable_wq;
	if (!system_wq || !system_highpri_wq || !system_long_wq ||
	    !system_unbound_wq || !system_freezable_wq)
		return -ENOMEM;
	return 0;
}
