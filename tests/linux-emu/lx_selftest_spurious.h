/* SPDX-License-Identifier: GPL-2.0-only */
/* Check of the linux-irq suite on spurious interrupts (lx_selftest_spurious.c). */
#ifndef TESTS_LINUX_EMU_LX_SELFTEST_SPURIOUS_H
#define TESTS_LINUX_EMU_LX_SELFTEST_SPURIOUS_H

/* A shared handler answering IRQ_HANDLED 100,000 times keeps its line;
 * answering IRQ_NONE, the line is disabled at the 100,000th interrupt
 * of the round and its handler polled (twice at least in 350 ms); a
 * line freed and requested again is no longer disabled.  0, or the
 * line of the first failed check.  C types only. */
int lx_emul_selftest_irq_spurious(void);

#endif
