/* SPDX-License-Identifier: GPL-2.0-only */
/* Suite "bench": measurements printed as BENCH lines for make bench. */
/*
 * probe.empty is the cost of the probe itself: two back-to-back
 * probe_read() calls, sampled BENCH_PROBE_SAMPLES times.  Later
 * measurements subtract its median.  The harness says through
 * bench_mode= whether the boot runs under -icount (ticks = instructions)
 * or not ("wall").
 */
#include <stdint.h>

#include "kern/bootinfo.h"
#include "kern/cmdline.h"
#include "kern/kprintf.h"
#include "kern/ktest.h"
#include "kern/probe.h"
#include "kern/stats.h"
#include "kern/string.h"
#include "tests/kernel/user_task.h"

#define BENCH_PROBE_SAMPLES 10000

static uint64_t samples[BENCH_PROBE_SAMPLES];

/* Print one BENCH line (docs/testing.md) for @st. */
static void bench_print(struct ktest *t, const char *name, const char *unit,
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

static void empty_probe_cost(struct ktest *t)
{
	struct stats st;

	for (int i = 0; i < BENCH_PROBE_SAMPLES; i++) {
		uint64_t a = probe_read();
		uint64_t b = probe_read();

		samples[i] = b - a;
	}
	if (stats_compute(samples, BENCH_PROBE_SAMPLES, &st) != 0) {
		ktest_fail(t, "no samples");
		return;
	}
	KTEST_EXPECT_EQ(t, st.count, BENCH_PROBE_SAMPLES);
	KTEST_EXPECT_GE(t, st.min, 1);
	bench_print(t, "probe.empty", "ticks", &st);
}

/*
 * rpc.user-user and rpc.user-kernel: tests/user/rpc_client.c times 10,000
 * null RPCs to rpc_server and 10,000 to a kernel routine and prints the
 * BENCH lines itself; this case runs the pair and checks it finished.
 */
static char console[16384];

static void rpc_round_trips(struct ktest *t)
{
	if (!user_task_run_pair(t, "rpc_server", "rpc_client", 240, console,
				sizeof(console)))
		return;
	user_task_expect_checks(t, console, 17);
	KTEST_EXPECT_EQ(t, user_task_count_lines(console, "BENCH "), 2);
}

/*
 * ramdisk.read/4096 and ramdisk.read/65536: tests/user/ramdisk_probe.c
 * (bench=N) times N device_read calls of each size on rd0, each by one
 * fenced TSC pair, and prints the BENCH lines; this case runs it.
 */
static void ramdisk_reads(struct ktest *t)
{
	if (!user_task_run(t, "ramdisk_probe", 240, console, sizeof(console)))
		return;
	user_task_expect_checks(t, console, 64);
	KTEST_EXPECT_EQ(t, user_task_count_lines(console, "BENCH "), 2);
}

static const struct ktest_case bench_cases[] = {
	{ "empty_probe_cost", empty_probe_cost },
	{ "rpc_round_trips", rpc_round_trips },
	{ "ramdisk_reads", ramdisk_reads },
};
KTEST_SUITE(bench_suite, "bench", bench_cases);
