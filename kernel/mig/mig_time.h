/* SPDX-License-Identifier: GPL-2.0-only */
/* Clock ticks as the time_value_t of task_info and thread_info. */
#ifndef MIG_MIG_TIME_H
#define MIG_MIG_TIME_H

#include <stdint.h>

#include <mach/time_value.h>

#include "kern/clock.h"

/* @ticks (clock_ticks() units) as seconds and microseconds since boot. */
static inline void mig_ticks_to_time(uint64_t ticks, time_value_t *tv)
{
	uint64_t us = ticks * (1000000 / HZ);

	tv->seconds = (long_integer_t)(us / 1000000);
	tv->microseconds = (integer_t)(us % 1000000);
}

#endif
