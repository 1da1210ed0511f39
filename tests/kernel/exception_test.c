/* SPDX-License-Identifier: GPL-2.0-only */
/* Suite "exception": a task's exception port (exc.defs) takes its threads' faults, resumes them or lets the task end; nothing is left behind. */
/*
 * tests/user/exc_probe.c serves its own exception port from a second
 * thread and prints one USER-PASS/USER-FAIL line per check; every mode
 * ends its task with an exception its handler refuses or nobody takes.
 */
#include "kern/ktest.h"
#include "kern/string.h"
#include "kern/task.h"
#include "tests/kernel/user_task.h"

static char console[8192];

/* Run exc_probe @mode: all its checks pass (at least @min), the task
 * ends with @reason in its reason, without coming back from its last
 * exception, and it leaves nothing. */
static void run_mode_ending(struct ktest *t, const char *mode,
			    unsigned int min, const char *reason)
{
	struct user_task_baseline b;

	user_task_baseline(&b);
	if (!user_task_run(t, mode, 20, console, sizeof(console)))
		return;
	user_task_expect_checks(t, console, min);
	if (!kmemmem(task_last_reason, strlen(task_last_reason), reason))
		ktest_fail(t, "reason \"%s\" lacks \"%s\"", task_last_reason,
			   reason);
	if (kmemmem(console, strlen(console), "came back"))
		ktest_fail(t, "the task came back: \"%s\"", console);
	user_task_expect_baseline(t, &b);
}

static void run_mode(struct ktest *t, const char *mode, unsigned int min)
{
	run_mode_ending(t, mode, min, "#UD");
}

/* Faults taken by the handler and resumed with its 64-bit registers,
 * bad thread states refused, then an exception it refuses. */
static void handler_resumes_faults_and_refuses_one(struct ktest *t)
{
	run_mode(t, "mode=handled", 22);
}

/* An exception port whose receiver died: the task ends as without one. */
static void dead_exception_port_ends_the_task(struct ktest *t)
{
	run_mode(t, "mode=dead", 3);
}

/* A thread's own exception port: read and set, taken before the task's,
 * passing the exception on when dead or refusing, released with the
 * thread; then a ud2 both refuse. */
static void thread_exception_port_comes_first(struct ktest *t)
{
	run_mode(t, "mode=thread", 24);
}

/* graft_exc_serve's handler faults while handling: its guard thread
 * ends the task at once instead of both waiting on the one port. */
static void faulting_handler_ends_the_task(struct ktest *t)
{
	run_mode_ending(t, "mode=guarded", 1, "task_terminate");
	if (!kmemmem(console, strlen(console), "exception handler faulted"))
		ktest_fail(t, "no line from the guard thread: \"%s\"",
			   console);
}

static const struct ktest_case exception_cases[] = {
	{ "handler_resumes_faults_and_refuses_one",
	  handler_resumes_faults_and_refuses_one },
	{ "dead_exception_port_ends_the_task",
	  dead_exception_port_ends_the_task },
	{ "thread_exception_port_comes_first",
	  thread_exception_port_comes_first },
	{ "faulting_handler_ends_the_task", faulting_handler_ends_the_task },
};
KTEST_SUITE(exception_suite, "exception", exception_cases);
