/* SPDX-License-Identifier: GPL-2.0-only */
/* Checks that run inside the Linux world for the linux-irq suite (tests/kernel/linux_irq_test.c). */
/*
 * Interrupts come from the RTC's periodic interrupt (line 8, 1024 Hz):
 * register B bit 6 turns it on, reading register C acknowledges it (the
 * line stays high, so no new edge, until C is read).  Each check leaves
 * the RTC quiet and line 8 free.
 */
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/jiffies.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/timer.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include <lx_world.h>

#include "lx_selftest_irq.h"
#include "lx_selftest_check.h"

/* current read anew: within one function the compiler may reuse an
 * earlier reading, which would make a check across a sleep vacuous. */
static noinline __attribute__((noipa)) struct task_struct *task_now(void)
{
	return current;
}

#define RTC_IRQ		8
#define TEST_VECTOR	IRQ_POLL_SOFTIRQ	/* no Graft driver uses it */

static u8 rtc_read(u8 reg)
{
	outb(0x80 | reg, 0x70);		/* 0x80: NMI stays off */
	return inb(0x71);
}

static void rtc_write(u8 reg, u8 v)
{
	outb(0x80 | reg, 0x70);
	outb(v, 0x71);
}

static void rtc_periodic(bool on)
{
	unsigned long flags;
	u8 b;

	local_irq_save(flags);
	b = rtc_read(0xb);
	rtc_write(0xa, (rtc_read(0xa) & 0xf0) | 6);	/* 1024 Hz */
	rtc_write(0xb, on ? b | 0x40 : b & ~0x40);
	(void)rtc_read(0xc);
	local_irq_restore(flags);
}

struct rtc_dev {
	unsigned int count;
	unsigned int bad_context;
	unsigned int thread_runs;
	bool raise_bh;
	struct tasklet_struct *tasklet;	/* scheduled by each interrupt */
	char thread_comm[TASK_COMM_LEN];
	struct task_struct *requester;
};

static unsigned int seq, handler_seq;

static irqreturn_t rtc_handler(int irq, void *dev_id)
{
	struct rtc_dev *d = dev_id;

	(void)rtc_read(0xc);
	d->count++;
	if (irq != RTC_IRQ || !in_hardirq() || in_serving_softirq() ||
	    !irqs_disabled())
		d->bad_context++;
	if (d->raise_bh) {
		handler_seq = ++seq;
		raise_softirq(TEST_VECTOR);
	}
	if (d->tasklet)
		tasklet_schedule(d->tasklet);
	return IRQ_HANDLED;
}

/* Sleep until @d counted @n interrupts, at most half a second. */
static bool wait_count(struct rtc_dev *d, unsigned int n)
{
	int i;

	for (i = 0; i < 50 && READ_ONCE(d->count) < n; i++)
		msleep(10);
	return READ_ONCE(d->count) >= n;
}

/* Stop the RTC while @d's handler still acknowledges, so that no edge
 * stays latched in the controller, then free the line. */
static const void *rtc_stop_and_free(struct rtc_dev *d)
{
	rtc_periodic(false);
	msleep(20);
	return free_irq(RTC_IRQ, d);
}

/* Make sure line 8 has nothing latched: take it, quiet the RTC, free. */
static int rtc_clean(void)
{
	struct rtc_dev d = { 0 };

	CHECK(request_irq(RTC_IRQ, rtc_handler, 0, "lx-rtc-clean", &d) == 0);
	CHECK(rtc_stop_and_free(&d) != NULL);
	return 0;
}

static int irq_request(void)
{
	static const char name[] = "lx-rtc";
	struct rtc_dev d = { 0 };
	unsigned int c;

	CHECK(request_irq(RTC_IRQ, rtc_handler, 0, name, &d) == 0);
	rtc_periodic(true);
	CHECK(wait_count(&d, 5));
	CHECK(d.bad_context == 0);
	/* free_irq gives the name back and no handler runs any more,
	 * though the RTC goes on interrupting. */
	CHECK(free_irq(RTC_IRQ, &d) == name);
	c = d.count;
	msleep(50);
	CHECK(d.count == c);
	rtc_periodic(false);
	return rtc_clean();
}
IN_WORLD(irq_request, irq_request)

static int irq_disable_nests(void)
{
	struct rtc_dev d = { 0 };
	unsigned int c;

	CHECK(request_irq(RTC_IRQ, rtc_handler, 0, "lx-rtc", &d) == 0);
	rtc_periodic(true);
	CHECK(wait_count(&d, 3));
	disable_irq(RTC_IRQ);
	c = d.count;
	msleep(50);
	CHECK(d.count == c);		/* masked */
	disable_irq(RTC_IRQ);
	enable_irq(RTC_IRQ);
	msleep(50);
	CHECK(d.count == c);		/* depth 2 - 1: still masked */
	enable_irq(RTC_IRQ);
	CHECK(wait_count(&d, c + 3));	/* depth 0: comes back */
	disable_irq_nosync(RTC_IRQ);
	c = d.count;
	msleep(50);
	CHECK(d.count == c);
	enable_irq(RTC_IRQ);
	CHECK(wait_count(&d, c + 3));
	CHECK(d.bad_context == 0);
	CHECK(rtc_stop_and_free(&d) != NULL);
	return 0;
}
IN_WORLD(irq_disable_nests, irq_disable_nests)

static int irq_refused(void)
{
	struct rtc_dev d = { 0 }, e = { 0 };

	CHECK(request_irq(RTC_IRQ, rtc_handler, 0, "lx-rtc", &d) == 0);
	/* Not shared: a second request, shared or not, is refused. */
	CHECK(request_irq(RTC_IRQ, rtc_handler, 0, "lx-rtc-b", &e) == -EBUSY);
	CHECK(request_irq(RTC_IRQ, rtc_handler, IRQF_SHARED, "lx-rtc-b",
			  &e) == -EBUSY);
	/* The clock's line belongs to the host. */
	CHECK(request_irq(0, rtc_handler, 0, "lx-clock", &e) == -EBUSY);
	CHECK(request_irq(16, rtc_handler, 0, "lx-none", &e) == -EINVAL);
	CHECK(request_irq(9, NULL, 0, "lx-none", &e) == -EINVAL);
	CHECK(request_irq(9, rtc_handler, IRQF_SHARED, "lx-none", NULL) ==
	      -EINVAL);
	CHECK(rtc_stop_and_free(&d) != NULL);
	return 0;
}
IN_WORLD(irq_refused, irq_refused)

static int irq_free_twice(void)
{
	struct rtc_dev d = { 0 }, e = { 0 };

	CHECK(request_irq(RTC_IRQ, rtc_handler, 0, "lx-rtc", &d) == 0);
	enable_irq(RTC_IRQ);			/* unbalanced: a warning */
	CHECK(free_irq(RTC_IRQ, &e) == NULL);	/* not its dev_id */
	CHECK(free_irq(RTC_IRQ, &d) != NULL);
	CHECK(free_irq(RTC_IRQ, &d) == NULL);	/* already free */
	return 0;
}
IN_WORLD(irq_free_twice, irq_free_twice)

static int irq_shared(void)
{
	static const char name_a[] = "lx-rtc-a";
	struct rtc_dev a = { 0 }, b = { 0 }, c = { 0 };
	unsigned int n;

	CHECK(request_irq(RTC_IRQ, rtc_handler, IRQF_SHARED, name_a, &a) == 0);
	CHECK(request_irq(RTC_IRQ, rtc_handler, IRQF_SHARED, "lx-rtc-b",
			  &b) == 0);
	CHECK(request_irq(RTC_IRQ, rtc_handler, 0, "lx-rtc-c", &c) == -EBUSY);
	rtc_periodic(true);
	CHECK(wait_count(&a, 3) && wait_count(&b, 3));
	CHECK(free_irq(RTC_IRQ, &a) == name_a);
	n = b.count;
	CHECK(wait_count(&b, n + 3));	/* b still called */
	n = a.count;
	msleep(30);
	CHECK(a.count == n);		/* a no more */
	CHECK(rtc_stop_and_free(&b) != NULL);
	CHECK(a.bad_context == 0 && b.bad_context == 0);
	return 0;
}
IN_WORLD(irq_shared, irq_shared)

static irqreturn_t rtc_primary(int irq, void *dev_id)
{
	struct rtc_dev *d = dev_id;

	(void)rtc_read(0xc);
	d->count++;
	return IRQ_WAKE_THREAD;
}

static irqreturn_t rtc_thread(int irq, void *dev_id)
{
	struct rtc_dev *d = dev_id;

	/* With no primary handler the thread acknowledges the RTC. */
	(void)rtc_read(0xc);
	d->thread_runs++;
	if (in_interrupt() || irqs_disabled() || current == d->requester ||
	    preempt_count() != 0)
		d->bad_context++;
	memcpy(d->thread_comm, current->comm, sizeof(d->thread_comm));
	msleep(1);	/* a threaded handler may sleep */
	return IRQ_HANDLED;
}

static int irq_threaded(void)
{
	struct rtc_dev d = { .requester = current };
	struct rtc_dev e = { .requester = current };
	int i;

	CHECK(request_threaded_irq(RTC_IRQ, rtc_primary, rtc_thread,
				   IRQF_ONESHOT, "lx-rtc-t", &d) == 0);
	rtc_periodic(true);
	for (i = 0; i < 50 && d.thread_runs < 3; i++)
		msleep(10);
	CHECK(d.thread_runs >= 3 && d.count >= d.thread_runs);
	CHECK(d.bad_context == 0);
	CHECK(strcmp(d.thread_comm, "irq/8-lx-rtc-t") == 0);
	rtc_periodic(false);
	msleep(20);
	CHECK(free_irq(RTC_IRQ, &d) != NULL);

	/* No primary handler: the line waits masked for the thread. */
	CHECK(request_threaded_irq(RTC_IRQ, NULL, rtc_thread, IRQF_ONESHOT,
				   "lx-rtc-u", &e) == 0);
	rtc_periodic(true);
	for (i = 0; i < 50 && e.thread_runs < 3; i++)
		msleep(10);
	CHECK(e.thread_runs >= 3 && e.bad_context == 0);
	rtc_periodic(false);
	msleep(20);
	CHECK(free_irq(RTC_IRQ, &e) != NULL);
	return rtc_clean();
}
IN_WORLD(irq_threaded, irq_threaded)

static int irq_autoprobe(void)
{
	unsigned long mask;
	int irq, line;

	line = rtc_clean();
	if (line)
		return line;
	mask = probe_irq_on();
	CHECK(mask & BIT(RTC_IRQ));
	CHECK(!(mask & BIT(0)));	/* the host's clock is not free */
	rtc_periodic(true);		/* the device raises its line */
	mdelay(10);			/* as ne.c waits */
	irq = probe_irq_off(mask);
	rtc_periodic(false);
	CHECK(irq == RTC_IRQ);
	return rtc_clean();
}
IN_WORLD(irq_autoprobe, irq_autoprobe)

/* The i8042's "write keyboard output buffer" command (0xd2) hands the
 * next data byte back as if typed, raising line 1; reading port 0x60
 * takes it. */
static void kbd_raise(void)
{
	outb(0xd2, 0x64);
	outb(0x5a, 0x60);
}

static int irq_autoprobe_several(void)
{
	unsigned long mask;
	int irq, line;

	line = rtc_clean();
	if (line)
		return line;
	(void)inb(0x60);
	mask = probe_irq_on();
	CHECK((mask & BIT(RTC_IRQ)) && (mask & BIT(1)));
	kbd_raise();
	rtc_periodic(true);
	mdelay(10);
	irq = probe_irq_off(mask);
	rtc_periodic(false);
	(void)inb(0x60);
	CHECK(irq == -1);	/* minus the first of the lines that fired */
	return rtc_clean();
}
IN_WORLD(irq_autoprobe_several, irq_autoprobe_several)

static int irq_autoprobe_silent(void)
{
	unsigned long mask;

	mask = probe_irq_on();
	CHECK(mask & BIT(RTC_IRQ));
	mdelay(10);
	CHECK(probe_irq_off(mask) == 0);
	return 0;
}
IN_WORLD(irq_autoprobe_silent, irq_autoprobe_silent)

static unsigned int bh_runs, bh_bad_context, bh_after_handler;
static struct task_struct *bh_task;

static void bh_action(struct softirq_action *h)
{
	bh_runs++;
	if (!in_serving_softirq() || in_hardirq())
		bh_bad_context++;
	if (handler_seq && seq == handler_seq)
		bh_after_handler++;
	seq++;
	bh_task = current;
}

static struct tasklet_struct irq_tasklet;
static unsigned int irq_tasklet_runs, irq_tasklet_bad_context;

static void irq_tasklet_fn(struct tasklet_struct *t)
{
	irq_tasklet_runs++;
	if (!lx_world_held() || irqs_disabled() || !in_serving_softirq() ||
	    in_hardirq())
		irq_tasklet_bad_context++;
}

static int bottom_halves(void)
{
	struct rtc_dev d = { .raise_bh = true };
	unsigned int runs;

	open_softirq(TEST_VECTOR, bh_action);
	/* Raised by a handler: runs as the interrupt ends, after it. */
	CHECK(request_irq(RTC_IRQ, rtc_handler, 0, "lx-rtc-bh", &d) == 0);
	rtc_periodic(true);
	CHECK(wait_count(&d, 5));
	CHECK(rtc_stop_and_free(&d) != NULL);
	CHECK(bh_runs >= 5 && bh_after_handler == bh_runs);
	CHECK(bh_runs <= d.count);

	/* Raised with bottom halves off: not even a tick runs it, the
	 * local_bh_enable() that ends the section does, in this thread. */
	handler_seq = 0;
	runs = bh_runs;
	local_bh_disable();
	raise_softirq(TEST_VECTOR);
	mdelay(30);			/* three ticks come and go */
	CHECK(bh_runs == runs);
	local_bh_enable();
	CHECK(bh_runs == runs + 1 && bh_task == current);

	/* Raised in a thread with bottom halves on: soon, somewhere. */
	raise_softirq(TEST_VECTOR);
	msleep(20);
	CHECK(bh_runs == runs + 2 && bh_bad_context == 0);
	open_softirq(TEST_VECTOR, NULL);

	/* A tasklet a handler schedules runs in softirq context with
	 * interrupts on, as Linux runs it (usbcore's URB giveback tasklet
	 * turns them on and off with spin_lock_irq), so in a thread holding
	 * the world: not at the interrupt's exit, which must keep them off
	 * and may have interrupted a thread outside the world. */
	tasklet_setup(&irq_tasklet, irq_tasklet_fn);
	d = (struct rtc_dev){ .tasklet = &irq_tasklet };
	CHECK(request_irq(RTC_IRQ, rtc_handler, 0, "lx-rtc-tl", &d) == 0);
	rtc_periodic(true);
	CHECK(wait_count(&d, 5));
	CHECK(rtc_stop_and_free(&d) != NULL);
	tasklet_kill(&irq_tasklet);
	CHECK(irq_tasklet_runs >= 1 && irq_tasklet_runs <= d.count);
	CHECK(irq_tasklet_bad_context == 0);
	return 0;
}
IN_WORLD(bottom_halves, bottom_halves)

struct test_work {
	struct work_struct work;
	struct delayed_work dwork;
	unsigned int runs;
	unsigned long ran_at;
	unsigned int sleep_ms;
	char comm[TASK_COMM_LEN];
	struct completion done;
};

static void note_run(struct test_work *tw)
{
	tw->runs++;
	tw->ran_at = jiffies;
	memcpy(tw->comm, current->comm, sizeof(tw->comm));
	if (tw->sleep_ms)
		msleep(tw->sleep_ms);
	complete(&tw->done);
}

static void work_fn(struct work_struct *w)
{
	note_run(container_of(w, struct test_work, work));
}

static void dwork_fn(struct work_struct *w)
{
	note_run(container_of(to_delayed_work(w), struct test_work, dwork));
}

static void test_work_init(struct test_work *tw, unsigned int sleep_ms)
{
	memset(tw, 0, sizeof(*tw));
	INIT_WORK(&tw->work, work_fn);
	INIT_DELAYED_WORK(&tw->dwork, dwork_fn);
	init_completion(&tw->done);
	tw->sleep_ms = sleep_ms;
}

/* Queue @tw's work on @wq, wait for it, check it ran on @worker. */
static int runs_on(struct workqueue_struct *wq, const char *worker)
{
	struct test_work tw;

	test_work_init(&tw, 0);
	CHECK(queue_work(wq, &tw.work));
	CHECK(wait_for_completion_timeout(&tw.done, HZ) > 0);
	CHECK(tw.runs == 1 && strcmp(tw.comm, worker) == 0);
	return 0;
}

static int workqueues(void)
{
	struct workqueue_struct *wq;
	struct test_work tw;
	unsigned long start;
	int line;

	test_work_init(&tw, 0);
	CHECK(schedule_work(&tw.work));
	CHECK(!schedule_work(&tw.work));	/* still pending */
	CHECK(work_pending(&tw.work));
	CHECK(wait_for_completion_timeout(&tw.done, HZ) > 0);
	CHECK(tw.runs == 1 && strcmp(tw.comm, "events") == 0);
	CHECK(!work_pending(&tw.work));

	if ((line = runs_on(system_highpri_wq, "events_highpri")) ||
	    (line = runs_on(system_long_wq, "events_long")) ||
	    (line = runs_on(system_unbound_wq, "events_unbound")))
		return line;

	/* Delayed work runs once its delay has passed, not before. */
	test_work_init(&tw, 0);
	start = jiffies;
	CHECK(schedule_delayed_work(&tw.dwork, 5));
	CHECK(delayed_work_pending(&tw.dwork));
	CHECK(wait_for_completion_timeout(&tw.done, HZ) > 0);
	CHECK(tw.runs == 1 && time_after_eq(tw.ran_at, start + 5));

	/* flush_work waits for a work that sleeps. */
	test_work_init(&tw, 30);
	CHECK(schedule_work(&tw.work));
	CHECK(flush_work(&tw.work) && tw.runs == 1);

	/* A workqueue of its own, with its own worker, destroyed. */
	wq = alloc_workqueue("lx-test-%d", 0, 1, 7);
	CHECK(wq);
	line = runs_on(wq, "lx-test-7");
	destroy_workqueue(wq);
	return line;
}
IN_WORLD(workqueues, workqueues)

static int workqueue_cancel(void)
{
	struct test_work sleeper, victim, late;

	/* A cancelled delayed work never runs. */
	test_work_init(&late, 0);
	CHECK(schedule_delayed_work(&late.dwork, 10));
	CHECK(cancel_delayed_work_sync(&late.dwork));
	CHECK(!delayed_work_pending(&late.dwork));
	msleep(200);
	CHECK(late.runs == 0);
	CHECK(!cancel_delayed_work_sync(&late.dwork));

	/* A work queued behind a running one, cancelled, never runs. */
	test_work_init(&sleeper, 50);
	test_work_init(&victim, 0);
	CHECK(schedule_work(&sleeper.work));
	CHECK(schedule_work(&victim.work));
	msleep(10);				/* the sleeper runs */
	CHECK(sleeper.runs == 1);
	CHECK(cancel_work_sync(&victim.work));
	CHECK(!cancel_work_sync(&victim.work));

	/* cancel_work_sync of a running work waits for its end. */
	CHECK(!cancel_work_sync(&sleeper.work));
	CHECK(completion_done(&sleeper.done));
	msleep(50);
	CHECK(victim.runs == 0);
	return 0;
}
IN_WORLD(workqueue_cancel, workqueue_cancel)

static struct completion timer_done;
static unsigned int timer_context_bad;

static void complete_from_timer(struct timer_list *t)
{
	if (!in_serving_softirq())
		timer_context_bad++;
	complete(&timer_done);
}

static int completions(void)
{
	struct timer_list t;
	struct completion c;
	unsigned long start, left;

	init_completion(&timer_done);
	timer_setup(&t, complete_from_timer, 0);
	start = jiffies;
	mod_timer(&t, jiffies + 3);
	left = wait_for_completion_timeout(&timer_done, HZ);
	CHECK(left > 0 && left <= HZ - 3);
	CHECK(time_after_eq(jiffies, start + 3) && timer_context_bad == 0);

	init_completion(&c);
	start = jiffies;
	CHECK(wait_for_completion_timeout(&c, 5) == 0);	/* times out */
	CHECK(time_after_eq(jiffies, start + 5));

	complete(&c);
	complete(&c);
	CHECK(try_wait_for_completion(&c) && try_wait_for_completion(&c));
	CHECK(!try_wait_for_completion(&c));

	complete_all(&c);
	CHECK(wait_for_completion_timeout(&c, 1) > 0);
	CHECK(wait_for_completion_timeout(&c, 1) > 0 && completion_done(&c));
	return 0;
}
IN_WORLD(completions, completions)

static DECLARE_WAIT_QUEUE_HEAD(flag_wq);
static int flag;

static void set_flag(struct timer_list *t)
{
	flag = 1;
	wake_up(&flag_wq);
}

static int wait_event_checks(void)
{
	struct timer_list t;
	unsigned long start;
	long ret;

	flag = 0;
	start = jiffies;
	ret = wait_event_timeout(flag_wq, flag, 5);
	CHECK(ret == 0 && time_after_eq(jiffies, start + 5));
	CHECK(list_empty(&flag_wq.head));

	timer_setup(&t, set_flag, 0);
	start = jiffies;
	mod_timer(&t, jiffies + 3);
	ret = wait_event_timeout(flag_wq, flag, HZ);
	CHECK(ret > 0 && flag == 1 && time_after_eq(jiffies, start + 3));
	CHECK(list_empty(&flag_wq.head));

	/* Already true: no sleep at all. */
	start = jiffies;
	CHECK(wait_event_timeout(flag_wq, flag, HZ) == HZ);
	return 0;
}
IN_WORLD(wait_event, wait_event_checks)

static DEFINE_MUTEX(test_mutex);
static char order[8];
static unsigned int norder;
static struct completion holder_locked, holder_done;

static void mutex_holder(void *arg)
{
	mutex_lock(&test_mutex);
	order[norder++] = 'A';
	complete(&holder_locked);
	msleep(30);			/* sleeps holding it */
	order[norder++] = 'a';
	mutex_unlock(&test_mutex);
	complete(&holder_done);
}

static int mutex_checks(void)
{
	norder = 0;
	memset(order, 0, sizeof(order));
	init_completion(&holder_locked);
	init_completion(&holder_done);
	CHECK(lx_thread_start("lx-holder", mutex_holder, NULL));
	wait_for_completion(&holder_locked);
	CHECK(mutex_is_locked(&test_mutex) && !mutex_trylock(&test_mutex));
	mutex_lock(&test_mutex);	/* sleeps until the holder lets go */
	order[norder++] = 'B';
	mutex_unlock(&test_mutex);
	wait_for_completion(&holder_done);
	CHECK(strcmp(order, "AaB") == 0);
	CHECK(mutex_trylock(&test_mutex));
	mutex_unlock(&test_mutex);
	CHECK(!mutex_is_locked(&test_mutex));
	return 0;
}
IN_WORLD(mutex, mutex_checks)

struct who {
	struct task_struct *task, *seen, *seen_after_sleep;
	char comm[TASK_COMM_LEN];
	int preempt;
	struct completion done;
};

static void who_am_i(void *arg)
{
	struct who *w = arg;

	w->seen = task_now();
	memcpy(w->comm, w->seen->comm, sizeof(w->comm));
	w->preempt = preempt_count();
	msleep(10);		/* the other thread runs meanwhile */
	w->seen_after_sleep = task_now();
	complete(&w->done);
}

static int current_checks(void)
{
	struct task_struct *me = task_now();
	struct who a = { 0 }, b = { 0 };

	init_completion(&a.done);
	init_completion(&b.done);
	a.task = lx_thread_start("lx-who-a", who_am_i, &a);
	b.task = lx_thread_start("lx-who-b", who_am_i, &b);
	CHECK(a.task && b.task);
	wait_for_completion(&a.done);
	wait_for_completion(&b.done);
	CHECK(a.seen == a.task && b.seen == b.task && a.seen != b.seen);
	CHECK(a.seen != me && b.seen != me && task_now() == me);
	CHECK(a.seen_after_sleep == a.seen && b.seen_after_sleep == b.seen);
	CHECK(!strcmp(a.comm, "lx-who-a") && !strcmp(b.comm, "lx-who-b"));
	CHECK(a.preempt == 0 && b.preempt == 0);
	return 0;
}
IN_WORLD(current, current_checks)

static int same_task(void *arg)
{
	return task_now() == arg ? 0 : __LINE__;
}

static int guest(void *arg)
{
	unsigned long *task = arg;
	struct task_struct *me = task_now();

	if (strcmp(me->comm, "graft") != 0)
		return __LINE__;
	if (lx_world_run(same_task, me))	/* nests: the same task */
		return __LINE__;
	msleep(30);			/* lets the world go meanwhile */
	if (task_now() != me)
		return __LINE__;
	*task = (unsigned long)me;
	return 0;
}

int lx_emul_selftest_guest(unsigned long *task)
{
	return lx_world_run(guest, task);
}

unsigned long lx_emul_selftest_world_cost(unsigned int rounds)
{
	u64 start = rdtsc_ordered();
	unsigned int i;

	for (i = 0; i < rounds; i++) {
		lx_world_enter();
		lx_world_leave();
	}
	return (rdtsc_ordered() - start) / rounds;
}
