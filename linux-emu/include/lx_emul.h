/* SPDX-License-Identifier: GPL-2.0-only */
/* What the host calls in linux-emu (C types only). */
/*
 * Every function here is implemented on the Linux side and callable from
 * Graft code (C types only).  linux.o exports those linux-emu/exports.list
 * names, the ones Graft's production code calls; linux-test.o also those
 * of tests/linux-emu/exports.list, which only the test suites call.  The
 * build makes every other symbol of the Linux world local
 * (tools/linux_link.py), so Linux's strlen and Graft's never meet.
 */
#ifndef LX_EMUL_H
#define LX_EMUL_H

/* The preempt count Linux code sees (0 outside interrupts). */
int lx_emul_preempt_count(void);

/*
 * lx_emul_init - start the Linux world: build the struct page array for
 * the host's RAM, start jiffies and timers on the host's tick, the
 * softirq thread and the system workqueues' workers.  Once, from thread
 * context, before any other lx_emul_* call but lx_emul_preempt_count
 * and lx_emul_host_check.  0; -ENOMEM (no memory or no thread); -EBUSY
 * if called again; -EINVAL if the host's tick rate is not Linux's HZ;
 * -EPROTO if the host implements another version of lx_host.h
 * (lx_emul_host_check, printed).  Called by lx_boot when
 * the kernel command line has the word `linux`, and by the linux-*
 * suites.
 */
int lx_emul_init(void);

/* lx_emul_host_check - 0 if a host of interface version @host_version
 * (lx_host_version()) is the one linux-emu was built for
 * (LX_HOST_VERSION); else -EPROTO, printed.  Any context. */
int lx_emul_host_check(unsigned int host_version);

/*
 * lx_emul_pci_init - enumerate PCI (the host's configuration space, bus 0 and
 * the buses behind configured bridges) and make a struct pci_dev for every
 * function; registering a PCI driver does it too if it was not done.
 * After lx_emul_init().  0; -EBUSY if done already; -ENOMEM.
 */
int lx_emul_pci_init(void);

/*
 * lx_emul_bug_trap - the host's invalid-opcode trap at @ip, with the
 * interrupted stack at @sp, in Linux code.  If @ip is a WARN of the
 * linked code's bug table: prints the warning ("WARNING: ... at
 * FILE:LINE", the call chain) unless it is a WARN_ONCE already reported,
 * and returns the address after the ud2, where the code goes on.  If it
 * is a BUG: prints "kernel BUG at FILE:LINE!" and the call chain, and
 * returns 0: the host stops the world as for any fault.  0 without a
 * word for any other @ip.  Any context (the trap's); never blocks.
 */
unsigned long lx_emul_bug_trap(unsigned long ip, unsigned long sp);

/* The sk_buffs allocated and not yet freed (leak checks in tests). */
unsigned long lx_emul_skb_count(void);

/* The pages skb_page_frag_refill gave drivers and not yet freed: a
 * receive ring's pages (leak checks in tests). */
unsigned long lx_emul_frag_pages(void);

/* Streaming DMA mappings that had to be bounced (the page lay beyond the
 * device's dma_mask) since boot. */
unsigned long lx_emul_dma_bounce_count(void);

/*
 * Networking: the Linux net devices drivers registered, seen by the host
 * (linux-emu/lx_net_emul.c).  Deliberately no protocol stack: frames go
 * to the host whole, and come from it whole.
 */

/* A registered Linux net device, opaque to the host; valid until the
 * driver unregisters it. */
struct lx_emul_netdev;

#define LX_EMUL_NETDEV_NAME_MAX	16	/* Linux's IFNAMSIZ, with the NUL */

struct lx_emul_netdev_info {
	char name[LX_EMUL_NETDEV_NAME_MAX];	/* "eth0" */
	unsigned char mac[6];
	unsigned int mtu;		/* payload bytes; frames add 14 */
	int ifindex;			/* > 0, unique, never reused */
	unsigned int flags;		/* Linux's IFF_* bits (IFF_UP 0x1...) */
	int up;				/* opened: lx_emul_netdev_open */
	int carrier;			/* the driver reports a link */
	int queue_stopped;		/* transmit queue 0 stopped */
	int irq;			/* the driver's dev->irq (0: none) */
	char driver[LX_EMUL_NETDEV_NAME_MAX];	/* the bound driver's name
						 * ("e1000"), cut to fit */
};

/* A device's own counters, as its driver keeps them (Linux's struct
 * net_device_stats). */
struct lx_emul_netdev_counters {
	unsigned long rx_packets, tx_packets, rx_bytes, tx_bytes;
	unsigned long rx_errors, tx_errors, rx_dropped, tx_dropped;
};

/* What linux-emu calls on the host for the net devices; each may be
 * NULL.  Set once by lx_emul_net_set_callbacks(). */
struct lx_emul_net_callbacks {
	/*
	 * rx - a frame (Ethernet header first, @len bytes, no FCS) arrived on
	 * @dev.  The bytes are valid during the call only.  Softirq context
	 * (NET_RX_SOFTIRQ; at an interrupt's exit that is with interrupts
	 * off), possibly inside another lx_emul_netdev_* call (open, close):
	 * queue the frame, do not block, do not call lx_emul_netdev_* here.
	 */
	void (*rx)(struct lx_emul_netdev *dev, const void *frame,
		   unsigned long len);
	/* tx_done - the driver is done with the frame lx_emul_netdev_xmit()
	 * took with @cookie (sent or dropped).  Any context, also from the
	 * driver's interrupt handler with interrupts off: queue, do not
	 * block. */
	void (*tx_done)(struct lx_emul_netdev *dev, void *cookie);
	/* tx_wake - a stopped transmit queue of @dev was woken: a transmit
	 * refused with -EBUSY may be tried again.  Any context. */
	void (*tx_wake)(struct lx_emul_netdev *dev);
};

/* lx_emul_net_set_callbacks - install @cb (copied; NULL: none). */
void lx_emul_net_set_callbacks(const struct lx_emul_net_callbacks *cb);

/* lx_emul_netdev_next - the registered device after @prev (NULL: the
 * first), in registration order; NULL after the last.  Thread context. */
struct lx_emul_netdev *lx_emul_netdev_next(struct lx_emul_netdev *prev);

/* lx_emul_netdev_find - the registered device named @name, or NULL. */
struct lx_emul_netdev *lx_emul_netdev_find(const char *name);

/* lx_emul_netdev_info - fill @info for @dev.  0; -ENODEV if @dev is not
 * a registered device. */
int lx_emul_netdev_info(struct lx_emul_netdev *dev,
			struct lx_emul_netdev_info *info);

/* lx_emul_netdev_counters - @dev's counters as its driver gives them
 * now: through its ndo_get_stats64 or ndo_get_stats (a driver that
 * keeps them in the device, such as e1000e) when the world is free or
 * the caller holds it, else as dev->stats holds them (most drivers
 * update it as frames go).  Never blocks, so any context may ask (a
 * status request with interrupts off); a counter the driver is
 * updating reads as before or after.  @dev must be a device
 * lx_emul_netdev_next gave: net devices stay registered while the host
 * serves them. */
void lx_emul_netdev_counters(struct lx_emul_netdev *dev,
			     struct lx_emul_netdev_counters *c);

/* lx_emul_netdev_open - bring @dev up: ndo_validate_addr, ndo_open, the
 * receive filter (ndo_set_rx_mode).  Thread context.  0 (also if already
 * up); -ENODEV (not registered or not present); the driver's error. */
int lx_emul_netdev_open(struct lx_emul_netdev *dev);

/* lx_emul_netdev_close - take @dev down (ndo_stop).  Thread context.
 * 0 (also if already down); -ENODEV if not registered. */
int lx_emul_netdev_close(struct lx_emul_netdev *dev);

/*
 * lx_emul_netdev_xmit - send the Ethernet frame @frame of @len bytes on
 * @dev.  The bytes are copied: @frame may be reused on return.  On 0,
 * tx_done(@dev, @cookie) follows exactly once.  Thread context, never
 * at the same time as closing @dev or its driver unregistering it.
 * 0; -ENODEV (not registered); -ENETDOWN (not open, or not present);
 * -EINVAL (@len shorter than an Ethernet header); -EMSGSIZE (longer
 * than MTU + header); -ENOMEM; -EBUSY: the transmit queue is stopped
 * (nothing sent, no tx_done; try again after tx_wake).
 */
int lx_emul_netdev_xmit(struct lx_emul_netdev *dev, const void *frame,
			unsigned long len, void *cookie);

/*
 * lx_emul_netdev_xmit_now - lx_emul_netdev_xmit from a path that must
 * not block (a device op, interrupts on or off): only if the Linux world
 * and the rtnl lock are free now, else -EAGAIN with nothing done.  The
 * call holds the world with interrupts off; softirqs the driver raised
 * run before it returns (tx_done may come then).  Also -ENOLINK when
 * @dev has no carrier (nothing sent).  Otherwise as lx_emul_netdev_xmit.
 */
int lx_emul_netdev_xmit_now(struct lx_emul_netdev *dev, const void *frame,
			    unsigned long len, void *cookie);

/*
 * lx_emul_netdev_set_rx_flags - the receive modes of @dev: @flags is
 * IFF_PROMISC (0x100) and/or IFF_ALLMULTI (0x200), Linux's bits; each
 * is set or cleared in the device's flags as dev_change_flags does, and
 * the driver's ndo_set_rx_mode programs the filter while the device is
 * up (else at lx_emul_netdev_open).  No multicast addresses are set.
 * Thread context.  The device's Linux flags after the change (>= 0);
 * -EINVAL (@flags has another bit; nothing done); -ENODEV (not
 * registered).
 * lx_emul_netdev_set_rx_flags_now - the same from a path that must not
 * block (a device op, interrupts on or off): only if the Linux world and
 * the rtnl lock are free now, else -EAGAIN with nothing done.
 */
int lx_emul_netdev_set_rx_flags(struct lx_emul_netdev *dev,
				unsigned int flags);
int lx_emul_netdev_set_rx_flags_now(struct lx_emul_netdev *dev,
				    unsigned int flags);

/*
 * lx_emul_net_rx_action - one pass of what NET_RX_SOFTIRQ runs: poll
 * the scheduled NAPI contexts within a budget of 300 frames, holding the
 * Linux world.  Returns 1 if some are still scheduled, else 0.  The
 * softirq runs these passes by itself; this is for tests, which disable
 * bottom halves around it to be the only pass.
 */
int lx_emul_net_rx_action(void);

/* The checks of the linux-* suites that run in the Linux world are
 * lx_emul_selftest_* too, in linux-test.o only: tests/linux-emu/
 * declares them. */

/*
 * lx_emul_initcalls_run - run the linked drivers' initcalls once, in
 * Linux's order (built-in module_init: a PCI driver registers and probes
 * the devices it finds), then wait for the asynchronous calls they made
 * (libata probes ports and scans disks so), as Linux does before init.
 * After lx_emul_init.  The number of initcalls that
 * failed (each named on the console), or -EBUSY on a second call.
 * lx_emul_initcall_count - how many there are.
 */
int lx_emul_initcalls_run(void);
int lx_emul_initcall_count(void);

/*
 * lx_emul_driver_init - run the initcalls of the one linked driver named
 * @name (its manifest's driver: name), in Linux's order, once, after
 * those of the shared code it uses that have not run yet (its manifest's
 * uses:), and wait for the asynchronous calls they made.  After
 * lx_emul_init; thread context.  The number of those initcalls that failed
 * (each named on the console); -ENOENT if no linked driver has that name
 * (build/linux/unlinked.txt says why one is left out); -EBUSY if it was
 * started already, by this or by lx_emul_initcalls_run, which then skips
 * the drivers started so; -ENOSPC past the 64th linked driver (named on
 * the console).
 */
int lx_emul_driver_init(const char *name);

/*
 * lx_emul_driver_skip - never start the linked driver named @name here:
 * lx_emul_initcalls_run passes over it (a user-mode server drives its
 * devices instead).  Before lx_emul_initcalls_run.  0; -ENOENT, -EBUSY,
 * -ENOSPC as lx_emul_driver_init.
 */
int lx_emul_driver_skip(const char *name);

/*
 * Probe points of the net glue benchmarks (make bench: net.tx.glue,
 * net.rx.glue, net.txdone.glue; linux-emu/lx_net_probe.c).  After lx_emul_net_probe_set(fn)
 * linux-emu calls fn(point) at each point (NULL: no calls).  fn runs in
 * the caller's context, interrupts possibly off, and may only record
 * (e.g. a TSC reading); it must not call into linux-emu.  Any context.
 */
enum lx_emul_net_probe_point {
	LX_EMUL_NET_PROBE_TX_COPY,	/* the frame's copy into an skb starts */
	LX_EMUL_NET_PROBE_TX_COPIED,	/* ... and is done */
	LX_EMUL_NET_PROBE_TX_DRIVER,	/* ndo_start_xmit is called next */
	LX_EMUL_NET_PROBE_RX_HANDOVER,	/* a driver handed a received skb over */
	LX_EMUL_NET_PROBE_TX_DONE,	/* a transmit skb's destructor runs: the
					 * driver freed it; tx_done is next */
};

void lx_emul_net_probe_set(void (*fn)(int point));

/*
 * lx_emul_platform_isa_add - as the board code would: register platform
 * device @name.@id for an ISA card at I/O ports [@io, @io + @len), with no
 * IRQ resource (the driver finds its line by autoIRQ, as ISA ne does).
 * @name must stay valid.  Before lx_emul_initcalls_run, whose driver of
 * that name then probes it (linux-emu/lx_platform.c).  The ports go into
 * ioport_resource as Linux's platform_device_add puts them (nested inside
 * a range that contains them).  0; -EINVAL for an empty range or one
 * beyond the I/O space; -EBUSY if the ports partly overlap another
 * device's or the table (4) is full; -ENOMEM.
 */
int lx_emul_platform_isa_add(const char *name, int id, unsigned long io,
			     unsigned long len);

/*
 * lx_emul_params_set - set the linked drivers' module parameters that
 * @cmdline names as Linux's kernel command line does for built-in
 * drivers ("libata.dma=0": ATA in PIO only); other words are ignored.
 * After lx_emul_init, before the initcalls.  0; -ENOMEM; -EINVAL (or
 * the parameter's error) for a bad value, named on the console.  Thread
 * context (linux-emu/lx_params.c).
 */
int lx_emul_params_set(const char *cmdline);

#endif
