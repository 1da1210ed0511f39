/* SPDX-License-Identifier: GPL-2.0-only */
/* BENCH lines the kernel's bench suites print (docs/testing.md). */
#ifndef TESTS_KERNEL_BENCH_LINE_H
#define TESTS_KERNEL_BENCH_LINE_H

#include <stddef.h>
#include <stdint.h>

struct ktest;
struct stats;

/* bench_line - print one BENCH line named @name in @unit for @st, in
 * the mode the command line's bench_mode= says (icount or wall); @t
 * fails without one. */
void bench_line(struct ktest *t, const char *name, const char *unit,
		const struct stats *st);

/* bench_samples - print the @n samples at @v (sorted ascending) of the
 * BENCH line @name as BENCH-SAMPLES lines: each distinct value with its
 * count, "VALUExCOUNT", a few to a line (bench/README.md). */
void bench_samples(const char *name, const uint64_t *v, size_t n);

#endif
