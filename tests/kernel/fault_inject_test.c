/* SPDX-License-Identifier: GPL-2.0-only */
/* Suites "fault-inject" and "fault-inject-disk" (and make stress's stress-fault-inject-*): faults injected into a Linux driver server (e1000 under a frame load; ata_piix under write-verify loops); the kernel goes on, every dead or hung server comes back, the client ends. */
/*
 * The server is the fault-injection build (tests/servers/inject.c,
 * supervised, restart=100000), its client tests/user/restart_probe.c:
 * mode=load writing frames on eth0, or mode=disk writing and reading
 * back 64 KiB at a time on hd0s1 (failures=count: a round that fails is
 * counted and named, not a failed check).  This side counts from the
 * console, as it goes, what happens: faults injected, servers ended by
 * a fault of theirs, hangs noticed, restarts, calls sent again to a new
 * instance, the client's requests and failed ones.  It checks that the
 * campaign reached its number of faults (inject_faults= on the kernel
 * command line, 1,000 by default) within its time (inject_seconds=, 300
 * s), that every server that died or hung was started again and that
 * the client ended (the harness then measures a disk's image on the
 * host: the sectors of acknowledged rounds not there, the sectors
 * changed elsewhere).  The disk's server has verify=1: data it answers
 * wrongly is caught and sent to its next instance (wrong_data_caught).
 * The requests that failed are counted, not checked: a fault that
 * corrupts data unseen or leaves the device failing without stopping
 * the server is not undone by a restart, and how many requests it
 * spoils depends on where the faults land; the counts (the figures of
 * the target of 99 % of faults recovered transparently) are printed as
 * one "FAULT-INJECT {json}" line.
 */
#include <stdbool.h>
#include <stdint.h>

#include "device/dev_proxy.h"
#include "device/device.h"
#include "ipc/ipc_kmsg.h"
#include "kern/bootinfo.h"
#include "kern/cmdline.h"
#include "kern/console.h"
#include "kern/kalloc.h"
#include "kern/kprintf.h"
#include "kern/ktest.h"
#include "kern/sched.h"
#include "kern/string.h"
#include "kern/supervise.h"
#include "kern/task.h"
#include "vm/vm_page.h"
#include "x86_64/cpu.h"
#include "tests/kernel/driver_server.h"
#include "tests/kernel/user_task.h"

#define START_SECONDS	40
#define FAULTS		1000		/* inject_faults= */
#define SECONDS		300		/* inject_seconds= */
#define CHUNK		65536		/* a console buffer */
#define LINE_MAX	256

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

static uint64_t cmdline_or(const char *key, uint64_t dflt)
{
	uint64_t v;

	return cmdline_u64(bootinfo.cmdline, key, &v) == 0 ? v : dflt;
}

/* What the console said so far, counted line by line. */
struct tally {
	unsigned int faults, crashes, hangs, failing, passes, fails, declared;
	uint64_t requests, failed, wrong;
	bool done;
	char line[LINE_MAX];		/* the line being read */
	size_t len;
};

static bool has(const char *line, const char *text)
{
	return kmemmem(line, strlen(line), text) != NULL;
}

static void count_line(struct tally *y, const char *requests_word)
{
	const char *line = y->line;
	uint64_t n = 0;

	if (has(line, "inject: fault "))
		y->faults++;
	else if (has(line, "lxdrv_inject.elf terminated: hung"))
		y->hangs++;
	else if (has(line, "lxdrv_inject.elf terminated: restarted: "))
		y->failing++;
	else if (has(line, "lxdrv_inject.elf terminated: "))
		y->crashes++;
	else if (has(line, "USER-PASS"))
		y->passes++;
	else if (has(line, "USER-FAIL"))
		y->fails++;
	else if (user_task_number_after(line, "USER-DONE ", &n)) {
		y->done = true;
		y->declared = (unsigned int)n;
	} else if (user_task_number_after(line, requests_word,
					  &y->requests)) {
		(void)user_task_number_after(line, " failed ", &y->failed);
		(void)user_task_number_after(line, " wrong_data ", &y->wrong);
	}
}

/* Count the @len bytes of @text into @y, a line at a time. */
static void count(struct tally *y, const char *text, size_t len,
		  const char *requests_word)
{
	for (size_t i = 0; i < len; i++) {
		if (text[i] != '\n') {
			if (y->len + 1 < LINE_MAX)
				y->line[y->len++] = text[i];
			continue;
		}
		y->line[y->len] = '\0';
		count_line(y, requests_word);
		y->len = 0;
	}
}

/* What a campaign runs: its client's command line, the device its
 * calls go to, the word before the client's count of requests. */
struct campaign {
	const char *client;
	const char *device;
	const char *requests;
};

/* Run @c: faults and time from the command line. */
static void campaign(struct ktest *t, const struct campaign *c)
{
	static char buf[2][CHUNK];
	static struct tally y;
	unsigned int faults = (unsigned int)cmdline_or("inject_faults", FAULTS);
	unsigned int seconds = (unsigned int)cmdline_or("inject_seconds",
							SECONDS);
	unsigned int restarts, resent, which = 0;

	if (sup == NULL) {
		ktest_fail(t, "the server is not supervised");
		return;
	}
	memset(&y, 0, sizeof(y));
	if (!user_task_start(t, c->client, buf[which], CHUNK, NULL))
		return;
	for (unsigned int i = 0; i < seconds * 10 && !y.done; i++) {
		uint64_t flags;
		size_t len;

		thread_sleep_ticks(HZ / 10);
		/* the other buffer takes over with nothing printed between */
		flags = cpu_intr_save();
		len = console_capture_stop();
		console_capture_start(buf[!which], CHUNK);
		cpu_intr_restore(flags);
		count(&y, buf[which], len, c->requests);
		which = !which;
		if (i % 100 == 99)	/* the kernel's memory as it goes */
			kprintf("# %u s: kalloc %llu bytes, %llu free pages, "
				"%u kmsgs\n", (i + 1) / 10,
				(unsigned long long)kalloc_bytes_in_use(),
				(unsigned long long)
				vm_page_free_count(VM_ZONE_DMA32),
				ipc_kmsg_count());
	}
	count(&y, buf[which], console_capture_stop(), c->requests);
	if (!y.done) {
		ktest_fail(t, "the client did not end within %u s (%u call(s) "
			   "at a server)", seconds, dev_proxy_fwd_count());
		return;
	}
	restarts = supervise_restarts(sup);
	resent = dev_proxy_resent(c->device);
	kprintf("FAULT-INJECT {\"device\": \"%s\", \"faults\": %u, "
		"\"crashes\": %u, \"hangs\": %u, \"failing\": %u, "
		"\"restarts\": %u, \"calls_sent_again\": %u, "
		"\"calls_checked\": %u, \"calls_repeated\": %u, "
		"\"wrong_data_caught\": %u, "
		"\"requests\": %llu, "
		"\"client_errors\": %llu, \"client_wrong_data\": %llu}\n",
		c->device, y.faults, y.crashes, y.hangs, y.failing, restarts,
		resent, dev_proxy_checks(c->device),
		dev_proxy_repeated(c->device), dev_proxy_wrong_data(c->device),
		(unsigned long long)y.requests, (unsigned long long)y.failed,
		(unsigned long long)y.wrong);
	KTEST_EXPECT_EQ(t, y.fails, 0);
	KTEST_EXPECT_EQ(t, y.passes, y.declared);
	KTEST_EXPECT_GE(t, y.passes, 1);
	KTEST_EXPECT_GE(t, y.faults, faults);
	KTEST_EXPECT_FALSE(t, supervise_gave_up(sup));
	/* every death started again, but perhaps the last one */
	KTEST_EXPECT_TRUE(t, restarts + 1 >= y.crashes + y.hangs + y.failing &&
			     restarts <= y.crashes + y.hangs + y.failing);
}

static void faults_under_frames(struct ktest *t)
{
	static const struct campaign frames = {
		"restart_probe mode=load", "eth0", "USER-INFO frames "
	};

	campaign(t, &frames);
}

static void faults_under_disk_writes(struct ktest *t)
{
	static const struct campaign writes = {
		"restart_probe mode=disk failures=count", "hd0s1",
		"USER-INFO rounds "
	};

	campaign(t, &writes);
}

static const struct ktest_case fault_inject_cases[] = {
	{ "server_starts_supervised", server_starts_supervised },
	{ "faults_under_frames", faults_under_frames },
};
KTEST_SUITE(fault_inject_suite, "fault-inject", fault_inject_cases);

static const struct ktest_case fault_inject_disk_cases[] = {
	{ "server_starts_supervised", server_starts_supervised },
	{ "faults_under_disk_writes",
	  faults_under_disk_writes },
};
KTEST_SUITE(fault_inject_disk_suite, "fault-inject-disk",
	    fault_inject_disk_cases);
