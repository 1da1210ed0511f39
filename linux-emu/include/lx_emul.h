/* SPDX-License-Identifier: GPL-2.0-only */
/* What the host calls in linux-emu: the only global symbols of linux.o. */
/*
 * Every function here is implemented on the Linux side and callable from
 * Graft code (C types only).  The build makes every other symbol of the
 * Linux world local (tools/linux_link.py), so Linux's strlen and Graft's
 * never meet.
 */
#ifndef LX_EMUL_H
#define LX_EMUL_H

/* The preempt count Linux code sees (0 outside interrupts). */
int lx_emul_preempt_count(void);

/*
 * Calls into Linux library code and emulation for the linux-emu suite:
 * each runs one check inside the Linux world and returns 0, or a line
 * number of the failed check.
 */
int lx_emul_selftest_crc32(void);
int lx_emul_selftest_format(char *out, unsigned long size);
int lx_emul_selftest_kmalloc_zones(void);

#endif
