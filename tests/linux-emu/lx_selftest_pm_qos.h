/* SPDX-License-Identifier: GPL-2.0-only */
/* The linux-irq suite's checks of device PM QoS flags, run in the Linux world (lx_selftest_pm_qos.c). */
#ifndef TESTS_LINUX_EMU_LX_SELFTEST_PM_QOS_H
#define TESTS_LINUX_EMU_LX_SELFTEST_PM_QOS_H

/* 0, or the line of the first check that failed; leaves no device or
 * request behind. */
int lx_emul_selftest_pm_qos_flags(void);

#endif
