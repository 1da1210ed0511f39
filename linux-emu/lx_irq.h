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
};

extern struct lx_irq_line lx_irq_lines[LX_IRQ_LINES];

/* The host's handler of every line the Linux world holds. */
void lx_irq_interrupt(unsigned int irq);

/* Mask or unmask @irq at the controller as its state says (irqs off). */
void lx_irq_update_mask(unsigned int irq);

#endif
