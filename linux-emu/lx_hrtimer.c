/* SPDX-License-Identifier: GPL-2.0-only */
/* hrtimers on the host's clock tick: hrtimer_init, hrtimer_start_range_ns, hrtimer_cancel, hrtimer_forward, ktime_add_safe. */
/*
 * Graft's clocks count jiffies (lx_time.c), so an hrtimer has the tick's
 * resolution (hrtimer_resolution, Linux's LOW_RES_NSEC without
 * CONFIG_HIGH_RES_TIMERS, says so): it expires at the first tick at
 * which ktime_get() has reached its soft expiry, never early, up to a
 * tick late.  Every clock id is
 * the one clock.  Pending timers sit in one timerqueue ordered by their
 * hard expiry (lib/timerqueue.c); lx_hrtimer_tick(), called by the clock
 * tick with interrupts off, runs the due ones in hard IRQ context,
 * as Linux's hrtimer_interrupt runs hard timers.  Uniprocessor: with
 * interrupts off no callback runs, so hrtimer_cancel waits for nothing;
 * only a callback cancelling its own timer finds it running.  Soft
 * timers (HRTIMER_MODE_SOFT, HRTIMER_SOFTIRQ) are not implemented:
 * hrtimer_init refuses them loudly.
 */
#include <linux/bug.h>
#include <linux/hrtimer.h>
#include <linux/irqflags.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/panic.h>
#include <linux/preempt.h>
#include <linux/string.h>
#include <linux/timerqueue.h>

#include <lx_world.h>

static struct hrtimer_clock_base lx_hrtimer_base = {
	.clockid = CLOCK_MONOTONIC,
	.get_time = ktime_get,
};

/* hrtimer_init - @timer inactive on the one clock (@clock_id is any);
 * a soft @mode stops the world. */
void hrtimer_init(struct hrtimer *timer, clockid_t clock_id,
		  enum hrtimer_mode mode)
{
	if (mode & HRTIMER_MODE_SOFT)
		panic("linux-emu: hrtimer_init: soft hrtimers (mode %#x) are "
		      "not implemented\n", mode);
	memset(timer, 0, sizeof(*timer));
	timerqueue_init(&timer->node);
	timer->base = &lx_hrtimer_base;
	timer->is_hard = 1;
}

/* Take @timer off the queue if it is on it; whether it was.  Interrupts
 * off. */
static int dequeue(struct hrtimer *timer)
{
	if (!(timer->state & HRTIMER_STATE_ENQUEUED))
		return 0;
	timerqueue_del(&lx_hrtimer_base.active, &timer->node);
	timer->state = HRTIMER_STATE_INACTIVE;
	return 1;
}

/* Interrupts off. */
static void enqueue(struct hrtimer *timer)
{
	timer->state = HRTIMER_STATE_ENQUEUED;
	timerqueue_add(&lx_hrtimer_base.active, &timer->node);
}

/* ktime_add_safe - @lhs + @rhs for times and intervals of at least 0:
 * KTIME_MAX if the sum does not fit. */
ktime_t ktime_add_safe(const ktime_t lhs, const ktime_t rhs)
{
	return rhs > 0 && lhs > KTIME_MAX - rhs ? KTIME_MAX : lhs + rhs;
}

/* hrtimer_start_range_ns - (re)queue @timer to expire at @tim (from now
 * with HRTIMER_MODE_REL), at the latest @range_ns later.  Any context. */
void hrtimer_start_range_ns(struct hrtimer *timer, ktime_t tim,
			    u64 range_ns, const enum hrtimer_mode mode)
{
	unsigned long flags;

	if (mode & HRTIMER_MODE_REL)
		tim = ktime_add_safe(tim, ktime_get());
	local_irq_save(flags);
	dequeue(timer);
	timer->is_rel = !!(mode & HRTIMER_MODE_REL);
	hrtimer_set_expires_range_ns(timer, tim, range_ns);
	enqueue(timer);
	local_irq_restore(flags);
}

/* hrtimer_try_to_cancel - 1 if @timer was queued and is no longer, 0 if
 * it was not, -1 if its callback is running (called from it). */
int hrtimer_try_to_cancel(struct hrtimer *timer)
{
	unsigned long flags;
	int ret;

	local_irq_save(flags);
	ret = lx_hrtimer_base.running == timer ? -1 : dequeue(timer);
	local_irq_restore(flags);
	return ret;
}

/* hrtimer_cancel - hrtimer_try_to_cancel, which on one CPU finds the
 * callback running only when the callback itself calls it: Linux would
 * wait for ever there, Graft stops. */
int hrtimer_cancel(struct hrtimer *timer)
{
	int ret = hrtimer_try_to_cancel(timer);

	BUG_ON(ret < 0);
	return ret;
}

/* hrtimer_active - whether @timer is queued or its callback running. */
bool hrtimer_active(const struct hrtimer *timer)
{
	return (timer->state & HRTIMER_STATE_ENQUEUED) ||
	       lx_hrtimer_base.running == timer;
}

/* hrtimer_forward - move @timer's expiry on by whole @interval steps
 * (at least hrtimer_resolution each) until it is after @now; the number
 * of steps, 0 if it already was.  @timer is not queued (or is running). */
u64 hrtimer_forward(struct hrtimer *timer, ktime_t now, ktime_t interval)
{
	ktime_t late = ktime_sub(now, hrtimer_get_expires(timer));
	u64 steps;

	if (late < 0)
		return 0;
	if (interval < hrtimer_resolution)
		interval = hrtimer_resolution;
	steps = div64_u64(late, interval) + 1;
	hrtimer_add_expires_ns(timer, steps * interval);
	return steps;
}

/* The queued timer that expires first if its soft expiry has come, or
 * NULL.  Interrupts off. */
static struct hrtimer *first_due(ktime_t now)
{
	struct timerqueue_node *node;
	struct hrtimer *timer;

	node = timerqueue_getnext(&lx_hrtimer_base.active);
	if (!node)
		return NULL;
	timer = container_of(node, struct hrtimer, node);
	return hrtimer_get_softexpires(timer) <= now ? timer : NULL;
}

void lx_hrtimer_tick(void)
{
	struct hrtimer *timer;
	enum hrtimer_restart restart;
	ktime_t now;

	if (!timerqueue_getnext(&lx_hrtimer_base.active))
		return;		/* none queued: most ticks, read no clock */
	now = ktime_get();
	__preempt_count_add(HARDIRQ_OFFSET);	/* what Linux's IRQ entry adds */
	while ((timer = first_due(now)) != NULL) {
		dequeue(timer);
		lx_hrtimer_base.running = timer;
		restart = timer->function(timer);
		lx_hrtimer_base.running = NULL;
		/* Restarted inside the callback: queued already. */
		if (restart != HRTIMER_NORESTART &&
		    !(timer->state & HRTIMER_STATE_ENQUEUED))
			enqueue(timer);
	}
	__preempt_count_sub(HARDIRQ_OFFSET);
}
