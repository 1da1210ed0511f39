/* SPDX-License-Identifier: GPL-2.0-only */
/* Check of the linux-irq suite: a line whose interrupts nobody cares about is disabled and polled (linux-emu/lx_irq_spurious.c). */
/*
 * The interrupts are the host's calls of lx_irq_interrupt, made here
 * with interrupts off on line 5, which nothing on QEMU's pc machine
 * raises, so the controller's mask does not matter.
 */
#include <linux/delay.h>
#include <linux/interrupt.h>

#include "../../linux-emu/lx_irq.h"
#include "lx_selftest_check.h"
#include "lx_selftest_spurious.h"

#define LINE	5

static unsigned int calls;
static irqreturn_t answer;

static irqreturn_t counting_handler(int irq, void *dev_id)
{
	calls++;
	return answer;
}

/* @n interrupts of LINE, as the host gives them. */
static void interrupts(unsigned int n)
{
	unsigned long flags;

	local_irq_save(flags);
	for (unsigned int i = 0; i < n; i++)
		lx_irq_interrupt(LINE);
	local_irq_restore(flags);
}

static int irq_spurious(void)
{
	struct lx_irq_line *line = &lx_irq_lines[LINE];
	unsigned int before;

	/* handled interrupts: never disabled */
	answer = IRQ_HANDLED;
	CHECK(request_irq(LINE, counting_handler, IRQF_SHARED, "spurious-test",
			  &calls) == 0);
	interrupts(100000);
	CHECK(calls == 100000 && !line->spurious_disabled);

	/* nobody's: disabled at the 100,000th, then polled */
	answer = IRQ_NONE;
	interrupts(99999);
	CHECK(!line->spurious_disabled);
	interrupts(1);
	CHECK(line->spurious_disabled);
	before = calls;
	msleep(350);
	CHECK(calls >= before + 2);

	/* a new first action: a line like any other again */
	free_irq(LINE, &calls);
	CHECK(request_irq(LINE, counting_handler, IRQF_SHARED, "spurious-test",
			  &calls) == 0);
	CHECK(!line->spurious_disabled);
	free_irq(LINE, &calls);
	return 0;
}
IN_WORLD(irq_spurious, irq_spurious)
