/* SPDX-License-Identifier: GPL-2.0-only */
/* Checks of the linux-emu suite that run in the Linux world (lx_selftest.c). */
/*
 * Each runs inside the Linux world (compiled with Linux's headers and
 * flags) and returns 0, or the line number of the first failed check; the
 * names start with lx_emul_ so that tools/linux_link.py keeps them global.
 * C types only: tests/kernel/ includes this too.
 */
#ifndef TESTS_LINUX_EMU_LX_SELFTEST_H
#define TESTS_LINUX_EMU_LX_SELFTEST_H

int lx_emul_selftest_crc32(void);
int lx_emul_selftest_string(void);
int lx_emul_selftest_format(char *out, unsigned long size);
int lx_emul_selftest_kmalloc_zones(void);
int lx_emul_selftest_timers(void);
int lx_emul_selftest_resources(void);

#endif
