/* SPDX-License-Identifier: GPL-2.0-only */
/* Suites "bench-server", "bench-server-disk", "bench-server-wall": the benchmarks of the client programs against devices a driver server (servers/lxdrv) serves. */
/*
 * The programs are those of the in-kernel boots ("bench", "bench-disk",
 * "bench-disk-wall"), given bench_prefix=server. so their names say
 * where the driver ran: server.net.tx.instr/<size>,
 * server.disk.{read,write}.instr/<size> (icount), server.net.tx.rate/60,
 * server.disk.{read,write}.seq/<size> (wall clock).  The glue probes of the in-kernel modules have no counterpart
 * here: the client's view is what both modes share.
 */
#include "kern/ktest.h"
#include "tests/kernel/driver_server.h"
#include "tests/kernel/user_task.h"

static char console[65536];

static void server_starts(struct ktest *t)
{
	(void)driver_server_start(t, 60);
}

/* net_probe bench=N: N frames of each of three sizes, echoed back. */
static void server_net_bench(struct ktest *t)
{
	if (!user_task_run(t, "net_probe", 240, console, sizeof(console)))
		return;
	user_task_expect_checks(t, console, 21);
	KTEST_EXPECT_EQ(t, user_task_count_lines(console, "BENCH "), 3);
}

/* disk_probe mode=lat: 100 reads and writes of each size on hd0s1. */
static void server_disk_bench(struct ktest *t)
{
	if (!user_task_run(t, "disk_lat", 240, console, sizeof(console)))
		return;
	user_task_expect_checks(t, console, 2);
	KTEST_EXPECT_EQ(t, user_task_count_lines(console, "BENCH "), 10);
}

/* disk_probe mode=tput: sequential MiB/s of each request size. */
static void server_disk_throughput(struct ktest *t)
{
	if (!user_task_run(t, "disk_tput", 600, console, sizeof(console)))
		return;
	user_task_expect_checks(t, console, 2);
	KTEST_EXPECT_EQ(t, user_task_count_lines(console, "BENCH "), 10);
}

/* net_probe rate=SECONDS: frames per second, one write at a time. */
static void server_net_rate(struct ktest *t)
{
	if (!user_task_run(t, "net_rate", 240, console, sizeof(console)))
		return;
	user_task_expect_checks(t, console, 4);
	KTEST_EXPECT_EQ(t, user_task_count_lines(console, "BENCH "), 1);
}

static const struct ktest_case bench_server_cases[] = {
	{ "server_starts", server_starts },
	{ "server_net_bench", server_net_bench },
};
KTEST_SUITE(bench_server_suite, "bench-server", bench_server_cases);

static const struct ktest_case bench_server_disk_cases[] = {
	{ "server_starts", server_starts },
	{ "server_disk_bench", server_disk_bench },
};
KTEST_SUITE(bench_server_disk_suite, "bench-server-disk",
	    bench_server_disk_cases);

static const struct ktest_case bench_server_wall_cases[] = {
	{ "server_starts", server_starts },
	{ "server_disk_throughput", server_disk_throughput },
	{ "server_net_rate", server_net_rate },
};
KTEST_SUITE(bench_server_wall_suite, "bench-server-wall",
	    bench_server_wall_cases);
