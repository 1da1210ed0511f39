/* SPDX-License-Identifier: GPL-2.0-only */
/* Spurious interrupts, as Linux's kernel/irq/spurious.c: a line nobody cares about is disabled and its handlers polled. */
/*
 * A level-triggered line held asserted by a device whose driver answers
 * IRQ_NONE would interrupt for ever and leave the machine nothing else
 * to run.  As Linux's note_interrupt: each round of 100,000 interrupts
 * of a line counts those no handler answered (a run of them: one more
 * than 100 ms after the last starts the count again at 1); more than
 * 99,900 and the line is reported ("nobody cared"), masked for good
 * (until its first action is requested again) and its handlers are run
 * from a timer every 100 ms instead, with interrupts off, for a shared
 * line only, as Linux's poll_spurious_irqs (the timer stops when no
 * such line has handlers left).  Unlike Linux's poller, a
 * line its driver disabled (disable_irq) is skipped: the driver may be
 * polling its device itself then, and nothing here would keep the two
 * apart.
 */
#include <linux/interrupt.h>
#include <linux/jiffies.h>
#include <linux/printk.h>
#include <linux/timer.h>

#include "lx_irq.h"

#define POLL_SPURIOUS_IRQ_INTERVAL	(HZ / 10)

static void poll_spurious(struct timer_list *unused);
static DEFINE_TIMER(poll_timer, poll_spurious);

static void poll_spurious(struct timer_list *unused)
{
	bool any = false;

	for (unsigned int irq = 0; irq < LX_IRQ_LINES; irq++) {
		struct lx_irq_line *line = &lx_irq_lines[irq];
		unsigned long flags;

		if (!line->spurious_disabled || !line->actions)
			continue;
		any = true;
		local_irq_save(flags);
		if (line->actions && (line->actions->flags & IRQF_SHARED) &&
		    line->depth == 0)
			lx_irq_run_actions(irq);
		local_irq_restore(flags);
	}
	if (any)
		mod_timer(&poll_timer, jiffies + POLL_SPURIOUS_IRQ_INTERVAL);
}

static void report(unsigned int irq)
{
	struct irqaction *action;

	pr_err("irq %u: nobody cared\n", irq);
	pr_err("handlers:\n");
	for (action = lx_irq_lines[irq].actions; action; action = action->next)
		pr_err("[<%px>] %s\n", action->handler, action->name);
	pr_emerg("Disabling IRQ #%u\n", irq);
}

void lx_irq_note(unsigned int irq, bool handled)
{
	struct lx_irq_line *line = &lx_irq_lines[irq];

	if (!handled) {
		if (time_after(jiffies, line->last_unhandled + HZ / 10))
			line->irqs_unhandled = 1;
		else
			line->irqs_unhandled++;
		line->last_unhandled = jiffies;
	}
	if (++line->irq_count < 100000)
		return;
	line->irq_count = 0;
	if (line->irqs_unhandled > 99900) {
		report(irq);
		line->spurious_disabled = true;
		lx_irq_update_mask(irq);
		mod_timer(&poll_timer, jiffies + POLL_SPURIOUS_IRQ_INTERVAL);
	}
	line->irqs_unhandled = 0;
}

void lx_irq_spurious_reset(unsigned int irq)
{
	struct lx_irq_line *line = &lx_irq_lines[irq];

	line->irq_count = 0;
	line->irqs_unhandled = 0;
	line->spurious_disabled = false;
}
