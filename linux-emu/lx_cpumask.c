/* SPDX-License-Identifier: GPL-2.0-only */
/* The CPU masks Linux code reads: __cpu_possible_mask, __cpu_online_mask. */
/*
 * The Linux world is one CPU (NR_CPUS is 1): CPU 0 is possible and
 * online from the start and never goes away (lx_cpuhp.c).  Present and
 * active masks are not defined: no code linked so far reads them.
 */
#include <linux/cpumask.h>

struct cpumask __cpu_possible_mask = { CPU_BITS_CPU0 };
struct cpumask __cpu_online_mask = { CPU_BITS_CPU0 };
