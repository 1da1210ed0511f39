/* SPDX-License-Identifier: GPL-2.0-only */
/* The linux-irq suite's checks of linux-emu's support interfaces, run in the Linux world (lx_selftest_support.c). */
#ifndef TESTS_LINUX_EMU_LX_SELFTEST_SUPPORT_H
#define TESTS_LINUX_EMU_LX_SELFTEST_SUPPORT_H

/* Each: 0, or the line of the first check that failed. */
int lx_emul_selftest_rwsem(void);		/* readers, writers, order */
int lx_emul_selftest_semaphore(void);		/* count, timeout, wake */
int lx_emul_selftest_tasklet(void);		/* schedule, disable, kill */
int lx_emul_selftest_call_rcu(void);		/* after the world is let go */
int lx_emul_selftest_notifier_chains(void);	/* register, call, remove */
int lx_emul_selftest_chrdev(void);		/* regions, majors, misc */
int lx_emul_selftest_cdev(void);		/* cdevs, device_create */
int lx_emul_selftest_device_children(void);	/* listed, found, gone */

#endif
