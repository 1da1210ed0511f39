/* SPDX-License-Identifier: GPL-2.0-only */
/* Suites "server-net-*": a Linux NIC driver run as a user-mode server (servers/lxdrv) serves Mach's eth0 through the kernel's proxy. */
/*
 * The kernel boots without the drivers the suite gives the server
 * (linux.server=), so the server's claims get their functions; the
 * server module is started as a task of its own and left running while
 * the suite's client programs use its devices.
 */
#include <stdbool.h>
#include <stdint.h>

#include "device/dev_claim.h"
#include "kern/bootinfo.h"
#include "kern/cmdline.h"
#include "kern/console.h"
#include "kern/bootstrap.h"
#include "kern/ktest.h"
#include "kern/sched.h"
#include "kern/string.h"
#include "kern/task.h"
#include "kern/thread.h"
#include "tests/kernel/user_task.h"
#include "x86_64/pci_config.h"

#define NIC_SLOT	3	/* the NIC's slot; nic_slot= says another */
#define NET_PROBE_CHECKS	62	/* net_probe's, as in net_eth0_test.c */

static char server_console[16384], console[32768];
static struct task *server;

/* Start the module with "lxdrv" and wait up to @seconds for its
 * "lxdrv: ready" line.  False (and @t failed) if it did not come. */
static bool server_start(struct ktest *t, unsigned int seconds)
{
	const struct boot_module *m = user_task_module("lxdrv");

	if (m == NULL) {
		ktest_fail(t, "harness passed no lxdrv module");
		return false;
	}
	console_capture_start(server_console, sizeof(server_console));
	if (bootstrap_task_create(m, &server) != KERN_SUCCESS) {
		console_capture_stop();
		ktest_fail(t, "lxdrv did not start");
		return false;
	}
	for (unsigned int i = 0; i < seconds * 10; i++) {
		if (kmemmem(server_console, strlen(server_console),
			    "lxdrv: ready") != NULL)
			break;
		thread_sleep_ticks(10);
	}
	console_capture_stop();
	if (kmemmem(server_console, strlen(server_console),
		    "lxdrv: ready") == NULL) {
		ktest_fail(t, "lxdrv not ready within %u s", seconds);
		return false;
	}
	return true;
}

static void server_claims_and_drives_the_nic(struct ktest *t)
{
	if (!server_start(t, 30))
		return;
	uint64_t slot = NIC_SLOT;

	(void)cmdline_u64(bootinfo.cmdline, "nic_slot", &slot);
	KTEST_EXPECT_TRUE(t, dev_claim_held(0, pci_devfn(slot, 0)));
	KTEST_EXPECT_TRUE(t, kmemmem(server_console, strlen(server_console),
				     "lxdrv: eth0 up") != NULL);
}

/* The net-e1000 program, unchanged, against the server's eth0: it
 * cannot tell (the host peer checks every frame). */
static void net_program_passes_its_checks(struct ktest *t)
{
	if (!user_task_run(t, "net_probe mac=", 30, console, sizeof(console)))
		return;
	user_task_expect_checks(t, console, NET_PROBE_CHECKS);
}

static const struct ktest_case server_net_cases[] = {
	{ "server_claims_and_drives_the_nic",
	  server_claims_and_drives_the_nic },
	{ "net_program_passes_its_checks", net_program_passes_its_checks },
};
KTEST_SUITE(server_net_suite, "server-net", server_net_cases);
