/* SPDX-License-Identifier: GPL-2.0-only */
/* What lx_irq.c and lx_irq_probe.c share: the Linux world's interrupt lines. */
#ifndef LX_IRQ_H
#define LX_IRQ_H

#include <linux/interrupt.h>
#include <linux/types.h>

#define LX_IRQ_LINES	16	/* the PC's legacy lines; the host may have fewer */

struct lx_irq_line {
	struct irqaction *actions;	/* request order */
	unsigned int depth;		/* disable_irq nesting */
	unsigned int threads_busy;	/* threaded handlers woken, not done */
	unsigned int oneshot_busy;	/* of those, IRQF_ONESHOT ones */
	bool attached;			/* taken from the host */
	bool probing;			/* autoprobe holds it */
	bool fired;			/* it interrupted while probing */
	unsigned long count;		/* interrupts handled */
	unsigned long handled;		/* handler answers other than IRQ_NONE */
	/* lx_irq_spurious.c: Linux's note_interrupt bookkeeping */
	unsigned int irq_count;		/* interrupts in this round of 100,000 */
	unsigned int irqs_unhandled;	/* of those, nobody's */
	unsigned long last_unhandled;	/* jiffies of the last such */
	bool spurious_disabled;		/* nobody cared: masked, polled */
};

extern struct lx_irq_line lx_irq_lines[LX_IRQ_LINES];

/* The host's handler of every line the Linux world holds. */
void lx_irq_interrupt(unsigned int irq);

/* Mask or unmask @irq at the controller as its state says (irqs off). */
void lx_irq_update_mask(unsigned int irq);

/* lx_irq_run_actions - @irq's handlers in hard IRQ context (threads
 * woken as asked); whether one answered other than IRQ_NONE.  Irqs
 * off. */
bool lx_irq_run_actions(unsigned int irq);

/* lx_irq_spurious.c */
/* lx_irq_note - @irq interrupted and was @handled or not: as Linux's
 * note_interrupt, a line nobody cared about for 99,900 of 100,000
 * interrupts is disabled and its handlers polled every 100 ms.  Irqs
 * off. */
void lx_irq_note(unsigned int irq, bool handled);
/* lx_irq_spurious_reset - @irq's first action comes: its count starts
 * again and it is no longer taken as spurious.  Irqs off. */
void lx_irq_spurious_reset(unsigned int irq);

#endif
