/* SPDX-License-Identifier: GPL-2.0-only */
/* The 8254 interval timer: the periodic tick and a polled one-shot. */
#ifndef X86_64_PIT_H
#define X86_64_PIT_H

#include <stdbool.h>
#include <stdint.h>

#define PIT_INPUT_HZ	1193182u	/* the counters' input clock */

/*
 * Channel 0 drives IRQ 0; channel 2's gate and output are wired to port
 * 0x61 (with the speaker), so it can be run and watched without
 * interrupts.  Nothing here takes a lock: call with interrupts off, or
 * from the one place that owns the channel (clock_init, tsc_calibrate).
 */

/*
 * pit_ch0_periodic - make channel 0 raise IRQ 0 @hz times a second (rate
 * generator, mode 2) from now on.  @hz must lie between 19 and
 * PIT_INPUT_HZ / 2 (a divisor from 2 to 65535), else it panics.  The
 * divisor is rounded, so the real rate is PIT_INPUT_HZ / divisor (99.998 Hz
 * for 100).
 */
void pit_ch0_periodic(unsigned int hz);

/*
 * pit_ch2_oneshot - start channel 2 counting down @count input cycles
 * (mode 0, speaker off, gate on); its output goes high when they are over.
 * @count between 1 and 65535.  Counting starts as this returns (within an
 * input cycle).
 */
void pit_ch2_oneshot(uint16_t count);

/* pit_ch2_expired - whether channel 2's output is high, i.e. the count
 * started by pit_ch2_oneshot() has run out. */
bool pit_ch2_expired(void);

/* pit_ch2_stop - close channel 2's gate (and leave the speaker off). */
void pit_ch2_stop(void);

#endif
