/* SPDX-License-Identifier: GPL-2.0-only */
/* Summary statistics: in-place heapsort, order statistics, exact moments. */

#include "kern/stats.h"

/* 128-bit sums: n values below 2^64 add up to less than 2^128. */
#define U128(x)	((unsigned __int128)(x))

/* Moves v[root] down the max-heap v[0..n) until no child is larger. */
static void sift_down(uint64_t *v, size_t root, size_t n)
{
	uint64_t x = v[root];

	for (;;) {
		size_t child = 2 * root + 1;

		if (child >= n)
			break;
		if (child + 1 < n && v[child + 1] > v[child])
			child++;
		if (v[child] <= x)
			break;
		v[root] = v[child];
		root = child;
	}
	v[root] = x;
}

void stats_sort(uint64_t *v, size_t n)
{
	size_t i;

	if (n < 2)
		return;
	for (i = n / 2; i-- > 0;)
		sift_down(v, i, n);
	for (i = n - 1; i > 0; i--) {
		uint64_t top = v[0];

		v[0] = v[i];
		v[i] = top;
		sift_down(v, 0, i);
	}
}

static uint64_t saturate(unsigned __int128 x)
{
	return x > UINT64_MAX ? UINT64_MAX : (uint64_t)x;
}

/*
 * With S the sum, write S = m * n + r (0 <= r < n) and d_i = x_i - m.  The
 * sum of the d_i is r, so with D the sum of the d_i^2
 *
 *	sum of (x_i - S/n)^2 = D - r^2 / n
 *
 * and 1000 * variance = (1000 * D - 1000 * r^2 / n) / n.  Taking the floor
 * of the inner division first (as a ceiling, since it is subtracted) keeps
 * every quantity an integer without changing the final floor.  The d_i are
 * bounded by max - min, so D stays small for samples that are close
 * together, however large they are; past 128 bits the result saturates.
 */
static uint64_t variance_milli(const uint64_t *v, size_t n, uint64_t m,
			       uint64_t r)
{
	unsigned __int128 d_sum = 0;
	unsigned __int128 r2 = U128(r) * r;
	unsigned __int128 c;	/* ceil(1000 * r^2 / n) */
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t d = v[i] >= m ? v[i] - m : m - v[i];

		if (__builtin_add_overflow(d_sum, U128(d) * d, &d_sum))
			return UINT64_MAX;
	}
	if (d_sum > ~U128(0) / 1000)
		return UINT64_MAX;
	c = r2 / n * 1000 + ((r2 % n) * 1000 + n - 1) / n;
	return saturate((d_sum * 1000 - c) / n);
}

int stats_compute(uint64_t *samples, size_t n, struct stats *out)
{
	unsigned __int128 sum = 0;
	uint64_t m, r;
	size_t i;

	if (n == 0)
		return -1;
	stats_sort(samples, n);
	for (i = 0; i < n; i++)
		sum += samples[i];
	m = (uint64_t)(sum / n);
	r = (uint64_t)(sum % n);

	out->count = n;
	out->min = samples[0];
	out->max = samples[n - 1];
	out->median = samples[(n - 1) / 2];
	/* ceil(0.99 * n) == n - floor(n / 100) */
	out->p99 = samples[n - n / 100 - 1];
	out->mean_milli = saturate(U128(m) * 1000 + U128(r) * 1000 / n);
	out->variance_milli = variance_milli(samples, n, m, r);
	return 0;
}
