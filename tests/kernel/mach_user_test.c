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

static unsigned int count_lines(const char *prefix)
{
	unsigned int n = 0;
	size_t len = strlen(prefix);

	for (const char *p = console; *p != '\0'; p++)
		if ((p == console || p[-1] == '\n') &&
		    strncmp(p, prefix, len) == 0)
			n++;
	return n;
}

static void user_program_passes_its_ipc_checks(struct ktest *t)
{
	struct user_task_baseline b;
	const char *done;
	uint64_t declared = 0;

	user_task_baseline(&b);
	if (!user_task_run(t, "mach_probe", 10, console, sizeof(console)))
		return;
	KTEST_EXPECT_EQ(t, count_lines("USER-FAIL"), 0);
	done = kmemmem(console, strlen(console), "USER-DONE ");
	if (done == NULL) {
		ktest_fail(t, "the program never printed USER-DONE");
	} else {
		for (const char *p = done + 10; *p >= '0' && *p <= '9'; p++)
			declared = declared * 10 + (uint64_t)(*p - '0');
		KTEST_EXPECT_EQ(t, count_lines("USER-PASS"), declared);
		KTEST_EXPECT_GE(t, declared, 30);
	}
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
