/* SPDX-License-Identifier: GPL-2.0-only */
/* Suites "server-disk-ata-piix" and "-pio": libata + ata_piix in the Linux driver server (servers/lxdrv) serve hd0 and its partitions through the kernel's proxy. */
/*
 * The kernel boots with "linux linux.server=ata_piix": its own block
 * module serves no disk, the server claims the IDE controller (00:01.1)
 * and publishes hd0, hd0s1 and hd0s2.  Then the disk-ata-piix suites'
 * client, unchanged (tests/user/disk_probe.c, "disk_check" and
 * "disk_lat" modules), reads, writes and mistreats them; the harness
 * checks the image and libata's transfer mode afterwards, as for the
 * in-kernel suites (tests/kernel/disk_test.c).
 */
#include <stdbool.h>
#include <stdint.h>

#include "device/dev_claim.h"
#include "device/dev_proxy.h"
#include "device/device.h"
#include "ipc/ipc_kmsg.h"
#include "ipc/ipc_port.h"
#include "kern/clock.h"
#include "kern/ktest.h"
#include "kern/sched.h"
#include "mach-glue/block/dev_lxblk.h"
#include "tests/kernel/driver_server.h"
#include "tests/kernel/user_task.h"
#include "x86_64/pci_config.h"

#define IDE_SLOT	1
#define IDE_FUNCTION	1
#define DISK_CHECKS	54	/* disk_probe's, as in disk_test.c */

static char console[65536];

/* Run the client program of @word; it waited for each answer, so
 * nothing it asked is still at the server once it ended. */
static void run_program(struct ktest *t, const char *word, unsigned int min)
{
	if (!user_task_run(t, word, 400, console, sizeof(console)))
		return;
	user_task_expect_checks(t, console, min);
	KTEST_EXPECT_EQ(t, dev_proxy_fwd_count(), 0);
	KTEST_EXPECT_EQ(t, io_req_in_flight(), 0);
}

static void server_claims_the_controller_and_publishes_the_disk(
	struct ktest *t)
{
	struct dev_lxblk_stats s;

	if (!driver_server_start(t, 40))
		return;
	KTEST_EXPECT_TRUE(t, dev_claim_held(0, pci_devfn(IDE_SLOT,
							  IDE_FUNCTION)));
	KTEST_EXPECT_TRUE(t, driver_server_said("lxdrv: hd0: "));
	KTEST_EXPECT_TRUE(t, driver_server_said("lxdrv: hd0s1: "));
	KTEST_EXPECT_TRUE(t, driver_server_said("lxdrv: hd0s2: "));
	KTEST_EXPECT_TRUE(t, driver_server_said("KiB bounce buffer"));
	dev_lxblk_stats(&s);
	KTEST_EXPECT_EQ(t, s.units, 0);	/* the kernel's module has none */
}

static void disk_program_passes_its_checks(struct ktest *t)
{
	run_program(t, "disk_check", DISK_CHECKS);
}

/* The aligned session, with the server running throughout: the kernel
 * is left as the session found it, once what the case before left in
 * flight (its program's last messages, the server's interrupt message)
 * is received or destroyed: a tenth of a second first. */
static void aligned_session_leaves_nothing(struct ktest *t)
{
	struct user_task_baseline b;
	unsigned int ports, kmsgs, opens;

	thread_sleep_ticks(HZ / 10);
	ports = ipc_port_count();
	kmsgs = ipc_kmsg_count();
	opens = dev_open_count();	/* the server's "irq" */
	user_task_baseline(&b);
	run_program(t, "disk_lat", 2);
	KTEST_EXPECT_EQ(t, dev_open_count(), opens);
	KTEST_EXPECT_EQ(t, ipc_port_count(), ports);
	KTEST_EXPECT_EQ(t, ipc_kmsg_count(), kmsgs);
	user_task_expect_baseline(t, &b);
}

static const struct ktest_case server_disk_cases[] = {
	{ "server_claims_the_controller_and_publishes_the_disk",
	  server_claims_the_controller_and_publishes_the_disk },
	{ "disk_program_passes_its_checks", disk_program_passes_its_checks },
	{ "aligned_session_leaves_nothing", aligned_session_leaves_nothing },
};
KTEST_SUITE(server_disk_ata_piix_suite, "server-disk-ata-piix",
	    server_disk_cases);
