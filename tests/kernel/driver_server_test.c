/* SPDX-License-Identifier: GPL-2.0-only */
/* Suites "server-net-*": a Linux NIC driver run as a user-mode server (servers/lxdrv) serves Mach's eth0 through the kernel's proxy; ISA ne there finds its line by autoIRQ. */
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
#include "kern/kprintf.h"
#include "kern/ktest.h"
#include "tests/kernel/driver_server.h"
#include "tests/kernel/user_task.h"
#include "x86_64/pci_config.h"

#define NIC_SLOT	3	/* the NIC's slot; nic_slot= says another */
#define NET_PROBE_CHECKS	62	/* net_probe's, as in net_eth0_test.c */

static char console[32768];

static void server_claims_and_drives_the_nic(struct ktest *t)
{
	uint64_t slot = NIC_SLOT;

	if (!driver_server_start(t, 30))
		return;
	(void)cmdline_u64(bootinfo.cmdline, "nic_slot", &slot);
	KTEST_EXPECT_TRUE(t, dev_claim_held(0, pci_devfn(slot, 0)));
	KTEST_EXPECT_TRUE(t, driver_server_said("lxdrv: eth0 up"));
}

/* The net-e1000 program, unchanged, against the server's eth0: it
 * cannot tell (the host peer checks every frame). */
static void net_program_passes_its_checks(struct ktest *t)
{
	if (!user_task_run(t, "net_probe mac=", 30, console, sizeof(console)))
		return;
	user_task_expect_checks(t, console, NET_PROBE_CHECKS);
}

/* ISA ne in the server (isa_io=, expect_irq=): its ports are the
 * server's claim, and of the lines autoIRQ took through the claim only
 * the one the harness gave QEMU's card stays registered. */
static void server_claims_the_card_and_autoirq_finds_its_line(
	struct ktest *t)
{
	uint64_t io = 0, want = 0;
	bool by_task = false;
	char said[32];

	if (cmdline_u64(bootinfo.cmdline, "isa_io", &io) != 0 ||
	    cmdline_u64(bootinfo.cmdline, "expect_irq", &want) != 0 ||
	    want >= 16) {
		ktest_fail(t, "command line lacks numbers isa_io=, expect_irq=");
		return;
	}
	if (!driver_server_start(t, 30))
		return;
	KTEST_EXPECT_TRUE(t, dev_claim_isa_held((unsigned int)io, &by_task));
	KTEST_EXPECT_TRUE(t, by_task);
	KTEST_EXPECT_EQ(t, dev_claim_isa_lines((unsigned int)io),
			1u << want);
	ksnprintf(said, sizeof(said), "using IRQ %u.", (unsigned int)want);
	KTEST_EXPECT_TRUE(t, driver_server_said(said));
	KTEST_EXPECT_TRUE(t, driver_server_said("lxdrv: eth0 up"));
}

static const struct ktest_case server_net_isa_cases[] = {
	{ "server_claims_the_card_and_autoirq_finds_its_line",
	  server_claims_the_card_and_autoirq_finds_its_line },
	{ "net_program_passes_its_checks", net_program_passes_its_checks },
};
KTEST_SUITE(server_net_isa_suite, "server-net-ne-isa", server_net_isa_cases);

static const struct ktest_case server_net_cases[] = {
	{ "server_claims_and_drives_the_nic",
	  server_claims_and_drives_the_nic },
	{ "net_program_passes_its_checks", net_program_passes_its_checks },
};
KTEST_SUITE(server_net_suite, "server-net", server_net_cases);
