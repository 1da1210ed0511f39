/* SPDX-License-Identifier: GPL-2.0-only */
/* Suite "ipc-fuzz": a user task sends 100,000 random and mutated messages; the kernel must survive and leak nothing. */
/*
 * tests/user/ipc_fuzz.c does the sending (its command line gives the seed
 * and the count) and prints a short summary: "FUZZ-RESULT class n" lines,
 * "FUZZ-ALIVE" if RPCs and a message round trip still work afterwards,
 * "FUZZ-DONE sent=N" last; "FUZZ-ODD", "FUZZ-WRONG" and "FUZZ-BADRECV"
 * lines report a code outside mach_msg's, a send refused for its size,
 * options or header with another code than the kernel's contract says,
 * and a malformed received message.  The first case runs it; the others
 * judge what it left.
 */
#include <stdbool.h>
#include <stdint.h>

#include "ipc/ipc_kmsg.h"
#include "ipc/ipc_port.h"
#include "ipc/ipc_pset.h"
#include "ipc/ipc_space.h"
#include "kern/ktest.h"
#include "kern/string.h"
#include "kern/task.h"
#include "kern/thread.h"
#include "tests/kernel/user_task.h"

/* 100,000 messages took 7 to 11 s in QEMU TCG when this was written:
 * about four times that.  tests/harness/suites.py gives the boot longer. */
#define FUZZ_SECONDS	40
#define FUZZ_MIN_SENT	100000

static char console[65536];

static struct {
	bool ended;
	struct user_task_baseline b;
	unsigned int ports, psets, spaces, kmsgs, threads;
} run;

/* What follows the first @prefix on the captured console, or NULL. */
static const char *line_after(const char *prefix)
{
	return user_task_text_after(console, prefix);
}

static bool ran(struct ktest *t)
{
	if (!run.ended)
		ktest_fail(t, "the fuzz task did not run to its end");
	return run.ended;
}

static void fuzz_task_runs_to_the_end(struct ktest *t)
{
	const char *done;
	uint64_t sent = 0;

	user_task_baseline(&run.b);
	run.ports = ipc_port_count();
	run.psets = ipc_pset_count();
	run.spaces = ipc_space_count();
	run.kmsgs = ipc_kmsg_count();
	run.threads = thread_count();
	run.ended = user_task_run(t, "ipc_fuzz", FUZZ_SECONDS, console,
				  sizeof(console));
	if (!run.ended)
		return;
	if (strlen(console) + 1 >= sizeof(console))
		ktest_fail(t, "the console capture overflowed");
	done = line_after("FUZZ-DONE sent=");
	if (done == NULL) {
		ktest_fail(t, "the fuzz task never printed FUZZ-DONE");
	} else {
		for (; *done >= '0' && *done <= '9'; done++)
			sent = sent * 10 + (uint64_t)(*done - '0');
		KTEST_EXPECT_GE(t, sent, FUZZ_MIN_SENT);
	}
	if (strcmp(task_last_reason, "task_terminate") != 0)
		ktest_fail(t, "the task ended by \"%s\", not by exit()",
			   task_last_reason);
}

static void kernel_serves_rpcs_after_fuzzing(struct ktest *t)
{
	if (ran(t) && line_after("FUZZ-ALIVE") == NULL)
		ktest_fail(t, "no FUZZ-ALIVE: RPCs or a round trip failed");
}

static void errors_are_right_and_received_messages_well_formed(struct ktest *t)
{
	if (!ran(t))
		return;
	KTEST_EXPECT_EQ(t, user_task_count_lines(console, "FUZZ-ODD"), 0);
	KTEST_EXPECT_EQ(t, user_task_count_lines(console, "FUZZ-WRONG"), 0);
	KTEST_EXPECT_EQ(t, user_task_count_lines(console, "FUZZ-BADRECV"), 0);
}

static void counters_return_to_start(struct ktest *t)
{
	if (!ran(t))
		return;
	user_task_expect_baseline(t, &run.b);
	KTEST_EXPECT_EQ(t, ipc_port_count(), run.ports);
	KTEST_EXPECT_EQ(t, ipc_pset_count(), run.psets);
	KTEST_EXPECT_EQ(t, ipc_space_count(), run.spaces);
	KTEST_EXPECT_EQ(t, ipc_kmsg_count(), run.kmsgs);
	KTEST_EXPECT_EQ(t, thread_count(), run.threads);
}

static const struct ktest_case ipc_fuzz_cases[] = {
	{ "fuzz_task_runs_to_the_end", fuzz_task_runs_to_the_end },
	{ "kernel_serves_rpcs_after_fuzzing",
	  kernel_serves_rpcs_after_fuzzing },
	{ "errors_are_right_and_received_messages_well_formed",
	  errors_are_right_and_received_messages_well_formed },
	{ "counters_return_to_start", counters_return_to_start },
};
KTEST_SUITE(ipc_fuzz_suite, "ipc-fuzz", ipc_fuzz_cases);
