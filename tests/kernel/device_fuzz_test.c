/* SPDX-License-Identifier: GPL-2.0-only */
/* Suite "device-fuzz": device.defs and claim.defs fuzzing; the kernel must give all back. */
/*
 * The boot has "linux", an rd0 module, QEMU's e1000 (eth0) and an IDE
 * disk with two partitions (hd0, hd0s1, hd0s2) besides console and irq.
 * tests/user/device_fuzz.c runs twice: "mode=warmup" uses each device
 * once, cleanly (what a Linux driver keeps from its first use is not a
 * leak), then "mode=fuzz" sends its messages and prints "FUZZ-RESULT"
 * lines, "FUZZ-ODD" for a code outside every known set, "FUZZ-ALIVE"
 * if devices still serve afterwards and "FUZZ-DONE sent=N" last.  The
 * kernel command line gives the least count expected (fuzz_count=,
 * 100,000 by default) and the time the task may take (fuzz_seconds=).
 *
 * The first case runs both and records, between them, what the kernel
 * holds; the others each compare one resource after the fuzz task ended,
 * so that a failure names the leak.  Part of the release is asynchronous
 * (the reply thread, lx-net taking eth0 down in its thread): the counts
 * get SETTLE_TICKS to come back first.
 */
#include <stdbool.h>
#include <stdint.h>

#include "device/dev_claim.h"
#include "device/dev_intr.h"
#include "device/device.h"
#include "ipc/ipc_kmsg.h"
#include "ipc/ipc_port.h"
#include "kern/bootinfo.h"
#include "kern/clock.h"
#include "kern/cmdline.h"
#include "kern/intr.h"
#include "kern/kalloc.h"
#include "kern/ledger.h"
#include "kern/ktest.h"
#include "kern/sched.h"
#include "kern/string.h"
#include "kern/task.h"
#include "tests/kernel/user_task.h"

#define FUZZ_COUNT	100000		/* fuzz_count= */
#define FUZZ_SECONDS	60		/* fuzz_seconds= */
#define WARMUP_SECONDS	60
#define SETTLE_TICKS	(5 * HZ)

static char console[1024 * 1024];

/* What the kernel holds: pages, heap, tasks; ports, messages; devices
 * open, requests in flight, interrupt lines registered, claims of
 * tasks, ledgers. */
struct holdings {
	struct user_task_baseline task;
	unsigned int ports, kmsgs, opens, requests, lines, claims, ledgers;
};

static struct {
	bool ended;
	struct holdings before;
} run;

static void holdings(struct holdings *h)
{
	user_task_baseline(&h->task);
	h->ports = ipc_port_count();
	h->kmsgs = ipc_kmsg_count();
	h->opens = dev_open_count();
	h->requests = io_req_in_flight();
	h->lines = dev_intr_count();
	h->claims = dev_claim_count();
	h->ledgers = ledger_count();
}

static bool same(const struct holdings *a, const struct holdings *b)
{
	return a->task.pages == b->task.pages &&
	       a->task.bytes == b->task.bytes &&
	       a->task.tasks == b->task.tasks && a->ports == b->ports &&
	       a->kmsgs == b->kmsgs && a->opens == b->opens &&
	       a->requests == b->requests && a->lines == b->lines &&
	       a->claims == b->claims && a->ledgers == b->ledgers;
}

/* Wait (SETTLE_TICKS at most) until the holdings equal @want, or, with
 * @want NULL, until they stay the same for half a second. */
static void settle(const struct holdings *want)
{
	struct holdings now, last;
	unsigned int still = 0;

	holdings(&last);
	for (unsigned int tick = 0; tick < SETTLE_TICKS; tick++) {
		if (want != NULL && same(&last, want))
			return;
		thread_sleep_ticks(1);
		holdings(&now);
		still = same(&now, &last) ? still + 1 : 0;
		if (want == NULL && still >= HZ / 2)
			return;
		last = now;
	}
}

static uint64_t cmdline_or(const char *key, uint64_t dflt)
{
	uint64_t v;

	return cmdline_u64(bootinfo.cmdline, key, &v) == 0 ? v : dflt;
}

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
	uint64_t want = cmdline_or("fuzz_count", FUZZ_COUNT), sent = 0;
	const char *done;

	if (!user_task_run(t, "mode=warmup", WARMUP_SECONDS, console,
			   sizeof(console)))
		return;
	if (line_after("FUZZ-WARMUP done") == NULL)
		ktest_fail(t, "the warm-up did not use every device");
	settle(NULL);
	holdings(&run.before);
	run.ended = user_task_run(t, "mode=fuzz",
				  cmdline_or("fuzz_seconds", FUZZ_SECONDS),
				  console, sizeof(console));
	if (!run.ended)
		return;
	settle(&run.before);
	if (strlen(console) + 1 >= sizeof(console))
		ktest_fail(t, "the console capture overflowed");
	done = line_after("FUZZ-DONE sent=");
	if (done == NULL) {
		ktest_fail(t, "the fuzz task never printed FUZZ-DONE");
	} else {
		for (; *done >= '0' && *done <= '9'; done++)
			sent = sent * 10 + (uint64_t)(*done - '0');
		KTEST_EXPECT_GE(t, sent, want);
	}
	if (strcmp(task_last_reason, "task_terminate") != 0)
		ktest_fail(t, "the task ended by \"%s\", not by exit()",
			   task_last_reason);
	KTEST_EXPECT_EQ(t, task_count(), run.before.task.tasks);
}

static void kernel_serves_devices_after_fuzzing(struct ktest *t)
{
	if (ran(t) && line_after("FUZZ-ALIVE") == NULL)
		ktest_fail(t, "no FUZZ-ALIVE: a console open or write, an rd0 "
			   "read or a close failed");
}

static void no_odd_codes(struct ktest *t)
{
	if (ran(t))
		KTEST_EXPECT_EQ(t, user_task_count_lines(console, "FUZZ-ODD"),
				0);
}

static void ports_return_to_start(struct ktest *t)
{
	if (ran(t))
		KTEST_EXPECT_EQ(t, ipc_port_count(), run.before.ports);
}

static void kmsgs_return_to_start(struct ktest *t)
{
	if (ran(t))
		KTEST_EXPECT_EQ(t, ipc_kmsg_count(), run.before.kmsgs);
}

static void pages_return_to_start(struct ktest *t)
{
	if (ran(t))
		KTEST_EXPECT_EQ(t, user_task_free_pages(),
				run.before.task.pages);
}

static void heap_bytes_return_to_start(struct ktest *t)
{
	if (ran(t))
		KTEST_EXPECT_EQ(t, kalloc_bytes_in_use(),
				run.before.task.bytes);
}

static void interrupt_registrations_return_to_start(struct ktest *t)
{
	if (!ran(t) || dev_intr_count() == run.before.lines)
		return;
	KTEST_EXPECT_EQ(t, dev_intr_count(), run.before.lines);
	for (unsigned int line = 0; line < INTR_LINES; line++)
		if (dev_intr_registered(line))
			ktest_fail(t, "line %u is registered", line);
}

static void devices_open_return_to_start(struct ktest *t)
{
	if (ran(t))
		KTEST_EXPECT_EQ(t, dev_open_count(), run.before.opens);
}

static void requests_in_flight_return_to_start(struct ktest *t)
{
	if (ran(t))
		KTEST_EXPECT_EQ(t, io_req_in_flight(), run.before.requests);
}

static void claims_and_ledgers_return_to_start(struct ktest *t)
{
	if (!ran(t))
		return;
	KTEST_EXPECT_EQ(t, dev_claim_count(), run.before.claims);
	KTEST_EXPECT_EQ(t, ledger_count(), run.before.ledgers);
}

static const struct ktest_case device_fuzz_cases[] = {
	{ "fuzz_task_runs_to_the_end", fuzz_task_runs_to_the_end },
	{ "kernel_serves_devices_after_fuzzing",
	  kernel_serves_devices_after_fuzzing },
	{ "no_odd_codes", no_odd_codes },
	{ "ports_return_to_start", ports_return_to_start },
	{ "kmsgs_return_to_start", kmsgs_return_to_start },
	{ "pages_return_to_start", pages_return_to_start },
	{ "heap_bytes_return_to_start", heap_bytes_return_to_start },
	{ "interrupt_registrations_return_to_start",
	  interrupt_registrations_return_to_start },
	{ "devices_open_return_to_start", devices_open_return_to_start },
	{ "requests_in_flight_return_to_start",
	  requests_in_flight_return_to_start },
	{ "claims_and_ledgers_return_to_start",
	  claims_and_ledgers_return_to_start },
};
KTEST_SUITE(device_fuzz_suite, "device-fuzz", device_fuzz_cases);
