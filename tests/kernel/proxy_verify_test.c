/* SPDX-License-Identifier: GPL-2.0-only */
/* Suite "proxy-verify": a disk's data a supervised server with verify=1 answers is checked against what its clients wrote, and wrong data goes to the server's next instance instead of the client. */
/*
 * tests/user/proxy_server.c in mode=liar (restart=10 verify=1 on its
 * line) stores writes or answers reads with their first byte flipped
 * when told, and always answers record PROXY_LIAR_ALWAYS so;
 * tests/user/proxy_probe.c in mode=liar checks what its calls answered.
 * This side checks what only the kernel sees: the wrong answers caught,
 * and one restart for each, none for the read of a record no longer
 * known.
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

static void wrong_data_sent_again(struct ktest *t)
{
	struct task *server = NULL;
	struct supervision *sup;
	bool ready = false;

	if (!user_task_start(t, "proxy_liar ", server_console,
			     sizeof(server_console), &server))
		return;
	for (unsigned int i = 0; i < 100 && !ready; i++) {
		thread_sleep_ticks(HZ / 10);
		ready = kmemmem(server_console, strlen(server_console),
				"SERVER-READY") != NULL;
	}
	console_capture_stop();
	if (!ready) {
		ktest_fail(t, "the lying server is not ready within 10 s");
		return;
	}
	sup = supervise_of_task(server);
	if (sup == NULL || !supervise_verifies(sup)) {
		ktest_fail(t, "the lying server is not supervised with "
			   "verify=1");
		return;
	}
	if (!user_task_start(t, "probe_liar ", console, sizeof(console),
			     NULL))
		return;
	for (unsigned int i = 0; i < 600 &&
	     user_task_count_lines(console, "USER-DONE") == 0; i++)
		thread_sleep_ticks(HZ / 10);
	thread_sleep_ticks(HZ / 10);
	console_capture_stop();
	user_task_expect_checks(t, console, 15);
	/* caught: the wrong write's read-back, the wrong read, and the
	 * always-wrong record's read-back at four instances (the first and
	 * DEV_PROXY_TRIES new ones); each but the last restarted it */
	KTEST_EXPECT_EQ(t, dev_proxy_wrong_data("fake0"), 6);
	KTEST_EXPECT_EQ(t, supervise_restarts(sup), 5);
	KTEST_EXPECT_EQ(t, user_task_count_text(console, "answered other "
						"data than was written; its "
						"server is started again"), 5);
	KTEST_EXPECT_EQ(t, dev_proxy_checks("fake0"), 0);
	KTEST_EXPECT_FALSE(t, supervise_gave_up(sup));
}

static const struct ktest_case proxy_verify_cases[] = {
	{ "wrong_data_sent_again", wrong_data_sent_again },
};
KTEST_SUITE(proxy_verify_suite, "proxy-verify", proxy_verify_cases);
