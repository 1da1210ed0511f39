/* SPDX-License-Identifier: GPL-2.0-only */
/* autoIRQ: probe_irq_on and probe_irq_off (paper §3.6) over the host's free lines. */
/*
 * probe_irq_on takes from the host every line that is free (no action
 * here, no user in the host), unmasks it and waits 100 ms: a line that
 * interrupts meanwhile is noise and is given back.  The driver then makes
 * its device interrupt; the first interrupt of a probed line marks it
 * fired and masks it (lx_irq_interrupt).  probe_irq_off gives every
 * probed line back and names the one that fired: 0 if none, minus the
 * first if several did.  As Linux's kernel/irq/autoprobe.c promises.
 */
#include <linux/delay.h>
#include <linux/interrupt.h>
#include <linux/irqflags.h>
#include <linux/mutex.h>

#include <lx_host.h>

#include "lx_irq.h"

static DEFINE_MUTEX(probing);	/* one probe at a time */

static void give_back(unsigned int irq)
{
	struct lx_irq_line *line = &lx_irq_lines[irq];

	line->probing = false;
	line->fired = false;
	line->attached = false;
	lx_host_irq_detach(irq);
}

unsigned long probe_irq_on(void)
{
	unsigned int irq, lines = min_t(unsigned int, LX_IRQ_LINES,
					lx_host_irq_lines());
	unsigned long flags, mask = 0;

	mutex_lock(&probing);
	for (irq = 0; irq < lines; irq++) {
		struct lx_irq_line *line = &lx_irq_lines[irq];

		if (line->attached ||
		    lx_host_irq_attach(irq, lx_irq_interrupt) != 0)
			continue;
		local_irq_save(flags);
		line->attached = true;
		line->probing = true;
		line->fired = false;
		lx_host_irq_unmask(irq);
		local_irq_restore(flags);
	}
	msleep(100);	/* lines that interrupt now are noise */
	for (irq = 0; irq < lines; irq++) {
		struct lx_irq_line *line = &lx_irq_lines[irq];

		if (!line->probing)
			continue;
		if (line->fired)
			give_back(irq);
		else
			mask |= 1ul << irq;
	}
	return mask;
}

int probe_irq_off(unsigned long val)
{
	unsigned int irq;
	int found = 0, nr = 0;

	for (irq = 0; irq < LX_IRQ_LINES; irq++) {
		struct lx_irq_line *line = &lx_irq_lines[irq];

		if (!line->probing)
			continue;
		if (line->fired && nr++ == 0)
			found = irq;
		give_back(irq);
	}
	mutex_unlock(&probing);
	return nr > 1 ? -found : found;
}

unsigned int probe_irq_mask(unsigned long val)
{
	unsigned int irq, mask = 0;

	for (irq = 0; irq < LX_IRQ_LINES; irq++) {
		struct lx_irq_line *line = &lx_irq_lines[irq];

		if (!line->probing)
			continue;
		if (line->fired)
			mask |= 1u << irq;
		give_back(irq);
	}
	mutex_unlock(&probing);
	return mask & val;
}
