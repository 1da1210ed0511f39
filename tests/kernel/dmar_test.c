/* SPDX-License-Identifier: GPL-2.0-only */
/* Suites "dmar" and "dmar-off": a user driver's device reaches only its own memory under DMA remapping, and any page without it. */
/*
 * Both boot q35 with QEMU's intel-iommu and its edu device at 00:04.0;
 * "dmar-off" adds dmar=off.  The suite fills a page nobody was given
 * (TARGET, below edu's 256 MiB DMA mask) with 0xa5 and runs
 * tests/user/dmar_probe.c, which claims edu and copies with its DMA
 * engine within its own DMA memory, then from and to TARGET.  With
 * remapping on, both go to the task's domain's sink instead (the page
 * still holds 0xa5, the sink's write is found) and the function is
 * blocked after its claim ended; with it off, the device reads the page
 * and overwrites it: what remapping is there to prevent.
 */
#include <stdbool.h>
#include <stdint.h>

#include "device/dev_claim.h"
#include "kern/console.h"
#include "kern/ktest.h"
#include "kern/string.h"
#include "tests/kernel/user_task.h"
#include "vm/vm_page.h"
#include "x86_64/dmar.h"
#include "x86_64/layout.h"
#include "x86_64/pci_config.h"

#define TARGET		0x6000000ull	/* dmar_probe's target= */
#define PAGE		4096
#define XFER		2048		/* dmar_probe's bytes per DMA */
#define PATTERN		0xa5
#define EDU_SLOT	4
#define PROBE_CHECKS	16
#define DMAR_BLOCKED	0
#define DMAR_CONFINED	1
#define DMAR_PASS	2

static char console[8192];

/* Take TARGET and fill it; false (the case failed) if it is in use. */
static bool target_take(struct ktest *t)
{
	uint64_t pa = 0;

	if (vm_page_alloc_contig(1, 0, TARGET, TARGET + PAGE, &pa) !=
	    KERN_SUCCESS || pa != TARGET) {
		ktest_fail(t, "page %#llx is in use: pick another TARGET",
			   (unsigned long long)TARGET);
		return false;
	}
	memset(phys_to_virt(TARGET), PATTERN, PAGE);
	return true;
}

/* How many bytes of TARGET are @byte. */
static unsigned int target_count(uint8_t byte)
{
	const uint8_t *p = phys_to_virt(TARGET);
	unsigned int n = 0;

	for (unsigned int i = 0; i < PAGE; i++)
		n += p[i] == byte;
	return n;
}

/* Whether TARGET holds what dmar_probe's page A holds, in the bytes a
 * DMA moves. */
static bool target_has_probe_bytes(void)
{
	const uint8_t *p = phys_to_virt(TARGET);

	for (unsigned int i = 0; i < XFER; i++)
		if (p[i] != (uint8_t)(i * 7 + 3))
			return false;
	return true;
}

static void unit_on_and_every_function_passes_through(struct ktest *t)
{
	KTEST_EXPECT_TRUE(t, dmar_on());
	KTEST_EXPECT_EQ(t, dmar_state(0, pci_devfn(0, 0)), DMAR_PASS);
	KTEST_EXPECT_EQ(t, dmar_state(0, pci_devfn(EDU_SLOT, 0)), DMAR_PASS);
	KTEST_EXPECT_EQ(t, dmar_domains(), 0);
	/* no unit behind a bus nobody numbered */
	KTEST_EXPECT_EQ(t, dmar_state(200, 0), -1);
}

static void claimed_device_reaches_only_its_memory(struct ktest *t)
{
	uint64_t faults = dmar_faults_poll();
	uint64_t absorbed = dmar_absorbed_poll();

	if (!target_take(t))
		return;
	if (!user_task_run(t, "expect=blocked", 20, console, sizeof(console)))
		goto out;
	user_task_expect_checks(t, console, PROBE_CHECKS);
	KTEST_EXPECT_EQ(t, target_count(PATTERN), PAGE);
	/* the write landed in the sink, nothing faulted */
	KTEST_EXPECT_EQ(t, dmar_absorbed_poll(), absorbed + 1);
	KTEST_EXPECT_EQ(t, dmar_faults_poll(), faults);
	/* its claim ended with the task: no DMA, no domain */
	KTEST_EXPECT_FALSE(t, dev_claim_held(0, pci_devfn(EDU_SLOT, 0)));
	KTEST_EXPECT_EQ(t, dmar_state(0, pci_devfn(EDU_SLOT, 0)),
			DMAR_BLOCKED);
	KTEST_EXPECT_EQ(t, dmar_domains(), 0);
out:
	vm_page_free_contig(TARGET, 1);
}

static const struct ktest_case dmar_cases[] = {
	{ "unit_on_and_every_function_passes_through",
	  unit_on_and_every_function_passes_through },
	{ "claimed_device_reaches_only_its_memory",
	  claimed_device_reaches_only_its_memory },
};
KTEST_SUITE(dmar_suite, "dmar", dmar_cases);

static void without_remapping_the_device_reaches_any_page(struct ktest *t)
{
	KTEST_EXPECT_FALSE(t, dmar_on());
	if (!target_take(t))
		return;
	if (user_task_run(t, "expect=reached", 20, console, sizeof(console))) {
		user_task_expect_checks(t, console, PROBE_CHECKS);
		KTEST_EXPECT_TRUE(t, target_has_probe_bytes());
	}
	vm_page_free_contig(TARGET, 1);
}

static const struct ktest_case dmar_off_cases[] = {
	{ "without_remapping_the_device_reaches_any_page",
	  without_remapping_the_device_reaches_any_page },
};
KTEST_SUITE(dmar_off_suite, "dmar-off", dmar_off_cases);
