/* SPDX-License-Identifier: GPL-2.0-only */
/* The Mach net devices served by Linux drivers ("eth0", ...). */
#ifndef MACH_GLUE_NET_DEV_LXNET_H
#define MACH_GLUE_NET_DEV_LXNET_H

#include <stdint.h>

/* The module of the device table (kernel/device/dev_module.c). */
extern const struct dev_module dev_lxnet_module;

/*
 * dev_lxnet_start - serve every net device the Linux drivers registered
 * (at most DEV_LXNET_MAX, in registration order) under its Linux name:
 * record name, MAC and MTU, install the linux-emu net callbacks and start
 * the "lx-net" worker thread.  Once, from lx_boot(), after the initcalls;
 * thread context.  Returns the number of devices served (0: none, or the
 * worker could not start, which is printed).
 */
int dev_lxnet_start(void);

#define DEV_LXNET_MAX	4

/* What a device has done (for tests and the benchmarks). */
struct dev_lxnet_stats {
	uint64_t tx_frames;	/* handed to the driver */
	uint64_t tx_done;	/* the driver gave back */
	uint64_t tx_busy;	/* transmit refused: queue stopped, waited */
	uint64_t tx_errors;	/* transmit refused otherwise */
	uint64_t rx_frames;	/* received from the driver */
	unsigned int flags_deferred;	/* NET_FLAGS changes left to lx-net */
	unsigned int mach_opens;	/* device_open calls that opened it */
	unsigned int opens;	/* Linux opens (ndo_open) */
	unsigned int closes;	/* Linux closes (ndo_stop) */
	unsigned int worker_wakes;	/* lx-net woke in its wait for work
					 * (all devices) */
	int up;			/* the Linux device is open now */
	unsigned int flags;	/* IFF_* as NET_STATUS reports them now */
};

/* dev_lxnet_stats - copy the counters of the device named @name; 0, or
 * -1 if no device of that name is served.  Any context. */
int dev_lxnet_stats(const char *name, struct dev_lxnet_stats *out);

/* dev_lxnet_idle - true when the worker has nothing left to do (no
 * open, close or write waiting) and no frame is with a driver. */
int dev_lxnet_idle(void);

/*
 * The module's glue spans, timed into each device's ring (GRAFT_DEV_INFO:
 * the first 128 of each kind, then one in 16) and, on every frame while
 * a probe hook is set (kern/probe_hook.h), passed to it, where the
 * benchmarks record them (tests/kernel/bench_test.c).
 * net.tx.glue: from the module's write op (device_write decoded) to the
 * call of ndo_start_xmit, less the two copies of the frame (into the
 * module's buffer, into the skb); one write at a time (a second write
 * entering the op before the first reached the driver drops the first's
 * sample).
 * net.rx.glue: from the driver handing a received skb to linux-emu to
 * the net_rcv_msg queued (net_filter_deliver returned).
 * net.txdone.glue: from the driver's transmit completion (it frees the
 * skb: the destructor's first line) to the module's tx_done callback
 * done (the write was answered when the driver took the frame, so the
 * completion only counts).  TSC ticks, probe_read() (kern/probe.h), the
 * probes' own cost included.
 */

#endif
