/* SPDX-License-Identifier: GPL-2.0-only */
/* Checks of the linux-net suite that run in the Linux world (lx_selftest_net.c). */
/*
 * A fake Ethernet driver ("lxtest", tests/linux-emu/lx_selftest_net.c)
 * loops every transmitted frame back as a received one, through
 * netif_rx() or through its NAPI poll; these drive it.  Functions
 * returning int give 0 or the line of the first failed check.  C types
 * only: tests/kernel/linux_net_test.c includes this.
 */
#ifndef TESTS_LINUX_EMU_LX_SELFTEST_NET_H
#define TESTS_LINUX_EMU_LX_SELFTEST_NET_H

/* The fake driver's MAC address (locally administered). */
#define LX_SELFTEST_NET_MAC	{ 0x02, 0x00, 0x00, 0x4c, 0x58, 0x01 }

/* Register the fake device as eth0 (and check name assignment with
 * others registered and unregistered around it). */
int lx_emul_selftest_net_register(void);
/* eth_validate_addr and eth_type_trans over tables of addresses. */
int lx_emul_selftest_net_addresses(void);
/* sk_buff geometry and data operations over a table of cases. */
int lx_emul_selftest_net_skb(void);
/* netdev_info/netdev_err line formats; prints them for the caller. */
int lx_emul_selftest_net_printk(void);

/* How the fake driver passes looped-back frames up. */
enum {
	LX_SELFTEST_NET_RX_NETIF_RX,		/* netif_rx() at once */
	LX_SELFTEST_NET_RX_GRO,			/* NAPI poll: napi_gro_receive */
	LX_SELFTEST_NET_RX_RECEIVE_SKB,		/* NAPI poll: netif_receive_skb */
	LX_SELFTEST_NET_RX_GRO_FRAGS,		/* NAPI poll: the frame in a page
						 * fragment, napi_gro_frags */
	LX_SELFTEST_NET_RX_MODES
};
void lx_emul_selftest_net_rx_mode(int mode);
/* Frames the transmit ring takes before the driver stops its queue
 * (0: never stops). */
void lx_emul_selftest_net_ring(int slots);
/* The driver cleans its ring: the queue wakes (netif_wake_queue). */
void lx_emul_selftest_net_clean_ring(void);
/* The next ndo_start_xmit returns NETDEV_TX_BUSY without taking it. */
void lx_emul_selftest_net_refuse_next(void);
/* As from the device's interrupt handler (hard-IRQ context): @count
 * 60-byte frames arrive and the NAPI context is scheduled.  0 or line. */
int lx_emul_selftest_net_irq_rx(int count);
/* Polls of the NAPI context since the last call, and the most frames
 * one poll handled; whether the context is idle (not scheduled). */
void lx_emul_selftest_net_polls(int *polls, int *max_work, int *idle);
/* The receive softirq's budget shared by six always-busy NAPI contexts
 * of a device of their own. */
int lx_emul_selftest_net_budget(void);
/* ndo_tx_timeout calls so far (the driver wakes its queue in it); -1
 * without the device.  Its watchdog_timeo is 100 ms. */
int lx_emul_selftest_net_tx_timeouts(void);
/* msleep(@ms) in the Linux world. */
void lx_emul_selftest_net_sleep_ms(unsigned int ms);
/* netif_carrier_on/off, netif_device_attach/detach from the driver. */
void lx_emul_selftest_net_carrier(int on);
void lx_emul_selftest_net_present(int on);
/* lx_emul_netdev_xmit_now(@dev, @frame, @len, NULL)'s answer while the
 * world is busy: @rtnl 0, this thread holds the world; 1, it holds the
 * rtnl lock but not the world. */
int lx_emul_selftest_net_xmit_now_busy(int rtnl, void *dev,
				       const void *frame, unsigned long len);
/* The fake driver's ndo_set_rx_mode calls so far (-1 without the
 * device); *@flags gets dev->flags as the last call saw them. */
int lx_emul_selftest_net_filter_calls(unsigned int *flags);
/* Take (@lock 1) or let go (0) the rtnl lock from the calling host
 * thread, which does not hold the world in between: as a Linux thread
 * sleeping with the lock held, the world stays free and the rtnl busy. */
void lx_emul_selftest_net_rtnl(int lock);
/* As the driver of @dev (an lx_emul_netdev_find handle, any driver)
 * would: stop (@on 0) or wake (1) its transmit queue; or, with @carrier
 * set, turn its carrier off (0) or on (1). */
void lx_emul_selftest_net_dev_set(void *dev, int carrier, int on);
/* Unregister and free the fake device, drain the fragment cache. */
int lx_emul_selftest_net_teardown(void);

#endif
