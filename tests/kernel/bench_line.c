/* SPDX-License-Identifier: GPL-2.0-only */
/* BENCH lines the kernel's bench suites print. */
#include <stdint.h>

#include "kern/bootinfo.h"
#include "kern/cmdline.h"
#include "kern/kprintf.h"
#include "kern/ktest.h"
#include "kern/stats.h"
#include "kern/string.h"
#include "tests/kernel/bench_line.h"

void bench_line(struct ktest *t, const char *name, const char *unit,
		const struct stats *st)
{
	char mode[16];

	if (!cmdline_copy(bootinfo.cmdline, "bench_mode", mode, sizeof(mode)) ||
	    (strcmp(mode, "icount") != 0 && strcmp(mode, "wall") != 0)) {
		ktest_fail(t, "command line needs bench_mode=icount|wall");
		return;
	}
	kprintf("BENCH {\"name\": \"%s\", \"unit\": \"%s\", \"mode\": \"%s\", "
		"\"count\": %llu, \"min\": %llu, \"median\": %llu, "
		"\"p99\": %llu, \"variance\": %llu.%03llu}\n",
		name, unit, mode, (unsigned long long)st->count,
		(unsigned long long)st->min, (unsigned long long)st->median,
		(unsigned long long)st->p99,
		(unsigned long long)(st->variance_milli / 1000),
		(unsigned long long)(st->variance_milli % 1000));
}

/* Values a BENCH-SAMPLES line holds at most; each line is formatted
 * whole and printed by one kprintf. */
#define SAMPLES_PER_LINE 8

void bench_samples(const char *name, const uint64_t *v, size_t n)
{
	char line[96 + SAMPLES_PER_LINE * 42];
	size_t i = 0;

	while (i < n) {
		int at =
			ksnprintf(line, sizeof(line), "BENCH-SAMPLES %s", name);

		for (int k = 0; k < SAMPLES_PER_LINE && i < n; k++) {
			size_t j = i;

			while (j < n && v[j] == v[i])
				j++;
			at += ksnprintf(line + at, sizeof(line) - (size_t)at,
					" %llux%llu", (unsigned long long)v[i],
					(unsigned long long)(j - i));
			i = j;
		}
		kprintf("%s\n", line);
	}
}
