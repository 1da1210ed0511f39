/* SPDX-License-Identifier: GPL-2.0-only */
/* The linux-irq suite's checks of hrtimers, run in the Linux world (lx_selftest_hrtimer.c). */
#ifndef TESTS_LINUX_EMU_LX_SELFTEST_HRTIMER_H
#define TESTS_LINUX_EMU_LX_SELFTEST_HRTIMER_H

/* 0, or the line of the first check that failed; no timer it started
 * is left queued. */
int lx_emul_selftest_hrtimer(void);

#endif
