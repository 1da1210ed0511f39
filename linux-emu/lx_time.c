/* SPDX-License-Identifier: GPL-2.0-only */
/* ktime_get, ktime_get_with_offset, ktime_get_real_ts64, ktime_get_real_seconds: the clocks drivers read, at jiffy resolution. */
/*
 * Graft has no wall clock and the Linux world no clocksource: every
 * clock is the time since the world started, counted in jiffies.  So
 * real time, boot time and TAI are the same, and start at 0 (a driver
 * stamping its hardware clock with the real time, as e1000e's PTP
 * clock, gets a time near the epoch).
 */
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/timekeeping.h>

/* ktime_get_with_offset - nanoseconds since the world started; every
 * @offs (TK_OFFS_REAL, _BOOT, _TAI) is 0. */
ktime_t ktime_get_with_offset(enum tk_offsets offs)
{
	return ns_to_ktime(jiffies_to_nsecs(get_jiffies_64() - INITIAL_JIFFIES));
}

/* ktime_get - the monotonic clock: nanoseconds since the world started. */
ktime_t ktime_get(void)
{
	return ktime_get_with_offset(TK_OFFS_BOOT);
}

/* ktime_get_real_ts64 - the real time (since the world started) in @ts. */
void ktime_get_real_ts64(struct timespec64 *ts)
{
	*ts = ktime_to_timespec64(ktime_get_with_offset(TK_OFFS_REAL));
}

/* ktime_get_real_seconds - the real time's seconds. */
time64_t ktime_get_real_seconds(void)
{
	return ktime_divns(ktime_get_with_offset(TK_OFFS_REAL), NSEC_PER_SEC);
}

/* ktime_get_mono_fast_ns - the monotonic clock in nanoseconds, from any
 * context (Linux's NMI-safe reading; here the same as ktime_get). */
u64 ktime_get_mono_fast_ns(void)
{
	return ktime_to_ns(ktime_get());
}
