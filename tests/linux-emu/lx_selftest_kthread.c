/* SPDX-License-Identifier: GPL-2.0-only */
/* Checks of the linux-irq suite for kernel threads (lx_kthread.c): started by their first wake-up, stopped with their function's result. */
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/string.h>

#include "lx_selftest_check.h"
#include "lx_selftest_kthread.h"

static int runs, stops_seen;

/* Runs until told to stop, as usb-storage's control thread ends. */
static int until_stopped(void *data)
{
	runs++;
	*(int *)data = 7;
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	stops_seen++;
	return 42;
}

/* Returns at once: its result waits for kthread_stop. */
static int returns_early(void *data)
{
	runs++;
	return 5;
}

static int kthread_checks(void)
{
	struct task_struct *t;
	int value = 0;

	runs = stops_seen = 0;
	CHECK(!kthread_should_stop());	/* not a kthread */
	/* Made asleep: nothing runs before the first wake-up. */
	t = kthread_create(until_stopped, &value, "lx-kt%d", 1);
	CHECK(!IS_ERR(t));
	CHECK(!strcmp(t->comm, "lx-kt1"));
	msleep(20);
	CHECK(runs == 0 && value == 0);
	wake_up_process(t);
	msleep(20);
	CHECK(runs == 1 && value == 7 && stops_seen == 0);
	/* Stopped: it sees kthread_should_stop and its result comes back. */
	CHECK(kthread_stop(t) == 42);
	CHECK(stops_seen == 1);
	/* Stopped before it ever ran: -EINTR, the function never called. */
	t = kthread_create(until_stopped, &value, "lx-kt2");
	CHECK(!IS_ERR(t));
	CHECK(kthread_stop(t) == -EINTR);
	CHECK(runs == 1);
	/* A function that returned keeps its result for kthread_stop. */
	t = kthread_run(returns_early, NULL, "lx-kt3");
	CHECK(!IS_ERR(t));
	msleep(20);
	CHECK(runs == 2);
	CHECK(kthread_stop(t) == 5);
	msleep(20);	/* the stopped threads end and free their memory */
	return 0;
}
IN_WORLD(kthread, kthread_checks)
