/* SPDX-License-Identifier: GPL-2.0-only */
/* Completions: complete, complete_all, wait_for_completion and its timeout, interruptible and killable variants. */
/*
 * ->done counts completions not yet consumed (UINT_MAX: complete_all,
 * every wait succeeds from then on); waiters queue on the simple wait
 * queue's list in arrival order.  Interrupts off is the lock: complete()
 * is called from interrupt handlers.
 */
#include <linux/completion.h>
#include <linux/irqflags.h>
#include <linux/limits.h>
#include <linux/list.h>
#include <linux/sched.h>
#include <linux/swait.h>

void __init_swait_queue_head(struct swait_queue_head *q, const char *name,
			     struct lock_class_key *key)
{
	raw_spin_lock_init(&q->lock);
	INIT_LIST_HEAD(&q->task_list);
}

/* Wake the first @n waiters (they take themselves off).  Interrupts off. */
static void wake_waiters(struct completion *x, unsigned int n)
{
	struct swait_queue *w;

	list_for_each_entry(w, &x->wait.task_list, task_list) {
		if (n-- == 0)
			break;
		wake_up_process(w->task);
	}
}

void complete(struct completion *x)
{
	unsigned long flags;

	local_irq_save(flags);
	if (x->done != UINT_MAX)
		x->done++;
	wake_waiters(x, 1);
	local_irq_restore(flags);
}

void complete_all(struct completion *x)
{
	unsigned long flags;

	local_irq_save(flags);
	x->done = UINT_MAX;
	wake_waiters(x, UINT_MAX);
	local_irq_restore(flags);
}

/* 0 if @timeout jiffies passed without a completion, else what was left
 * of it (at least 1). */
static long wait_done(struct completion *x, long timeout, int state)
{
	struct swait_queue w = { .task = current };
	unsigned long flags;

	local_irq_save(flags);
	if (!x->done) {
		list_add_tail(&w.task_list, &x->wait.task_list);
		do {
			__set_current_state(state);
			local_irq_restore(flags);
			timeout = schedule_timeout(timeout);
			local_irq_save(flags);
		} while (!x->done && timeout);
		list_del(&w.task_list);
		if (!x->done) {
			local_irq_restore(flags);
			return 0;
		}
	}
	if (x->done != UINT_MAX)
		x->done--;
	local_irq_restore(flags);
	return timeout ? timeout : 1;
}

void wait_for_completion(struct completion *x)
{
	wait_done(x, MAX_SCHEDULE_TIMEOUT, TASK_UNINTERRUPTIBLE);
}

/* Interruptible and killable waits: Graft sends Linux tasks no signals,
 * so they end only by the completion: always 0. */
int wait_for_completion_interruptible(struct completion *x)
{
	wait_done(x, MAX_SCHEDULE_TIMEOUT, TASK_INTERRUPTIBLE);
	return 0;
}

int wait_for_completion_killable(struct completion *x)
{
	wait_done(x, MAX_SCHEDULE_TIMEOUT, TASK_KILLABLE);
	return 0;
}

/* The killable wait with a timeout: 0 if it ran out, else what was left
 * of it (no signals: never -ERESTARTSYS). */
long wait_for_completion_killable_timeout(struct completion *x,
					  unsigned long timeout)
{
	return wait_done(x, timeout, TASK_KILLABLE);
}

/* The interruptible wait with a timeout: 0 if it ran out, else what was
 * left of it (no signals: never -ERESTARTSYS). */
long wait_for_completion_interruptible_timeout(struct completion *x,
					       unsigned long timeout)
{
	return wait_done(x, timeout, TASK_INTERRUPTIBLE);
}

unsigned long wait_for_completion_timeout(struct completion *x,
					  unsigned long timeout)
{
	return wait_done(x, timeout, TASK_UNINTERRUPTIBLE);
}

/* The same, counted as waiting for I/O in Linux (no accounting here). */
unsigned long wait_for_completion_io_timeout(struct completion *x,
					     unsigned long timeout)
{
	return wait_done(x, timeout, TASK_UNINTERRUPTIBLE);
}

bool try_wait_for_completion(struct completion *x)
{
	unsigned long flags;
	bool ok;

	local_irq_save(flags);
	ok = x->done != 0;
	if (ok && x->done != UINT_MAX)
		x->done--;
	local_irq_restore(flags);
	return ok;
}

bool completion_done(struct completion *x)
{
	return READ_ONCE(x->done) != 0;
}
