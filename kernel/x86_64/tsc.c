/* SPDX-License-Identifier: GPL-2.0-only */
/* TSC frequency, measured against PIT channel 2; TSC ticks to nanoseconds. */
/*
 * The PIT's input clock is a fixed 1.193182 MHz on every PC and in every
 * emulator, so counting TSC ticks while channel 2 runs down a known count
 * gives the TSC's rate.  Three runs of about 10 ms each, the median kept:
 * an SMI on real hardware, or the host descheduling an emulator between
 * the start of the count and the first TSC read, spoils one run, not the
 * result.  The rate is assumed constant (invariant TSC; TCG's TSC is).
 */
#include <stdint.h>

#include "kern/panic.h"
#include "x86_64/cpu.h"
#include "x86_64/pit.h"
#include "x86_64/tsc.h"

#define NSEC_PER_SEC	1000000000ull
#define CAL_COUNT	11932		/* PIT input cycles: 10.000 ms */
#define CAL_RUNS	3
#define CAL_POLL_LIMIT	50000000ul	/* far beyond 10 ms of port reads */

static uint64_t rate;

/* TSC ticks while PIT channel 2 counts CAL_COUNT input cycles. */
static uint64_t tsc_measure(void)
{
	unsigned long polls = 0;
	uint64_t start, end;

	pit_ch2_oneshot(CAL_COUNT);
	start = rdtsc_fenced();
	while (!pit_ch2_expired()) {
		if (++polls == CAL_POLL_LIMIT)
			panic("TSC calibration: PIT channel 2 never ran out");
	}
	end = rdtsc_fenced();
	pit_ch2_stop();
	return end - start;
}

void tsc_calibrate(void)
{
	uint64_t d[CAL_RUNS], x, flags;
	int i, j;

	flags = cpu_intr_save();
	for (i = 0; i < CAL_RUNS; i++)
		d[i] = tsc_measure();
	cpu_intr_restore(flags);

	for (i = 1; i < CAL_RUNS; i++) {
		x = d[i];
		for (j = i; j > 0 && d[j - 1] > x; j--)
			d[j] = d[j - 1];
		d[j] = x;
	}
	rate = (d[CAL_RUNS / 2] * PIT_INPUT_HZ + CAL_COUNT / 2) / CAL_COUNT;
	if (rate == 0)
		panic("TSC calibration: the TSC did not advance");
}

uint64_t tsc_hz(void)
{
	return rate;
}

uint64_t tsc_to_ns(uint64_t ticks)
{
	unsigned __int128 ns;

	if (rate == 0)
		return 0;
	ns = (unsigned __int128)ticks * NSEC_PER_SEC / rate;
	return ns > UINT64_MAX ? UINT64_MAX : (uint64_t)ns;
}
