/* SPDX-License-Identifier: GPL-2.0-only */
/* The linux-irq suite's checks of buses, run in the Linux world (lx_selftest_bus.c). */
#ifndef TESTS_LINUX_EMU_LX_SELFTEST_BUS_H
#define TESTS_LINUX_EMU_LX_SELFTEST_BUS_H

/* Each: 0, or the line of the first check that failed; leaves no bus,
 * device or driver behind. */
int lx_emul_selftest_bus_walk(void);		/* devices, drivers, order */
int lx_emul_selftest_bus_bind(void);		/* bind, release */
int lx_emul_selftest_bus_notify(void);		/* notifiers, attach */
int lx_emul_selftest_auxiliary_bus(void);	/* bind by name, unbind */

#endif
