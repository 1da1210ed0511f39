/* SPDX-License-Identifier: GPL-2.0-only */
/* Suite "linux-irq": interrupts, bottom halves, threads, sleeping and workqueues of the Linux world. */
/*
 * The checks run in the Linux world (tests/linux-emu/lx_selftest_irq.c)
 * and return the line of the first failed check; this side checks what
 * they print, that line 8 goes back to the host masked and unused, and
 * that every page, heap byte and thread came back.
 */
#include <stdint.h>

#include "kern/console.h"
#include "kern/intr.h"
#include "kern/ktest.h"
#include "kern/kprintf.h"
#include "kern/sched.h"
#include "kern/string.h"
#include "kern/thread.h"
#include "linux-emu/include/lx_emul.h"
#include "tests/kernel/user_task.h"
#include "tests/linux-emu/lx_selftest_bus.h"
#include "tests/linux-emu/lx_selftest_idr.h"
#include "tests/linux-emu/lx_selftest_irq.h"
#include "tests/linux-emu/lx_selftest_hrtimer.h"
#include "tests/linux-emu/lx_selftest_kthread.h"
#include "tests/linux-emu/lx_selftest_pm_qos.h"
#include "tests/linux-emu/lx_selftest_support.h"
#include "tests/linux-emu/lx_selftest_spurious.h"

#define RTC_IRQ	8

static char captured[2048];

struct baseline {
	struct user_task_baseline mem;
	unsigned int threads;
};

static void take_baseline(struct baseline *b)
{
	user_task_baseline(&b->mem);
	b->threads = thread_count();
}

/* Ended threads are freed after the next switch: give them two ticks. */
static void expect_baseline(struct ktest *t, const struct baseline *b)
{
	thread_sleep_ticks(2);
	user_task_expect_baseline(t, &b->mem);
	if (thread_count() != b->threads)
		ktest_fail(t, "expected %u threads, %u are alive", b->threads,
			   thread_count());
	if (!intr_is_masked(RTC_IRQ) || intr_handler_count(RTC_IRQ) != 0)
		ktest_fail(t, "line 8 not given back masked and unused");
}

/* Run @check with baselines around it and its console captured;
 * returns the captured text. */
static const char *run(struct ktest *t, int (*check)(void))
{
	struct baseline b;
	size_t n;
	int line;

	take_baseline(&b);
	console_capture_start(captured, sizeof(captured) - 1);
	line = check();
	n = console_capture_stop();
	captured[n] = '\0';
	if (line != 0)
		ktest_fail(t, "check at lx_selftest_irq.c:%d failed", line);
	expect_baseline(t, &b);
	return captured;
}

static void expect_printed(struct ktest *t, const char *out, const char *what)
{
	if (!kmemmem(out, strlen(out), what))
		ktest_fail(t, "expected \"%s\" on the console, got \"%s\"",
			   what, out);
}

/* First: the others need the clock, the softirq thread and workers. */
static void linux_world_starts_with_its_threads(struct ktest *t)
{
	unsigned int before = thread_count();

	KTEST_EXPECT_EQ(t, lx_emul_init(), 0);
	/* lx-softirq and the five system workqueues' workers. */
	KTEST_EXPECT_EQ(t, thread_count(), before + 6);
}

static void request_irq_counts_and_free_irq_stops(struct ktest *t)
{
	run(t, lx_emul_selftest_irq_request);
}

static void disable_irq_nests_and_enable_irq_resumes(struct ktest *t)
{
	run(t, lx_emul_selftest_irq_disable_nests);
}

static void busy_line_refused_with_ebusy(struct ktest *t)
{
	const char *out = run(t, lx_emul_selftest_irq_refused);

	expect_printed(t, out, "genirq: Flags mismatch irq 8. 00000000 "
		       "(lx-rtc-b) vs. 00000000 (lx-rtc)\n");
	expect_printed(t, out, "linux-emu: irq 0 for lx-clock: the line is "
		       "not free\n");
}

static void free_irq_of_a_free_line_warns(struct ktest *t)
{
	const char *out = run(t, lx_emul_selftest_irq_free_twice);

	expect_printed(t, out, "Unbalanced enable for IRQ 8\n");
	expect_printed(t, out, "Trying to free already-free IRQ 8\n");
}

static void shared_handlers_all_run(struct ktest *t)
{
	run(t, lx_emul_selftest_irq_shared);
}

static void threaded_handler_runs_in_its_thread(struct ktest *t)
{
	run(t, lx_emul_selftest_irq_threaded);
}

static void autoprobe_finds_the_line_that_fired(struct ktest *t)
{
	run(t, lx_emul_selftest_irq_autoprobe);
}

static void autoprobe_finds_none_when_silent(struct ktest *t)
{
	run(t, lx_emul_selftest_irq_autoprobe_silent);
}

static void autoprobe_answers_negative_when_several_fire(struct ktest *t)
{
	run(t, lx_emul_selftest_irq_autoprobe_several);
}

static void bottom_halves_run_after_handlers_and_bh_enable(struct ktest *t)
{
	run(t, lx_emul_selftest_bottom_halves);
}

static void work_and_delayed_work_run_on_workers(struct ktest *t)
{
	run(t, lx_emul_selftest_workqueues);
}

static void cancelled_work_never_runs(struct ktest *t)
{
	run(t, lx_emul_selftest_workqueue_cancel);
}

static void completions_wake_from_timers_and_time_out(struct ktest *t)
{
	run(t, lx_emul_selftest_completions);
}

static void wait_event_timeout_times_out_and_succeeds(struct ktest *t)
{
	run(t, lx_emul_selftest_wait_event);
}

static void mutex_sleeps_until_unlocked(struct ktest *t)
{
	run(t, lx_emul_selftest_mutex);
}

static void each_thread_has_its_own_current(struct ktest *t)
{
	run(t, lx_emul_selftest_current);
}

struct guest_run {
	unsigned long task;
	int line;
	bool done;
};

static void guest_thread(void *arg)
{
	struct guest_run *g = arg;

	g->line = lx_emul_selftest_guest(&g->task);
	g->done = true;
	thread_wakeup(g);
}

/* Two kernel threads enter the world at once: one waits for the other,
 * each gets a task of its own while it is inside. */
static void host_threads_entering_get_their_own_tasks(struct ktest *t)
{
	struct guest_run other = { 0 }, mine = { 0 };
	struct baseline b;

	take_baseline(&b);
	KTEST_EXPECT_EQ(t, kernel_thread_create("lx-guest", THREAD_PRIORITY_DEFAULT,
						guest_thread, &other, NULL),
			KERN_SUCCESS);
	mine.line = lx_emul_selftest_guest(&mine.task);
	for (int i = 0; i < 100 && !other.done; i++)
		thread_sleep_ticks(1);
	KTEST_EXPECT_TRUE(t, other.done);
	KTEST_EXPECT_EQ(t, mine.line, 0);
	KTEST_EXPECT_EQ(t, other.line, 0);
	KTEST_EXPECT_TRUE(t, mine.task != 0 && other.task != 0 &&
			  mine.task != other.task);
	expect_baseline(t, &b);
}

/* @check of lx_selftest_support.c, as run() does for lx_selftest_irq.c. */
static void run_support(struct ktest *t, int (*check)(void))
{
	struct baseline b;
	int line;

	take_baseline(&b);
	line = check();
	if (line != 0)
		ktest_fail(t, "check at lx_selftest_support.c:%d failed", line);
	expect_baseline(t, &b);
}

static void rwsem_readers_share_and_writers_wait_in_order(struct ktest *t)
{
	run_support(t, lx_emul_selftest_rwsem);
}

static void semaphores_count_time_out_and_wake_waiters(struct ktest *t)
{
	run_support(t, lx_emul_selftest_semaphore);
}

static void tasklets_run_once_in_bottom_halves(struct ktest *t)
{
	run_support(t, lx_emul_selftest_tasklet);
}

static void call_rcu_runs_after_the_world_is_let_go(struct ktest *t)
{
	run_support(t, lx_emul_selftest_call_rcu);
}

static void notifier_chains_register_call_and_remove(struct ktest *t)
{
	run_support(t, lx_emul_selftest_notifier_chains);
}

static void chrdev_regions_and_misc_minors_as_linux(struct ktest *t)
{
	run_support(t, lx_emul_selftest_chrdev);
}

static void cdevs_class_devices_and_endless_files(struct ktest *t)
{
	run_support(t, lx_emul_selftest_cdev);
}

static void device_children_listed_in_order(struct ktest *t)
{
	run_support(t, lx_emul_selftest_device_children);
}

/* @check of lx_selftest_@file.c, as run_support() does. */
static void run_check(struct ktest *t, const char *file, int (*check)(void))
{
	struct baseline b;
	int line;

	take_baseline(&b);
	line = check();
	if (line != 0)
		ktest_fail(t, "check at lx_selftest_%s.c:%d failed", file, line);
	expect_baseline(t, &b);
}

static void run_bus(struct ktest *t, int (*check)(void))
{
	run_check(t, "bus", check);
}

static void bus_devices_and_drivers_walked_in_order(struct ktest *t)
{
	run_bus(t, lx_emul_selftest_bus_walk);
}

static void drivers_bound_without_probe_and_released(struct ktest *t)
{
	run_bus(t, lx_emul_selftest_bus_bind);
}

static void bus_notifiers_hear_adds_binds_and_removes(struct ktest *t)
{
	run_bus(t, lx_emul_selftest_bus_notify);
}

static void kthreads_start_when_woken_and_stop_with_their_result(
	struct ktest *t)
{
	run_check(t, "kthread", lx_emul_selftest_kthread);
}

static void hrtimers_expire_in_order_never_early_and_restart(
	struct ktest *t)
{
	run_check(t, "hrtimer", lx_emul_selftest_hrtimer);
}

static void pm_qos_flags_requests_aggregate_and_go_with_their_device(
	struct ktest *t)
{
	run_check(t, "pm_qos", lx_emul_selftest_pm_qos_flags);
}

static void idr_ids_lowest_free_reserved_cyclic_and_based(struct ktest *t)
{
	struct baseline b;
	int line;

	take_baseline(&b);
	line = lx_emul_selftest_idr();
	if (line != 0)
		ktest_fail(t, "check at lx_selftest_idr.c:%d failed", line);
	expect_baseline(t, &b);
}

static void auxiliary_devices_bind_by_name_and_unbind(struct ktest *t)
{
	run_bus(t, lx_emul_selftest_auxiliary_bus);
}

static void a_line_nobody_cares_about_is_disabled_and_polled(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, lx_emul_selftest_irq_spurious(), 0);
}

/* Not a check: the figure the report quotes (instruction-count TSC). */
static void world_entry_cost_measured(struct ktest *t)
{
	unsigned long ticks = lx_emul_selftest_world_cost(1000);

	kprintf("    # lx_world_enter + lx_world_leave: %lu TSC "
		"ticks\n", ticks);
	KTEST_EXPECT_TRUE(t, ticks > 0);
}

static const struct ktest_case linux_irq_cases[] = {
	{ "linux_world_starts_with_its_threads",
	  linux_world_starts_with_its_threads },
	{ "request_irq_counts_and_free_irq_stops",
	  request_irq_counts_and_free_irq_stops },
	{ "disable_irq_nests_and_enable_irq_resumes",
	  disable_irq_nests_and_enable_irq_resumes },
	{ "busy_line_refused_with_ebusy", busy_line_refused_with_ebusy },
	{ "free_irq_of_a_free_line_warns", free_irq_of_a_free_line_warns },
	{ "shared_handlers_all_run", shared_handlers_all_run },
	{ "threaded_handler_runs_in_its_thread",
	  threaded_handler_runs_in_its_thread },
	{ "autoprobe_finds_the_line_that_fired",
	  autoprobe_finds_the_line_that_fired },
	{ "autoprobe_finds_none_when_silent",
	  autoprobe_finds_none_when_silent },
	{ "autoprobe_answers_negative_when_several_fire",
	  autoprobe_answers_negative_when_several_fire },
	{ "bottom_halves_run_after_handlers_and_bh_enable",
	  bottom_halves_run_after_handlers_and_bh_enable },
	{ "work_and_delayed_work_run_on_workers",
	  work_and_delayed_work_run_on_workers },
	{ "cancelled_work_never_runs", cancelled_work_never_runs },
	{ "completions_wake_from_timers_and_time_out",
	  completions_wake_from_timers_and_time_out },
	{ "wait_event_timeout_times_out_and_succeeds",
	  wait_event_timeout_times_out_and_succeeds },
	{ "mutex_sleeps_until_unlocked", mutex_sleeps_until_unlocked },
	{ "each_thread_has_its_own_current", each_thread_has_its_own_current },
	{ "host_threads_entering_get_their_own_tasks",
	  host_threads_entering_get_their_own_tasks },
	{ "rwsem_readers_share_and_writers_wait_in_order",
	  rwsem_readers_share_and_writers_wait_in_order },
	{ "semaphores_count_time_out_and_wake_waiters",
	  semaphores_count_time_out_and_wake_waiters },
	{ "tasklets_run_once_in_bottom_halves",
	  tasklets_run_once_in_bottom_halves },
	{ "call_rcu_runs_after_the_world_is_let_go",
	  call_rcu_runs_after_the_world_is_let_go },
	{ "notifier_chains_register_call_and_remove",
	  notifier_chains_register_call_and_remove },
	{ "chrdev_regions_and_misc_minors_as_linux",
	  chrdev_regions_and_misc_minors_as_linux },
	{ "cdevs_class_devices_and_endless_files",
	  cdevs_class_devices_and_endless_files },
	{ "device_children_listed_in_order",
	  device_children_listed_in_order },
	{ "bus_devices_and_drivers_walked_in_order",
	  bus_devices_and_drivers_walked_in_order },
	{ "drivers_bound_without_probe_and_released",
	  drivers_bound_without_probe_and_released },
	{ "bus_notifiers_hear_adds_binds_and_removes",
	  bus_notifiers_hear_adds_binds_and_removes },
	{ "kthreads_start_when_woken_and_stop_with_their_result",
	  kthreads_start_when_woken_and_stop_with_their_result },
	{ "hrtimers_expire_in_order_never_early_and_restart",
	  hrtimers_expire_in_order_never_early_and_restart },
	{ "pm_qos_flags_requests_aggregate_and_go_with_their_device",
	  pm_qos_flags_requests_aggregate_and_go_with_their_device },
	{ "idr_ids_lowest_free_reserved_cyclic_and_based",
	  idr_ids_lowest_free_reserved_cyclic_and_based },
	{ "auxiliary_devices_bind_by_name_and_unbind",
	  auxiliary_devices_bind_by_name_and_unbind },
	{ "a_line_nobody_cares_about_is_disabled_and_polled",
	  a_line_nobody_cares_about_is_disabled_and_polled },
	{ "world_entry_cost_measured", world_entry_cost_measured },
};
KTEST_SUITE(linux_irq_suite, "linux-irq", linux_irq_cases);
