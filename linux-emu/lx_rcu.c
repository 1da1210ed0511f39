/* SPDX-License-Identifier: GPL-2.0-only */
/* RCU grace periods: synchronize_rcu, synchronize_net, call_rcu, rcu_barrier. */
/*
 * The Linux world is one CPU running PREEMPT_NONE code one thread at a
 * time (lx_world.h): an RCU read-side section never sleeps, so none can
 * be open while a thread holds the world outside of one, and an
 * interrupt handler's sections end before the interrupted thread goes
 * on.  A caller of synchronize_rcu that may sleep is itself a quiescent
 * state: the grace period is over on entry, as in Linux's Tiny RCU.
 * call_rcu's callbacks wait on a list for a work on system_wq, which
 * runs only once the caller has let the world go (slept or returned to
 * the host), so every reader of its time is done; they run in order.
 */
#include <linux/kernel.h>
#include <linux/netdevice.h>
#include <linux/rcupdate.h>
#include <linux/workqueue.h>

/* synchronize_rcu - wait until every RCU reader that started before is
 * done: nothing to wait for (above).  Thread context. */
void synchronize_rcu(void)
{
	might_sleep();
}

/* synchronize_net - synchronize_rcu, for the network stack's readers. */
void synchronize_net(void)
{
	synchronize_rcu();
}

static struct rcu_head *cb_head;
static struct rcu_head **cb_tail = &cb_head;

static void run_callbacks(struct work_struct *work)
{
	struct rcu_head *head;
	unsigned long flags;

	local_irq_save(flags);
	head = cb_head;
	cb_head = NULL;
	cb_tail = &cb_head;
	local_irq_restore(flags);
	while (head) {
		struct rcu_head *next = head->next;

		head->func(head);
		head = next;
	}
}

static DECLARE_WORK(callbacks_work, run_callbacks);

/* call_rcu - call @func(@head) after a grace period (above).  Any
 * context. */
void call_rcu(struct rcu_head *head, rcu_callback_t func)
{
	unsigned long flags;

	head->func = func;
	head->next = NULL;
	local_irq_save(flags);
	*cb_tail = head;
	cb_tail = &head->next;
	local_irq_restore(flags);
	queue_work(system_wq, &callbacks_work);
}

/* rcu_barrier - wait until every callback call_rcu took has run.  Thread
 * context. */
void rcu_barrier(void)
{
	flush_work(&callbacks_work);
}
