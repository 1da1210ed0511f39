/* SPDX-License-Identifier: GPL-2.0-only */
/* The time-stamp counter, calibrated against the PIT. */
#ifndef X86_64_TSC_H
#define X86_64_TSC_H

#include <stdint.h>

/*
 * tsc_calibrate - measure the TSC frequency against PIT channel 2 (three
 * runs of about 10 ms, polled, the median kept; interrupts are held off
 * meanwhile and the state they were in is restored).  Called once at boot,
 * before anything else uses channel 2.  Panics if channel 2 never runs out.
 */
void tsc_calibrate(void);

/* TSC ticks per second, as calibrated (0 before tsc_calibrate()). */
uint64_t tsc_hz(void);

/* @ticks TSC ticks in nanoseconds, rounded down: no intermediate overflow
 * for any 64-bit @ticks; a result beyond 64 bits gives UINT64_MAX.  0
 * before tsc_calibrate().  Callable from any context. */
uint64_t tsc_to_ns(uint64_t ticks);

#endif
