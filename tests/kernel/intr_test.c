/* SPDX-License-Identifier: GPL-2.0-only */
/* Suite "intr": interrupt lines, the PIC, the tick, the TSC and timeouts. */
/*
 * Runs with interrupts on and the clock ticking (kmain called intr_init,
 * tsc_calibrate and clock_init).  Waits halt between ticks; before halting
 * they spin until a first tick came, so a dead clock fails a case instead
 * of hanging the boot.
 *
 * Timing tolerance: under QEMU TCG without -icount the PIT follows the
 * host's wall clock and so does the TSC, but when the host deschedules
 * QEMU's vCPU thread, the periods of channel 0 that passed meanwhile are
 * not replayed: ticks get lost, never gained.  A loaded CI host can lose a
 * fair share of them, so rates are checked to +-30% of what they should
 * be.  That still catches every real mistake: a wrong divisor (the BIOS's
 * 18.2 Hz, 1000 Hz), double counting, a TSC calibration off by a factor.
 * Orders, counts and deadlines in ticks are checked exactly.
 */
#include <stdbool.h>
#include <stdint.h>

#include "kern/clock.h"
#include "kern/intr.h"
#include "kern/kprintf.h"
#include "kern/ktest.h"
#include "x86_64/cpu.h"
#include "x86_64/pic.h"
#include "x86_64/trap.h"
#include "x86_64/tsc.h"

#define CLOCK_LINE	0
#define FREE_LINE	5	/* nothing raises IRQ 5 in QEMU's pc */
#define SLAVE_LINE	12	/* PS/2 mouse: silent until a driver enables it */
#define NSEC_PER_SEC	1000000000ull

static uint64_t tsc_after_ms(uint64_t ms)
{
	return rdtsc_fenced() + tsc_hz() / 1000 * ms;
}

/* Busy-wait @ms milliseconds by the TSC, without halting. */
static void spin_ms(uint64_t ms)
{
	uint64_t end = tsc_after_ms(ms);

	while (rdtsc_fenced() < end)
		__asm__ volatile("pause");
}

/*
 * Wait until clock_ticks() reaches @target.  The first tick is awaited by
 * spinning for at most ten tick periods; after it came, halt between
 * ticks.  Fails @t and returns false if no tick came.
 */
static bool wait_for_tick(struct ktest *t, uint64_t target)
{
	uint64_t start = clock_ticks();
	uint64_t end = tsc_after_ms(10 * 1000 / HZ);

	if (start >= target)
		return true;
	while (clock_ticks() == start) {
		if (rdtsc_fenced() > end) {
			ktest_fail(t, "no tick within %d ms", 10 * 1000 / HZ);
			return false;
		}
		__asm__ volatile("pause");
	}
	while (clock_ticks() < target)
		__asm__ volatile("hlt");
	return true;
}

/* Return right after a tick, so what follows starts a whole period. */
static bool wait_for_next_tick(struct ktest *t)
{
	return wait_for_tick(t, clock_ticks() + 1);
}

static bool interrupts_on(void)
{
	uint64_t flags = cpu_intr_save();

	cpu_intr_restore(flags);
	return flags & RFLAGS_IF;
}

static void interrupts_are_on_after_init(struct ktest *t)
{
	KTEST_EXPECT_TRUE(t, interrupts_on());
	KTEST_EXPECT_FALSE(t, intr_is_masked(CLOCK_LINE));
	KTEST_EXPECT_EQ(t, pic_hw_mask() & (1u << CLOCK_LINE), 0);
}

/* QEMU's TSC runs at the host's rate.  (Bochs's counts instructions at its
 * ips setting, 4 MHz by default, which is why the suite is QEMU's only.) */
static void tsc_frequency_is_plausible(struct ktest *t)
{
	uint64_t hz = tsc_hz();

	kprintf("    # TSC %llu.%03llu MHz\n",
		(unsigned long long)(hz / 1000000),
		(unsigned long long)(hz / 1000 % 1000));
	KTEST_EXPECT_GE(t, hz, 100000000ull);
	KTEST_EXPECT_LE(t, hz, 10000000000ull);
}

static void tsc_to_ns_is_exact_and_does_not_wrap(struct ktest *t)
{
	uint64_t hz = tsc_hz();

	if (hz == 0) {
		ktest_fail(t, "TSC not calibrated");
		return;
	}
	KTEST_EXPECT_EQ(t, tsc_to_ns(0), 0);
	KTEST_EXPECT_EQ(t, tsc_to_ns(hz), NSEC_PER_SEC);
	KTEST_EXPECT_EQ(t, tsc_to_ns(hz * 3600), 3600 * NSEC_PER_SEC);
	/* hz / 1000 ticks: 1 ms less what hz / 1000 dropped (< 1 tick). */
	KTEST_EXPECT_LE(t, tsc_to_ns(hz / 1000), 1000000);
	KTEST_EXPECT_GE(t, tsc_to_ns(hz / 1000),
			1000000 - NSEC_PER_SEC / hz - 1);
	/* 2^64 ticks last over 1.8e9 s even at 10 GHz: no 64-bit wrap. */
	KTEST_EXPECT_GE(t, tsc_to_ns(UINT64_MAX), 1800000000ull * NSEC_PER_SEC);
	KTEST_EXPECT_GE(t, tsc_to_ns(UINT64_MAX), tsc_to_ns(UINT64_MAX / 2));
}

/* Read the tick count, line 0's count and the TSC at one instant. */
static void clock_snapshot(uint64_t *ticks, uint64_t *count, uint64_t *tsc)
{
	uint64_t flags = cpu_intr_save();

	*ticks = clock_ticks();
	*count = intr_count(CLOCK_LINE);
	*tsc = rdtsc_fenced();
	cpu_intr_restore(flags);
}

static void tick_advances_at_hz(struct ktest *t)
{
	uint64_t n0, c0, tsc0, n1, c1, tsc1, ns, n, want_milli;

	if (!wait_for_next_tick(t))
		return;
	clock_snapshot(&n0, &c0, &tsc0);
	spin_ms(500);
	clock_snapshot(&n1, &c1, &tsc1);
	n = n1 - n0;
	ns = tsc_to_ns(tsc1 - tsc0);
	want_milli = ns * HZ / 1000000;		/* expected ticks x 1000 */
	kprintf("    # %llu ticks in %llu ms: %llu.%01llu Hz (HZ %d)\n",
		(unsigned long long)n, (unsigned long long)(ns / 1000000),
		(unsigned long long)(n * 10 * NSEC_PER_SEC / ns / 10),
		(unsigned long long)(n * 10 * NSEC_PER_SEC / ns % 10), HZ);
	KTEST_EXPECT_GE(t, n * 1000, want_milli * 7 / 10);
	KTEST_EXPECT_LE(t, n * 1000, want_milli * 13 / 10);
	/* Every tick is one interrupt on line 0, and the other way round. */
	KTEST_EXPECT_EQ(t, c1 - c0, n);
}

static void clock_ns_is_monotonic_and_tracks_ticks(struct ktest *t)
{
	uint64_t n0, ns0, prev, now, ns;

	if (!wait_for_next_tick(t))
		return;
	n0 = clock_ticks();
	ns0 = clock_ns();
	prev = ns0;
	while (clock_ticks() < n0 + 20) {
		now = clock_ns();
		if (now < prev) {
			ktest_fail(t, "clock_ns went back from %llu to %llu",
				   (unsigned long long)prev,
				   (unsigned long long)now);
			return;
		}
		prev = now;
	}
	ns = clock_ns() - ns0;
	/* 20 ticks are 200 ms; lost ticks only make the time longer. */
	KTEST_EXPECT_GE(t, ns, 20 * NSEC_PER_SEC / HZ * 7 / 10);
	KTEST_EXPECT_LE(t, ns, 20 * NSEC_PER_SEC / HZ * 13 / 10);
}

static void masked_line_delivers_nothing(struct ktest *t)
{
	uint64_t c0, n0;

	if (!wait_for_next_tick(t))
		return;
	intr_mask(CLOCK_LINE);
	KTEST_EXPECT_TRUE(t, intr_is_masked(CLOCK_LINE));
	KTEST_EXPECT_NE(t, pic_hw_mask() & (1u << CLOCK_LINE), 0);
	c0 = intr_count(CLOCK_LINE);
	n0 = clock_ticks();
	spin_ms(50);				/* five tick periods */
	KTEST_EXPECT_EQ(t, intr_count(CLOCK_LINE), c0);
	KTEST_EXPECT_EQ(t, clock_ticks(), n0);

	intr_unmask(CLOCK_LINE);
	KTEST_EXPECT_FALSE(t, intr_is_masked(CLOCK_LINE));
	if (!wait_for_tick(t, n0 + 2))
		return;
	KTEST_EXPECT_GE(t, intr_count(CLOCK_LINE), c0 + 2);
}

static void slave_line_unmask_opens_cascade(struct ktest *t)
{
	uint16_t before, open, closed;
	bool cascade_masked;
	uint64_t flags;

	/* Interrupts off: the line is only opened to look at the masks. */
	flags = cpu_intr_save();
	before = pic_hw_mask();
	cascade_masked = intr_is_masked(PIC_CASCADE_LINE);
	intr_unmask(SLAVE_LINE);
	open = pic_hw_mask();
	intr_mask(SLAVE_LINE);
	closed = pic_hw_mask();
	cpu_intr_restore(flags);

	KTEST_EXPECT_NE(t, before & (1u << SLAVE_LINE), 0);
	KTEST_EXPECT_EQ(t, open & (1u << SLAVE_LINE), 0);
	KTEST_EXPECT_EQ(t, open & (1u << PIC_CASCADE_LINE), 0);
	/* Only the slave line and the cascade changed. */
	KTEST_EXPECT_EQ(t, open | (1u << SLAVE_LINE) | (1u << PIC_CASCADE_LINE),
			before | (1u << PIC_CASCADE_LINE));
	KTEST_EXPECT_EQ(t, closed, before);
	KTEST_EXPECT_EQ(t, intr_is_masked(PIC_CASCADE_LINE), cascade_masked);
}

static void __attribute__((noinline)) intr_test_fault(void)
{
	__asm__ volatile("ud2");
}

/* Fault with a catch armed; true if the trap came and was caught. */
static bool __attribute__((noinline)) catch_ud(struct ktest *t)
{
	struct trap_catch c;

	if (trap_catch_enter(&c) == 0) {
		intr_test_fault();
		trap_catch_disarm();
		ktest_fail(t, "no trap came");
		return false;
	}
	KTEST_EXPECT_EQ(t, c.vector, TRAP_UD);
	return true;
}

/*
 * The exception's interrupt gate clears IF and the catch resumes through
 * jmp_restore, not iretq: trap.c must put IF back as it was when the
 * catch was armed, on or off.
 */
static void caught_trap_restores_interrupt_flag(struct ktest *t)
{
	uint64_t flags;
	bool caught, on;

	if (catch_ud(t)) {
		KTEST_EXPECT_TRUE(t, interrupts_on());
		wait_for_tick(t, clock_ticks() + 2);
	}
	flags = cpu_intr_save();
	caught = catch_ud(t);
	on = interrupts_on();
	cpu_intr_restore(flags);
	if (caught)
		KTEST_EXPECT_FALSE(t, on);
}

struct call_log {
	char who[16];
	unsigned int n;
	bool wrong_line;
};

static void log_a(unsigned int line, void *arg)
{
	struct call_log *log = arg;

	if (line != CLOCK_LINE)
		log->wrong_line = true;
	if (log->n < sizeof(log->who))
		log->who[log->n++] = 'a';
}

static void log_b(unsigned int line, void *arg)
{
	struct call_log *log = arg;

	if (line != CLOCK_LINE)
		log->wrong_line = true;
	if (log->n < sizeof(log->who))
		log->who[log->n++] = 'b';
}

static void handlers_share_a_line_in_registration_order(struct ktest *t)
{
	struct call_log log = { 0 };
	uint64_t n0;
	unsigned int n;

	if (!wait_for_next_tick(t))
		return;
	KTEST_EXPECT_EQ(t, intr_register(CLOCK_LINE, log_a, &log),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, intr_register(CLOCK_LINE, log_b, &log),
			KERN_SUCCESS);
	n0 = clock_ticks();
	wait_for_tick(t, n0 + 3);
	KTEST_EXPECT_EQ(t, intr_unregister(CLOCK_LINE, log_a, &log),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, intr_unregister(CLOCK_LINE, log_b, &log),
			KERN_SUCCESS);
	n = log.n;
	KTEST_EXPECT_GE(t, n, 6);
	KTEST_EXPECT_EQ(t, n % 2, 0);
	for (unsigned int i = 0; i < n; i++) {
		if (log.who[i] != "ab"[i % 2])
			ktest_fail(t, "call %u was handler '%c'", i, log.who[i]);
	}
	KTEST_EXPECT_FALSE(t, log.wrong_line);
	/* The clock's own handler, registered first, still ran. */
	KTEST_EXPECT_GE(t, clock_ticks(), n0 + 3);

	wait_for_tick(t, clock_ticks() + 2);
	KTEST_EXPECT_EQ(t, log.n, n);		/* unregistered: not called */
}

static void count_call(unsigned int line, void *arg)
{
	(void)line;
	(*(unsigned int *)arg)++;
}

static void register_rejects_bad_line_and_full_line(struct ktest *t)
{
	unsigned int calls[INTR_MAX_HANDLERS + 1] = { 0 };
	unsigned int i;

	KTEST_EXPECT_EQ(t, intr_register(INTR_LINES, count_call, &calls[0]),
			KERN_INVALID_ARGUMENT);
	KTEST_EXPECT_EQ(t, intr_register(~0u, count_call, &calls[0]),
			KERN_INVALID_ARGUMENT);
	KTEST_EXPECT_EQ(t, intr_register(FREE_LINE, NULL, &calls[0]),
			KERN_INVALID_ARGUMENT);
	for (i = 0; i < INTR_MAX_HANDLERS; i++)
		KTEST_EXPECT_EQ(t, intr_register(FREE_LINE, count_call,
						 &calls[i]),
				KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, intr_register(FREE_LINE, count_call,
					 &calls[INTR_MAX_HANDLERS]),
			KERN_NO_SPACE);
	for (i = 0; i < INTR_MAX_HANDLERS; i++)
		KTEST_EXPECT_EQ(t, intr_unregister(FREE_LINE, count_call,
						   &calls[i]),
				KERN_SUCCESS);
	/* Room again once they are gone. */
	KTEST_EXPECT_EQ(t, intr_register(FREE_LINE, count_call,
					 &calls[INTR_MAX_HANDLERS]),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, intr_unregister(FREE_LINE, count_call,
					   &calls[INTR_MAX_HANDLERS]),
			KERN_SUCCESS);
	KTEST_EXPECT_TRUE(t, intr_is_masked(FREE_LINE));
}

static void unregister_of_unknown_handler_fails(struct ktest *t)
{
	unsigned int a = 0, b = 0;

	KTEST_EXPECT_EQ(t, intr_unregister(FREE_LINE, count_call, &a),
			KERN_INVALID_ARGUMENT);
	KTEST_EXPECT_EQ(t, intr_unregister(INTR_LINES, count_call, &a),
			KERN_INVALID_ARGUMENT);
	KTEST_EXPECT_EQ(t, intr_register(FREE_LINE, count_call, &a),
			KERN_SUCCESS);
	/* Same function, other argument: a different handler. */
	KTEST_EXPECT_EQ(t, intr_unregister(FREE_LINE, count_call, &b),
			KERN_INVALID_ARGUMENT);
	KTEST_EXPECT_EQ(t, intr_unregister(FREE_LINE + 1, count_call, &a),
			KERN_INVALID_ARGUMENT);
	KTEST_EXPECT_EQ(t, intr_unregister(FREE_LINE, count_call, &a),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, intr_unregister(FREE_LINE, count_call, &a),
			KERN_INVALID_ARGUMENT);
}

/*
 * With nothing in service, an interrupt arriving on line 7 or 15 is what a
 * spurious one looks like: the ISR bit is clear.  Dispatching them by hand
 * must run no handler and count them apart; a real line (5, dispatched the
 * same way) is counted and runs its handler.
 */
static void spurious_irq_runs_no_handler_and_is_not_counted(struct ktest *t)
{
	static const unsigned int spurious_lines[] = { 7, 15 };
	unsigned int calls[2] = { 0 }, control = 0;
	uint64_t count[2], spurious[2], count5, flags;
	unsigned int i;

	for (i = 0; i < 2; i++)
		KTEST_EXPECT_EQ(t, intr_register(spurious_lines[i], count_call,
						 &calls[i]),
				KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, intr_register(FREE_LINE, count_call, &control),
			KERN_SUCCESS);
	flags = cpu_intr_save();
	for (i = 0; i < 2; i++) {
		count[i] = intr_count(spurious_lines[i]);
		spurious[i] = intr_spurious_count(spurious_lines[i]);
		intr_dispatch(spurious_lines[i]);
	}
	count5 = intr_count(FREE_LINE);
	intr_dispatch(FREE_LINE);
	cpu_intr_restore(flags);

	for (i = 0; i < 2; i++) {
		KTEST_EXPECT_EQ(t, calls[i], 0);
		KTEST_EXPECT_EQ(t, intr_count(spurious_lines[i]), count[i]);
		KTEST_EXPECT_EQ(t, intr_spurious_count(spurious_lines[i]),
				spurious[i] + 1);
		KTEST_EXPECT_EQ(t, intr_unregister(spurious_lines[i],
						   count_call, &calls[i]),
				KERN_SUCCESS);
	}
	KTEST_EXPECT_EQ(t, control, 1);
	KTEST_EXPECT_EQ(t, intr_count(FREE_LINE), count5 + 1);
	KTEST_EXPECT_EQ(t, intr_unregister(FREE_LINE, count_call, &control),
			KERN_SUCCESS);
	/* The clock still ticks: the EOI for line 15 did no harm. */
	wait_for_tick(t, clock_ticks() + 2);
}

struct fire_log {
	unsigned int calls;
	uint64_t tick;			/* clock_ticks() at the last call */
	bool intr_on;			/* interrupts were on in a call */
	int order[8];
	unsigned int norder;
};

struct fire {
	struct fire_log *log;
	int id;
};

static void record_fire(void *arg)
{
	struct fire *f = arg;
	struct fire_log *log = f->log;

	log->calls++;
	log->tick = clock_ticks();
	if (interrupts_on())
		log->intr_on = true;
	if (log->norder < 8)
		log->order[log->norder++] = f->id;
}

static void timeout_fires_once_after_deadline(struct ktest *t)
{
	struct timeout to = { 0 };
	struct fire_log log = { 0 };
	struct fire f = { &log, 0 };
	uint64_t flags, base, calls, now;

	if (!wait_for_next_tick(t))
		return;
	flags = cpu_intr_save();
	base = clock_ticks();
	timeout_set(&to, 3, record_fire, &f);
	cpu_intr_restore(flags);
	KTEST_EXPECT_TRUE(t, to.pending);
	do {
		calls = log.calls;	/* before the tick count: no race */
		now = clock_ticks();
		if (calls != 0 && now < base + 3)
			ktest_fail(t, "fired at tick %llu, deadline %llu",
				   (unsigned long long)now,
				   (unsigned long long)(base + 3));
		__asm__ volatile("hlt");
	} while (now < base + 3);
	wait_for_tick(t, base + 6);
	KTEST_EXPECT_EQ(t, log.calls, 1);
	KTEST_EXPECT_EQ(t, log.tick, base + 3);
	KTEST_EXPECT_FALSE(t, log.intr_on);
	KTEST_EXPECT_FALSE(t, to.pending);
	KTEST_EXPECT_FALSE(t, timeout_cancel(&to));
}

static void cancelled_timeout_never_fires(struct ktest *t)
{
	struct timeout to = { 0 }, never_armed = { 0 };
	struct fire_log log = { 0 };
	struct fire f = { &log, 0 };

	timeout_set(&to, 2, record_fire, &f);
	KTEST_EXPECT_TRUE(t, timeout_cancel(&to));
	KTEST_EXPECT_FALSE(t, to.pending);
	wait_for_tick(t, clock_ticks() + 5);
	KTEST_EXPECT_EQ(t, log.calls, 0);
	KTEST_EXPECT_FALSE(t, timeout_cancel(&to));
	KTEST_EXPECT_FALSE(t, timeout_cancel(&never_armed));
}

static void timeouts_fire_in_deadline_order(struct ktest *t)
{
	/* Set in this order; deadlines 6, 2, 4, 4 ticks away. */
	static const uint64_t delay[4] = { 6, 2, 4, 4 };
	static const int want[4] = { 1, 2, 3, 0 };
	struct timeout to[4] = { 0 };
	struct fire_log log = { 0 };
	struct fire f[4];
	uint64_t flags, base;

	if (!wait_for_next_tick(t))
		return;
	flags = cpu_intr_save();
	base = clock_ticks();
	for (int i = 0; i < 4; i++) {
		f[i].log = &log;
		f[i].id = i;
		timeout_set(&to[i], delay[i], record_fire, &f[i]);
	}
	cpu_intr_restore(flags);
	wait_for_tick(t, base + 8);
	for (int i = 0; i < 4; i++)
		timeout_cancel(&to[i]);		/* in case some did not fire */
	KTEST_EXPECT_EQ(t, log.norder, 4);
	for (unsigned int i = 0; i < 4 && i < log.norder; i++)
		KTEST_EXPECT_EQ(t, log.order[i], want[i]);
	KTEST_EXPECT_EQ(t, log.tick, base + 6);
}

static void rearming_moves_a_pending_timeout(struct ktest *t)
{
	struct timeout to = { 0 };
	struct fire_log log = { 0 };
	struct fire f = { &log, 0 };
	uint64_t flags, base;

	if (!wait_for_next_tick(t))
		return;
	flags = cpu_intr_save();
	base = clock_ticks();
	timeout_set(&to, 10, record_fire, &f);
	timeout_set(&to, 2, record_fire, &f);
	cpu_intr_restore(flags);
	wait_for_tick(t, base + 12);
	timeout_cancel(&to);
	KTEST_EXPECT_EQ(t, log.calls, 1);
	KTEST_EXPECT_EQ(t, log.tick, base + 2);
}

struct rearm {
	struct timeout to;
	struct fire_log log;
	struct fire f;
};

/* Fire three times: set again for the next tick (a delay of 0). */
static void rearm_fire(void *arg)
{
	struct rearm *r = arg;

	record_fire(&r->f);
	if (r->log.norder < 3)
		timeout_set(&r->to, 0, rearm_fire, r);
}

static void timeout_can_rearm_itself_for_the_next_tick(struct ktest *t)
{
	struct rearm r = { 0 };
	uint64_t flags, base;

	r.f.log = &r.log;
	if (!wait_for_next_tick(t))
		return;
	flags = cpu_intr_save();
	base = clock_ticks();
	timeout_set(&r.to, 1, rearm_fire, &r);
	cpu_intr_restore(flags);
	wait_for_tick(t, base + 6);
	timeout_cancel(&r.to);
	KTEST_EXPECT_EQ(t, r.log.calls, 3);
	KTEST_EXPECT_EQ(t, r.log.tick, base + 3);
	KTEST_EXPECT_FALSE(t, r.to.pending);
}

static const struct ktest_case intr_cases[] = {
	{ "interrupts_are_on_after_init", interrupts_are_on_after_init },
	{ "tsc_frequency_is_plausible", tsc_frequency_is_plausible },
	{ "tsc_to_ns_is_exact_and_does_not_wrap",
	  tsc_to_ns_is_exact_and_does_not_wrap },
	{ "tick_advances_at_hz", tick_advances_at_hz },
	{ "clock_ns_is_monotonic_and_tracks_ticks",
	  clock_ns_is_monotonic_and_tracks_ticks },
	{ "masked_line_delivers_nothing", masked_line_delivers_nothing },
	{ "slave_line_unmask_opens_cascade", slave_line_unmask_opens_cascade },
	{ "handlers_share_a_line_in_registration_order",
	  handlers_share_a_line_in_registration_order },
	{ "caught_trap_restores_interrupt_flag",
	  caught_trap_restores_interrupt_flag },
	{ "register_rejects_bad_line_and_full_line",
	  register_rejects_bad_line_and_full_line },
	{ "unregister_of_unknown_handler_fails",
	  unregister_of_unknown_handler_fails },
	{ "spurious_irq_runs_no_handler_and_is_not_counted",
	  spurious_irq_runs_no_handler_and_is_not_counted },
	{ "timeout_fires_once_after_deadline",
	  timeout_fires_once_after_deadline },
	{ "cancelled_timeout_never_fires", cancelled_timeout_never_fires },
	{ "timeouts_fire_in_deadline_order", timeouts_fire_in_deadline_order },
	{ "rearming_moves_a_pending_timeout",
	  rearming_moves_a_pending_timeout },
	{ "timeout_can_rearm_itself_for_the_next_tick",
	  timeout_can_rearm_itself_for_the_next_tick },
};
KTEST_SUITE(intr_suite, "intr", intr_cases);
