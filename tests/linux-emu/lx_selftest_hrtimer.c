/* SPDX-License-Identifier: GPL-2.0-only */
/* Checks of the linux-irq suite for hrtimers (lx_hrtimer.c): never early, in hard IRQ context, in expiry order, cancelled, restarted, forwarded. */
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/irqflags.h>
#include <linux/ktime.h>
#include <linux/preempt.h>

#include "lx_selftest_check.h"
#include "lx_selftest_hrtimer.h"

struct probe {
	struct hrtimer timer;
	int fired;		/* callbacks so far */
	int order;		/* the value of `seq` at the last one */
	int restarts;		/* callbacks that return HRTIMER_RESTART */
	bool early;		/* a callback ran before its soft expiry */
	bool wrong_context;	/* a callback ran outside hard IRQ context */
};

static int seq;

static enum hrtimer_restart probe_fire(struct hrtimer *timer)
{
	struct probe *p = container_of(timer, struct probe, timer);

	p->fired++;
	p->order = ++seq;
	if (ktime_get() < hrtimer_get_softexpires(timer))
		p->early = true;
	if (!in_hardirq() || !irqs_disabled() || !hrtimer_active(timer))
		p->wrong_context = true;
	if (p->restarts-- <= 0)
		return HRTIMER_NORESTART;
	hrtimer_forward_now(timer, ms_to_ktime(20));
	return HRTIMER_RESTART;
}

static void probe_init(struct probe *p, int restarts)
{
	hrtimer_init(&p->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	p->timer.function = probe_fire;
	p->fired = p->order = 0;
	p->restarts = restarts;
	p->early = p->wrong_context = false;
}

static int hrtimer_checks(void)
{
	static struct probe a, b;
	ktime_t t;

	/* Relative: queued, not run before its time, run once after. */
	probe_init(&a, 0);
	hrtimer_start(&a.timer, ms_to_ktime(60), HRTIMER_MODE_REL);
	CHECK(hrtimer_is_queued(&a.timer) && hrtimer_active(&a.timer));
	msleep(20);
	CHECK(a.fired == 0);
	msleep(100);
	CHECK(a.fired == 1);
	CHECK(!a.early);
	CHECK(!a.wrong_context);
	CHECK(!hrtimer_active(&a.timer));
	/* Absolute, two at once: the earlier expiry runs first. */
	probe_init(&a, 0);
	probe_init(&b, 0);
	t = ktime_get();
	hrtimer_start(&a.timer, ktime_add_ms(t, 60), HRTIMER_MODE_ABS);
	hrtimer_start(&b.timer, ktime_add_ms(t, 30), HRTIMER_MODE_ABS);
	msleep(150);
	CHECK(a.fired == 1 && b.fired == 1 && b.order < a.order);
	CHECK(!a.early && !b.early);
	/* Started again: the new expiry replaces the old. */
	probe_init(&a, 0);
	hrtimer_start(&a.timer, ms_to_ktime(20), HRTIMER_MODE_REL);
	hrtimer_start(&a.timer, ms_to_ktime(500), HRTIMER_MODE_REL);
	msleep(100);
	CHECK(a.fired == 0);
	/* Cancelled: never runs; a second cancel finds nothing queued. */
	CHECK(hrtimer_cancel(&a.timer) == 1);
	CHECK(hrtimer_try_to_cancel(&a.timer) == 0);
	CHECK(!hrtimer_active(&a.timer));
	msleep(100);
	CHECK(a.fired == 0);
	/* HRTIMER_RESTART after hrtimer_forward_now: runs again, 3 times. */
	probe_init(&a, 2);
	hrtimer_start(&a.timer, ms_to_ktime(20), HRTIMER_MODE_REL);
	msleep(300);
	CHECK(a.fired == 3 && !a.early && !a.wrong_context);
	CHECK(!hrtimer_active(&a.timer));
	/* hrtimer_forward: whole intervals until after now, 0 if it is. */
	hrtimer_set_expires(&a.timer, ms_to_ktime(100));
	CHECK(hrtimer_forward(&a.timer, ms_to_ktime(90), ms_to_ktime(20))
	      == 0);
	CHECK(hrtimer_forward(&a.timer, ms_to_ktime(145), ms_to_ktime(20))
	      == 3);
	CHECK(hrtimer_get_expires(&a.timer) == ms_to_ktime(160));
	CHECK(hrtimer_forward(&a.timer, ms_to_ktime(160), ms_to_ktime(20))
	      == 1);
	CHECK(hrtimer_get_expires(&a.timer) == ms_to_ktime(180));
	return 0;
}
IN_WORLD(hrtimer, hrtimer_checks)
