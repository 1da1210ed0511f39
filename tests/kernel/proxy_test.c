/* SPDX-License-Identifier: GPL-2.0-only */
/* Suite "device-proxy": devices a driver server publishes (proxy.defs), served through the kernel's proxy module. */
/*
 * Each case runs tests/user/proxy_server.c and tests/user/proxy_probe.c
 * as a pair in one mode (serve, bad, die, lend) and checks what only the
 * kernel sees: the probe's checks all passed, the server met no
 * surprise, frames of bad sizes were dropped and counted, and after
 * both tasks ended no publication, forwarded request, request in
 * flight, open device, port or message is left.
 */
#include <stdbool.h>
#include <stdint.h>

#include "device/dev_proxy.h"
#include "device/device.h"
#include "ipc/ipc_kmsg.h"
#include "ipc/ipc_port.h"
#include "kern/kprintf.h"
#include "kern/ktest.h"
#include "kern/ledger.h"
#include "tests/kernel/user_task.h"

static char console[32768];

struct proxy_counts {
	struct user_task_baseline task;
	unsigned int proxies, fwds, requests, opens, ports, kmsgs, ledgers;
};

static void counts_take(struct proxy_counts *c)
{
	user_task_baseline(&c->task);
	c->proxies = dev_proxy_count();
	c->fwds = dev_proxy_fwd_count();
	c->requests = io_req_in_flight();
	c->opens = dev_open_count();
	c->ports = ipc_port_count();
	c->kmsgs = ipc_kmsg_count();
	c->ledgers = ledger_count();
}

static void expect_counts(struct ktest *t, const struct proxy_counts *b)
{
	KTEST_EXPECT_EQ(t, dev_proxy_count(), b->proxies);
	KTEST_EXPECT_EQ(t, dev_proxy_fwd_count(), b->fwds);
	KTEST_EXPECT_EQ(t, io_req_in_flight(), b->requests);
	KTEST_EXPECT_EQ(t, dev_open_count(), b->opens);
	KTEST_EXPECT_EQ(t, ipc_port_count(), b->ports);
	KTEST_EXPECT_EQ(t, ipc_kmsg_count(), b->kmsgs);
	KTEST_EXPECT_EQ(t, ledger_count(), b->ledgers);
	user_task_expect_baseline(t, &b->task);
}

/* Run the pair of @mode; the probe passes at least @min checks. */
static void run_mode(struct ktest *t, const char *mode, unsigned int min)
{
	char server[24], probe[24];
	struct proxy_counts b;

	counts_take(&b);
	ksnprintf(server, sizeof(server), "proxy_%s ", mode);
	ksnprintf(probe, sizeof(probe), "probe_%s ", mode);
	if (!user_task_run_pair(t, server, probe, 30, console,
				sizeof(console)))
		return;
	user_task_expect_checks(t, console, min);
	KTEST_EXPECT_EQ(t, user_task_count_lines(console, "SERVER-READY"), 1);
	KTEST_EXPECT_EQ(t, user_task_count_lines(console, "SERVER-FAIL"), 0);
	KTEST_EXPECT_EQ(t, user_task_count_lines(console, "SERVER-DONE"), 1);
	expect_counts(t, &b);
}

static void served_devices_answer_as_kernel_devices(struct ktest *t)
{
	uint64_t bad = dev_proxy_bad_frames();

	run_mode(t, "serve", 59);
	/* The server's frame of 10 bytes and its frame of 1600. */
	KTEST_EXPECT_EQ(t, dev_proxy_bad_frames() - bad, 2);
}

static void misbehaving_replies_answer_errors(struct ktest *t)
{
	run_mode(t, "bad", 8);
}

static void server_death_takes_the_device_down(struct ktest *t)
{
	run_mode(t, "die", 11);
}

/* A disk's reads and writes with their pages lent to a server that named
 * its direct map; the request it keeps when it exits goes down, and
 * every page comes back. */
static void lent_pages_served_in_place_and_given_back(struct ktest *t)
{
	run_mode(t, "lend", 13);
}

static const struct ktest_case proxy_cases[] = {
	{ "served_devices_answer_as_kernel_devices",
	  served_devices_answer_as_kernel_devices },
	{ "misbehaving_replies_answer_errors",
	  misbehaving_replies_answer_errors },
	{ "server_death_takes_the_device_down",
	  server_death_takes_the_device_down },
	{ "lent_pages_served_in_place_and_given_back",
	  lent_pages_served_in_place_and_given_back },
};
KTEST_SUITE(proxy_suite, "device-proxy", proxy_cases);
