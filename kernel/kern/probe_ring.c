/* SPDX-License-Identifier: GPL-2.0-only */
/* The summary of a live probe's last samples. */
#include "kern/probe_ring.h"

int probe_ring_summary(const struct probe_ring *r, struct stats *out)
{
	uint64_t v[PROBE_RING_SIZE];
	uint64_t n = r->count < PROBE_RING_SIZE ? r->count : PROBE_RING_SIZE;

	for (uint64_t i = 0; i < n; i++)
		v[i] = r->v[i];
	return stats_compute(v, (size_t)n, out);
}
