/* SPDX-License-Identifier: GPL-2.0-only */
/* GRAFT_DEV_INFO of the server's net devices: the driver, Linux's counters, the server's probes of its net paths. */
/*
 * The probes are the twins of the kernel's net glue figures
 * (server.net.tx.glue, server.net.rx.glue, server.net.txdone.glue;
 * bench/README.md says what each spans), timed on every frame at
 * lxdrv's hook (lxdrv_probe.h) and linux-emu's net probe points, unless
 * a bench build holds the hook: its figures then go to its own records
 * and these stay empty.  The hook does not say which device a point is
 * for, so the server keeps one set of rings for all its net devices and
 * each device's answer shows it.  The kernel's proxy gives the answer
 * its mode and host (kernel/device/dev_proxy.h).  The world's threads
 * share one Mach thread and switch only at their waits: no lock.
 */
#include <stdint.h>

#include <device/device_types.h>
#include <graft/dev_info.h>

#include <lx_emul.h>

#include "device/dev_info.h"
#include "kern/probe_ring.h"
#include "lxdrv_glue.h"
#include "lxdrv_probe.h"
#include "mach-glue/net/lxnet_info.h"

enum { SPAN_TX, SPAN_RX, SPAN_TXDONE, SPANS };

static const char *const span_names[SPANS] = {
	"server.net.tx.glue", "server.net.rx.glue", "server.net.txdone.glue",
};

static struct probe_ring rings[SPANS];

/* The open samples' start times (0: none open); the tx sample's copy. */
static uint64_t t_write, t_copy, copies, t_rx, t_done;

static inline uint64_t probe_tsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence; rdtsc; lfence" : "=a"(lo), "=d"(hi)
			 : : "memory");
	return ((uint64_t)hi << 32) | lo;
}

/* linux-emu's net probe points. */
static void net_point(int point)
{
	uint64_t now = probe_tsc();

	if (point == LX_EMUL_NET_PROBE_TX_COPY) {
		t_copy = now;
	} else if (point == LX_EMUL_NET_PROBE_TX_COPIED) {
		copies += now - t_copy;
	} else if (point == LX_EMUL_NET_PROBE_TX_DRIVER) {
		if (t_write != 0)
			probe_ring_add(&rings[SPAN_TX], now - t_write - copies);
		t_write = 0;
	} else if (point == LX_EMUL_NET_PROBE_RX_HANDOVER) {
		t_rx = now;
	} else if (point == LX_EMUL_NET_PROBE_TX_DONE) {
		t_done = now;
	}
}

/* lxdrv's points: a write op's start, a frame given to the kernel, a
 * transmit completion's callback done. */
static void server_point(int point, size_t len)
{
	uint64_t now = probe_tsc();

	(void)len;
	if (point == LXDRV_PROBE_WRITE) {
		t_write = now;
		copies = 0;
	} else if (point == LXDRV_PROBE_RX_SENT) {
		if (t_rx != 0)
			probe_ring_add(&rings[SPAN_RX], now - t_rx);
		t_rx = 0;
	} else if (point == LXDRV_PROBE_TX_DONE) {
		if (t_done != 0)
			probe_ring_add(&rings[SPAN_TXDONE], now - t_done);
		t_done = 0;
	}
}

void lxdrv_net_probes_start(void)
{
	if (lxdrv_probe_fn != NULL)
		return;		/* a bench build's */
	lxdrv_probe_fn = server_point;
	lx_emul_net_probe_set(net_point);
}

kern_return_t lxdrv_net_info(struct lx_emul_netdev *ndev,
			     dev_flavor_t flavor, int *status,
			     mach_msg_type_number_t *count)
{
	struct lx_emul_netdev_counters c;
	struct lx_emul_netdev_info li;
	struct graft_dev_info info;

	if (flavor != GRAFT_DEV_INFO)
		return D_INVALID_OPERATION;
	if (*count < GRAFT_DEV_INFO_COUNT)
		return D_INVALID_SIZE;
	if (lx_emul_netdev_info(ndev, &li) != 0)
		return D_NO_SUCH_DEVICE;
	dev_info_init(&info, GRAFT_DEV_SERVER, li.driver, "");
	lx_emul_netdev_counters(ndev, &c);
	lxnet_info_counters(&info, &c);
	for (int i = 0; i < SPANS; i++)
		dev_info_probe(&info, span_names[i], &rings[i]);
	return dev_info_answer(&info, status, count);
}
