/* SPDX-License-Identifier: GPL-2.0-only */
/* The time-stamp counter, calibrated against the PIT. */
#ifndef X86_64_TSC_H
#define X86_64_TSC_H

#include <stdint.h>

/* tsc_calibrate - measure the TSC frequency against PIT channel 2 (about
 * 10 ms, polled, interrupts irrelevant).  Called once at boot. */
void tsc_calibrate(void);

/* TSC ticks per second, as calibrated (0 before tsc_calibrate()). */
uint64_t tsc_hz(void);

/* @ticks TSC ticks in nanoseconds (no overflow for any 64-bit @ticks). */
uint64_t tsc_to_ns(uint64_t ticks);

#endif
