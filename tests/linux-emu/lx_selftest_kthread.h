/* SPDX-License-Identifier: GPL-2.0-only */
/* The linux-irq suite's checks of kernel threads, run in the Linux world (lx_selftest_kthread.c). */
#ifndef TESTS_LINUX_EMU_LX_SELFTEST_KTHREAD_H
#define TESTS_LINUX_EMU_LX_SELFTEST_KTHREAD_H

/* 0, or the line of the first check that failed; every thread it
 * started has ended. */
int lx_emul_selftest_kthread(void);

#endif
