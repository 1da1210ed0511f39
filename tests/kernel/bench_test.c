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
#include "kern/probe_hook.h"
#include "kern/stats.h"
#include "kern/string.h"
#include "tests/kernel/bench_line.h"
#include "tests/kernel/user_task.h"
#include "x86_64/io_bitmap.h"

#define BENCH_PROBE_SAMPLES 10000

static uint64_t samples[BENCH_PROBE_SAMPLES];

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
	bench_line(t, "probe.empty", "ticks", &st);
}

/*
 * rpc.user-user and rpc.user-kernel: tests/user/rpc_client.c times 10,000
 * null RPCs to rpc_server and 10,000 to a kernel routine and prints the
 * BENCH lines itself; this case runs the pair and checks it finished.
 */
/* What the clients print, their BENCH-SAMPLES lines included. */
static char console[131072];

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

/* Time @n calls of io_bitmap_load, alternating between @a and @b, one
 * per sample (the probe's own cost included), and print them as @name. */
static void time_io_bitmap_load(struct ktest *t, const char *name,
				const struct io_bitmap *a,
				const struct io_bitmap *b)
{
	struct stats st;

	for (int i = 0; i < BENCH_PROBE_SAMPLES; i++) {
		const struct io_bitmap *bm = (i & 1) ? b : a;
		uint64_t start = probe_read();

		io_bitmap_load(bm);
		samples[i] = probe_read() - start;
	}
	if (stats_compute(samples, BENCH_PROBE_SAMPLES, &st) != 0) {
		ktest_fail(t, "no samples");
		return;
	}
	bench_line(t, name, "ticks", &st);
}

/*
 * The context switch's I/O bitmap step (x86_64/io_bitmap.c), as the
 * switch calls it: io.bitmap-none for a task without I/O ports,
 * io.bitmap-same for one whose bitmap the TSS holds already, and
 * io.bitmap-copy alternating two tasks with grants of the CMOS (16
 * bytes) and COM1 (128 bytes) ports.
 */
static void io_bitmap_switch_cost(struct ktest *t)
{
	struct io_bitmap *cmos = NULL, *com1 = NULL;

	if (io_bitmap_set(&cmos, 0x70, 0x71, true) != KERN_SUCCESS ||
	    io_bitmap_set(&com1, 0x3f8, 0x3ff, true) != KERN_SUCCESS) {
		ktest_fail(t, "no memory for two bitmaps");
		goto out;
	}
	time_io_bitmap_load(t, "io.bitmap-none", NULL, NULL);
	time_io_bitmap_load(t, "io.bitmap-same", com1, com1);
	time_io_bitmap_load(t, "io.bitmap-copy", cmos, com1);
out:
	io_bitmap_load(NULL);
	io_bitmap_free(cmos);
	io_bitmap_free(com1);
}

/*
 * The glue probes' samples, recorded at the probe hook (kern/probe_hook.h)
 * while a case runs its client: one array per span, up to @max each.
 */
struct recording {
	enum probe_span span;
	struct probe_sample *v;
	unsigned int max, n;
};

/* The recordings of the case running, by span; NULL: not recorded. */
static struct recording *recording_of[PROBE_SPANS];

/* The hook: interrupts off, any context; only records (inside the
 * spans the benchmarks time: a few instructions). */
static void record(const struct probe_sample *s)
{
	struct recording *r = recording_of[s->span];

	if (r != NULL && r->n < r->max)
		r->v[r->n++] = *s;
}

/* Record the spans of @r (@n of them, counts zeroed) from now on. */
static void record_start(struct recording *r, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		r[i].n = 0;
		recording_of[r[i].span] = &r[i];
	}
	probe_hook_set(record);
}

static void record_stop(void)
{
	probe_hook_set(NULL);
	for (int i = 0; i < PROBE_SPANS; i++)
		recording_of[i] = NULL;
}

/*
 * The driver a bench boot names in its BENCH names: the value of the
 * command line's @key (bench_nic=, bench_disk=) in @buf with "/" after
 * it, or "" (the default driver's boot: e1000, ata_piix).
 */
static void driver_part(const char *key, char *buf, size_t size)
{
	size_t len;

	if (!cmdline_copy(bootinfo.cmdline, key, buf, size - 1)) {
		buf[0] = '\0';
		return;
	}
	len = strlen(buf);
	buf[len] = '/';
	buf[len + 1] = '\0';
}

/*
 * net.tx.glue/<size>, net.rx.glue/<size> and net.txdone.glue/<size>
 * (mach-glue/net/dev_lxnet.h says what each covers): tests/user/net_probe.c (bench=N) writes N
 * frames of 60, 256 and 1500 bytes on eth0 (Linux's e1000), the host
 * peer echoes each, and the glue records one sample per frame each way.
 */
#define NET_BENCH_MAX	1024

static struct probe_sample net_tx[NET_BENCH_MAX], net_rx[NET_BENCH_MAX],
	net_txdone[NET_BENCH_MAX];

/*
 * Print the samples of each size as net.<dir>.glue/<size>, or, when the
 * command line names the driver (bench_nic=, the bench-<nic> boots),
 * as net.<dir>.glue/<driver>/<size>; each BENCH line with its samples.
 */
static void net_print(struct ktest *t, const char *dir,
		      const struct probe_sample *s, unsigned int n)
{
	static const unsigned int lens[] = { 60, 256, 1500 };
	char nic[24];

	driver_part("bench_nic", nic, sizeof(nic));
	for (int k = 0; k < 3; k++) {
		unsigned int m = 0;
		struct stats st;
		char name[64];

		for (unsigned int i = 0; i < n; i++)
			if (s[i].len == lens[k])
				samples[m++] = s[i].ticks;
		if (stats_compute(samples, m, &st) != 0) {
			ktest_fail(t, "no %s samples of %u bytes", dir,
				   lens[k]);
			continue;
		}
		ksnprintf(name, sizeof(name), "net.%s.glue/%s%u", dir, nic,
			  lens[k]);
		bench_line(t, name, "ticks", &st);
		bench_samples(name, samples, m);
	}
}

/*
 * net.rx.instr/<size> (or /<nic>/<size>): from the driver handing an
 * echo over (its net.rx.glue sample's start) to the receive that took it
 * returning in net_probe, whose TSC there it prints on "RX-T1" lines,
 * frame by frame: the k-th of them ends the k-th net.rx.glue sample of
 * the same size (as many of each size: a third of the values).
 */
static uint64_t rx_done[3 * NET_BENCH_MAX];

static void net_rx_user(struct ktest *t, const struct probe_sample *s,
			unsigned int ns)
{
	static const unsigned int lens[] = { 60, 256, 1500 };
	unsigned int got = 0, n;
	const char *at = console;
	char nic[24];

	while ((at = user_task_text_after(at, "RX-T1 ")) != NULL) {
		while (*at != '\n' && *at != '\0' &&
		       got < sizeof(rx_done) / sizeof(rx_done[0])) {
			uint64_t v = 0;

			while (*at == ' ')
				at++;
			if (*at < '0' || *at > '9')
				break;
			while (*at >= '0' && *at <= '9')
				v = v * 10 + (uint64_t)(*at++ - '0');
			rx_done[got++] = v;
		}
	}
	n = got / 3;
	if (n == 0 || got % 3 != 0) {
		ktest_fail(t, "%u RX-T1 values: not as many of each size",
			   got);
		return;
	}
	driver_part("bench_nic", nic, sizeof(nic));
	for (unsigned int k = 0; k < 3; k++) {
		unsigned int m = 0;
		struct stats st;
		char name[64];

		for (unsigned int i = 0; i < ns && m < n; i++) {
			const uint64_t *end = &rx_done[k * n + m];

			if (s[i].len != lens[k])
				continue;
			if (*end <= s[i].start) {
				ktest_fail(t, "echo %u of %u bytes: received "
					   "before the driver handed it over",
					   m, lens[k]);
				return;
			}
			samples[m++] = *end - s[i].start;
		}
		if (m != n || stats_compute(samples, m, &st) != 0) {
			ktest_fail(t, "%u net.rx.glue samples of %u bytes for "
				   "%u echoes", m, lens[k], n);
			continue;
		}
		ksnprintf(name, sizeof(name), "net.rx.instr/%s%u", nic,
			  lens[k]);
		bench_line(t, name, "ticks", &st);
		bench_samples(name, samples, m);
	}
}

static void net_glue(struct ktest *t)
{
	struct recording r[] = {
		{ PROBE_NET_TX, net_tx, NET_BENCH_MAX, 0 },
		{ PROBE_NET_RX, net_rx, NET_BENCH_MAX, 0 },
		{ PROBE_NET_TXDONE, net_txdone, NET_BENCH_MAX, 0 },
	};
	bool ran;

	record_start(r, 3);
	ran = user_task_run(t, "net_probe", 240, console, sizeof(console));
	record_stop();
	if (!ran)
		return;
	user_task_expect_checks(t, console, 21);
	net_print(t, "tx", net_tx, r[0].n);
	net_print(t, "rx", net_rx, r[1].n);
	net_print(t, "txdone", net_txdone, r[2].n);
	net_rx_user(t, net_rx, r[1].n);
}

static const struct ktest_case bench_cases[] = {
	{ "empty_probe_cost", empty_probe_cost },
	{ "rpc_round_trips", rpc_round_trips },
	{ "ramdisk_reads", ramdisk_reads },
	{ "io_bitmap_switch_cost", io_bitmap_switch_cost },
	{ "net_glue", net_glue },
};
KTEST_SUITE(bench_suite, "bench", bench_cases);

/* Suite "bench-net": the net benchmark alone, for a second NIC's boot
 * (bench_nic= names its driver in the BENCH names). */
static const struct ktest_case bench_net_cases[] = {
	{ "net_glue", net_glue },
};
KTEST_SUITE(bench_net_suite, "bench-net", bench_net_cases);

/*
 * disk.cmd.glue/<size> and disk.int.glue/<size> (mach-glue/block/
 * dev_lxblk.h says what each covers): tests/user/disk_probe.c (mode=lat,
 * the "disk_lat" module) reads and writes hd0s1 (Linux's ata_piix on
 * QEMU's IDE disk, or the controller bench_disk= names) with requests of
 * 512 B to 64 KiB, one at a time, and the module records one sample per
 * request each way: reads as disk.<path>.glue/<size>, writes as
 * disk.<path>.glue/write/<size> (a read's reply carries pages, a
 * write's a count: mixed, the medians would fall between two
 * populations), with the driver after glue/ when bench_disk= names it
 * (disk.cmd.glue/ahci/16384); each BENCH line with its samples.  The
 * segments of each size's first commands are printed as a diagnostic.
 */
#define DISK_BENCH_MAX	2048

static struct probe_sample disk_cmd[DISK_BENCH_MAX],
	disk_int[DISK_BENCH_MAX];

static void disk_print(struct ktest *t, const char *path, unsigned int write,
		       const struct probe_sample *s, unsigned int n)
{
	static const unsigned int lens[] = { 512, 4096, 8192, 16384, 65536 };
	char disk[24];

	driver_part("bench_disk", disk, sizeof(disk));
	for (int k = 0; k < 5; k++) {
		unsigned int m = 0, segs_min = ~0u, segs_max = 0;
		struct stats st;
		char name[64];

		for (unsigned int i = 0; i < n; i++) {
			if (s[i].len != lens[k] || s[i].write != write)
				continue;
			samples[m++] = s[i].ticks;
			if (s[i].nsegs < segs_min)
				segs_min = s[i].nsegs;
			if (s[i].nsegs > segs_max)
				segs_max = s[i].nsegs;
		}
		if (stats_compute(samples, m, &st) != 0) {
			ktest_fail(t, "no %s samples of %u bytes", path,
				   lens[k]);
			continue;
		}
		ksnprintf(name, sizeof(name), "disk.%s.glue/%s%s%u", path,
			  disk, write ? "write/" : "", lens[k]);
		bench_line(t, name, "ticks", &st);
		bench_samples(name, samples, m);
		if (segs_max != 0)
			kprintf("# %s: %u to %u segments in the first "
				"command\n", name, segs_min, segs_max);
	}
}

static void disk_glue(struct ktest *t)
{
	struct recording r[] = {
		{ PROBE_DISK_CMD, disk_cmd, DISK_BENCH_MAX, 0 },
		{ PROBE_DISK_INT, disk_int, DISK_BENCH_MAX, 0 },
	};
	bool ran;

	record_start(r, 2);
	ran = user_task_run(t, "disk_lat", 240, console, sizeof(console));
	record_stop();
	if (!ran)
		return;
	user_task_expect_checks(t, console, 2);
	for (unsigned int write = 0; write < 2; write++) {
		disk_print(t, "cmd", write, disk_cmd, r[0].n);
		disk_print(t, "int", write, disk_int, r[1].n);
	}
}

/*
 * disk.read.seq/<size>, disk.read.into.seq/<size> and
 * disk.write.seq/<size>: tests/user/disk_probe.c (mode=tput, the
 * "disk_tput" module) measures sequential throughput itself
 * (host_get_time, MiB/s) and prints the BENCH lines; a wall-clock boot
 * ("bench-disk-wall").
 */
static void disk_throughput(struct ktest *t)
{
	if (!user_task_run(t, "disk_tput", 600, console, sizeof(console)))
		return;
	user_task_expect_checks(t, console, 2);
	KTEST_EXPECT_EQ(t, user_task_count_lines(console, "BENCH "), 15);
}

/*
 * net.tx.rate/60: tests/user/net_probe.c (rate=SECONDS, the "net_rate"
 * module) writes 60-byte frames on eth0 back to back, one device_write
 * at a time, and prints frames per second itself (host_get_time); a
 * wall-clock boot ("graft-wall").
 */
static void net_rate(struct ktest *t)
{
	if (!user_task_run(t, "net_rate", 240, console, sizeof(console)))
		return;
	user_task_expect_checks(t, console, 4);
	KTEST_EXPECT_EQ(t, user_task_count_lines(console, "BENCH "), 1);
}

/*
 * pktgen.rate/60: servers/pktgen (runs=5, the "pktgen" module) sends
 * 60-byte frames on eth0, one device_write each, in PKTGEN_RUNS runs;
 * the frames per second of each run's result line ("  NNNpps ...", the
 * line after "Result: OK: ") make one BENCH line; a wall-clock boot
 * ("graft-wall"), beside Linux's pktgen.
 */
#define PKTGEN_RUNS	5

static void pktgen_rate(struct ktest *t)
{
	uint64_t rates[PKTGEN_RUNS];
	unsigned int n = 0;
	const char *at = console;
	struct stats st;

	if (!user_task_run(t, "pktgen", 240, console, sizeof(console)))
		return;
	while ((at = kmemmem(at, strlen(at), "Result: OK: ")) != NULL &&
	       n < PKTGEN_RUNS) {
		uint64_t pps = 0;

		at = kmemmem(at, strlen(at), "\n");
		if (at == NULL || !user_task_number_after(at, "\n  ", &pps))
			break;
		rates[n++] = pps;
	}
	KTEST_EXPECT_EQ(t, user_task_count_lines(console, "Result: OK: "),
			PKTGEN_RUNS);
	KTEST_EXPECT_EQ(t, n, PKTGEN_RUNS);
	if (n == PKTGEN_RUNS && stats_compute(rates, n, &st) == 0)
		bench_line(t, "pktgen.rate/60", "frames/s", &st);
}

/* Suite "bench-disk": the disk glue figures (icount), of ata_piix or
 * of the controller bench_disk= names (the bench-disk-<driver> boots). */
static const struct ktest_case bench_disk_cases[] = {
	{ "disk_glue", disk_glue },
};
KTEST_SUITE(bench_disk_suite, "bench-disk", bench_disk_cases);

/* Suite "bench-disk-wall": the disk's throughput, the frame rate and
 * pktgen's (wall clock). */
static const struct ktest_case bench_disk_wall_cases[] = {
	{ "disk_throughput", disk_throughput },
	{ "net_rate", net_rate },
	{ "pktgen_rate", pktgen_rate },
};
KTEST_SUITE(bench_disk_wall_suite, "bench-disk-wall", bench_disk_wall_cases);

/* Suite "bench-disk-seq": the disk's throughput alone (wall clock;
 * compare.py --disk-only). */
static const struct ktest_case bench_disk_seq_cases[] = {
	{ "disk_throughput", disk_throughput },
};
KTEST_SUITE(bench_disk_seq_suite, "bench-disk-seq", bench_disk_seq_cases);
