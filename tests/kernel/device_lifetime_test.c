/* SPDX-License-Identifier: GPL-2.0-only */
/* Suite "device-lifetime": nothing a task's requests hold outlives the task or the right it hangs on. */
/*
 * Each case runs tests/user/lifetime_probe.c in one mode (a boot with
 * "linux", QEMU's e1000 and an rd0 module), checks its USER-PASS lines,
 * then what only the kernel sees once the task is gone: devices open,
 * requests in flight, interrupt registrations, I/O permission objects,
 * ledgers, ports, messages, pages, heap and tasks all back where they
 * were.  Some of it is given back by kernel threads (lx-net takes eth0
 * down after its last close), so the counts are waited for, a few
 * seconds at most, before they are compared.  The flood case also reads
 * the console: each source printed its burst and, once its window
 * ended, the count of what it dropped.
 */
#include <stdbool.h>
#include <stdint.h>

#include "device/dev_intr.h"
#include "device/device.h"
#include "ipc/ipc_kmsg.h"
#include "ipc/ipc_port.h"
#include "kern/console.h"
#include "kern/intr.h"
#include "kern/klog.h"
#include "kern/kprintf.h"
#include "kern/ktest.h"
#include "kern/ledger.h"
#include "kern/sched.h"
#include "kern/string.h"
#include "linux-emu/include/lx_host.h"
#include "tests/kernel/user_task.h"
#include "x86_64/io_perm.h"

/* lifetime_probe's mode=flood sends this many of each refused call. */
#define FLOOD	50

static char console[65536], after[8192];

/* Every count a finished task must leave as it found it. */
struct lifetime_counts {
	struct user_task_baseline task;
	unsigned int devices, requests, lines, io_perms, ledgers;
	unsigned int ports, kmsgs;
};

static void counts_take(struct lifetime_counts *c)
{
	user_task_baseline(&c->task);
	c->devices = dev_open_count();
	c->requests = io_req_in_flight();
	c->lines = dev_intr_count();
	c->io_perms = io_perm_count;
	c->ledgers = ledger_count();
	c->ports = ipc_port_count();
	c->kmsgs = ipc_kmsg_count();
}

static bool counts_equal(const struct lifetime_counts *a,
			 const struct lifetime_counts *b)
{
	return a->task.pages == b->task.pages &&
	       a->task.bytes == b->task.bytes &&
	       a->task.tasks == b->task.tasks && a->devices == b->devices &&
	       a->requests == b->requests && a->lines == b->lines &&
	       a->io_perms == b->io_perms && a->ledgers == b->ledgers &&
	       a->ports == b->ports && a->kmsgs == b->kmsgs;
}

/* Wait (3 s at most) for the counts to come back to @before, then fail
 * @t for each that did not. */
static void expect_nothing_left(struct ktest *t,
				const struct lifetime_counts *before)
{
	struct lifetime_counts now;

	for (int tick = 0; tick < 3 * HZ; tick++) {
		counts_take(&now);
		if (counts_equal(&now, before))
			return;
		thread_sleep_ticks(1);
	}
	KTEST_EXPECT_EQ(t, now.devices, before->devices);
	KTEST_EXPECT_EQ(t, now.requests, before->requests);
	KTEST_EXPECT_EQ(t, now.lines, before->lines);
	KTEST_EXPECT_EQ(t, now.io_perms, before->io_perms);
	KTEST_EXPECT_EQ(t, now.ledgers, before->ledgers);
	KTEST_EXPECT_EQ(t, now.ports, before->ports);
	KTEST_EXPECT_EQ(t, now.kmsgs, before->kmsgs);
	user_task_expect_baseline(t, &before->task);
}

/* Run lifetime_probe in @mode (its module's command line has "mode=@mode")
 * and check its lines (at least @min checks) and what it left. */
static void run_mode(struct ktest *t, const char *mode, unsigned int min)
{
	struct lifetime_counts before;
	char word[32];

	counts_take(&before);
	ksnprintf(word, sizeof(word), "mode=%s ", mode);
	if (!user_task_run(t, word, 30, console, sizeof(console)))
		return;
	user_task_expect_checks(t, console, min);
	expect_nothing_left(t, &before);
}

/* eth0's first session starts what Linux keeps for good (a workqueue
 * worker, e1000's watchdog): not counted against the cases after it. */
static void eth0_first_session(struct ktest *t)
{
	struct lifetime_counts a, b;

	if (!user_task_run(t, "mode=warmup ", 30, console, sizeof(console)))
		return;
	user_task_expect_checks(t, console, 2);
	/* lx-net takes eth0 down after the close: wait until the counts
	 * stay put for a tenth of a second (5 s at most). */
	counts_take(&a);
	for (int i = 0; i < 50; i++) {
		thread_sleep_ticks(HZ / 10);
		counts_take(&b);
		if (counts_equal(&a, &b) && b.devices == 0)
			return;
		a = b;
	}
	ktest_fail(t, "the kernel's counts did not settle after eth0 closed");
}

static void registration_ends_when_its_port_dies(struct ktest *t)
{
	run_mode(t, "lines", 8);
}

static void unacknowledged_line_is_freed_with_its_port(struct ktest *t)
{
	run_mode(t, "rtc", 8);
	KTEST_EXPECT_TRUE(t, intr_is_masked(8));
}

static void kernel_ports_refused_as_notification_ports(struct ktest *t)
{
	run_mode(t, "kports", 8);
}

static void reads_replying_to_kernel_ports_hold_nothing(struct ktest *t)
{
	run_mode(t, "selfreply", 5);
}

static void queued_requests_bounded_and_cancelled_with_their_port(
	struct ktest *t)
{
	run_mode(t, "bound", 12);
}

static void filters_bounded_and_gone_with_their_port(struct ktest *t)
{
	run_mode(t, "filters", 5);
}

static void io_perms_bounded_per_task(struct ktest *t)
{
	run_mode(t, "ioperm", 3);
}

/* Occurrences of @text in @buf. */
static unsigned int count_in(const char *buf, const char *text)
{
	unsigned int n = 0;

	for (const char *p = buf; (p = kmemmem(p, strlen(p), text)) != NULL;
	     p += strlen(text))
		n++;
	return n;
}

/* ...in what the task printed and what came after it. */
static unsigned int count_containing(const char *text)
{
	return count_in(console, text) + count_in(after, text);
}

/*
 * 50 refused NET_FLAGS and 50 unimplemented calls print one burst each,
 * then, when the window ends, the count of the dropped lines; a Linux
 * driver's lines (after boot) are limited per source the same way.
 */
static void user_requests_cannot_flood_the_console(struct ktest *t)
{
	unsigned int dropped = klog_dropped;
	char line[64];

	run_mode(t, "flood", 3);
	console_capture_start(after, sizeof(after));
	for (int i = 0; i < 30; i++) {
		ksnprintf(line, sizeof(line), "lxtest.0: line %d\n", i);
		lx_host_console_write(line, strlen(line));
	}
	lx_host_console_write("lxtest.1: another source\n", 25);
	thread_sleep_ticks(KLOG_WINDOW + HZ);
	console_capture_stop();
	KTEST_EXPECT_EQ(t, count_containing("NET_FLAGS 0x0 refused"),
			KLOG_BURST);
	KTEST_EXPECT_EQ(t, count_containing("is not implemented"),
			KLOG_BURST);
	KTEST_EXPECT_EQ(t, count_containing("lx-net: 40 messages suppressed"),
			1);
	KTEST_EXPECT_EQ(t, count_containing("mig: 40 messages suppressed"), 1);
	KTEST_EXPECT_EQ(t, count_containing("lxtest.0: line"), KLOG_BURST);
	KTEST_EXPECT_EQ(t, count_containing("lxtest.1: another source"), 1);
	KTEST_EXPECT_EQ(t, count_containing("lxtest.0: 20 messages suppressed"),
			1);
	KTEST_EXPECT_EQ(t, klog_dropped - dropped,
			2 * (FLOOD - KLOG_BURST) + 20);
}

static const struct ktest_case device_lifetime_cases[] = {
	{ "eth0_first_session", eth0_first_session },
	{ "registration_ends_when_its_port_dies",
	  registration_ends_when_its_port_dies },
	{ "unacknowledged_line_is_freed_with_its_port",
	  unacknowledged_line_is_freed_with_its_port },
	{ "kernel_ports_refused_as_notification_ports",
	  kernel_ports_refused_as_notification_ports },
	{ "reads_replying_to_kernel_ports_hold_nothing",
	  reads_replying_to_kernel_ports_hold_nothing },
	{ "queued_requests_bounded_and_cancelled_with_their_port",
	  queued_requests_bounded_and_cancelled_with_their_port },
	{ "filters_bounded_and_gone_with_their_port",
	  filters_bounded_and_gone_with_their_port },
	{ "io_perms_bounded_per_task", io_perms_bounded_per_task },
	{ "user_requests_cannot_flood_the_console",
	  user_requests_cannot_flood_the_console },
};
KTEST_SUITE(device_lifetime_suite, "device-lifetime", device_lifetime_cases);
