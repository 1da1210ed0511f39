/* SPDX-License-Identifier: GPL-2.0-only */
/* The benchmarks' hook in the server: one pointer, NULL but in the bench build (bench/lxdrv_bench.c). */
#ifndef LXDRV_PROBE_H
#define LXDRV_PROBE_H

#include <stddef.h>

/*
 * The points where the server calls lxdrv_probe_fn(point, len) when it
 * is set (bench/README.md, server.*.glue, server.irq.latency).  @len:
 * the bytes of the op, of the frame, the line, or 0.  The function only records (or wakes a thread):
 * it runs where the point is, interrupt flag on or off.
 */
enum lxdrv_probe_point {
	LXDRV_PROBE_READY,	/* "lxdrv: ready" is printed next (start
				 * thread) */
	LXDRV_PROBE_WRITE,	/* a device's write op is called next */
	LXDRV_PROBE_READ,	/* a device's read op is called next */
	LXDRV_PROBE_COPY,	/* a disk's bounce copy starts */
	LXDRV_PROBE_COPIED,	/* ... and is done */
	LXDRV_PROBE_RX_SENT,	/* proxy_net_input returned */
	LXDRV_PROBE_REPLIED,	/* a reply to the kernel was sent */
	LXDRV_PROBE_IRQ,	/* line len's Linux handler is called next */
	LXDRV_PROBE_TX_DONE,	/* a NIC's tx_done callback for a frame of
				 * len bytes returns next */
};

extern void (*lxdrv_probe_fn)(int point, size_t len);

static inline void lxdrv_probe(int point, size_t len)
{
	if (__builtin_expect(lxdrv_probe_fn != NULL, 0))
		lxdrv_probe_fn(point, len);
}

#endif
