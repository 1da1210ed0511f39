/* SPDX-License-Identifier: GPL-2.0-only */
/* Suite "thread": several user threads per task, and tasks made by tasks, through mach.defs. */
/*
 * tests/user/thread_probe.c makes threads in itself and a child task with
 * MIG stubs and prints one USER-PASS/USER-FAIL line per check.  Around one
 * child-task round trip it prints "CHECKPOINT before" / "CHECKPOINT after"
 * and suspends itself; this suite then compares what the kernel holds at
 * the two points (the child must have left nothing behind) and resumes it.
 * The other cases check, inside the kernel, that user-supplied state that
 * the 32-bit MIG flavour cannot even express is refused before iretq.
 */
#include <stdint.h>

#include <mach/machine/thread_status.h>

#include "ipc/ipc_port.h"
#include "kern/bootstrap.h"
#include "kern/clock.h"
#include "kern/console.h"
#include "kern/kalloc.h"
#include "kern/ktest.h"
#include "kern/sched.h"
#include "kern/string.h"
#include "kern/task.h"
#include "kern/thread.h"
#include "tests/kernel/user_task.h"
#include "x86_64/gdt.h"
#include "x86_64/thread_state.h"

static char console[32768];

/* Everything a finished child task must have given back. */
struct counters {
	uint64_t pages, bytes;
	unsigned int ports, threads, tasks;
};

static void counters_take(struct counters *c)
{
	c->pages = user_task_free_pages();
	c->bytes = kalloc_bytes_in_use();
	c->ports = ipc_port_count();
	c->threads = thread_count();
	c->tasks = task_count();
}

static void counters_expect_equal(struct ktest *t, const struct counters *now,
				  const struct counters *was)
{
	KTEST_EXPECT_EQ(t, now->pages, was->pages);
	KTEST_EXPECT_EQ(t, now->bytes, was->bytes);
	KTEST_EXPECT_EQ(t, now->ports, was->ports);
	KTEST_EXPECT_EQ(t, now->threads, was->threads);
	KTEST_EXPECT_EQ(t, now->tasks, was->tasks);
}

/* True once every thread of @task waits, its task suspended. */
static bool task_stopped(const struct task *task)
{
	if (task->suspend_count == 0)
		return false;
	for (const struct thread *t = task->threads; t != NULL;
	     t = t->task_next)
		if (t->state != THREAD_BLOCKED)
			return false;
	return true;
}

/* What the console shows when the probe itself (not a child task of it,
 * named "child of ...") ends. */
#define PROBE_END	"task thread_probe.elf terminated:"

static bool probe_ended(void)
{
	return kmemmem(console, strlen(console), PROBE_END) != NULL;
}

/* Wait (at most @seconds) until @task printed @mark and stopped; false
 * if it ended (it must not be touched then) or the time ran out. */
static bool wait_checkpoint(struct task *task, const char *mark,
			    unsigned int seconds)
{
	uint64_t end = clock_ticks() + (uint64_t)seconds * HZ;

	while (clock_ticks() < end && !probe_ended()) {
		if (kmemmem(console, strlen(console), mark) &&
		    task_stopped(task))
			return true;
		thread_sleep_ticks(1);
	}
	return false;
}

/* Wait (at most @seconds) until the probe ended and every task is gone
 * (its children end before it). */
static bool wait_probe_end(unsigned int tasks_before, unsigned int seconds)
{
	uint64_t end = clock_ticks() + (uint64_t)seconds * HZ;
	bool gone;

	do {
		thread_sleep_ticks(1);	/* exited threads are freed after a
					 * switch */
		gone = probe_ended() && task_count() == tasks_before;
	} while (!gone && clock_ticks() < end);
	return gone;
}

static void user_threads_and_child_tasks_pass_their_checks(struct ktest *t)
{
	const struct boot_module *m = user_task_module("mode=all");
	struct counters at_start, at_before, at_after, at_end;
	struct task *task;

	if (m == NULL) {
		ktest_fail(t, "harness passed no thread_probe module");
		return;
	}
	counters_take(&at_start);
	console_capture_start(console, sizeof(console));
	if (bootstrap_task_create(m, &task) != KERN_SUCCESS) {
		console_capture_stop();
		ktest_fail(t, "thread_probe did not start");
		return;
	}
	if (!wait_checkpoint(task, "CHECKPOINT before", 60)) {
		ktest_fail(t, "no \"CHECKPOINT before\" stop within 60 s");
		goto out;
	}
	counters_take(&at_before);
	KTEST_EXPECT_EQ(t, task_resume(task), KERN_SUCCESS);
	if (!wait_checkpoint(task, "CHECKPOINT after", 30)) {
		ktest_fail(t, "no \"CHECKPOINT after\" stop within 30 s");
		goto out;
	}
	counters_take(&at_after);
	counters_expect_equal(t, &at_after, &at_before);
	KTEST_EXPECT_EQ(t, task_resume(task), KERN_SUCCESS);
out:
	if (!wait_probe_end(at_start.tasks, 60))
		ktest_fail(t, "thread_probe did not end within 60 s");
	console_capture_stop();
	user_task_expect_checks(t, console, 90);
	if (strcmp(task_last_reason, "task_terminate") != 0)
		ktest_fail(t, "the task ended by \"%s\", not by exit()",
			   task_last_reason);
	counters_take(&at_end);
	counters_expect_equal(t, &at_end, &at_start);
}

/* A page fault in one thread ends the task: the threads that spin, wait
 * in mach_msg or never started all go, with everything they held. */
static void fault_in_one_thread_ends_every_thread(struct ktest *t)
{
	struct counters at_start, at_end;

	counters_take(&at_start);
	if (!user_task_run(t, "mode=fault", 30, console, sizeof(console)))
		return;
	user_task_expect_checks(t, console, 4);
	if (!kmemmem(task_last_reason, strlen(task_last_reason),
		     "page fault at 0x0"))
		ktest_fail(t, "expected a page fault at 0x0, got \"%s\"",
			   task_last_reason);
	counters_take(&at_end);
	counters_expect_equal(t, &at_end, &at_start);
}

/* One entry the kernel must refuse: rip, rsp. */
struct bad_entry {
	const char *what;
	uint64_t rip, rsp;
};

static const struct bad_entry bad_entries[] = {
	{ "rip in the kernel image", 0xffffffff80100000ull, 0x10000 },
	{ "rip non-canonical", 0x0000800000000000ull, 0x10000 },
	{ "rsp in the kernel", 0x401000, 0xffff800000001000ull },
	{ "rsp non-canonical", 0x401000, 0x0001000000000000ull },
};

static void kernel_or_noncanonical_entry_is_refused(struct ktest *t)
{
	struct trap_frame f, was;

	thread_state_init(&f);
	was = f;
	for (size_t i = 0; i < sizeof(bad_entries) / sizeof(bad_entries[0]);
	     i++) {
		const struct bad_entry *e = &bad_entries[i];
		kern_return_t kr = thread_state_set_entry(&f, e->rip, e->rsp,
							  0);

		if (kr != KERN_INVALID_ARGUMENT)
			ktest_fail(t, "%s: expected KERN_INVALID_ARGUMENT, "
				   "got %d", e->what, kr);
		if (memcmp(&f, &was, sizeof(f)) != 0)
			ktest_fail(t, "%s: the frame changed", e->what);
	}
	KTEST_EXPECT_EQ(t, thread_state_set_entry(&f, 0x401000, 0x20010000,
						  7), KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, f.rip, 0x401000);
	KTEST_EXPECT_EQ(t, f.rdi, 7);
}

static void task_start_thread_refuses_kernel_rip(struct ktest *t)
{
	struct user_task_baseline b;
	struct task *task;

	user_task_baseline(&b);
	if (task_create_user("badrip", &task) != KERN_SUCCESS) {
		ktest_fail(t, "no task");
		return;
	}
	KTEST_EXPECT_EQ(t, task_start_thread(task, 0xffffffff80100000ull,
					     0x10000, 0),
			KERN_INVALID_ARGUMENT);
	KTEST_EXPECT_EQ(t, task->thread_count, 0);
	task_destroy(task);
	user_task_expect_baseline(t, &b);
}

/* A set_state whose segments are not the user ones leaves the frame. */
static void bad_segment_is_refused(struct ktest *t)
{
	static const unsigned int bad_cs[] = { SEL_KCODE, SEL_KDATA,
					       SEL_UCODE32, SEL_TSS, 0 };
	struct i386_thread_state s;
	natural_t n = i386_THREAD_STATE_COUNT;
	struct trap_frame f, was;

	thread_state_init(&f);
	was = f;
	KTEST_EXPECT_EQ(t, thread_state_get(&f, i386_THREAD_STATE,
					    (natural_t *)&s, &n),
			KERN_SUCCESS);
	s.eip = 0x401000;
	s.uesp = 0x20010000;
	for (size_t i = 0; i < sizeof(bad_cs) / sizeof(bad_cs[0]); i++) {
		struct i386_thread_state b = s;

		b.cs = bad_cs[i];
		KTEST_EXPECT_EQ(t, thread_state_set(&f, i386_THREAD_STATE,
						    (natural_t *)&b, n),
				KERN_INVALID_ARGUMENT);
		b = s;
		b.ss = bad_cs[i];
		KTEST_EXPECT_EQ(t, thread_state_set(&f, i386_THREAD_STATE,
						    (natural_t *)&b, n),
				KERN_INVALID_ARGUMENT);
	}
	if (memcmp(&f, &was, sizeof(f)) != 0)
		ktest_fail(t, "a refused state changed the frame");
	KTEST_EXPECT_EQ(t, thread_state_set(&f, i386_THREAD_STATE,
					    (natural_t *)&s, n),
			KERN_SUCCESS);
	KTEST_EXPECT_EQ(t, f.rip, 0x401000);
	KTEST_EXPECT_EQ(t, f.cs, SEL_UCODE);
}

static const struct ktest_case thread_cases[] = {
	{ "user_threads_and_child_tasks_pass_their_checks",
	  user_threads_and_child_tasks_pass_their_checks },
	{ "fault_in_one_thread_ends_every_thread",
	  fault_in_one_thread_ends_every_thread },
	{ "kernel_or_noncanonical_entry_is_refused",
	  kernel_or_noncanonical_entry_is_refused },
	{ "task_start_thread_refuses_kernel_rip",
	  task_start_thread_refuses_kernel_rip },
	{ "bad_segment_is_refused", bad_segment_is_refused },
};
KTEST_SUITE(thread_suite, "thread", thread_cases);
