/* SPDX-License-Identifier: GPL-2.0-only */
/* Suite "proxy-retry": a disk's call a supervised server fails for no fault of its arguments is checked with a read that worked, and, when that fails too, sent to the server's next instance instead of failing. */
/*
 * tests/user/proxy_server.c in mode=flaky (restart=3 on its line) fails
 * the first call of PROXY_FLAKY_ONCE each instance gets, every call of
 * PROXY_FLAKY_ALWAYS, _GONE and _RANGE, and every call once told to
 * break (every write once told to break writes), and frames of
 * fakeeth0 marked the same way;
 * tests/user/proxy_probe.c in mode=flaky checks what its calls
 * answered.  This side checks what only the kernel sees: how many
 * failures were checked and sent to a new instance, and that the server
 * was restarted for the broken instances only, not for the records the
 * device fails.
 */
#include <stdbool.h>
#include <stdint.h>

#include "device/dev_proxy.h"
#include "kern/ktest.h"
#include "kern/supervise.h"
#include "tests/kernel/user_task.h"

static char server_console[8192], console[16384];

static void failed_calls_sent_again(struct ktest *t)
{
	struct supervision *sup;

	sup = user_task_start_server(t, "proxy_flaky ", server_console,
				     sizeof(server_console));
	if (sup == NULL)
		return;
	user_task_client_done(t, "probe_flaky ", console, sizeof(console));
	user_task_expect_checks(t, console, 28);
	/* checked: the two device errors of reads and the range error of a
	 * record within the disk (not the one past its end), the broken
	 * instance's read, which went to a new instance; the write failed
	 * once (sent once more to the same instance, where it worked); the
	 * write of an instance whose writes fail (twice there, then a new
	 * instance); the write failed always (twice at each of two
	 * instances); the poison read at two instances, which sent it to
	 * two more, the last (restart=7 used up) answering it unchecked */
	KTEST_EXPECT_EQ(t, dev_proxy_checks("fake0"), 13);
	KTEST_EXPECT_EQ(t, dev_proxy_repeated("fake0"), 4);
	KTEST_EXPECT_EQ(t, dev_proxy_retried("fake0"), 5);
	/* the frames, taken as checked without a read: failed once (sent
	 * once more), failed always (twice at each of two instances), failed
	 * by an instance whose writes fail (twice there, then a new
	 * instance); not the one answered D_DEVICE_DOWN (no link) */
	KTEST_EXPECT_EQ(t, dev_proxy_checks("fakeeth0"), 7);
	KTEST_EXPECT_EQ(t, dev_proxy_repeated("fakeeth0"), 4);
	KTEST_EXPECT_EQ(t, dev_proxy_retried("fakeeth0"), 2);
	KTEST_EXPECT_EQ(t, supervise_restarts(sup), 7);
	/* the tasks' ends (the proxy's own lines are rate-limited) */
	KTEST_EXPECT_EQ(t, user_task_count_text(console, "terminated: "
						"restarted: "), 7);
	KTEST_EXPECT_EQ(t, user_task_count_text(console, "restarted: its "
						"driver fails a call twice"),
			4);
	KTEST_EXPECT_FALSE(t, supervise_gave_up(sup));
}

static const struct ktest_case proxy_retry_cases[] = {
	{ "failed_calls_sent_again", failed_calls_sent_again },
};
KTEST_SUITE(proxy_retry_suite, "proxy-retry", proxy_retry_cases);
