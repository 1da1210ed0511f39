/* SPDX-License-Identifier: GPL-2.0-only */
/* Suites "net-e1000", "net-ne2k-pci", "net-ne-isa", "net-pcnet32"...: an unmodified Linux NIC driver serves Mach's eth0. */
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
 * Then the program's other modes while a kernel thread makes eth0 busy
 * (busy_maker): NET_FLAGS deferred while the rtnl lock is held, a write
 * meeting a stopped queue, one without a carrier (8390 only), and writes
 * queued when eth0 is closed, with everything given back.
 */
#include <stdbool.h>
#include <stdint.h>

#include "device/device.h"
#include "ipc/ipc_kmsg.h"
#include "ipc/ipc_port.h"
#include "kern/bootinfo.h"
#include "kern/cmdline.h"
#include "kern/intr.h"
#include "kern/kalloc.h"
#include "kern/ktest.h"
#include "kern/sched.h"
#include "kern/string.h"
#include "kern/task.h"
#include "kern/thread.h"
#include "linux-emu/include/lx_emul.h"
#include "mach-glue/net/dev_lxnet.h"
#include "tests/kernel/user_task.h"
#include "tests/linux-emu/lx_selftest_net.h"
#include "x86_64/pic.h"

#define NET_PROBE_CHECKS	62
#define BUSY_FLAGS_CHECKS	7	/* net_probe mode=flags */
#define CLOSE_CHECKS		18	/* net_probe mode=close */
#define STALLED_CHECKS		5	/* net_probe mode=stalled */
#define LINKDOWN_CHECKS		6	/* net_probe mode=linkdown */
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

/* Spurious interrupts (lines 7 and 15) when eth0_is_served ran. */
static uint64_t spurious_before;

static uint64_t spurious_now(void)
{
	return intr_spurious_count(7) + intr_spurious_count(15);
}

static void eth0_is_served(struct ktest *t)
{
	struct dev_lxnet_stats s;

	spurious_before = spurious_now();
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
	/* lx-net woke for the open and the close (and maybe a queue
	 * wake-up of the driver), not for each of the frames the driver
	 * gave back: the write op had answered them. */
	KTEST_EXPECT_LE(t, s.worker_wakes, 4);
}

/* A page of a receive ring costs the kernel's heap a record of less
 * than this (mach-glue/kernel/lx_host_memory.c's page runs). */
#define RING_PAGE_HEAP_MAX	64

/* The baseline in @b taken with @frag_pages pages in drivers' receive
 * rings (lx_emul_frag_pages): tasks, pages and heap as then, but for
 * the pages the rings hold more or fewer now.  virtio_net keeps its
 * ring full of buffers carved from pages between sessions, refilled
 * lazily; how many pages they span depends on the frames received.
 * For drivers without such rings this is user_task_expect_baseline. */
static void expect_baseline_beside_rings(struct ktest *t,
					 const struct user_task_baseline *b,
					 unsigned long frag_pages)
{
	long held = (long)lx_emul_frag_pages() - (long)frag_pages;
	long bytes = (long)kalloc_bytes_in_use() - (long)b->bytes;

	if (!held) {
		user_task_expect_baseline(t, b);
		return;
	}
	KTEST_EXPECT_EQ(t, task_count(), b->tasks);
	KTEST_EXPECT_EQ(t, user_task_free_pages() + held, b->pages);
	if (held > 0 ? bytes <= 0 || bytes > held * RING_PAGE_HEAP_MAX :
		       bytes >= 0 || -bytes > -held * RING_PAGE_HEAP_MAX)
		ktest_fail(t, "heap changed by %ld bytes for %ld ring pages",
			   bytes, held);
}

static void second_session_leaves_nothing(struct ktest *t)
{
	struct user_task_baseline b;
	unsigned int ports = ipc_port_count(), kmsgs = ipc_kmsg_count();
	unsigned long frag_pages = lx_emul_frag_pages();
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
	expect_baseline_beside_rings(t, &b, frag_pages);
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
 * A PCI NIC's line is level triggered (the firmware's ELCR; the NIC is
 * the boot's only PCI function that interrupts), so the controller is
 * acknowledged after the driver's handler cleared the card's request
 * (kern/intr.h): the sessions of the cases before had a level triggered
 * line interrupt without a single spurious IRQ 7 or 15, which an
 * acknowledgement before the handler gives for every interrupt of a
 * request still asserted then.  Runs last.
 */
static void pci_line_acknowledged_after_its_handler(struct ktest *t)
{
	uint64_t level_interrupts = 0;

	for (unsigned int line = 0; line < PIC_LINES; line++)
		if (pic_level_triggered(line))
			level_interrupts += intr_count(line);
	KTEST_EXPECT_TRUE(t, level_interrupts > 0);
	KTEST_EXPECT_EQ(t, spurious_now(), spurious_before);
}

/*
 * A kernel thread makes eth0 busy while a program works: each of its
 * @holds turns starts once eth0 was opened one more time than before the
 * run (the Mach open count) and has its link, and lasts 500 ms:
 *   BUSY_RTNL - Linux's rtnl lock held (the device ops cannot apply
 *     NET_FLAGS or send from the op, lx-net waits for the lock);
 *   BUSY_QUEUE - the transmit queue stopped, then woken, as the driver
 *     would;
 *   BUSY_CARRIER - the carrier off until a write failed for it (lx-net
 *     waits 3 s), then on again (one turn; 8390 drivers only: e1000's
 *     watchdog raises the carrier again by itself).
 */
enum busy_kind { BUSY_RTNL, BUSY_QUEUE, BUSY_CARRIER };

struct busy_run {
	enum busy_kind kind;
	unsigned int holds, held, opens_before;
	bool done, timed_out;
};

static struct lx_emul_netdev *eth0_link(void)
{
	struct lx_emul_netdev *dev = lx_emul_netdev_find("eth0");
	struct lx_emul_netdev_info info;

	if (dev && lx_emul_netdev_info(dev, &info) == 0 && info.up &&
	    info.carrier)
		return dev;
	return NULL;
}

/* Wait up to 10 s for @done(@b) (checked every tick); false if it never
 * came (b->timed_out set). */
static bool busy_wait(struct busy_run *b, bool (*done)(struct busy_run *))
{
	for (unsigned int i = 0; i < 1000; i++) {
		if (done(b))
			return true;
		thread_sleep_ticks(1);
	}
	b->timed_out = true;
	return false;
}

/* The client opened eth0 once more and sees its link (IFF_RUNNING in
 * NET_STATUS, what its wait_link waits for). */
static bool opened_with_link(struct busy_run *b)
{
	struct dev_lxnet_stats s;

	dev_lxnet_stats("eth0", &s);
	return s.mach_opens > b->opens_before + b->held &&
	       (s.flags & 0x40) && eth0_link();
}

static uint64_t errors_before;

static bool write_failed(struct busy_run *b)
{
	struct dev_lxnet_stats s;

	(void)b;
	dev_lxnet_stats("eth0", &s);
	return s.tx_errors > errors_before;
}

static void busy_maker(void *arg)
{
	struct busy_run *b = arg;
	struct dev_lxnet_stats s;

	for (b->held = 0; b->held < b->holds; b->held++) {
		struct lx_emul_netdev *dev;

		if (!busy_wait(b, opened_with_link))
			break;
		dev = eth0_link();
		if (b->kind == BUSY_RTNL) {
			lx_emul_selftest_net_rtnl(1);
			thread_sleep_ticks(50);
			lx_emul_selftest_net_rtnl(0);
		} else if (b->kind == BUSY_QUEUE) {
			lx_emul_selftest_net_dev_set(dev, 0, 0);
			thread_sleep_ticks(50);
			lx_emul_selftest_net_dev_set(dev, 0, 1);
		} else {
			dev_lxnet_stats("eth0", &s);
			errors_before = s.tx_errors;
			lx_emul_selftest_net_dev_set(dev, 1, 0);
			busy_wait(b, write_failed);
			lx_emul_selftest_net_dev_set(dev, 1, 1);
		}
	}
	b->done = true;
}

/*
 * Run the net_probe of @mode (its module's word) while busy_maker makes
 * eth0 busy @holds times as @kind says, expect its @checks and wait for
 * lx-net to go idle; eth0's counters before and after in *@before,
 * *@after.  False (the case failed) if the program could not run or the
 * turns did not all happen.
 */
static bool run_busy(struct ktest *t, const char *mode, enum busy_kind kind,
		     unsigned int holds, unsigned int checks,
		     struct dev_lxnet_stats *before,
		     struct dev_lxnet_stats *after)
{
	static struct busy_run b;	/* the thread's, until it is done */
	bool ran;

	if (b.holds != 0 && !b.done) {
		ktest_fail(t, "an earlier busy maker is still running");
		return false;
	}
	b = (struct busy_run){ .kind = kind, .holds = holds };
	dev_lxnet_stats("eth0", before);
	b.opens_before = before->mach_opens;
	if (kernel_thread_create("busy-maker", THREAD_PRIORITY_DEFAULT,
				 busy_maker, &b, NULL) != KERN_SUCCESS) {
		ktest_fail(t, "cannot start the busy maker");
		return false;
	}
	ran = user_task_run(t, mode, 30, console, sizeof(console));
	for (unsigned int i = 0; i < 1000 && !b.done; i++)
		thread_sleep_ticks(1);
	if (!b.done || b.timed_out || b.held != holds) {
		ktest_fail(t, "eth0 made busy %u times, expected %u%s", b.held,
			   holds, b.timed_out ? " (a wait timed out)" : "");
		return false;
	}
	if (!ran)
		return false;
	user_task_expect_checks(t, console, checks);
	if (!wait_idle(5))
		ktest_fail(t, "lx-net still busy 5 s after the task ended");
	dev_lxnet_stats("eth0", after);
	return true;
}

/* NET_FLAGS while the rtnl lock is busy: the op cannot apply it, lx-net
 * does once the lock is free, and the reply waits for it. */
static void net_flags_wait_for_a_busy_rtnl(struct ktest *t)
{
	struct dev_lxnet_stats before, after;

	if (!run_busy(t, "mode=flags", BUSY_RTNL, 1, BUSY_FLAGS_CHECKS,
		      &before, &after))
		return;
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
	struct dev_lxnet_stats before, s;
	unsigned long frag_pages = lx_emul_frag_pages();
	struct user_task_baseline b;

	user_task_baseline(&b);
	if (!run_busy(t, "mode=close", BUSY_RTNL, 2, CLOSE_CHECKS, &before,
		      &s))
		return;
	KTEST_EXPECT_EQ(t, s.up, 0);
	KTEST_EXPECT_EQ(t, s.tx_done, s.tx_frames);
	KTEST_EXPECT_EQ(t, dev_open_count(), 0);
	KTEST_EXPECT_EQ(t, io_req_in_flight(), 0);
	KTEST_EXPECT_EQ(t, ipc_port_count(), ports);
	KTEST_EXPECT_EQ(t, ipc_kmsg_count(), kmsgs);
	KTEST_EXPECT_EQ(t, lx_emul_skb_count(), 0);
	expect_baseline_beside_rings(t, &b, frag_pages);
}

/* A write meeting a stopped transmit queue waits for the driver's
 * wake-up and is sent (net_probe mode=stalled). */
static void stopped_queue_write_waits_for_the_wake(struct ktest *t)
{
	struct dev_lxnet_stats before, after;

	if (!run_busy(t, "mode=stalled", BUSY_QUEUE, 1, STALLED_CHECKS,
		      &before, &after))
		return;
	KTEST_EXPECT_TRUE(t, after.tx_busy > before.tx_busy);
	KTEST_EXPECT_EQ(t, after.tx_errors, before.tx_errors);
}

/* Without a carrier a write fails D_DEVICE_DOWN after lx-net's 3 s
 * wait, and one after the carrier came back is sent (net_probe
 * mode=linkdown). */
static void no_link_write_fails_then_works(struct ktest *t)
{
	struct dev_lxnet_stats before, after;

	if (!run_busy(t, "mode=linkdown", BUSY_CARRIER, 1, LINKDOWN_CHECKS,
		      &before, &after))
		return;
	KTEST_EXPECT_EQ(t, after.tx_errors, before.tx_errors + 1);
}

static const struct ktest_case net_eth0_cases[] = {
	{ "eth0_is_served", eth0_is_served },
	{ "net_program_passes_its_checks", net_program_passes_its_checks },
	{ "second_session_leaves_nothing", second_session_leaves_nothing },
	{ "net_flags_wait_for_a_busy_rtnl", net_flags_wait_for_a_busy_rtnl },
	{ "stopped_queue_write_waits_for_the_wake",
	  stopped_queue_write_waits_for_the_wake },
	{ "close_with_writes_queued_leaves_nothing",
	  close_with_writes_queued_leaves_nothing },
	{ "pci_line_acknowledged_after_its_handler",
	  pci_line_acknowledged_after_its_handler },
};
KTEST_SUITE(net_e1000_suite, "net-e1000", net_eth0_cases);
/* The same cases over the other PCI NICs QEMU emulates (their watchdogs
 * raise the carrier again by themselves, as e1000's). */
KTEST_SUITE(net_pcnet32_suite, "net-pcnet32", net_eth0_cases);
KTEST_SUITE(net_8139cp_suite, "net-8139cp", net_eth0_cases);
KTEST_SUITE(net_e1000e_suite, "net-e1000e", net_eth0_cases);
KTEST_SUITE(net_e100_suite, "net-e100", net_eth0_cases);
KTEST_SUITE(net_tulip_suite, "net-tulip", net_eth0_cases);
KTEST_SUITE(net_virtio_suite, "net-virtio", net_eth0_cases);
KTEST_SUITE(net_vmxnet3_suite, "net-vmxnet3", net_eth0_cases);

static const struct ktest_case net_ne2k_pci_cases[] = {
	{ "eth0_is_served", eth0_is_served },
	{ "net_program_passes_its_checks", net_program_passes_its_checks },
	{ "second_session_leaves_nothing", second_session_leaves_nothing },
	{ "net_flags_wait_for_a_busy_rtnl", net_flags_wait_for_a_busy_rtnl },
	{ "stopped_queue_write_waits_for_the_wake",
	  stopped_queue_write_waits_for_the_wake },
	{ "no_link_write_fails_then_works", no_link_write_fails_then_works },
	{ "close_with_writes_queued_leaves_nothing",
	  close_with_writes_queued_leaves_nothing },
	{ "pci_line_acknowledged_after_its_handler",
	  pci_line_acknowledged_after_its_handler },
};
KTEST_SUITE(net_ne2k_pci_suite, "net-ne2k-pci", net_ne2k_pci_cases);

static const struct ktest_case net_ne_isa_cases[] = {
	{ "eth0_is_served", eth0_is_served },
	{ "autoirq_found_the_cards_line", autoirq_found_the_cards_line },
	{ "net_program_passes_its_checks", net_program_passes_its_checks },
	{ "second_session_leaves_nothing", second_session_leaves_nothing },
	{ "net_flags_wait_for_a_busy_rtnl", net_flags_wait_for_a_busy_rtnl },
	{ "stopped_queue_write_waits_for_the_wake",
	  stopped_queue_write_waits_for_the_wake },
	{ "no_link_write_fails_then_works", no_link_write_fails_then_works },
	{ "close_with_writes_queued_leaves_nothing",
	  close_with_writes_queued_leaves_nothing },
};
KTEST_SUITE(net_ne_isa_suite, "net-ne-isa", net_ne_isa_cases);
