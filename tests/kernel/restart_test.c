/* SPDX-License-Identifier: GPL-2.0-only */
/* Suites "restart-net-e1000", "restart-disk-ata-piix", "restart-root-disk", "restart-give-up", "restart-hang", "restart-missing", and the bench suites "bench-restart", "bench-restart-disk" (the time to recover): a supervised driver server killed under its clients, or hung, comes back, and they notice nothing (or, given up, get D_DEVICE_DOWN). */
/*
 * Each boot starts the Linux driver server with restart=N on its module
 * line (kern/supervise.h).  This side kills the server's task while a
 * client keeps a load on its device, waits for the supervisor to start
 * the next instance and for the proxy to hand it the device again
 * (dev_proxy_waiting), kills again, and then checks what the client
 * saw: restart_probe (tests/user/restart_probe.c) on eth0, the
 * disk-ata-piix program (tests/user/disk_probe.c, whose image the
 * harness checks on the host) on hd0.
 */
#include <stdbool.h>
#include <stdint.h>

#include "device/dev_proxy.h"
#include "device/device.h"
#include "kern/bootinfo.h"
#include "kern/clock.h"
#include "kern/cmdline.h"
#include "kern/console.h"
#include "kern/kprintf.h"
#include "kern/ktest.h"
#include "kern/sched.h"
#include "kern/supervise.h"
#include "kern/stats.h"
#include "kern/string.h"
#include "kern/task.h"
#include "tests/kernel/bench_line.h"
#include "tests/kernel/driver_server.h"
#include "tests/kernel/user_task.h"
#include "x86_64/cpu.h"
#include "x86_64/tsc.h"

#define START_SECONDS	40
#define BACK_SECONDS	30
#define DISK_CHECKS	54	/* disk_probe's, as in disk_test.c */

static char console[65536];
static struct supervision *sup;

static void server_starts_supervised(struct ktest *t)
{
	struct task *task = NULL;

	if (!driver_server_start_module(t, "lxdrv", START_SECONDS, &task))
		return;
	sup = supervise_of_task(task);
	KTEST_EXPECT_TRUE(t, sup != NULL);
}

/* Kill the server's task now; false (and @t failed) if none runs. */
static bool kill_server(struct ktest *t)
{
	struct task *task = sup != NULL ? supervise_task(sup) : NULL;

	if (task == NULL) {
		ktest_fail(t, "no server task to kill");
		return false;
	}
	kprintf("restart test: killing %s\n", task->name);
	task_terminate(task, "killed by the suite");
	return true;
}

/* Wait until the server was started @restarts times and its device
 * @name is served again; the time it took is printed.  False (and @t
 * failed) if not within BACK_SECONDS. */
static bool wait_back(struct ktest *t, unsigned int restarts,
		      const char *name, uint64_t killed)
{
	for (unsigned int i = 0; i < BACK_SECONDS * 10; i++) {
		if (supervise_restarts(sup) >= restarts &&
		    supervise_task(sup) != NULL && !dev_proxy_waiting(name)) {
			kprintf("restart test: %s served again %llu ms after "
				"the kill\n", name,
				(unsigned long long)((clock_ticks() - killed) *
						     1000 / HZ));
			return true;
		}
		thread_sleep_ticks(HZ / 10);
	}
	ktest_fail(t, "%s not served again within %u s", name, BACK_SECONDS);
	return false;
}

/* Wait (up to 10 s) until a call is at the server: a kill then lands
 * under it.  Whether one came. */
static bool call_at_server(void)
{
	for (unsigned int i = 0; i < 10 * HZ; i++) {
		if (dev_proxy_fwd_count() != 0)
			return true;
		thread_sleep_ticks(1);
	}
	return false;
}

/* Start the client of @word, kill the server @kills times under it,
 * each time with a call of the client's at the server if @gate (once
 * back, after @between ticks), else @between ticks after the start or
 * the last restart, wait for the client to end (up to @seconds), and
 * expect @checks of its checks to pass and calls to have been sent
 * again to the new instances of the devices @names (NULL-terminated;
 * the first is waited for). */
static void kill_under(struct ktest *t, const char *word,
		       const char *const *names, unsigned int kills,
		       bool gate, uint64_t between, unsigned int seconds,
		       unsigned int checks)
{
	const char *name = names[0];
	unsigned int before = task_terminations, resent = 0;
	uint64_t killed;
	bool ok;

	if (sup == NULL) {
		ktest_fail(t, "the server is not supervised");
		return;
	}
	if (!user_task_start(t, word, console, sizeof(console), NULL))
		return;
	for (unsigned int k = 1; k <= kills; k++) {
		if (!gate) {
			thread_sleep_ticks(between);
		} else if (!call_at_server()) {
			ktest_fail(t, "no call of the client at the server");
			break;
		}
		killed = clock_ticks();
		if (!kill_server(t) || !wait_back(t, k, name, killed))
			break;
		if (gate)
			thread_sleep_ticks(between);
	}
	/* the servers killed and the client */
	ok = user_task_wait(before, kills + 1, seconds);
	console_capture_stop();
	if (!ok) {
		ktest_fail(t, "the client did not end within %u s", seconds);
		return;
	}
	user_task_expect_checks(t, console, checks);
	for (const char *const *n = names; *n != NULL; n++)
		resent += dev_proxy_resent(*n);
	kprintf("restart test: %u call(s) sent to a new instance\n", resent);
	KTEST_EXPECT_TRUE(t, resent >= 1);
	KTEST_EXPECT_EQ(t, supervise_restarts(sup), kills);
	KTEST_EXPECT_FALSE(t, supervise_gave_up(sup));
	KTEST_EXPECT_EQ(t, dev_proxy_fwd_count(), 0);
	KTEST_EXPECT_EQ(t, io_req_in_flight(), 0);
}

static void frames_cross_two_restarts(struct ktest *t)
{
	static const char *const names[] = { "eth0", NULL };

	kill_under(t, "restart_probe mode=net", names, 2, true, HZ, 60, 4);
}

static void disk_program_crosses_two_restarts(struct ktest *t)
{
	static const char *const names[] = { "hd0s1", "hd0", "hd0s2", NULL };

	kill_under(t, "disk_check", names, 2, true, 1, 400, DISK_CHECKS);
}

/* A client writing and reading back its data on hd0s1 without pause,
 * through five kills a second apart of a server that may restart a
 * hundred times: every call answered, every read back equal. */
static void disk_data_crosses_five_restarts(struct ktest *t)
{
	static const char *const names[] = { "hd0s1", NULL };

	kill_under(t, "restart_probe mode=disk", names, 5, false, HZ, 60, 2);
}

/* restart=1: the first death is hidden, the second gives up; the
 * client's call then answers D_DEVICE_DOWN. */
static void second_death_gives_up(struct ktest *t)
{
	unsigned int before = task_terminations;
	uint64_t killed;
	bool ok;

	if (sup == NULL) {
		ktest_fail(t, "the server is not supervised");
		return;
	}
	if (!user_task_start(t, "restart_probe mode=down", console,
			     sizeof(console), NULL))
		return;
	thread_sleep_ticks(HZ);
	killed = clock_ticks();
	if (kill_server(t) && wait_back(t, 1, "eth0", killed)) {
		thread_sleep_ticks(HZ / 2);
		(void)kill_server(t);
	}
	ok = user_task_wait(before, 3, 60);
	console_capture_stop();
	if (!ok) {
		ktest_fail(t, "the client did not end within 60 s");
		return;
	}
	user_task_expect_checks(t, console, 3);
	KTEST_EXPECT_TRUE(t, supervise_gave_up(sup));
	KTEST_EXPECT_EQ(t, supervise_restarts(sup), 1);
	KTEST_EXPECT_TRUE(t, supervise_task(sup) == NULL);
	KTEST_EXPECT_EQ(t, dev_proxy_fwd_count(), 0);
	KTEST_EXPECT_EQ(t, io_req_in_flight(), 0);
}

/* A driver that never gives its thread back (rogue.act=spin), with
 * restart=1: the hang is noticed (no answer to a heartbeat), the server
 * ended and started again, hangs again, and is given up; the client's
 * write answers D_DEVICE_DOWN. */
static void hung_server_noticed_restarted_given_up(struct ktest *t)
{
	unsigned int before = task_terminations;
	uint64_t start;
	bool ok;

	if (sup == NULL) {
		ktest_fail(t, "the server is not supervised");
		return;
	}
	start = clock_ticks();
	if (!user_task_start(t, "restart_probe mode=down", console,
			     sizeof(console), NULL))
		return;
	/* two hung servers ended, and the client */
	ok = user_task_wait(before, 3, 60);
	console_capture_stop();
	if (!ok) {
		ktest_fail(t, "the client did not end within 60 s");
		return;
	}
	kprintf("restart test: given up %llu ms after the first write\n",
		(unsigned long long)((clock_ticks() - start) * 1000 / HZ));
	user_task_expect_checks(t, console, 3);
	KTEST_EXPECT_EQ(t, user_task_count_lines(console,
			"task lxdrv_test.elf terminated: hung: "), 2);
	KTEST_EXPECT_TRUE(t, supervise_gave_up(sup));
	KTEST_EXPECT_EQ(t, supervise_restarts(sup), 1);
	KTEST_EXPECT_EQ(t, dev_proxy_fwd_count(), 0);
	KTEST_EXPECT_EQ(t, io_req_in_flight(), 0);
}

/* Recovery time: kills for the bench suites, and the TSC when the
 * first call of the new instance was answered. */
#define RECOVERY_KILLS	10
static volatile uint64_t answered_at;

static void first_answer(void)
{
	answered_at = rdtsc_fenced();
}

/* Kill the server RECOVERY_KILLS times under the client of @word, each
 * time with a call of the client's at the server, and time each
 * recovery, from the kill to the first call the new instance answers:
 * the BENCH record @name (ticks: instructions under -icount), or with
 * bench_mode=wall @wall_name in microseconds of the TSC (the host's
 * time under QEMU TCG without -icount). */
static void recovery_bench(struct ktest *t, const char *word,
			   const char *name, const char *wall_name)
{
	uint64_t samples[RECOVERY_KILLS];
	unsigned int n = 0, before = task_terminations;
	struct stats st;
	char mode[16];
	bool ok, wall = cmdline_copy(bootinfo.cmdline, "bench_mode", mode,
				     sizeof(mode)) && strcmp(mode, "wall") == 0;

	if (sup == NULL) {
		ktest_fail(t, "the server is not supervised");
		return;
	}
	if (!user_task_start(t, word, console, sizeof(console), NULL))
		return;
	dev_proxy_restart_probe_set(first_answer);
	while (n < RECOVERY_KILLS) {
		uint64_t killed;

		if (!call_at_server()) {
			ktest_fail(t, "no call of the client at the server");
			break;
		}
		answered_at = 0;
		killed = rdtsc_fenced();
		if (!kill_server(t))
			break;
		for (unsigned int i = 0; i < BACK_SECONDS * HZ &&
		     answered_at == 0; i++)
			thread_sleep_ticks(1);
		if (answered_at == 0) {
			ktest_fail(t, "no call answered by the new instance");
			break;
		}
		samples[n++] = answered_at - killed;
	}
	dev_proxy_restart_probe_set(NULL);
	ok = user_task_wait(before, n + 1, 300);
	console_capture_stop();
	if (!ok)
		ktest_fail(t, "the client did not end within 300 s");
	if (n == RECOVERY_KILLS && wall) {
		for (unsigned int i = 0; i < n; i++)	/* TSC ticks to us */
			samples[i] = samples[i] * 1000000 / tsc_hz();
	}
	if (n == RECOVERY_KILLS && stats_compute(samples, n, &st) == 0)
		bench_line(t, wall ? wall_name : name, wall ? "us" : "ticks",
			   &st);
}

static void e1000_recovery(struct ktest *t)
{
	recovery_bench(t, "restart_probe mode=load", "restart.recovery/e1000",
		       "restart.recovery.wall/e1000");
}

static void ata_piix_recovery(struct ktest *t)
{
	recovery_bench(t, "restart_probe mode=disk",
		       "restart.recovery/ata_piix",
		       "restart.recovery.wall/ata_piix");
}

/* A driver whose probe calls a function linux-emu lacks
 * (rogue.act=missing), in a server with restart=2: each instance names
 * the function and ends alone; the third is given up. */
static void missing_function_ends_the_server_alone(struct ktest *t)
{
	unsigned int before = task_terminations;
	bool ok;

	if (!user_task_start(t, "rogue.act=missing", console,
			     sizeof(console), NULL))
		return;
	/* the first instance and two restarts */
	ok = user_task_wait(before, 3, 60);
	for (unsigned int i = 0; ok && i < 5 * HZ &&
	     user_task_count_lines(console, "supervise: ") < 3; i++)
		thread_sleep_ticks(1);
	console_capture_stop();
	if (!ok) {
		ktest_fail(t, "three instances did not end within 60 s");
		return;
	}
	KTEST_EXPECT_EQ(t, user_task_count_lines(console,
			"lxdrv: linux-emu: simple_pin_fs is not implemented"), 3);
	KTEST_EXPECT_EQ(t, user_task_count_lines(console,
			"supervise: lxdrv_test.elf given up after 2 restarts"),
			1);
	if (kmemmem(console, strlen(console), "act missing: came back") !=
	    NULL)
		ktest_fail(t, "the driver came back from the missing function");
}

static const struct ktest_case bench_restart_cases[] = {
	{ "server_starts_supervised", server_starts_supervised },
	{ "e1000_recovery", e1000_recovery },
};
KTEST_SUITE(bench_restart_suite, "bench-restart", bench_restart_cases);

static const struct ktest_case bench_restart_disk_cases[] = {
	{ "server_starts_supervised", server_starts_supervised },
	{ "ata_piix_recovery", ata_piix_recovery },
};
KTEST_SUITE(bench_restart_disk_suite, "bench-restart-disk",
	    bench_restart_disk_cases);

static const struct ktest_case restart_net_cases[] = {
	{ "server_starts_supervised", server_starts_supervised },
	{ "frames_cross_two_restarts", frames_cross_two_restarts },
};
KTEST_SUITE(restart_net_suite, "restart-net-e1000", restart_net_cases);

static const struct ktest_case restart_disk_cases[] = {
	{ "server_starts_supervised", server_starts_supervised },
	{ "disk_program_crosses_two_restarts",
	  disk_program_crosses_two_restarts },
};
KTEST_SUITE(restart_disk_suite, "restart-disk-ata-piix", restart_disk_cases);

static const struct ktest_case restart_give_up_cases[] = {
	{ "server_starts_supervised", server_starts_supervised },
	{ "second_death_gives_up", second_death_gives_up },
};
KTEST_SUITE(restart_give_up_suite, "restart-give-up", restart_give_up_cases);

static const struct ktest_case restart_hang_cases[] = {
	{ "server_starts_supervised", server_starts_supervised },
	{ "hung_server_noticed_restarted_given_up",
	  hung_server_noticed_restarted_given_up },
};
KTEST_SUITE(restart_hang_suite, "restart-hang", restart_hang_cases);

static const struct ktest_case restart_root_disk_cases[] = {
	{ "server_starts_supervised", server_starts_supervised },
	{ "disk_data_crosses_five_restarts",
	  disk_data_crosses_five_restarts },
};
KTEST_SUITE(restart_root_disk_suite, "restart-root-disk",
	    restart_root_disk_cases);

static const struct ktest_case restart_missing_cases[] = {
	{ "missing_function_ends_the_server_alone",
	  missing_function_ends_the_server_alone },
};
KTEST_SUITE(restart_missing_suite, "restart-missing", restart_missing_cases);
