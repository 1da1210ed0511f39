/* SPDX-License-Identifier: GPL-2.0-only */
/* The last samples of a live probe and their summary. */
#ifndef KERN_PROBE_RING_H
#define KERN_PROBE_RING_H

#include <stdint.h>

#include "kern/stats.h"

/*
 * A live probe keeps its last PROBE_RING_SIZE samples (ticks, as
 * probe_read() differences) and the number taken since it started, so
 * that a status request can summarise recent behaviour without the
 * probe ever allocating.  Pure C: the kernel and the driver server
 * both compile it.  The caller serialises a ring's writers and readers
 * (interrupts off in the kernel; one Mach thread in the server).
 */
#define PROBE_RING_SIZE	128

struct probe_ring {
	uint64_t count;			/* samples added since zeroed */
	uint64_t v[PROBE_RING_SIZE];
};

/* probe_ring_add - record @ticks in @r, the oldest sample giving way. */
static inline void probe_ring_add(struct probe_ring *r, uint64_t ticks)
{
	r->v[r->count % PROBE_RING_SIZE] = ticks;
	r->count++;
}

/*
 * probe_ring_summary - the statistics of @r's last samples (at most
 * PROBE_RING_SIZE: @out->count), as stats_compute gives them; @r is
 * left as it is.  0, or -1 when @r has no sample (@out untouched).
 * Uses about 1 KiB of stack.
 */
int probe_ring_summary(const struct probe_ring *r, struct stats *out);

#endif
