/* SPDX-License-Identifier: GPL-2.0-only */
/* Suite "sched": kernel threads, priorities, preemption, waiting and timeouts. */
/*
 * The test body runs in the boot thread at THREAD_PRIORITY_DEFAULT (12);
 * "higher" threads use priority 4, "lower" ones 20.  Waits are bounded:
 * wait_for() gives up after a number of ticks so that a scheduler bug
 * fails a case instead of hanging the boot.
 */
#include <stdint.h>

#include "kern/clock.h"
#include "kern/kalloc.h"
#include "kern/ktest.h"
#include "kern/sched.h"
#include "kern/thread.h"
#include "vm/vm_page.h"

#define HIGH	4
#define LOW	20

/* Sleep in 1-tick steps until *flag is non-zero or @ticks pass. */
static int wait_for(volatile int *flag, uint64_t ticks)
{
	uint64_t end = clock_ticks() + ticks;

	while (!*flag && clock_ticks() < end)
		thread_sleep_ticks(1);
	return *flag;
}

static void set_flag(void *arg)
{
	*(volatile int *)arg = 1;
}

static void kernel_thread_runs_and_its_memory_is_freed(struct ktest *t)
{
	volatile int ran = 0;
	unsigned int threads = thread_count();
	uint64_t bytes = kalloc_bytes_in_use();

	KTEST_EXPECT_EQ(t, kernel_thread_create("flag", LOW, set_flag,
						(void *)&ran, NULL),
			KERN_SUCCESS);
	KTEST_EXPECT_TRUE(t, wait_for(&ran, 50));
	thread_sleep_ticks(1);	/* let the exited thread be freed */
	KTEST_EXPECT_EQ(t, thread_count(), threads);
	KTEST_EXPECT_EQ(t, kalloc_bytes_in_use(), bytes);
}

static void create_rejects_bad_arguments(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, kernel_thread_create("x", -1, set_flag, NULL, NULL),
			KERN_INVALID_ARGUMENT);
	KTEST_EXPECT_EQ(t, kernel_thread_create("x", THREAD_PRIORITIES,
						set_flag, NULL, NULL),
			KERN_INVALID_ARGUMENT);
	KTEST_EXPECT_EQ(t, kernel_thread_create("x", LOW, NULL, NULL, NULL),
			KERN_INVALID_ARGUMENT);
}

static void higher_priority_thread_runs_before_create_returns(
	struct ktest *t)
{
	volatile int ran = 0;

	KTEST_EXPECT_EQ(t, kernel_thread_create("high", HIGH, set_flag,
						(void *)&ran, NULL),
			KERN_SUCCESS);
	KTEST_EXPECT_TRUE(t, ran);
	thread_sleep_ticks(1);
}

static void lower_priority_thread_waits_until_caller_blocks(struct ktest *t)
{
	volatile int ran = 0;
	uint64_t end;

	KTEST_EXPECT_EQ(t, kernel_thread_create("low", LOW, set_flag,
						(void *)&ran, NULL),
			KERN_SUCCESS);
	/* Spin (no blocking) across several quanta: low must not run. */
	end = clock_ticks() + 3 * SCHED_QUANTUM;
	while (clock_ticks() < end)
		__asm__ volatile("pause");
	KTEST_EXPECT_FALSE(t, ran);
	KTEST_EXPECT_TRUE(t, wait_for(&ran, 50));
}

/* Two spinning threads of one priority, both below the test thread. */
struct spinner {
	volatile uint64_t count;
	volatile int stop;
};

static void spin(void *arg)
{
	struct spinner *s = arg;

	while (!s->stop)
		s->count++;
}

static void equal_priority_threads_share_the_cpu_by_quantum(struct ktest *t)
{
	static struct spinner a, b;
	uint64_t switches = sched_switch_count();

	a.count = b.count = 0;
	a.stop = b.stop = 0;
	KTEST_EXPECT_EQ(t, kernel_thread_create("spin-a", LOW, spin, &a, NULL),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, kernel_thread_create("spin-b", LOW, spin, &b, NULL),
			KERN_SUCCESS);
	thread_sleep_ticks(8 * SCHED_QUANTUM);
	a.stop = b.stop = 1;
	thread_sleep_ticks(2 * SCHED_QUANTUM);
	KTEST_EXPECT_NE(t, a.count, 0);
	KTEST_EXPECT_NE(t, b.count, 0);
	/* Round robin switched between them several times. */
	KTEST_EXPECT_GE(t, sched_switch_count() - switches, 6);
}

static void block_with_timeout_times_out(struct ktest *t)
{
	static int event;
	uint64_t start = clock_ticks();

	assert_wait(&event);
	thread_set_timeout(5);
	KTEST_EXPECT_EQ(t, thread_block(), THREAD_TIMED_OUT);
	KTEST_EXPECT_GE(t, clock_ticks() - start, 5);
}

static void wakeup_before_block_is_not_lost(struct ktest *t)
{
	static int event;

	assert_wait(&event);
	KTEST_EXPECT_EQ(t, thread_wakeup(&event), 1);
	thread_set_timeout(50);
	KTEST_EXPECT_EQ(t, thread_block(), THREAD_AWAKENED);
}

struct waiter {
	const void *event;
	volatile int woken;
	volatile enum thread_wait_result result;
};

static void wait_once(void *arg)
{
	struct waiter *w = arg;

	assert_wait(w->event);
	thread_set_timeout(200);
	w->result = thread_block();
	w->woken = 1;
}

static void wakeup_one_wakes_exactly_one_waiter(struct ktest *t)
{
	static int event;
	static struct waiter w[3];
	int woken = 0;

	for (int i = 0; i < 3; i++) {
		w[i].event = &event;
		w[i].woken = 0;
		KTEST_EXPECT_EQ(t, kernel_thread_create("waiter", HIGH,
							wait_once, &w[i], NULL),
				KERN_SUCCESS);
	}
	KTEST_EXPECT_EQ(t, thread_wakeup_one(&event), 1);
	for (int i = 0; i < 3; i++)
		woken += w[i].woken;
	KTEST_EXPECT_EQ(t, woken, 1);
	KTEST_EXPECT_TRUE(t, w[0].woken);	/* the longest waiter */
	KTEST_EXPECT_EQ(t, w[0].result, THREAD_AWAKENED);
	KTEST_EXPECT_EQ(t, thread_wakeup(&event), 2);
	KTEST_EXPECT_TRUE(t, w[1].woken && w[2].woken);
}

static void wake_event(void *event)
{
	thread_wakeup(event);
}

static void wakeup_from_interrupt_preempts_on_return(struct ktest *t)
{
	static int event;
	static struct waiter w;
	static struct timeout to;
	volatile uint64_t end;

	w.event = &event;
	w.woken = 0;
	KTEST_EXPECT_EQ(t, kernel_thread_create("irq-waiter", HIGH, wait_once,
						&w, NULL),
			KERN_SUCCESS);
	/* A timeout runs in the tick interrupt: it wakes the waiter there. */
	timeout_set(&to, 2, wake_event, &event);
	end = clock_ticks() + 20;
	while (!w.woken && clock_ticks() < end)
		__asm__ volatile("pause");	/* spin: only preemption helps */
	KTEST_EXPECT_TRUE(t, w.woken);
	KTEST_EXPECT_EQ(t, w.result, THREAD_AWAKENED);
}

static void sleep_lasts_at_least_its_ticks(struct ktest *t)
{
	uint64_t start = clock_ticks();

	thread_sleep_ticks(3);
	KTEST_EXPECT_GE(t, clock_ticks() - start, 3);
}

static void many_threads_all_run_and_nothing_leaks(struct ktest *t)
{
	static volatile int ran[100];
	unsigned int threads = thread_count();
	uint64_t bytes = kalloc_bytes_in_use();
	uint64_t pages = vm_page_free_count(VM_ZONE_DMA32) +
			 vm_page_free_count(VM_ZONE_DMA);
	int all = 1;

	for (int i = 0; i < 100; i++) {
		ran[i] = 0;
		if (kernel_thread_create("many", LOW, set_flag, (void *)&ran[i],
					 NULL) != KERN_SUCCESS)
			ktest_fail(t, "create %d failed", i);
	}
	for (int i = 0; i < 100; i++)
		all &= wait_for(&ran[i], 100);
	thread_sleep_ticks(2);
	KTEST_EXPECT_TRUE(t, all);
	KTEST_EXPECT_EQ(t, thread_count(), threads);
	KTEST_EXPECT_EQ(t, kalloc_bytes_in_use(), bytes);
	KTEST_EXPECT_EQ(t, vm_page_free_count(VM_ZONE_DMA32) +
			   vm_page_free_count(VM_ZONE_DMA), pages);
}

static void idle_poll_words_take_microseconds_up_to_a_tick(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, sched_idle_poll_words(""), SCHED_IDLE_POLL_US);
	KTEST_EXPECT_EQ(t, sched_idle_poll_words("idle_poll=0"), 0);
	KTEST_EXPECT_EQ(t, sched_idle_poll_words("x idle_poll=7"), 7);
	KTEST_EXPECT_EQ(t, sched_idle_poll_words("idle_poll=10000"),
			SCHED_IDLE_POLL_MAX_US);
	KTEST_EXPECT_EQ(t, sched_idle_poll_words("idle_poll=10001"),
			SCHED_IDLE_POLL_US);
	KTEST_EXPECT_EQ(t, sched_idle_poll_words("idle_poll=-1"),
			SCHED_IDLE_POLL_US);
	KTEST_EXPECT_EQ(t, sched_idle_poll_words("idle_poll=5us"),
			SCHED_IDLE_POLL_US);
	KTEST_EXPECT_EQ(t, sched_idle_poll_words("idle_poll"),
			SCHED_IDLE_POLL_US);
	sched_idle_poll_words("");
}

/* Sleep a tick three times; the idle thread's counts grow by @polled and
 * @halted.  A wait is counted only when the next one begins
 * (sched_idle_counts), so a first sleep comes before: the three waits
 * counted are then those of the first three sleeps, all with the
 * setting of the moment. */
static void idle_counts_over_three_ticks(uint64_t *polled, uint64_t *halted)
{
	uint64_t p0, h0;

	thread_sleep_ticks(1);
	sched_idle_counts(&p0, &h0);
	for (int i = 0; i < 3; i++)
		thread_sleep_ticks(1);
	sched_idle_counts(polled, halted);
	*polled -= p0;
	*halted -= h0;
}

static void idle_thread_polls_before_it_halts(struct ktest *t)
{
	uint64_t polled, halted;

	/* A poll of a whole tick: each tick comes while the idle thread
	 * polls, and it never halts. */
	sched_idle_poll_words("idle_poll=10000");
	idle_counts_over_three_ticks(&polled, &halted);
	KTEST_EXPECT_TRUE(t, polled >= 3);
	KTEST_EXPECT_EQ(t, halted, 0);
	/* No poll: it halts each time. */
	sched_idle_poll_words("idle_poll=0");
	idle_counts_over_three_ticks(&polled, &halted);
	KTEST_EXPECT_EQ(t, polled, 0);
	KTEST_EXPECT_TRUE(t, halted >= 3);
	sched_idle_poll_words("");
}

static const struct ktest_case sched_cases[] = {
	{ "kernel_thread_runs_and_its_memory_is_freed",
	  kernel_thread_runs_and_its_memory_is_freed },
	{ "create_rejects_bad_arguments", create_rejects_bad_arguments },
	{ "higher_priority_thread_runs_before_create_returns",
	  higher_priority_thread_runs_before_create_returns },
	{ "lower_priority_thread_waits_until_caller_blocks",
	  lower_priority_thread_waits_until_caller_blocks },
	{ "equal_priority_threads_share_the_cpu_by_quantum",
	  equal_priority_threads_share_the_cpu_by_quantum },
	{ "block_with_timeout_times_out", block_with_timeout_times_out },
	{ "wakeup_before_block_is_not_lost", wakeup_before_block_is_not_lost },
	{ "wakeup_one_wakes_exactly_one_waiter",
	  wakeup_one_wakes_exactly_one_waiter },
	{ "wakeup_from_interrupt_preempts_on_return",
	  wakeup_from_interrupt_preempts_on_return },
	{ "sleep_lasts_at_least_its_ticks", sleep_lasts_at_least_its_ticks },
	{ "many_threads_all_run_and_nothing_leaks",
	  many_threads_all_run_and_nothing_leaks },
	{ "idle_poll_words_take_microseconds_up_to_a_tick",
	  idle_poll_words_take_microseconds_up_to_a_tick },
	{ "idle_thread_polls_before_it_halts",
	  idle_thread_polls_before_it_halts },
};
KTEST_SUITE(sched_suite, "sched", sched_cases);
