/* SPDX-License-Identifier: GPL-2.0-only */
/* The platform-bus check of the linux-pci suite, run in the Linux world (lx_selftest_platform.c). */
#ifndef TESTS_LINUX_EMU_LX_SELFTEST_PLATFORM_H
#define TESTS_LINUX_EMU_LX_SELFTEST_PLATFORM_H

/*
 * Adds an ISA platform device at ports 0x280-0x29f (no card needed: the
 * test driver does not touch them), binds, refuses and unregisters test
 * drivers; registers a device of the test's own (platform_device_register)
 * and gives it back through its release.  0 or the line of the first failed check; leaves no device.
 */
int lx_emul_selftest_platform_bus(void);

#endif
