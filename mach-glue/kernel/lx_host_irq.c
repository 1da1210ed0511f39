/* SPDX-License-Identifier: GPL-2.0-only */
/* Interrupt lines for the Linux world inside the Graft kernel: attach, detach, mask, unmask. */
/*
 * The Linux world takes a line whole: lx_host_irq_attach() refuses one
 * that any kernel handler uses (the clock on 0, the console's serial
 * line, a user driver's registration through the "irq" device) and the
 * cascade input 2.  Linux's own IRQF_SHARED chains live above this, in
 * linux-emu.  Handlers run from intr_dispatch with interrupts off.
 */
#include <stddef.h>

#include "kern/intr.h"
#include "kern/panic.h"
#include "linux-emu/include/lx_host.h"
#include "x86_64/cpu.h"
#include "x86_64/pic.h"

static void (*attached[INTR_LINES])(unsigned int line);

static void lx_line_interrupt(unsigned int line, void *arg)
{
	void (*fn)(unsigned int line) = arg;

	fn(line);
}

static void check_attached(unsigned int line, const char *what)
{
	if (line >= INTR_LINES || attached[line] == NULL)
		panic("%s: line %u is not the Linux world's", what, line);
}

unsigned int lx_host_irq_lines(void)
{
	return INTR_LINES;
}

int lx_host_irq_attach(unsigned int line, void (*fn)(unsigned int line))
{
	uint64_t flags;
	int rc = -1;

	if (line >= INTR_LINES || line == PIC_CASCADE_LINE || fn == NULL)
		return -1;
	flags = cpu_intr_save();
	if (attached[line] == NULL && intr_handler_count(line) == 0 &&
	    intr_register(line, lx_line_interrupt, (void *)fn) ==
	    KERN_SUCCESS) {
		intr_mask(line);
		attached[line] = fn;
		rc = 0;
	}
	cpu_intr_restore(flags);
	return rc;
}

void lx_host_irq_detach(unsigned int line)
{
	uint64_t flags = cpu_intr_save();

	check_attached(line, "lx_host_irq_detach");
	intr_mask(line);
	intr_unregister(line, lx_line_interrupt, (void *)attached[line]);
	attached[line] = NULL;
	cpu_intr_restore(flags);
}

void lx_host_irq_mask(unsigned int line)
{
	check_attached(line, "lx_host_irq_mask");
	intr_mask(line);
}

void lx_host_irq_unmask(unsigned int line)
{
	check_attached(line, "lx_host_irq_unmask");
	intr_unmask(line);
}
