/* SPDX-License-Identifier: GPL-2.0-only */
/* Timing in the test and benchmark programs: fenced TSC reads and BENCH lines. */
/*
 * Plain C: Graft's user programs and the native-Linux baseline's
 * bench/native/lxbench.c both include it.
 */
#ifndef TESTS_USER_USER_BENCH_H
#define TESTS_USER_USER_BENCH_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static inline uint64_t tsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence; rdtsc; lfence" : "=a"(lo), "=d"(hi)
			 : : "memory");
	return ((uint64_t)hi << 32) | lo;
}

__attribute__((unused))
static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

__attribute__((unused))
static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Print the @n samples in @v (sorted ascending) of the BENCH line @name
 * as BENCH-SAMPLES lines (bench/README.md): each distinct value with its
 * count, "VALUExCOUNT", eight to a line, each line printed whole. */
__attribute__((unused))
static void bench_print_samples(const char *name, const uint64_t *v,
				unsigned long n)
{
	char line[96 + 8 * 42];
	unsigned long i = 0;

	while (i < n) {
		int at = snprintf(line, sizeof(line), "BENCH-SAMPLES %s", name);

		for (int k = 0; k < 8 && i < n; k++) {
			unsigned long j = i;

			while (j < n && v[j] == v[i])
				j++;
			at += snprintf(line + at, sizeof(line) - (size_t)at,
				       " %llux%lu", (unsigned long long)v[i],
				       j - i);
			i = j;
		}
		printf("%s\n", line);
	}
}

/* Print a BENCH line (docs/testing.md) for @n samples in @v (sorted
 * here), then its samples (bench_print_samples). */
__attribute__((unused))
static void bench_print(const char *name, const char *mode, uint64_t *v,
			unsigned long n)
{
	double mean = 0, var = 0;

	qsort(v, n, sizeof(*v), cmp_u64);
	for (unsigned long i = 0; i < n; i++)
		mean += (double)v[i];
	mean /= (double)n;
	for (unsigned long i = 0; i < n; i++)
		var += ((double)v[i] - mean) * ((double)v[i] - mean);
	var /= (double)n;
	printf("BENCH {\"name\": \"%s\", \"unit\": \"ticks\", \"mode\": \"%s\", "
	       "\"count\": %lu, \"min\": %llu, \"median\": %llu, "
	       "\"p99\": %llu, \"variance\": %.3f}\n", name, mode, n,
	       (unsigned long long)v[0], (unsigned long long)v[(n - 1) / 2],
	       (unsigned long long)v[(n * 99 + 99) / 100 - 1], var);
	bench_print_samples(name, v, n);
}

/* Print a BENCH line of wall-clock mode for @n rates in @v (sorted
 * here), in @unit; its p99 is the largest. */
__attribute__((unused))
static void bench_print_rates(const char *name, const char *unit, double *v,
			      int n)
{
	double mean = 0, var = 0;

	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	for (int i = 0; i < n; i++)
		mean += v[i];
	mean /= n;
	for (int i = 0; i < n; i++)
		var += (v[i] - mean) * (v[i] - mean);
	printf("BENCH {\"name\": \"%s\", \"unit\": \"%s\", \"mode\": "
	       "\"wall\", \"count\": %d, \"min\": %.2f, \"median\": %.2f, "
	       "\"p99\": %.2f, \"variance\": %.3f}\n", name, unit, n, v[0],
	       v[(n - 1) / 2], v[n - 1], var / n);
}

#endif
