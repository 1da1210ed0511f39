/* SPDX-License-Identifier: GPL-2.0-only */
/* The CPU masks Linux code reads: __cpu_possible_mask, __cpu_online_mask, cpu_all_bits, cpu_bit_bitmap. */
/*
 * The Linux world is one CPU (NR_CPUS is 1): CPU 0 is possible and
 * online from the start and never goes away (lx_cpuhp.c).  Present and
 * active masks are not defined: no code linked so far reads them.
 */
#include <linux/cpumask.h>

struct cpumask __cpu_possible_mask = { CPU_BITS_CPU0 };
struct cpumask __cpu_online_mask = { CPU_BITS_CPU0 };

/* cpu_all_mask: every CPU NR_CPUS allows. */
const DECLARE_BITMAP(cpu_all_bits, NR_CPUS) = CPU_BITS_ALL;

/*
 * get_cpu_mask(cpu)'s table, laid out as Linux's: row 1 + b has bit b of
 * its first word set and row 0 is empty (cpu_none_mask); with NR_CPUS 1
 * a row is one word, so every row's mask names at most CPU b.
 */
#define LX_BIT1(b)	[1 + (b)][0] = 1UL << (b)
#define LX_BIT8(b)	LX_BIT1(b), LX_BIT1(b + 1), LX_BIT1(b + 2), \
			LX_BIT1(b + 3), LX_BIT1(b + 4), LX_BIT1(b + 5), \
			LX_BIT1(b + 6), LX_BIT1(b + 7)

const unsigned long cpu_bit_bitmap[BITS_PER_LONG + 1][BITS_TO_LONGS(NR_CPUS)] = {
	LX_BIT8(0), LX_BIT8(8), LX_BIT8(16), LX_BIT8(24),
	LX_BIT8(32), LX_BIT8(40), LX_BIT8(48), LX_BIT8(56),
};
