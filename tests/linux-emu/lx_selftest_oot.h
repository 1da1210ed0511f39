/* SPDX-License-Identifier: GPL-2.0-only */
/* Checks of the linux-oot suite that run in the Linux world (lx_selftest_oot.c). */
/*
 * C types only: tests/kernel/linux_oot_test.c includes this too.  The
 * suite's QEMU has one edu device (1234:11e8), driven by the out-of-tree
 * driver tests/drivers/edu.
 */
#ifndef TESTS_LINUX_EMU_LX_SELFTEST_OOT_H
#define TESTS_LINUX_EMU_LX_SELFTEST_OOT_H

/*
 * lx_emul_selftest_oot_edu_bound - 1 if the edu device is bound to the
 * driver named "edu", 0 if it is not, -1 if there is no edu device.
 */
int lx_emul_selftest_oot_edu_bound(void);

/*
 * lx_emul_selftest_oot_unregister - unregister the driver bound to the
 * edu device (its remove() runs): 0, or the line of the failed check
 * (no device, no driver bound, still bound afterwards).
 */
int lx_emul_selftest_oot_unregister(void);

#endif
