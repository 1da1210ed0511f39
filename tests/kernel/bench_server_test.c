/* SPDX-License-Identifier: GPL-2.0-only */
/* Suites "bench-server", "bench-server-disk", "bench-server-verify", "bench-server-wall": the benchmarks of the client programs against devices a driver server (servers/lxdrv) serves. */
/*
 * The programs are those of the in-kernel boots ("bench", "bench-disk",
 * "bench-disk-wall"), given bench_prefix=server. so their names say
 * where the driver ran: server.net.tx.instr/<size>,
 * server.disk.{read,write}.instr/<size> (icount), server.net.tx.rate/60,
 * server.disk.{read,write}.seq/<size> (wall clock);
 * server.verify.disk.{read,write}.instr/<size> with the production
 * server supervised with verify=1 (writes read back, reads checked);
 * the same test boots it supervised on q35 with DMA remapping off and
 * on (suites bench-server-q35, bench-server-dmar: server.q35.disk.*,
 * server.dmar.disk.*).
 * The other icount boots start the server's bench build (bench/lxdrv_bench.c), which prints the
 * twins of the in-kernel glue figures itself once it has every sample:
 * server.net.{tx,rx,txdone}.glue/<size>,
 * server.disk.{cmd,int}.glue/[write/]<size>, and the interrupt
 * latency, server.irq.latency (e1000's) or server.irq.latency/ata_piix,
 * for which this side stamps each interrupt the kernel takes on a
 * registered line into the page the bench server names
 * (dev_intr_probe_set).
 */
#include "device/dev_intr.h"
#include "kern/console.h"
#include "kern/ktest.h"
#include "kern/sched.h"
#include "kern/task.h"
#include "tests/kernel/driver_server.h"
#include "tests/kernel/user_task.h"
#include "x86_64/cpu.h"
#include "x86_64/layout.h"

#define GLUE_SECONDS	30

static char console[65536];

/*
 * Run the client @word (up to 240 s), then wait up to GLUE_SECONDS for
 * @lines BENCH lines in all on the console (the client's and the bench
 * server's, printed after the client's last reply): false (and @t
 * failed) if the client did not end.
 */
static bool run_with_glue(struct ktest *t, const char *word,
			  unsigned int lines)
{
	unsigned int before = task_terminations;

	if (!user_task_start(t, word, console, sizeof(console), NULL))
		return false;
	if (!user_task_wait(before, 1, 240)) {
		console_capture_stop();
		ktest_fail(t, "task %s did not end within 240 s", word);
		return false;
	}
	for (unsigned int i = 0; i < GLUE_SECONDS * 10 &&
	     user_task_count_lines(console, "BENCH ") < lines; i++)
		thread_sleep_ticks(10);
	console_capture_stop();
	return true;
}

static void server_starts(struct ktest *t)
{
	(void)driver_server_start(t, 60);
}

/* The bench server's page of interrupt stamps, by line. */
static volatile uint64_t *stamps;

static void stamp(unsigned int line)
{
	stamps[line] = rdtsc_fenced();
}

/* The bench server starts, and each interrupt it registered is stamped
 * from now on (until stamps_end). */
static void bench_server_starts(struct ktest *t)
{
	uint64_t pa;

	if (!driver_server_start(t, 60))
		return;
	if (!driver_server_number("interrupt stamps at ", &pa)) {
		ktest_fail(t, "the bench server named no page for stamps");
		return;
	}
	stamps = phys_to_virt(pa);
	dev_intr_probe_set(stamp);
}

static void stamps_end(void)
{
	dev_intr_probe_set(NULL);
	stamps = NULL;
}

/* net_probe bench=N: N frames of each of three sizes, echoed back; the
 * server's tx, rx and txdone glue of each size, its interrupt latency. */
static void server_net_bench(struct ktest *t)
{
	bool ran = run_with_glue(t, "net_probe", 3 + 9 + 1);

	stamps_end();
	if (!ran)
		return;
	user_task_expect_checks(t, console, 21);
	KTEST_EXPECT_EQ(t, user_task_count_lines(console, "BENCH "),
			3 + 9 + 1);
}

/* disk_probe mode=lat: 100 reads and writes of each size on hd0s1;
 * the server's cmd and int glue of each size and direction, its
 * interrupt latency. */
static void server_disk_bench(struct ktest *t)
{
	bool ran = run_with_glue(t, "disk_lat", 10 + 20 + 1);

	stamps_end();
	if (!ran)
		return;
	user_task_expect_checks(t, console, 2);
	KTEST_EXPECT_EQ(t, user_task_count_lines(console, "BENCH "),
			10 + 20 + 1);
}

/* disk_probe mode=lat against a server with verify=1: 100 reads and
 * writes of each size, each write read back, each read checked. */
static void server_verify_disk_bench(struct ktest *t)
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
	{ "server_starts", bench_server_starts },
	{ "server_net_bench", server_net_bench },
};
KTEST_SUITE(bench_server_suite, "bench-server", bench_server_cases);

static const struct ktest_case bench_server_disk_cases[] = {
	{ "server_starts", bench_server_starts },
	{ "server_disk_bench", server_disk_bench },
};
KTEST_SUITE(bench_server_disk_suite, "bench-server-disk",
	    bench_server_disk_cases);

static const struct ktest_case bench_server_verify_cases[] = {
	{ "server_starts", server_starts },
	{ "server_verify_disk_bench", server_verify_disk_bench },
};
KTEST_SUITE(bench_server_verify_suite, "bench-server-verify",
	    bench_server_verify_cases);

static const struct ktest_case bench_server_wall_cases[] = {
	{ "server_starts", server_starts },
	{ "server_disk_throughput", server_disk_throughput },
	{ "server_net_rate", server_net_rate },
};
KTEST_SUITE(bench_server_wall_suite, "bench-server-wall",
	    bench_server_wall_cases);
