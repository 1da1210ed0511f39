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
 * ends with a #UD it did not come back from, and it leaves nothing. */
static void run_mode(struct ktest *t, const char *mode, unsigned int min)
{
	struct user_task_baseline b;

	user_task_baseline(&b);
	if (!user_task_run(t, mode, 20, console, sizeof(console)))
		return;
	user_task_expect_checks(t, console, min);
	if (!kmemmem(task_last_reason, strlen(task_last_reason), "#UD"))
		ktest_fail(t, "reason \"%s\" lacks \"#UD\"", task_last_reason);
	if (kmemmem(console, strlen(console), "came back"))
		ktest_fail(t, "the task came back: \"%s\"", console);
	user_task_expect_baseline(t, &b);
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

static const struct ktest_case exception_cases[] = {
	{ "handler_resumes_faults_and_refuses_one",
	  handler_resumes_faults_and_refuses_one },
	{ "dead_exception_port_ends_the_task",
	  dead_exception_port_ends_the_task },
};
KTEST_SUITE(exception_suite, "exception", exception_cases);
