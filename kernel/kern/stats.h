/* SPDX-License-Identifier: GPL-2.0-only */
/* Summary statistics of a set of samples, as benchmarks report them. */
#ifndef KERN_STATS_H
#define KERN_STATS_H

#include <stddef.h>
#include <stdint.h>

/*
 * The summary of n samples.  median and p99 are nearest-rank values of the
 * sorted samples: sorted[(n - 1) / 2] and sorted[ceil(0.99 * n) - 1].
 * mean_milli and variance_milli are the mean and the population variance
 * (sum of (x - mean)^2, divided by n) in thousandths, rounded down and
 * computed exactly; a value too large for 64 bits reads UINT64_MAX.
 */
struct stats {
	uint64_t count, min, median, p99, max;
	uint64_t mean_milli;
	uint64_t variance_milli;
};

/*
 * stats_sort - sort @v[0..@n) into ascending order, in place.
 *
 * Heapsort: O(n log n) time, O(1) extra space, no recursion.  Takes no locks.
 */
void stats_sort(uint64_t *v, size_t n);

/*
 * stats_compute - summarise the @n values at @samples into @out.
 *
 * Sorts @samples in place (see stats_sort()).  Returns 0, or -1 when @n is
 * 0, in which case neither @samples nor @out is touched.  Takes no locks.
 */
int stats_compute(uint64_t *samples, size_t n, struct stats *out);

#endif /* KERN_STATS_H */
