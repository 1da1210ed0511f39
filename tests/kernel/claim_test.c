/* SPDX-License-Identifier: GPL-2.0-only */
/* Suite "driver-claim": PCI and ISA claims for user drivers (claim.defs), each call with its bad inputs, and what a claim's end undoes. */
/*
 * tests/user/claim_probe.c makes the calls; this side checks what only
 * the kernel sees: the kernel's Linux world holds the function its e1000
 * driver bound, and after a task's claim ended (its last right gone,
 * with the task or before) the device was quiesced (bus mastering off),
 * its interrupt registration dropped and its line masked, the I/O ports
 * withdrawn (the task faults on them), and every count is back.
 */
#include <stdbool.h>
#include <stdint.h>

#include "device/dev_claim.h"
#include "device/dev_intr.h"
#include "ipc/ipc_kmsg.h"
#include "ipc/ipc_port.h"
#include "kern/console.h"
#include "kern/intr.h"
#include "kern/kprintf.h"
#include "kern/ktest.h"
#include "kern/string.h"
#include "kern/task.h"
#include "tests/kernel/user_task.h"
#include "x86_64/pci_config.h"

#define E1000_SLOT	3
#define RTL_SLOT	5
#define KERNEL_ISA_IO	0x300	/* the suite's ne_io= */
#define ISA_IO		0x280	/* claim_probe's ISA claim */

static char console[16384];

struct claim_counts {
	struct user_task_baseline task;
	unsigned int claims, lines, ports, kmsgs;
};

static void counts_take(struct claim_counts *c)
{
	user_task_baseline(&c->task);
	c->claims = dev_claim_count();
	c->lines = dev_intr_count();
	c->ports = ipc_port_count();
	c->kmsgs = ipc_kmsg_count();
}

static void expect_counts(struct ktest *t, const struct claim_counts *b)
{
	KTEST_EXPECT_EQ(t, dev_claim_count(), b->claims);
	KTEST_EXPECT_EQ(t, dev_intr_count(), b->lines);
	KTEST_EXPECT_EQ(t, ipc_port_count(), b->ports);
	KTEST_EXPECT_EQ(t, ipc_kmsg_count(), b->kmsgs);
	user_task_expect_baseline(t, &b->task);
}

static bool rtl_mastering(void)
{
	return pci_config_read(0, pci_devfn(RTL_SLOT, 0), PCI_COMMAND, 2) &
	       PCI_COMMAND_MASTER;
}

/* Run claim_probe in @mode; false if it did not run to its end. */
static bool run_mode(struct ktest *t, const char *mode, unsigned int min)
{
	char word[32];

	ksnprintf(word, sizeof(word), "mode=%s ", mode);
	if (!user_task_run(t, word, 20, console, sizeof(console)))
		return false;
	user_task_expect_checks(t, console, min);
	return true;
}

/* Fail @t unless the task ended by a fault whose reason starts with
 * @reason, after announcing it. */
static void expect_faulted(struct ktest *t, const char *reason)
{
	char line[48];

	KTEST_EXPECT_EQ(t, user_task_count_lines(console, "USER-IO about"),
			1);
	ksnprintf(line, sizeof(line), "terminated: %s", reason);
	if (kmemmem(console, strlen(console), line) == NULL)
		ktest_fail(t, "the task did not end by %s", reason);
}

static void kernel_world_holds_what_it_drives(struct ktest *t)
{
	bool by_task = true;

	KTEST_EXPECT_TRUE(t, dev_claim_held(0, pci_devfn(E1000_SLOT, 0)));
	KTEST_EXPECT_FALSE(t, dev_claim_held(0, pci_devfn(RTL_SLOT, 0)));
	/* the card of ne_io=, though no card answers there */
	KTEST_EXPECT_TRUE(t, dev_claim_isa_held(KERNEL_ISA_IO, &by_task));
	KTEST_EXPECT_FALSE(t, by_task);
	KTEST_EXPECT_EQ(t, dev_claim_count(), 0);
}

static void refused_claims_answer_their_codes(struct ktest *t)
{
	struct claim_counts b;

	counts_take(&b);
	if (run_mode(t, "refuse", 11))
		expect_counts(t, &b);
}

static void claim_reaches_its_device_and_ends_quiesced(struct ktest *t)
{
	struct claim_counts b;

	counts_take(&b);
	KTEST_EXPECT_FALSE(t, rtl_mastering());
	if (!run_mode(t, "access", 45))
		return;
	/* The task died holding it all, DMA memory included: quiesced,
	 * then given back (the page counts below). */
	KTEST_EXPECT_FALSE(t, rtl_mastering());
	KTEST_EXPECT_FALSE(t, dev_claim_held(0, pci_devfn(RTL_SLOT, 0)));
	expect_counts(t, &b);
}

static void ports_outside_the_claimed_bar_fault(struct ktest *t)
{
	struct claim_counts b;

	counts_take(&b);
	if (!run_mode(t, "outside", 3))
		return;
	expect_faulted(t, "#GP");
	expect_counts(t, &b);
}

static void released_claim_takes_its_ports_back(struct ktest *t)
{
	struct claim_counts b;

	counts_take(&b);
	if (!run_mode(t, "release", 4))
		return;
	expect_faulted(t, "#GP");
	expect_counts(t, &b);
}

static void register_bar_mapped_uncached_until_the_claim_ends(
	struct ktest *t)
{
	struct claim_counts b;

	counts_take(&b);
	if (!run_mode(t, "map", 10))
		return;
	expect_faulted(t, "page fault");
	expect_counts(t, &b);
}

/* ISA claims: claim_probe exits holding one, its grant and five lines;
 * all of it ends with the task. */
static void isa_claims_answer_their_codes_and_end_with_their_task(
	struct ktest *t)
{
	struct claim_counts b;

	counts_take(&b);
	if (!run_mode(t, "isa", 54))
		return;
	KTEST_EXPECT_FALSE(t, dev_claim_isa_held(ISA_IO, NULL));
	KTEST_EXPECT_EQ(t, dev_claim_isa_lines(ISA_IO), 0);
	KTEST_EXPECT_TRUE(t, dev_claim_isa_held(KERNEL_ISA_IO, NULL));
	expect_counts(t, &b);
}

/* The driver master port: claims, and nothing the device master port
 * gives besides; a direct map named through a claim, which ends with
 * it. */
static void driver_port_admits_claims_only(struct ktest *t)
{
	struct claim_counts b;

	counts_take(&b);
	if (!run_mode(t, "driver", 27))
		return;
	KTEST_EXPECT_FALSE(t, dev_claim_held(0, pci_devfn(RTL_SLOT, 0)));
	KTEST_EXPECT_FALSE(t, dev_claim_isa_held(ISA_IO, NULL));
	expect_counts(t, &b);
}

static const struct ktest_case claim_cases[] = {
	{ "kernel_world_holds_what_it_drives",
	  kernel_world_holds_what_it_drives },
	{ "refused_claims_answer_their_codes",
	  refused_claims_answer_their_codes },
	{ "claim_reaches_its_device_and_ends_quiesced",
	  claim_reaches_its_device_and_ends_quiesced },
	{ "ports_outside_the_claimed_bar_fault",
	  ports_outside_the_claimed_bar_fault },
	{ "released_claim_takes_its_ports_back",
	  released_claim_takes_its_ports_back },
	{ "register_bar_mapped_uncached_until_the_claim_ends",
	  register_bar_mapped_uncached_until_the_claim_ends },
	{ "isa_claims_answer_their_codes_and_end_with_their_task",
	  isa_claims_answer_their_codes_and_end_with_their_task },
	{ "driver_port_admits_claims_only", driver_port_admits_claims_only },
};
KTEST_SUITE(claim_suite, "driver-claim", claim_cases);
