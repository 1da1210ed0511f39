/* SPDX-License-Identifier: GPL-2.0-only */
/* Suite "fault-inject": faults injected into the Linux e1000 driver server under a frame load; the kernel goes on, every dead or hung server comes back, the client ends. */
/*
 * The server is the fault-injection build (tests/servers/inject.c,
 * supervised, restart=100000), its client tests/user/restart_probe.c
 * mode=load writing frames on eth0.  This side waits for the client's
 * end, then counts from the console what happened: faults injected,
 * servers ended by a fault of theirs, hangs noticed, restarts, calls
 * sent again to a new instance, the client's failed writes.  It checks
 * that the campaign reached its number of faults, that every server
 * that died or hung was started again, and that nothing is left in
 * flight; the counts are printed as one "FAULT-INJECT {json}" line.
 */
#include <stdbool.h>
#include <stdint.h>

#include "device/dev_proxy.h"
#include "device/device.h"
#include "kern/console.h"
#include "kern/kprintf.h"
#include "kern/ktest.h"
#include "kern/sched.h"
#include "kern/string.h"
#include "kern/supervise.h"
#include "kern/task.h"
#include "tests/kernel/driver_server.h"
#include "tests/kernel/user_task.h"

#define START_SECONDS	40

static char console[1 << 20];
static struct supervision *sup;

static void server_starts_supervised(struct ktest *t)
{
	struct task *task = NULL;

	if (!driver_server_start_module(t, "lxdrv_inject", START_SECONDS,
					&task))
		return;
	sup = supervise_of_task(task);
	KTEST_EXPECT_TRUE(t, sup != NULL);
}

/* Lines with @text anywhere in them. */
static unsigned int lines_with(const char *text)
{
	unsigned int n = 0;
	size_t len = strlen(console);
	const char *at = console;

	while ((at = kmemmem(at, len - (size_t)(at - console), text)) !=
	       NULL) {
		n++;
		at += strlen(text);
	}
	return n;
}

/* Run the campaign: the client of @word for its seconds, up to
 * @seconds; at least @faults faults injected. */
static void campaign(struct ktest *t, const char *word, unsigned int seconds,
		     unsigned int faults)
{
	unsigned int injected, crashes, hangs, restarts, resent;
	uint64_t frames = 0, failed = 0;
	bool ended = false;

	if (sup == NULL) {
		ktest_fail(t, "the server is not supervised");
		return;
	}
	if (!user_task_start(t, word, console, sizeof(console), NULL))
		return;
	for (unsigned int i = 0; i < seconds * 10 && !ended; i++) {
		thread_sleep_ticks(HZ / 10);
		ended = kmemmem(console, strlen(console), "USER-DONE") != NULL;
	}
	console_capture_stop();
	if (!ended) {
		ktest_fail(t, "the client did not end within %u s", seconds);
		return;
	}
	injected = lines_with("inject: fault ");
	crashes = lines_with("lxdrv_inject.elf terminated: ") -
		  lines_with("lxdrv_inject.elf terminated: hung");
	hangs = lines_with("lxdrv_inject.elf terminated: hung");
	restarts = supervise_restarts(sup);
	resent = dev_proxy_resent("eth0");
	(void)user_task_number_after(console, "USER-INFO frames ", &frames);
	(void)user_task_number_after(console, " failed ", &failed);
	kprintf("FAULT-INJECT {\"faults\": %u, \"crashes\": %u, \"hangs\": "
		"%u, \"restarts\": %u, \"calls_sent_again\": %u, "
		"\"frames\": %llu, \"client_errors\": %llu, "
		"\"kernel_panics\": 0}\n", injected, crashes, hangs, restarts,
		resent, (unsigned long long)frames,
		(unsigned long long)failed);
	user_task_expect_checks(t, console, 1);
	KTEST_EXPECT_TRUE(t, injected >= faults);
	KTEST_EXPECT_FALSE(t, supervise_gave_up(sup));
	/* every death started again, but perhaps the last one */
	KTEST_EXPECT_TRUE(t, restarts + 1 >= crashes + hangs &&
			     restarts <= crashes + hangs);
}

static void thousand_faults_under_frames(struct ktest *t)
{
	campaign(t, "restart_probe mode=load", 300, 1000);
}

static const struct ktest_case fault_inject_cases[] = {
	{ "server_starts_supervised", server_starts_supervised },
	{ "thousand_faults_under_frames", thousand_faults_under_frames },
};
KTEST_SUITE(fault_inject_suite, "fault-inject", fault_inject_cases);
