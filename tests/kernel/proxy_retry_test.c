/* SPDX-License-Identifier: GPL-2.0-only */
/* Suite "proxy-retry": a disk's call a supervised server answers D_IO_ERROR is checked with a read that worked, and, when that fails too, sent to the server's next instance instead of failing. */
/*
 * tests/user/proxy_server.c in mode=flaky (restart=3 on its line) fails
 * the first call of PROXY_FLAKY_ONCE each instance gets, every call of
 * PROXY_FLAKY_ALWAYS, and every call once told to break;
 * tests/user/proxy_probe.c in mode=flaky checks what its calls
 * answered.  This side checks what only the kernel sees: how many
 * failures were checked and sent to a new instance, and that the server
 * was restarted once, for the broken instance, not for the records the
 * device fails.
 */
#include <stdbool.h>
#include <stdint.h>

#include "device/dev_proxy.h"
#include "kern/clock.h"
#include "kern/console.h"
#include "kern/ktest.h"
#include "kern/sched.h"
#include "kern/string.h"
#include "kern/supervise.h"
#include "kern/task.h"
#include "tests/kernel/user_task.h"

static char server_console[8192], console[16384];

static void failed_calls_sent_again(struct ktest *t)
{
	struct task *server = NULL;
	struct supervision *sup;
	bool ready = false;

	if (!user_task_start(t, "proxy_flaky ", server_console,
			     sizeof(server_console), &server))
		return;
	for (unsigned int i = 0; i < 100 && !ready; i++) {
		thread_sleep_ticks(HZ / 10);
		ready = kmemmem(server_console, strlen(server_console),
				"SERVER-READY") != NULL;
	}
	console_capture_stop();
	if (!ready) {
		ktest_fail(t, "the flaky server is not ready within 10 s");
		return;
	}
	sup = supervise_of_task(server);
	if (sup == NULL) {
		ktest_fail(t, "the flaky server is not supervised");
		return;
	}
	/* The server's restart is a task's end too: wait for the probe's
	 * last line instead. */
	if (!user_task_start(t, "probe_flaky ", console, sizeof(console),
			     NULL))
		return;
	for (unsigned int i = 0; i < 600 &&
	     user_task_count_lines(console, "USER-DONE") == 0; i++)
		thread_sleep_ticks(HZ / 10);
	thread_sleep_ticks(HZ / 10);
	console_capture_stop();
	user_task_expect_checks(t, console, 12);
	/* checked: the two device errors and the broken instance's read;
	 * that read alone went to a new instance */
	KTEST_EXPECT_EQ(t, dev_proxy_checks("fake0"), 3);
	KTEST_EXPECT_EQ(t, dev_proxy_retried("fake0"), 1);
	KTEST_EXPECT_EQ(t, supervise_restarts(sup), 1);
	KTEST_EXPECT_EQ(t, user_task_count_text(console, "its server is "
						"started again"), 1);
	KTEST_EXPECT_FALSE(t, supervise_gave_up(sup));
}

static const struct ktest_case proxy_retry_cases[] = {
	{ "failed_calls_sent_again", failed_calls_sent_again },
};
KTEST_SUITE(proxy_retry_suite, "proxy-retry", proxy_retry_cases);
