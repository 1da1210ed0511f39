/* SPDX-License-Identifier: GPL-2.0-only */
/* The periodic tick, time since boot, and timeouts (callouts). */
#ifndef KERN_CLOCK_H
#define KERN_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

#define HZ	100	/* ticks per second (GNU Mach's hz, Linux's HZ=100) */

/*
 * A timeout calls fn(arg) from the tick interrupt, with interrupts off,
 * once clock_ticks() reaches its deadline; fn must not block and may set
 * timeouts (itself included).  The caller owns the struct; it must start
 * zeroed (static, or "= { 0 }") and stay alive until the timeout fires or
 * timeout_cancel() returns.  The fields are the clock's while pending.
 *
 * Locking: one CPU; every function below may be called with interrupts on
 * or off, and from a timeout or the tick hook.
 */
struct timeout {
	struct timeout *next;
	uint64_t deadline;		/* in ticks */
	void (*fn)(void *arg);
	void *arg;
	bool pending;
};

/* clock_init - program the tick at HZ on PIT channel 0, IRQ 0, and unmask
 * it.  Called once at boot after intr_init() and tsc_calibrate(). */
void clock_init(void);

/* Ticks since clock_init() (0 before). */
uint64_t clock_ticks(void);

/* Nanoseconds since clock_init() (0 before), from the calibrated TSC;
 * finer than the tick and never going back. */
uint64_t clock_ns(void);

/*
 * timeout_set - arm @t to call @fn(@arg) after @ticks ticks (0 counts as
 * 1, the next tick), i.e. on the tick that makes clock_ticks() equal to its
 * value now plus that many.  Timeouts due on the same tick run in
 * deadline order, equal deadlines in the order they were set.  Re-arming a
 * pending timeout moves it.
 */
void timeout_set(struct timeout *t, uint64_t ticks, void (*fn)(void *arg),
		 void *arg);

/* timeout_cancel - disarm @t; returns true if it was pending (so fn will
 * not run), false if it had already fired or was never armed. */
bool timeout_cancel(struct timeout *t);

/*
 * clock_set_tick_hook - have @fn called on every tick, after the expired
 * timeouts ran, with interrupts off (the scheduler uses it to preempt).
 * One hook; a new one replaces the old, NULL removes it.  The controller
 * has already been acknowledged, so the hook may switch threads.
 */
void clock_set_tick_hook(void (*fn)(void));

#endif
