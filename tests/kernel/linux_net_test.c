/* SPDX-License-Identifier: GPL-2.0-only */
/* Suite "linux-net": Linux's net_device, sk_buff and NAPI as linux-emu gives them to drivers, seen through the host's lx_emul_net* API. */
/*
 * A fake driver in the Linux world (tests/linux-emu/lx_selftest_net.c,
 * "lxtest") registers as eth0 and loops every frame it transmits back as
 * received; this side plays the Mach side: it opens eth0, sends frames
 * through lx_emul_netdev_xmit and checks what its callbacks get.  Every
 * page and heap byte taken must be back at the end.
 */
#include <stdint.h>

#include "kern/console.h"
#include "kern/ktest.h"
#include "kern/string.h"
#include "linux-emu/include/lx_emul.h"
#include "tests/linux-emu/lx_selftest_net.h"
#include "tests/kernel/user_task.h"
#include "x86_64/cpu.h"

#define EBUSY		16
#define EINVAL		22
#define ENODEV		19
#define ENETDOWN	100
#define EMSGSIZE	90
#define EADDRNOTAVAIL	99
#define EAGAIN		11
#define ENOLINK		67
#define FRAME_MAX	1514
#define RX_KEEP		8

/* What the host callbacks saw. */
static struct {
	unsigned int rx, tx_done, wakes;
	uintptr_t cookies;		/* sum of tx_done cookies */
	struct lx_emul_netdev *rx_dev, *tx_dev, *wake_dev;
	unsigned long len[RX_KEEP];
	uint8_t frame[RX_KEEP][FRAME_MAX];
} seen;

static void host_rx(struct lx_emul_netdev *dev, const void *frame,
		    unsigned long len)
{
	if (seen.rx < RX_KEEP && len <= FRAME_MAX) {
		seen.len[seen.rx] = len;
		memcpy(seen.frame[seen.rx], frame, len);
	}
	seen.rx_dev = dev;
	seen.rx++;
}

static void host_tx_done(struct lx_emul_netdev *dev, void *cookie)
{
	seen.tx_dev = dev;
	seen.tx_done++;
	seen.cookies += (uintptr_t)cookie;
}

static void host_tx_wake(struct lx_emul_netdev *dev)
{
	seen.wake_dev = dev;
	seen.wakes++;
}

static const struct lx_emul_net_callbacks host_callbacks = {
	.rx = host_rx,
	.tx_done = host_tx_done,
	.tx_wake = host_tx_wake,
};

static struct user_task_baseline before;
static struct lx_emul_netdev *eth0;
static const uint8_t lxtest_mac[6] = LX_SELFTEST_NET_MAC;

/* A frame of @len bytes to eth0's own address, pattern from @seed. */
static void frame_make(uint8_t *f, unsigned long len, uint8_t seed)
{
	memcpy(f, lxtest_mac, 6);
	memcpy(f + 6, lxtest_mac, 6);
	f[6] = 0x06;
	f[12] = 0x88;
	f[13] = 0xb5;
	for (unsigned long i = 14; i < len; i++)
		f[i] = (uint8_t)(seed + i * 13 + (i >> 8));
}

static void seen_reset(void)
{
	memset(&seen, 0, sizeof(seen));
}

static void info_of_eth0(struct ktest *t, struct lx_emul_netdev_info *info)
{
	memset(info, 0, sizeof(*info));
	KTEST_EXPECT_EQ(t, lx_emul_netdev_info(eth0, info), 0);
}

/* First: later cases need the page array and the clock. */
static void linux_world_starts(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, lx_emul_init(), 0);
	lx_emul_net_set_callbacks(&host_callbacks);
	user_task_baseline(&before);
}

static void fake_driver_registers_as_eth0(struct ktest *t)
{
	struct lx_emul_netdev_info info;

	KTEST_EXPECT_EQ(t, lx_emul_selftest_net_register(), 0);
	eth0 = lx_emul_netdev_find("eth0");
	if (!eth0) {
		ktest_fail(t, "expected eth0 registered, found none");
		return;
	}
	KTEST_EXPECT_TRUE(t, lx_emul_netdev_next(NULL) == eth0);
	KTEST_EXPECT_TRUE(t, lx_emul_netdev_next(eth0) == NULL);
	info_of_eth0(t, &info);
	KTEST_EXPECT_STREQ(t, info.name, "eth0");
	KTEST_EXPECT_MEMEQ(t, info.mac, lxtest_mac, 6);
	KTEST_EXPECT_EQ(t, info.mtu, 1500);
	KTEST_EXPECT_GE(t, info.ifindex, 1);
	KTEST_EXPECT_EQ(t, info.up, 0);
	KTEST_EXPECT_EQ(t, info.carrier, 0);
	KTEST_EXPECT_TRUE(t, lx_emul_netdev_find("eth1") == NULL);
}

static void addresses_validate_and_classify(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, lx_emul_selftest_net_addresses(), 0);
}

static void skb_geometry_and_data_operations(struct ktest *t)
{
	struct user_task_baseline b;

	user_task_baseline(&b);
	KTEST_EXPECT_EQ(t, lx_emul_selftest_net_skb(), 0);
	user_task_expect_baseline(t, &b);
}

static void netdev_printk_names_driver_bus_and_device(struct ktest *t)
{
	static char captured[512];
	size_t n;

	console_capture_start(captured, sizeof(captured) - 1);
	KTEST_EXPECT_EQ(t, lx_emul_selftest_net_printk(), 0);
	n = console_capture_stop();
	captured[n] = '\0';
	if (!kmemmem(captured, n, "lxtest 0000:00:03.0 eth0: lxtest says 42\n"))
		ktest_fail(t, "expected \"lxtest 0000:00:03.0 eth0: lxtest "
			   "says 42\", console had \"%s\"", captured);
	if (!kmemmem(captured, n, "(unnamed net_device) (uninitialized): "
		     "not registered\n"))
		ktest_fail(t, "unregistered device's line missing: \"%s\"",
			   captured);
	if (!kmemmem(captured, n, "(NULL net_device): no device\n"))
		ktest_fail(t, "NULL device's line missing: \"%s\"", captured);
}

static void open_runs_ndo_open_and_raises_carrier(struct ktest *t)
{
	struct lx_emul_netdev_info info;
	uint8_t f[60];

	frame_make(f, sizeof(f), 0);
	KTEST_EXPECT_EQ(t, lx_emul_netdev_xmit(eth0, f, 60, 0), -ENETDOWN);
	KTEST_EXPECT_EQ(t, lx_emul_netdev_open(eth0), 0);
	KTEST_EXPECT_EQ(t, lx_emul_netdev_open(eth0), 0);	/* already up */
	info_of_eth0(t, &info);
	KTEST_EXPECT_EQ(t, info.up, 1);
	KTEST_EXPECT_EQ(t, info.carrier, 1);
	KTEST_EXPECT_EQ(t, info.queue_stopped, 0);
	KTEST_EXPECT_EQ(t, info.flags & 1u, 1u);		/* IFF_UP */
}

#define IFF_PROMISC	0x100
#define IFF_ALLMULTI	0x200
#define RX_MODES	(IFF_PROMISC | IFF_ALLMULTI)

/*
 * lx_emul_netdev_set_rx_flags(_now): the modes land in dev->flags and
 * the driver's ndo_set_rx_mode sees them, while the device is up; down,
 * they wait for the open.  Other bits: -EINVAL; the rtnl lock busy:
 * _now answers -EAGAIN with nothing done.
 */
static void receive_modes_reach_ndo_set_rx_mode(struct ktest *t)
{
	static const struct {
		unsigned int modes;
		bool now;
	} cases[] = {
		{ IFF_PROMISC, false },
		{ IFF_PROMISC | IFF_ALLMULTI, true },
		{ IFF_ALLMULTI, false },
		{ 0, true },
	};
	unsigned int flags = 0;
	int calls = lx_emul_selftest_net_filter_calls(&flags), ret;

	KTEST_EXPECT_TRUE(t, calls >= 1);		/* at the open */
	for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		unsigned int m = cases[i].modes;

		ret = cases[i].now ? lx_emul_netdev_set_rx_flags_now(eth0, m) :
		      lx_emul_netdev_set_rx_flags(eth0, m);
		KTEST_EXPECT_EQ(t, ret & (RX_MODES | 1), m | 1);
		KTEST_EXPECT_EQ(t, lx_emul_selftest_net_filter_calls(&flags),
				calls + 1 + (int)i);
		KTEST_EXPECT_EQ(t, flags & RX_MODES, m);
	}
	calls += 4;
	KTEST_EXPECT_EQ(t, lx_emul_netdev_set_rx_flags(eth0, 0x4), -EINVAL);
	KTEST_EXPECT_EQ(t, lx_emul_netdev_set_rx_flags_now(eth0, 0x1),
			-EINVAL);
	KTEST_EXPECT_EQ(t, lx_emul_netdev_set_rx_flags(NULL, 0), -ENODEV);
	lx_emul_selftest_net_rtnl(1);
	KTEST_EXPECT_EQ(t, lx_emul_netdev_set_rx_flags_now(eth0, IFF_PROMISC),
			-EAGAIN);
	lx_emul_selftest_net_rtnl(0);
	KTEST_EXPECT_EQ(t, lx_emul_selftest_net_filter_calls(&flags), calls);
	KTEST_EXPECT_EQ(t, lx_emul_netdev_close(eth0), 0);
	KTEST_EXPECT_EQ(t, lx_emul_netdev_set_rx_flags(eth0, IFF_ALLMULTI) &
			(RX_MODES | 1), IFF_ALLMULTI);	/* down: no IFF_UP */
	KTEST_EXPECT_EQ(t, lx_emul_selftest_net_filter_calls(&flags), calls);
	KTEST_EXPECT_EQ(t, lx_emul_netdev_open(eth0), 0);
	KTEST_EXPECT_EQ(t, lx_emul_selftest_net_filter_calls(&flags),
			calls + 1);
	KTEST_EXPECT_EQ(t, flags & RX_MODES, IFF_ALLMULTI);
	KTEST_EXPECT_EQ(t, lx_emul_netdev_set_rx_flags(eth0, 0) & RX_MODES, 0);
}

/* Frames of 60, 256 and 1514 bytes go out and come back byte for byte,
 * in each of the fake driver's ways of passing frames up. */
static void frames_cross_byte_exact(struct ktest *t, int mode)
{
	static const unsigned long lens[] = { 60, 256, 1514 };
	static uint8_t f[3][FRAME_MAX];

	seen_reset();
	lx_emul_selftest_net_rx_mode(mode);
	for (int i = 0; i < 3; i++) {
		void *cookie = (void *)(uintptr_t)(i + 1);

		frame_make(f[i], lens[i], (uint8_t)(i * 31 + mode));
		KTEST_EXPECT_EQ(t, lx_emul_netdev_xmit(eth0, f[i], lens[i],
						       cookie), 0);
	}
	KTEST_EXPECT_EQ(t, seen.tx_done, 3);
	KTEST_EXPECT_EQ(t, seen.cookies, 1 + 2 + 3);
	KTEST_EXPECT_EQ(t, seen.rx, 3);
	KTEST_EXPECT_TRUE(t, seen.rx_dev == eth0 && seen.tx_dev == eth0);
	for (int i = 0; i < 3 && i < (int)seen.rx; i++) {
		KTEST_EXPECT_EQ(t, seen.len[i], lens[i]);
		KTEST_EXPECT_MEMEQ(t, seen.frame[i], f[i], lens[i]);
	}
}

static void frames_cross_byte_exact_through_netif_rx(struct ktest *t)
{
	frames_cross_byte_exact(t, LX_SELFTEST_NET_RX_NETIF_RX);
}

/* Through the NAPI poll (scheduled in thread context: polled at once),
 * which completes and leaves the context idle. */
static void frames_cross_through_napi(struct ktest *t, int mode)
{
	int polls, max_work, idle;

	frames_cross_byte_exact(t, mode);
	lx_emul_selftest_net_polls(&polls, &max_work, &idle);
	KTEST_EXPECT_GE(t, polls, 1);
	KTEST_EXPECT_EQ(t, idle, 1);
}

static void frames_cross_byte_exact_through_napi_gro_receive(struct ktest *t)
{
	frames_cross_through_napi(t, LX_SELFTEST_NET_RX_GRO);
}

static void frames_cross_byte_exact_through_netif_receive_skb(struct ktest *t)
{
	frames_cross_through_napi(t, LX_SELFTEST_NET_RX_RECEIVE_SKB);
}

static void frames_cross_byte_exact_through_napi_gro_frags(struct ktest *t)
{
	frames_cross_through_napi(t, LX_SELFTEST_NET_RX_GRO_FRAGS);
}

static void bad_lengths_and_handles_are_refused(struct ktest *t)
{
	static uint8_t f[FRAME_MAX + 1];

	seen_reset();
	frame_make(f, sizeof(f), 0);
	KTEST_EXPECT_EQ(t, lx_emul_netdev_xmit(eth0, f, 1515, 0), -EMSGSIZE);
	KTEST_EXPECT_EQ(t, lx_emul_netdev_xmit(eth0, f, 13, 0), -EINVAL);
	KTEST_EXPECT_EQ(t, lx_emul_netdev_xmit((struct lx_emul_netdev *)f, f,
					       60, 0), -ENODEV);
	KTEST_EXPECT_EQ(t, lx_emul_netdev_open((struct lx_emul_netdev *)f),
			-ENODEV);
	KTEST_EXPECT_EQ(t, seen.tx_done + seen.rx, 0);
}

/* lx_emul_netdev_xmit_now sends at once, interrupts off, when the world
 * and the rtnl lock are free and the device has a link; otherwise it
 * sends nothing: -EAGAIN (busy), -ENOLINK (no carrier). */
static void xmit_now_sends_only_when_the_world_is_free(struct ktest *t)
{
	uint8_t f[60];
	uint64_t flags;

	seen_reset();
	frame_make(f, sizeof(f), 9);
	lx_emul_selftest_net_rx_mode(LX_SELFTEST_NET_RX_NETIF_RX);
	flags = cpu_intr_save();
	KTEST_EXPECT_EQ(t, lx_emul_netdev_xmit_now(eth0, f, 60, (void *)4),
			0);
	cpu_intr_restore(flags);
	KTEST_EXPECT_EQ(t, seen.tx_done, 1);
	KTEST_EXPECT_EQ(t, seen.cookies, 4);
	KTEST_EXPECT_EQ(t, seen.rx, 1);
	if (seen.rx == 1)
		KTEST_EXPECT_MEMEQ(t, seen.frame[0], f, 60);
	KTEST_EXPECT_EQ(t, lx_emul_selftest_net_xmit_now_busy(0, eth0, f, 60),
			-EAGAIN);
	KTEST_EXPECT_EQ(t, lx_emul_selftest_net_xmit_now_busy(1, eth0, f, 60),
			-EAGAIN);
	lx_emul_selftest_net_carrier(0);
	KTEST_EXPECT_EQ(t, lx_emul_netdev_xmit_now(eth0, f, 60, 0), -ENOLINK);
	lx_emul_selftest_net_carrier(1);
	KTEST_EXPECT_EQ(t, lx_emul_netdev_xmit_now(eth0, f, 13, 0), -EINVAL);
	KTEST_EXPECT_EQ(t, seen.tx_done, 1);
}

/* Fresh counts, a 60-byte frame in @f, loopback through netif_rx, and
 * a ring that stops the queue after @slots frames. */
static void ring_test_start(uint8_t *f, uint8_t seed, int slots)
{
	seen_reset();
	frame_make(f, 60, seed);
	lx_emul_selftest_net_rx_mode(LX_SELFTEST_NET_RX_NETIF_RX);
	lx_emul_selftest_net_ring(slots);
}

static void stopped_queue_is_busy_until_woken(struct ktest *t)
{
	struct lx_emul_netdev_info info;
	uint8_t f[60];

	ring_test_start(f, 7, 2);
	KTEST_EXPECT_EQ(t, lx_emul_netdev_xmit(eth0, f, 60, (void *)1), 0);
	KTEST_EXPECT_EQ(t, lx_emul_netdev_xmit(eth0, f, 60, (void *)1), 0);
	info_of_eth0(t, &info);
	KTEST_EXPECT_EQ(t, info.queue_stopped, 1);
	KTEST_EXPECT_EQ(t, lx_emul_netdev_xmit(eth0, f, 60, (void *)1),
			-EBUSY);
	KTEST_EXPECT_EQ(t, seen.wakes, 0);
	lx_emul_selftest_net_clean_ring();
	KTEST_EXPECT_EQ(t, seen.wakes, 1);
	KTEST_EXPECT_TRUE(t, seen.wake_dev == eth0);
	info_of_eth0(t, &info);
	KTEST_EXPECT_EQ(t, info.queue_stopped, 0);
	lx_emul_selftest_net_ring(0);
	KTEST_EXPECT_EQ(t, lx_emul_netdev_xmit(eth0, f, 60, (void *)1), 0);
	/* A driver that refuses a frame (NETDEV_TX_BUSY) keeps nothing. */
	lx_emul_selftest_net_refuse_next();
	KTEST_EXPECT_EQ(t, lx_emul_netdev_xmit(eth0, f, 60, (void *)1),
			-EBUSY);
	KTEST_EXPECT_EQ(t, seen.tx_done, 3);
	KTEST_EXPECT_EQ(t, seen.rx, 3);
}

/*
 * Scheduled from the interrupt handler, the poll runs in NET_RX_SOFTIRQ
 * at the interrupt's exit: each round polls every scheduled context once
 * within its weight (64); 400 frames take six rounds of 64, one of 16,
 * and one more because the handler scheduled the context again while it
 * was scheduled (NAPI_STATE_MISSED): eight rounds, within the ten an
 * interrupt exit runs.
 */
static void napi_from_interrupt_polls_within_weight(struct ktest *t)
{
	int polls, max_work, idle;

	seen_reset();
	lx_emul_selftest_net_rx_mode(LX_SELFTEST_NET_RX_GRO);
	KTEST_EXPECT_EQ(t, lx_emul_selftest_net_irq_rx(400), 0);
	KTEST_EXPECT_EQ(t, seen.rx, 400);
	lx_emul_selftest_net_polls(&polls, &max_work, &idle);
	KTEST_EXPECT_EQ(t, polls, 8);
	KTEST_EXPECT_EQ(t, max_work, 64);
	KTEST_EXPECT_EQ(t, idle, 1);
	KTEST_EXPECT_EQ(t, lx_emul_net_rx_action(), 0);	/* nothing left */
	KTEST_EXPECT_EQ(t, seen.len[0], 60);
	KTEST_EXPECT_EQ(t, seen.frame[1][15], 1);	/* frames in order */
}

/* A queue stopped and not moving for longer than watchdog_timeo (100 ms)
 * makes the watchdog call ndo_tx_timeout once; the driver's recovery
 * wakes the queue, and a running queue never times out. */
static void stopped_queue_times_out_once(struct ktest *t)
{
	struct lx_emul_netdev_info info;
	uint8_t f[60];

	ring_test_start(f, 5, 1);
	KTEST_EXPECT_EQ(t, lx_emul_selftest_net_tx_timeouts(), 0);
	KTEST_EXPECT_EQ(t, lx_emul_netdev_xmit(eth0, f, 60, 0), 0);
	info_of_eth0(t, &info);
	KTEST_EXPECT_EQ(t, info.queue_stopped, 1);
	lx_emul_selftest_net_sleep_ms(50);
	KTEST_EXPECT_EQ(t, lx_emul_selftest_net_tx_timeouts(), 0);
	lx_emul_selftest_net_sleep_ms(200);
	KTEST_EXPECT_EQ(t, lx_emul_selftest_net_tx_timeouts(), 1);
	KTEST_EXPECT_EQ(t, seen.wakes, 1);
	info_of_eth0(t, &info);
	KTEST_EXPECT_EQ(t, info.queue_stopped, 0);
	lx_emul_selftest_net_ring(0);
	lx_emul_selftest_net_sleep_ms(250);
	KTEST_EXPECT_EQ(t, lx_emul_selftest_net_tx_timeouts(), 1);
}

static void napi_budget_of_300_is_shared_in_turn(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, lx_emul_selftest_net_budget(), 0);
}

static void carrier_and_presence_are_visible(struct ktest *t)
{
	struct lx_emul_netdev_info info;
	uint8_t f[60];

	frame_make(f, sizeof(f), 3);
	lx_emul_selftest_net_carrier(0);
	info_of_eth0(t, &info);
	KTEST_EXPECT_EQ(t, info.carrier, 0);
	lx_emul_selftest_net_carrier(1);
	info_of_eth0(t, &info);
	KTEST_EXPECT_EQ(t, info.carrier, 1);
	lx_emul_selftest_net_present(0);
	KTEST_EXPECT_EQ(t, lx_emul_netdev_xmit(eth0, f, 60, 0), -ENETDOWN);
	info_of_eth0(t, &info);
	KTEST_EXPECT_EQ(t, info.queue_stopped, 1);
	seen_reset();
	lx_emul_selftest_net_present(1);
	KTEST_EXPECT_EQ(t, seen.wakes, 1);
	KTEST_EXPECT_EQ(t, lx_emul_netdev_xmit(eth0, f, 60, 0), 0);
}

static void close_unregister_and_free_give_everything_back(struct ktest *t)
{
	struct lx_emul_netdev_info info;

	seen_reset();
	lx_emul_selftest_net_rx_mode(LX_SELFTEST_NET_RX_GRO);
	KTEST_EXPECT_EQ(t, lx_emul_selftest_net_irq_rx(5), 0);
	KTEST_EXPECT_EQ(t, seen.rx, 5);
	KTEST_EXPECT_EQ(t, lx_emul_netdev_close(eth0), 0);
	KTEST_EXPECT_EQ(t, seen.rx, 5);
	KTEST_EXPECT_EQ(t, lx_emul_netdev_close(eth0), 0);	/* already */
	info_of_eth0(t, &info);
	KTEST_EXPECT_EQ(t, info.up, 0);
	KTEST_EXPECT_EQ(t, info.carrier, 0);
	KTEST_EXPECT_EQ(t, lx_emul_selftest_net_teardown(), 0);
	KTEST_EXPECT_EQ(t, lx_emul_netdev_info(eth0, &info), -ENODEV);
	KTEST_EXPECT_TRUE(t, lx_emul_netdev_next(NULL) == NULL);
	user_task_expect_baseline(t, &before);
}

static const struct ktest_case linux_net_cases[] = {
	{ "linux_world_starts", linux_world_starts },
	{ "fake_driver_registers_as_eth0", fake_driver_registers_as_eth0 },
	{ "addresses_validate_and_classify",
	  addresses_validate_and_classify },
	{ "skb_geometry_and_data_operations",
	  skb_geometry_and_data_operations },
	{ "netdev_printk_names_driver_bus_and_device",
	  netdev_printk_names_driver_bus_and_device },
	{ "open_runs_ndo_open_and_raises_carrier",
	  open_runs_ndo_open_and_raises_carrier },
	{ "receive_modes_reach_ndo_set_rx_mode",
	  receive_modes_reach_ndo_set_rx_mode },
	{ "frames_cross_byte_exact_through_netif_rx",
	  frames_cross_byte_exact_through_netif_rx },
	{ "frames_cross_byte_exact_through_napi_gro_receive",
	  frames_cross_byte_exact_through_napi_gro_receive },
	{ "frames_cross_byte_exact_through_netif_receive_skb",
	  frames_cross_byte_exact_through_netif_receive_skb },
	{ "frames_cross_byte_exact_through_napi_gro_frags",
	  frames_cross_byte_exact_through_napi_gro_frags },
	{ "bad_lengths_and_handles_are_refused",
	  bad_lengths_and_handles_are_refused },
	{ "xmit_now_sends_only_when_the_world_is_free",
	  xmit_now_sends_only_when_the_world_is_free },
	{ "stopped_queue_is_busy_until_woken",
	  stopped_queue_is_busy_until_woken },
	{ "napi_from_interrupt_polls_within_weight",
	  napi_from_interrupt_polls_within_weight },
	{ "stopped_queue_times_out_once", stopped_queue_times_out_once },
	{ "napi_budget_of_300_is_shared_in_turn",
	  napi_budget_of_300_is_shared_in_turn },
	{ "carrier_and_presence_are_visible",
	  carrier_and_presence_are_visible },
	{ "close_unregister_and_free_give_everything_back",
	  close_unregister_and_free_give_everything_back },
};
KTEST_SUITE(linux_net_suite, "linux-net", linux_net_cases);
