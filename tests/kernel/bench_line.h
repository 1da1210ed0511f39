/* SPDX-License-Identifier: GPL-2.0-only */
/* BENCH lines the kernel's bench suites print (docs/testing.md). */
#ifndef TESTS_KERNEL_BENCH_LINE_H
#define TESTS_KERNEL_BENCH_LINE_H

struct ktest;
struct stats;

/* bench_line - print one BENCH line named @name in @unit for @st, in
 * the mode the command line's bench_mode= says (icount or wall); @t
 * fails without one. */
void bench_line(struct ktest *t, const char *name, const char *unit,
		const struct stats *st);

#endif
