/* SPDX-License-Identifier: GPL-2.0-only */
/* Interrupt lines: request_threaded_irq, free_irq, enable/disable_irq, synchronize_irq, threaded handlers. */
/*
 * A line the Linux world uses is taken whole from the host
 * (lx_host_irq_attach) with the first request and given back with the
 * last free; the IRQF_SHARED chain of irqactions lives here.  The host
 * calls lx_irq_interrupt() with interrupts off; the handlers run in hard
 * IRQ context (HARDIRQ_OFFSET in the preempt count), then the pending
 * softirqs (lx_softirq_irq_exit).  A handler that answers IRQ_WAKE_THREAD
 * wakes its action's thread, which runs the threaded handler holding the
 * world; with IRQF_ONESHOT the line stays masked until it has.  A line is
 * unmasked at the controller exactly when it has actions, a disable depth
 * of 0, no oneshot thread busy and was not found spurious
 * (lx_irq_spurious.c).  Interrupts off is the lock.
 * autoprobe (lx_irq_probe.c) uses the lines no action holds.
 */
#include <linux/bitops.h>
#include <linux/interrupt.h>
#include <linux/irqflags.h>
#include <linux/irqnr.h>
#include <linux/preempt.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/wait.h>

#include <lx_host.h>
#include <lx_world.h>

#include "lx_irq.h"

/* Bits of irqaction->thread_flags. */
#define LX_IRQ_RUN_THREAD	0	/* the hard handler asked for it */
#define LX_IRQ_STOP_THREAD	1	/* free_irq: end the thread */
#define LX_IRQ_WARNED		2	/* IRQ_WAKE_THREAD without a thread */

struct lx_irq_line lx_irq_lines[LX_IRQ_LINES];
/* How many interrupt numbers there are: request_irq takes those below. */
int nr_irqs = LX_IRQ_LINES;

static DECLARE_WAIT_QUEUE_HEAD(threads_idle);	/* a threaded handler ended */

/* Mask or unmask @line at the controller as its state says.  Irqs off. */
void lx_irq_update_mask(unsigned int irq)
{
	struct lx_irq_line *line = &lx_irq_lines[irq];

	if (line->actions && line->depth == 0 && line->oneshot_busy == 0 &&
	    !line->spurious_disabled)
		lx_host_irq_unmask(irq);
	else if (line->attached)
		lx_host_irq_mask(irq);
}

static void wake_thread(struct lx_irq_line *line, struct irqaction *action)
{
	if (!action->thread) {
		if (!test_and_set_bit(LX_IRQ_WARNED, &action->thread_flags))
			pr_warn("linux-emu: irq %u: IRQ_WAKE_THREAD from %s, which has no thread\n",
				action->irq, action->name);
		return;
	}
	if (test_and_set_bit(LX_IRQ_RUN_THREAD, &action->thread_flags))
		return;
	line->threads_busy++;
	if (action->flags & IRQF_ONESHOT) {
		line->oneshot_busy++;
		lx_host_irq_mask(action->irq);
	}
	wake_up_process(action->thread);
}

void lx_irq_interrupt(unsigned int irq)
{
	struct lx_irq_line *line = &lx_irq_lines[irq];

	if (line->probing) {	/* autoprobe: note it, keep it quiet */
		line->fired = true;
		lx_host_irq_mask(irq);
		return;
	}
	line->count++;
	lx_irq_note(irq, lx_irq_run_actions(irq));
	lx_softirq_irq_exit();
}

bool lx_irq_run_actions(unsigned int irq)
{
	struct lx_irq_line *line = &lx_irq_lines[irq];
	struct irqaction *action;
	bool handled = false;

	__preempt_count_add(HARDIRQ_OFFSET);
	for (action = line->actions; action; action = action->next) {
		irqreturn_t ret = action->handler(irq, action->dev_id);

		if (ret & IRQ_WAKE_THREAD)
			wake_thread(line, action);
		if (ret == IRQ_NONE)
			continue;
		line->handled++;
		handled = true;
	}
	__preempt_count_sub(HARDIRQ_OFFSET);
	return handled;
}

static irqreturn_t primary_wakes_thread(int irq, void *dev_id)
{
	return IRQ_WAKE_THREAD;
}

static void irq_thread_main(void *arg)
{
	struct irqaction *action = arg;
	struct lx_irq_line *line = &lx_irq_lines[action->irq];
	unsigned long flags;

	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!test_and_clear_bit(LX_IRQ_RUN_THREAD,
					&action->thread_flags)) {
			if (test_bit(LX_IRQ_STOP_THREAD, &action->thread_flags))
				break;
			schedule();
			continue;
		}
		__set_current_state(TASK_RUNNING);
		action->thread_fn(action->irq, action->dev_id);
		local_irq_save(flags);
		line->threads_busy--;
		if (action->flags & IRQF_ONESHOT) {
			line->oneshot_busy--;
			lx_irq_update_mask(action->irq);
		}
		local_irq_restore(flags);
		wake_up_all(&threads_idle);
	}
	__set_current_state(TASK_RUNNING);
	action->thread = NULL;
	wake_up_all(&threads_idle);
}

/* Refuse @flags on @irq if its chain cannot take them; 0 or -EBUSY. */
static int check_sharing(unsigned int irq, unsigned long flags,
			 const char *devname)
{
	struct irqaction *old = lx_irq_lines[irq].actions;

	if (!old || (old->flags & flags & IRQF_SHARED))
		return 0;
	pr_err("genirq: Flags mismatch irq %u. %08lx (%s) vs. %08x (%s)\n",
	       irq, flags, devname, old->flags, old->name);
	return -EBUSY;
}

int request_threaded_irq(unsigned int irq, irq_handler_t handler,
			 irq_handler_t thread_fn, unsigned long irqflags,
			 const char *devname, void *dev_id)
{
	struct lx_irq_line *line;
	struct irqaction *action, **pp;
	unsigned long flags;
	char comm[TASK_COMM_LEN];
	int err;

	if (irq >= LX_IRQ_LINES || irq >= lx_host_irq_lines() ||
	    (!handler && !thread_fn) || ((irqflags & IRQF_SHARED) && !dev_id))
		return -EINVAL;
	line = &lx_irq_lines[irq];
	if (line->probing)
		return -EBUSY;
	err = check_sharing(irq, irqflags, devname);
	if (err)
		return err;
	action = kzalloc(sizeof(*action), GFP_KERNEL);
	if (!action)
		return -ENOMEM;
	action->handler = handler ? handler : primary_wakes_thread;
	action->thread_fn = thread_fn;
	action->flags = irqflags;
	action->name = devname;
	action->dev_id = dev_id;
	action->irq = irq;
	if (!line->attached) {
		if (lx_host_irq_attach(irq, lx_irq_interrupt) != 0) {
			pr_err("linux-emu: irq %u for %s: the line is not free\n",
			       irq, devname);
			err = -EBUSY;
			goto err_free;
		}
		line->attached = true;
		line->depth = (irqflags & IRQF_NO_AUTOEN) ? 1 : 0;
	}
	if (thread_fn) {
		snprintf(comm, sizeof(comm), "irq/%u-%s", irq, devname);
		action->thread = lx_thread_start(comm, irq_thread_main, action);
		if (!action->thread) {
			err = -ENOMEM;
			goto err_detach;
		}
	}
	local_irq_save(flags);
	if (!line->actions)
		lx_irq_spurious_reset(irq);
	for (pp = &line->actions; *pp; pp = &(*pp)->next)
		;
	*pp = action;
	lx_irq_update_mask(irq);
	local_irq_restore(flags);
	return 0;

err_detach:
	if (!line->actions) {
		line->attached = false;
		lx_host_irq_detach(irq);
	}
err_free:
	kfree(action);
	return err;
}

int request_any_context_irq(unsigned int irq, irq_handler_t handler,
			    unsigned long flags, const char *name,
			    void *dev_id)
{
	int err = request_threaded_irq(irq, handler, NULL, flags, name,
				       dev_id);

	return err ? err : IRQC_IS_HARDIRQ;
}

void synchronize_irq(unsigned int irq)
{
	/* One CPU: a hard handler is never running while a thread is. */
	if (irq < LX_IRQ_LINES)
		wait_event(threads_idle, lx_irq_lines[irq].threads_busy == 0);
}

const void *free_irq(unsigned int irq, void *dev_id)
{
	struct lx_irq_line *line;
	struct irqaction *action, **pp;
	unsigned long flags;
	const char *devname;

	if (irq >= LX_IRQ_LINES)
		return NULL;
	line = &lx_irq_lines[irq];
	local_irq_save(flags);
	for (pp = &line->actions; *pp; pp = &(*pp)->next)
		if ((*pp)->dev_id == dev_id)
			break;
	action = *pp;
	if (!action) {
		local_irq_restore(flags);
		pr_warn("Trying to free already-free IRQ %u\n", irq);
		return NULL;
	}
	*pp = action->next;
	lx_irq_update_mask(irq);
	local_irq_restore(flags);
	synchronize_irq(irq);
	if (action->thread) {
		set_bit(LX_IRQ_STOP_THREAD, &action->thread_flags);
		wake_up_process(action->thread);
		wait_event(threads_idle, !READ_ONCE(action->thread));
	}
	if (!line->actions) {
		line->attached = false;
		line->depth = 0;
		lx_host_irq_detach(irq);
	}
	devname = action->name;
	kfree(action);
	return devname;
}

void disable_irq_nosync(unsigned int irq)
{
	unsigned long flags;

	if (irq >= LX_IRQ_LINES)
		return;
	local_irq_save(flags);
	if (lx_irq_lines[irq].depth++ == 0)
		lx_irq_update_mask(irq);
	local_irq_restore(flags);
}

void disable_irq(unsigned int irq)
{
	disable_irq_nosync(irq);
	synchronize_irq(irq);
}

void enable_irq(unsigned int irq)
{
	struct lx_irq_line *line;
	unsigned long flags;

	if (irq >= LX_IRQ_LINES)
		return;
	line = &lx_irq_lines[irq];
	local_irq_save(flags);
	if (line->depth == 0)
		pr_warn("Unbalanced enable for IRQ %u\n", irq);
	else if (--line->depth == 0)
		lx_irq_update_mask(irq);
	local_irq_restore(flags);
}
