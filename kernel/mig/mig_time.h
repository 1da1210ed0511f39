/* SPDX-License-Identifier: GPL-2.0-only */
/* Times since boot as time_value_t: task_info, thread_info, host_get_time. */
#ifndef MIG_MIG_TIME_H
#define MIG_MIG_TIME_H

#include <stdint.h>

#include <mach/time_value.h>

#include "kern/clock.h"

/* @us microseconds as seconds and microseconds below one million. */
static inline void mig_us_to_time(uint64_t us, time_value_t *tv)
{
	tv->seconds = (long_integer_t)(us / 1000000);
	tv->microseconds = (integer_t)(us % 1000000);
}

/* @ticks (clock_ticks() units) as seconds and microseconds since boot. */
static inline void mig_ticks_to_time(uint64_t ticks, time_value_t *tv)
{
	mig_us_to_time(ticks * (1000000 / HZ), tv);
}

#endif
