/* SPDX-License-Identifier: GPL-2.0-only */
/* Suite "mach-user": a program built on gnumach-dev headers, MIG stubs and newlib uses IPC. */
/*
 * tests/user/mach_probe.c prints one "USER-PASS name" or "USER-FAIL name:
 * ..." line per check and "USER-DONE n" at the end, then exits through
 * task_terminate.  This suite runs it and turns its lines into a verdict.
 */
#include <stdint.h>

#include "kern/ktest.h"
#include "kern/string.h"
#include "kern/task.h"
#include "tests/kernel/user_task.h"

static char console[16384];

static void user_program_passes_its_ipc_checks(struct ktest *t)
{
	struct user_task_baseline b;

	user_task_baseline(&b);
	if (!user_task_run(t, "mach_probe", 10, console, sizeof(console)))
		return;
	user_task_expect_checks(t, console, 44);
	if (strcmp(task_last_reason, "task_terminate") != 0)
		ktest_fail(t, "the task ended by \"%s\", not by exit()",
			   task_last_reason);
	user_task_expect_baseline(t, &b);
}

static const struct ktest_case mach_user_cases[] = {
	{ "user_program_passes_its_ipc_checks",
	  user_program_passes_its_ipc_checks },
};
KTEST_SUITE(mach_user_suite, "mach-user", mach_user_cases);
