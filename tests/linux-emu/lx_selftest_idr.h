/* SPDX-License-Identifier: GPL-2.0-only */
/* The linux-irq suite's check of IDRs, run in the Linux world (lx_selftest_idr.c). */
#ifndef TESTS_LINUX_EMU_LX_SELFTEST_IDR_H
#define TESTS_LINUX_EMU_LX_SELFTEST_IDR_H

/* 0, or the line of the first check that failed; frees every id. */
int lx_emul_selftest_idr(void);

#endif
