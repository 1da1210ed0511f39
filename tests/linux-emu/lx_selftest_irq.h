/* SPDX-License-Identifier: GPL-2.0-only */
/* Checks of the linux-irq suite that run in the Linux world (lx_selftest_irq.c). */
/*
 * Each enters the Linux world itself and returns 0, or the line of the
 * first failed check (C types only: tests/kernel/ includes this too).
 * The interrupt source is the MC146818 RTC's periodic interrupt on
 * line 8 at 1024 Hz.
 */
#ifndef TESTS_LINUX_EMU_LX_SELFTEST_IRQ_H
#define TESTS_LINUX_EMU_LX_SELFTEST_IRQ_H

int lx_emul_selftest_irq_request(void);
int lx_emul_selftest_irq_disable_nests(void);
int lx_emul_selftest_irq_refused(void);
int lx_emul_selftest_irq_free_twice(void);
int lx_emul_selftest_irq_shared(void);
int lx_emul_selftest_irq_threaded(void);
int lx_emul_selftest_irq_autoprobe(void);
int lx_emul_selftest_irq_autoprobe_silent(void);
int lx_emul_selftest_irq_autoprobe_several(void);
int lx_emul_selftest_bottom_halves(void);
int lx_emul_selftest_workqueues(void);
int lx_emul_selftest_workqueue_cancel(void);
int lx_emul_selftest_completions(void);
int lx_emul_selftest_wait_event(void);
int lx_emul_selftest_mutex(void);
int lx_emul_selftest_current(void);

/* Enters the world from the calling host thread, sleeps in it and puts
 * the task it had in *@task; 0 or the failed line. */
int lx_emul_selftest_guest(unsigned long *task);

/* Instructions-clock TSC ticks one outermost lx_world_enter() plus
 * lx_world_leave() takes, averaged over @rounds. */
unsigned long lx_emul_selftest_world_cost(unsigned int rounds);

#endif
