/* SPDX-License-Identifier: GPL-2.0-only */
/* The tick on IRQ 0, time since boot from the TSC, and the timeout list. */
/*
 * Pending timeouts form one list sorted by deadline (equal deadlines in the
 * order they were set), so a tick looks only at the head.  The list and
 * the tick counter change only with interrupts off: from the tick
 * interrupt, or inside cpu_intr_save/restore.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kern/clock.h"
#include "kern/intr.h"
#include "kern/panic.h"
#include "x86_64/cpu.h"
#include "x86_64/pit.h"
#include "x86_64/tsc.h"

#define CLOCK_LINE	0	/* PIT channel 0 */

static volatile uint64_t tick_count;
static uint64_t tsc_origin;
static struct timeout *timeouts;	/* the pending ones, soonest first */
static void (*tick_hook)(void);

static void clock_tick(unsigned int line, void *arg)
{
	struct timeout *t;
	uint64_t now = tick_count + 1;

	(void)line;
	(void)arg;
	tick_count = now;
	while ((t = timeouts) != NULL && t->deadline <= now) {
		/* Off the list before it runs: fn may set it again. */
		timeouts = t->next;
		t->next = NULL;
		t->pending = false;
		t->fn(t->arg);
	}
	if (tick_hook != NULL)
		tick_hook();
}

void clock_init(void)
{
	kern_return_t kr;

	tsc_origin = rdtsc_fenced();
	pit_ch0_periodic(HZ);
	kr = intr_register(CLOCK_LINE, clock_tick, NULL);
	if (kr != KERN_SUCCESS)
		panic("clock: cannot register the tick handler (%d)", kr);
	intr_unmask(CLOCK_LINE);
}

uint64_t clock_ticks(void)
{
	return tick_count;
}

uint64_t clock_ns(void)
{
	if (tsc_origin == 0)
		return 0;
	return tsc_to_ns(rdtsc_fenced() - tsc_origin);
}

/* Take @t off the list if it is there; interrupts are off. */
static bool timeout_unlink(struct timeout *t)
{
	struct timeout **pp;

	for (pp = &timeouts; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == t) {
			*pp = t->next;
			t->next = NULL;
			t->pending = false;
			return true;
		}
	}
	return false;
}

void timeout_set(struct timeout *t, uint64_t ticks, void (*fn)(void *arg),
		 void *arg)
{
	struct timeout **pp;
	uint64_t flags;

	if (ticks == 0)
		ticks = 1;
	flags = cpu_intr_save();
	if (t->pending)
		timeout_unlink(t);
	t->deadline = tick_count + ticks;
	if (t->deadline < ticks)		/* past 2^64: never */
		t->deadline = UINT64_MAX;
	t->fn = fn;
	t->arg = arg;
	for (pp = &timeouts; *pp != NULL; pp = &(*pp)->next) {
		if ((*pp)->deadline > t->deadline)
			break;
	}
	t->next = *pp;
	*pp = t;
	t->pending = true;
	cpu_intr_restore(flags);
}

bool timeout_cancel(struct timeout *t)
{
	uint64_t flags;
	bool was;

	flags = cpu_intr_save();
	was = t->pending && timeout_unlink(t);
	cpu_intr_restore(flags);
	return was;
}

void clock_set_tick_hook(void (*fn)(void))
{
	tick_hook = fn;
}
