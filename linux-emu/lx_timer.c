/* SPDX-License-Identifier: GPL-2.0-only */
/* jiffies and timer_list on the host's clock tick. */
/*
 * The host calls lx_timer_tick() once per tick with interrupts off; it
 * advances jiffies and raises TIMER_SOFTIRQ when a timer is due, whose
 * action runs every expired timer in softirq context as Linux does
 * (SOFTIRQ_OFFSET in the preempt count), in expiry order: at once, or at
 * the end of the hard IRQ or bottom-half-disabled section the tick
 * interrupted (lx_softirq.c).
 * Pending timers sit on one list through their own timer->entry, which is
 * what timer_pending() looks at.  Uniprocessor: disabling interrupts is
 * the lock, and a callback never runs while thread context is inside
 * these functions, so the _sync variants need not wait.
 */
#include <linux/interrupt.h>
#include <linux/irqflags.h>
#include <linux/jiffies.h>
#include <linux/list.h>
#include <linux/preempt.h>
#include <linux/timer.h>

#include <lx_host.h>
#include <lx_world.h>

u64 jiffies_64 = INITIAL_JIFFIES;
/* On x86_64 Linux's linker script makes jiffies another name of it. */
asm(".globl jiffies\n.set jiffies, jiffies_64");

static HLIST_HEAD(pending);

static void detach(struct timer_list *timer)
{
	hlist_del_init(&timer->entry);
}

/* Take @timer off the pending list if it is on it; whether it was.
 * Interrupts off. */
static int detach_if_pending(struct timer_list *timer)
{
	if (!timer_pending(timer))
		return 0;
	detach(timer);
	return 1;
}

/* The pending timer that expires first if it is due now, or NULL. */
static struct timer_list *first_due(void)
{
	struct timer_list *timer, *first = NULL;

	hlist_for_each_entry(timer, &pending, entry)
		if (!first || time_before(timer->expires, first->expires))
			first = timer;
	return first && time_after_eq(jiffies, first->expires) ? first : NULL;
}

/* TIMER_SOFTIRQ: run each expired timer, interrupts as the caller had
 * them while the function runs. */
static void run_timers(struct softirq_action *h)
{
	struct timer_list *timer;
	unsigned long flags;

	local_irq_save(flags);
	while ((timer = first_due()) != NULL) {
		detach(timer);
		local_irq_restore(flags);
		timer->function(timer);
		local_irq_save(flags);
	}
	local_irq_restore(flags);
}

static void lx_timer_tick(void)
{
	jiffies_64++;
	lx_hrtimer_tick();
	if (first_due())
		__raise_softirq_irqoff(TIMER_SOFTIRQ);
	lx_softirq_irq_exit();
}

int lx_timer_init(void)
{
	open_softirq(TIMER_SOFTIRQ, run_timers);
	return lx_host_clock_start(lx_timer_tick) == HZ ? 0 : -EINVAL;
}

void init_timer_key(struct timer_list *timer,
		    void (*func)(struct timer_list *), unsigned int flags,
		    const char *name, struct lock_class_key *key)
{
	timer->entry.pprev = NULL;
	timer->entry.next = NULL;
	timer->function = func;
	timer->flags = flags;
}

int mod_timer(struct timer_list *timer, unsigned long expires)
{
	unsigned long flags;
	int was_pending;

	local_irq_save(flags);
	was_pending = detach_if_pending(timer);
	timer->expires = expires;
	if (timer->function)	/* NULL once shut down: stays off */
		hlist_add_head(&timer->entry, &pending);
	local_irq_restore(flags);
	return was_pending;
}

void add_timer(struct timer_list *timer)
{
	mod_timer(timer, timer->expires);
}

int timer_delete(struct timer_list *timer)
{
	unsigned long flags;
	int was_pending;

	local_irq_save(flags);
	was_pending = detach_if_pending(timer);
	local_irq_restore(flags);
	return was_pending;
}

int timer_delete_sync(struct timer_list *timer)
{
	return timer_delete(timer);
}

int try_to_del_timer_sync(struct timer_list *timer)
{
	return timer_delete(timer);
}

int timer_shutdown(struct timer_list *timer)
{
	int was_pending = timer_delete(timer);

	timer->function = NULL;
	return was_pending;
}

int timer_shutdown_sync(struct timer_list *timer)
{
	return timer_shutdown(timer);
}

/* round_jiffies - the absolute expiry @j moved onto a whole second:
 * down when less than a quarter second past one, else up (Linux's rule,
 * without its per-CPU skew); @j itself when the rounded expiry would not
 * be in the future. */
unsigned long round_jiffies(unsigned long j)
{
	unsigned long rem = j % HZ, rounded;

	rounded = rem < HZ / 4 ? j - rem : j - rem + HZ;
	return time_is_before_eq_jiffies(rounded) ? j : rounded;
}

/* round_jiffies_relative - round_jiffies for the relative expiry @j. */
unsigned long round_jiffies_relative(unsigned long j)
{
	unsigned long now = jiffies;

	return round_jiffies(now + j) - now;
}
