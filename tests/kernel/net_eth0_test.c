/* SPDX-License-Identifier: GPL-2.0-only */
/* Suites "net-e1000", "net-ne2k-pci", "net-ne-isa": an unmodified Linux NIC driver serves Mach's eth0. */
/*
 * The kernel boots with "linux" (mach-glue/kernel/lx_boot.c): the
 * driver's initcall probes QEMU's NIC (e1000; ne2k_pci; ne2k_isa, found
 * at the ne_io= platform device lx_boot registers), which the harness
 * connects to a peer on
 * the host (tests/harness/net_peer.py).  tests/user/net_probe.c drives
 * eth0 through device.defs and prints USER-PASS/USER-FAIL lines; this
 * side adds what only the kernel sees: the device's counters, that the
 * Linux device goes down after the last close, and that a second whole
 * session leaves pages, heap, ports, messages and requests as it found
 * them (the first one warms Linux's caches, e.g. the page fragments).
 */
#include <stdbool.h>
#include <stdint.h>

#include "device/device.h"
#include "ipc/ipc_kmsg.h"
#include "ipc/ipc_port.h"
#include "kern/bootinfo.h"
#include "kern/cmdline.h"
#include "kern/ktest.h"
#include "kern/sched.h"
#include "kern/string.h"
#include "kern/thread.h"
#include "linux-emu/include/lx_emul.h"
#include "mach-glue/net/dev_lxnet.h"
#include "tests/kernel/user_task.h"
#include "tests/linux-emu/lx_selftest_net.h"

#define NET_PROBE_CHECKS	62
#define BUSY_FLAGS_CHECKS	7	/* net_probe mode=flags */
#define CLOSE_CHECKS		18	/* net_probe mode=close */
#define FRAMES_PER_SESSION	4
#define MODE_STEPS		4	/* receive-mode steps, a frame each */

static char console[32768];

/* Wait up to @seconds for the lx-net worker to finish (the close after
 * the task's last send right went, frames still with the driver). */
static bool wait_idle(unsigned int seconds)
{
	for (unsigned int i = 0; i < seconds * 10; i++) {
		if (dev_lxnet_idle())
			return true;
		thread_sleep_ticks(10);
	}
	return dev_lxnet_idle();
}

static void eth0_is_served(struct ktest *t)
{
	struct dev_lxnet_stats s;

	KTEST_EXPECT_EQ(t, dev_lxnet_stats("eth0", &s), 0);
	KTEST_EXPECT_EQ(t, dev_lxnet_stats("eth1", &s), -1);
	KTEST_EXPECT_EQ(t, s.up, 0);
}

/* Run net_probe once and wait for lx-net to go idle; eth0's counters in
 * *@s.  False (the case failed) if the program could not run. */
static bool net_probe_session(struct ktest *t, struct dev_lxnet_stats *s)
{
	if (!user_task_run(t, "net_probe", 20, console, sizeof(console)))
		return false;
	user_task_expect_checks(t, console, NET_PROBE_CHECKS);
	if (!wait_idle(5))
		ktest_fail(t, "lx-net still busy 5 s after the task ended");
	KTEST_EXPECT_EQ(t, dev_lxnet_stats("eth0", s), 0);
	return true;
}

static void net_program_passes_its_checks(struct ktest *t)
{
	struct dev_lxnet_stats s;

	if (!net_probe_session(t, &s))
		return;
	KTEST_EXPECT_EQ(t, s.opens, 1);
	KTEST_EXPECT_EQ(t, s.closes, 1);
	KTEST_EXPECT_EQ(t, s.up, 0);
	KTEST_EXPECT_EQ(t, s.tx_frames, FRAMES_PER_SESSION + MODE_STEPS);
	KTEST_EXPECT_EQ(t, s.tx_done, FRAMES_PER_SESSION + MODE_STEPS);
	KTEST_EXPECT_EQ(t, s.tx_errors, 0);
	/* A verdict and a refused frame for each frame sent. */
	KTEST_EXPECT_TRUE(t, s.rx_frames >= 2 * FRAMES_PER_SESSION);
}

static void second_session_leaves_nothing(struct ktest *t)
{
	struct user_task_baseline b;
	unsigned int ports = ipc_port_count(), kmsgs = ipc_kmsg_count();
	struct dev_lxnet_stats s;

	user_task_baseline(&b);
	if (!net_probe_session(t, &s))
		return;
	KTEST_EXPECT_EQ(t, s.opens, 2);
	KTEST_EXPECT_EQ(t, s.closes, 2);
	KTEST_EXPECT_EQ(t, dev_open_count(), 0);
	KTEST_EXPECT_EQ(t, io_req_in_flight(), 0);
	KTEST_EXPECT_EQ(t, ipc_port_count(), ports);
	KTEST_EXPECT_EQ(t, ipc_kmsg_count(), kmsgs);
	user_task_expect_baseline(t, &b);
}

/* ISA ne found its IRQ by autoIRQ (probe_irq_on/off): it must be the line
 * the harness gave QEMU's card (expect_irq=). */
static void autoirq_found_the_cards_line(struct ktest *t)
{
	struct lx_emul_netdev_info info;
	struct lx_emul_netdev *dev = lx_emul_netdev_find("eth0");
	uint64_t want = 0;

	if (cmdline_u64(bootinfo.cmdline, "expect_irq", &want) != 0) {
		ktest_fail(t, "command line lacks a number expect_irq=");
		return;
	}
	if (!dev) {
		ktest_fail(t, "no Linux net device eth0");
		return;
	}
	KTEST_EXPECT_EQ(t, lx_emul_netdev_info(dev, &info), 0);
	KTEST_EXPECT_EQ(t, info.irq, (int)want);
}

/*
 * Linux's rtnl lock held by a kernel thread while a program works, so
 * that neither the device ops (which would apply NET_FLAGS or send from
 * the op) nor lx-net get it: each hold starts once eth0 was opened one
 * more time than before the run (the Mach open count) and has its link,
 * and lasts 500 ms.
 */
struct rtnl_hold {
	unsigned int holds, held, opens_before;
	bool done, timed_out;
};

static bool eth0_has_link(void)
{
	struct lx_emul_netdev *dev = lx_emul_netdev_find("eth0");
	struct lx_emul_netdev_info info;

	return dev && lx_emul_netdev_info(dev, &info) == 0 && info.up &&
	       info.carrier;
}

static void rtnl_holder(void *arg)
{
	struct rtnl_hold *h = arg;
	struct dev_lxnet_stats s;
	unsigned int i;

	for (h->held = 0; h->held < h->holds; h->held++) {
		for (i = 0; i < 1000; i++) {
			dev_lxnet_stats("eth0", &s);
			if (s.mach_opens > h->opens_before + h->held &&
			    eth0_has_link())
				break;
			thread_sleep_ticks(1);
		}
		if (i == 1000) {
			h->timed_out = true;
			break;
		}
		lx_emul_selftest_net_rtnl(1);
		thread_sleep_ticks(50);
		lx_emul_selftest_net_rtnl(0);
	}
	h->done = true;
}

/* Run the net_probe of @mode (its module's word) with @holds holds of
 * the rtnl lock (rtnl_holder); false (the case failed) if it could not
 * run or the holds did not all happen. */
static bool run_with_rtnl_held(struct ktest *t, const char *mode,
			       unsigned int holds)
{
	static struct rtnl_hold h;	/* the thread's, until it is done */
	struct dev_lxnet_stats s;
	bool ran;

	if (h.holds != 0 && !h.done) {
		ktest_fail(t, "an earlier rtnl holder is still running");
		return false;
	}
	h = (struct rtnl_hold){ .holds = holds };
	dev_lxnet_stats("eth0", &s);
	h.opens_before = s.mach_opens;
	if (kernel_thread_create("rtnl-holder", THREAD_PRIORITY_DEFAULT,
				 rtnl_holder, &h, NULL) != KERN_SUCCESS) {
		ktest_fail(t, "cannot start the rtnl holder");
		return false;
	}
	ran = user_task_run(t, mode, 30, console, sizeof(console));
	for (unsigned int i = 0; i < 1000 && !h.done; i++)
		thread_sleep_ticks(1);
	if (!h.done || h.timed_out || h.held != holds) {
		ktest_fail(t, "rtnl held %u times, expected %u%s", h.held,
			   holds, h.timed_out ? " (eth0 never had its link)" :
			   "");
		return false;
	}
	return ran;
}

/* NET_FLAGS while the rtnl lock is busy: the op cannot apply it, lx-net
 * does once the lock is free, and the reply waits for it. */
static void net_flags_wait_for_a_busy_rtnl(struct ktest *t)
{
	struct dev_lxnet_stats before, after;

	KTEST_EXPECT_EQ(t, dev_lxnet_stats("eth0", &before), 0);
	if (!run_with_rtnl_held(t, "mode=flags", 1))
		return;
	user_task_expect_checks(t, console, BUSY_FLAGS_CHECKS);
	if (!wait_idle(5))
		ktest_fail(t, "lx-net still busy 5 s after the task ended");
	KTEST_EXPECT_EQ(t, dev_lxnet_stats("eth0", &after), 0);
	KTEST_EXPECT_TRUE(t, after.flags_deferred > before.flags_deferred);
	KTEST_EXPECT_EQ(t, after.up, 0);
}

/*
 * Writes queued for lx-net (the rtnl lock held) when eth0 is closed, by
 * device_close and by its last send right going: each is answered (sent
 * or D_DEVICE_DOWN, net_probe checks), eth0 works when opened again, and
 * nothing is left: requests, open devices, ports, messages, sk_buffs,
 * pages and heap as before.
 */
static void close_with_writes_queued_leaves_nothing(struct ktest *t)
{
	unsigned int ports = ipc_port_count(), kmsgs = ipc_kmsg_count();
	struct dev_lxnet_stats s;
	struct user_task_baseline b;

	user_task_baseline(&b);
	if (!run_with_rtnl_held(t, "mode=close", 2))
		return;
	user_task_expect_checks(t, console, CLOSE_CHECKS);
	if (!wait_idle(5))
		ktest_fail(t, "lx-net still busy 5 s after the task ended");
	KTEST_EXPECT_EQ(t, dev_lxnet_stats("eth0", &s), 0);
	KTEST_EXPECT_EQ(t, s.up, 0);
	KTEST_EXPECT_EQ(t, s.tx_done, s.tx_frames);
	KTEST_EXPECT_EQ(t, dev_open_count(), 0);
	KTEST_EXPECT_EQ(t, io_req_in_flight(), 0);
	KTEST_EXPECT_EQ(t, ipc_port_count(), ports);
	KTEST_EXPECT_EQ(t, ipc_kmsg_count(), kmsgs);
	KTEST_EXPECT_EQ(t, lx_emul_skb_count(), 0);
	user_task_expect_baseline(t, &b);
}

static const struct ktest_case net_eth0_cases[] = {
	{ "eth0_is_served", eth0_is_served },
	{ "net_program_passes_its_checks", net_program_passes_its_checks },
	{ "second_session_leaves_nothing", second_session_leaves_nothing },
	{ "net_flags_wait_for_a_busy_rtnl", net_flags_wait_for_a_busy_rtnl },
	{ "close_with_writes_queued_leaves_nothing",
	  close_with_writes_queued_leaves_nothing },
};
KTEST_SUITE(net_e1000_suite, "net-e1000", net_eth0_cases);
KTEST_SUITE(net_ne2k_pci_suite, "net-ne2k-pci", net_eth0_cases);

static const struct ktest_case net_ne_isa_cases[] = {
	{ "eth0_is_served", eth0_is_served },
	{ "autoirq_found_the_cards_line", autoirq_found_the_cards_line },
	{ "net_program_passes_its_checks", net_program_passes_its_checks },
	{ "second_session_leaves_nothing", second_session_leaves_nothing },
	{ "net_flags_wait_for_a_busy_rtnl", net_flags_wait_for_a_busy_rtnl },
	{ "close_with_writes_queued_leaves_nothing",
	  close_with_writes_queued_leaves_nothing },
};
KTEST_SUITE(net_ne_isa_suite, "net-ne-isa", net_ne_isa_cases);
