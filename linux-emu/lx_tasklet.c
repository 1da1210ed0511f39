/* SPDX-License-Identifier: GPL-2.0-only */
/* Tasklets: tasklet_setup, tasklet_init, __tasklet_schedule, __tasklet_hi_schedule, tasklet_kill, run by TASKLET_SOFTIRQ and HI_SOFTIRQ. */
/*
 * As Linux's kernel/softirq.c on one CPU: a scheduled tasklet
 * (TASKLET_STATE_SCHED, set by the tasklet_schedule inline) waits on its
 * vector's list, oldest first, and runs once in that softirq; a disabled
 * one (->count above 0) goes back on the list and the vector is raised
 * again.  The lists are changed with interrupts off, since interrupt
 * handlers schedule tasklets.  On one CPU TASKLET_STATE_RUN is never
 * used (tasklet_trylock always succeeds).
 */
#include <linux/interrupt.h>
#include <linux/printk.h>
#include <linux/sched.h>

#include <lx_world.h>

struct tasklet_list {
	struct tasklet_struct *head;
	struct tasklet_struct **tail;
};

static struct tasklet_list tasklet_vec = { NULL, &tasklet_vec.head };
static struct tasklet_list tasklet_hi_vec = { NULL, &tasklet_hi_vec.head };

/* Append @t to @list and raise @nr.  Interrupts off. */
static void enqueue(struct tasklet_list *list, struct tasklet_struct *t,
		    unsigned int nr)
{
	t->next = NULL;
	*list->tail = t;
	list->tail = &t->next;
	raise_softirq_irqoff(nr);
}

void __tasklet_schedule(struct tasklet_struct *t)
{
	unsigned long flags;

	local_irq_save(flags);
	enqueue(&tasklet_vec, t, TASKLET_SOFTIRQ);
	local_irq_restore(flags);
}

void __tasklet_hi_schedule(struct tasklet_struct *t)
{
	unsigned long flags;

	local_irq_save(flags);
	enqueue(&tasklet_hi_vec, t, HI_SOFTIRQ);
	local_irq_restore(flags);
}

/* Run every tasklet on @list once (the disabled ones requeued). */
static void run_list(struct tasklet_list *list, unsigned int nr)
{
	struct tasklet_struct *t;

	local_irq_disable();
	t = list->head;
	list->head = NULL;
	list->tail = &list->head;
	local_irq_enable();
	while (t) {
		struct tasklet_struct *next = t->next;

		if (atomic_read(&t->count)) {
			local_irq_disable();
			enqueue(list, t, nr);
			local_irq_enable();
		} else if (!test_and_clear_bit(TASKLET_STATE_SCHED,
					       &t->state)) {
			pr_err("linux-emu: tasklet %ps on the list but not "
			       "scheduled\n", t->use_callback ?
			       (void *)t->callback : (void *)t->func);
		} else if (t->use_callback) {
			t->callback(t);
		} else {
			t->func(t->data);
		}
		t = next;
	}
}

static void tasklet_action(struct softirq_action *a)
{
	run_list(&tasklet_vec, TASKLET_SOFTIRQ);
}

static void tasklet_hi_action(struct softirq_action *a)
{
	run_list(&tasklet_hi_vec, HI_SOFTIRQ);
}

/* tasklet_setup - @t, enabled and not scheduled, will call @callback(@t). */
void tasklet_setup(struct tasklet_struct *t,
		   void (*callback)(struct tasklet_struct *))
{
	t->next = NULL;
	t->state = 0;
	atomic_set(&t->count, 0);
	t->callback = callback;
	t->use_callback = true;
	t->data = 0;
}

/* tasklet_init - @t, enabled and not scheduled, will call @func(@data). */
void tasklet_init(struct tasklet_struct *t, void (*func)(unsigned long),
		  unsigned long data)
{
	t->next = NULL;
	t->state = 0;
	atomic_set(&t->count, 0);
	t->func = func;
	t->use_callback = false;
	t->data = data;
}

/*
 * tasklet_kill - wait until @t, if scheduled, has run, and keep it from
 * being scheduled until it is scheduled anew (it is left unscheduled).
 * Thread context (it may sleep); a disabled tasklet that is scheduled
 * is waited for until it is enabled, as in Linux.
 */
void tasklet_kill(struct tasklet_struct *t)
{
	if (in_interrupt())
		pr_err("linux-emu: tasklet_kill in interrupt context\n");
	while (test_and_set_bit(TASKLET_STATE_SCHED, &t->state)) {
		local_bh_disable();
		local_bh_enable();	/* runs the pending vectors */
		if (test_bit(TASKLET_STATE_SCHED, &t->state))
			schedule_timeout_uninterruptible(1);
	}
	clear_bit(TASKLET_STATE_SCHED, &t->state);
}

void lx_tasklet_init(void)
{
	open_softirq(TASKLET_SOFTIRQ, tasklet_action);
	open_softirq(HI_SOFTIRQ, tasklet_hi_action);
}
