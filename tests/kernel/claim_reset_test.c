/* SPDX-License-Identifier: GPL-2.0-only */
/* Suite "claim-reset": a PCI function whose task's claim ends is reset where it can be (function level reset, D3hot to D0) and its addresses put back; one that cannot be is only quiesced. */
/*
 * For each function a task (tests/user/claim_probe.c mode=hold) claims
 * it, sets the command register's INTx-disable bit as a driver would,
 * and exits holding the claim: the claim ends with the task.  The
 * INTx-disable bit is one the kernel's quiesce leaves and a reset
 * clears, so it shows whether the function was reset (FLR) or not
 * (none); what a D3hot-to-D0 cycle clears is the device's affair, so
 * that one is checked for its end only.  Afterwards, in each case, the
 * BARs, interrupt line and decoding are what they were, bus mastering
 * is off and the function is free.  While a reset runs, a claim of the
 * function answers D_WOULD_BLOCK.
 */
#include <stdbool.h>
#include <stdint.h>

#include "device/dev_claim.h"
#include "device/dev_claim_priv.h"
#include "device/device.h"
#include "kern/kprintf.h"
#include "kern/ktest.h"
#include "kern/sched.h"
#include "tests/kernel/user_task.h"
#include "x86_64/cpu.h"
#include "x86_64/pci_config.h"

#define INTX_DISABLE	0x400
#define RESET_WAIT	50		/* ticks: 500 ms, FLR's 100 ms and more */

/* The functions of the suite's machine (suites.py, claim-reset). */
#define E1000_SLOT	3		/* no capability to reset it */
#define NVME_SLOT	4		/* PCI Express, FLR */
#define E1000E_SLOT	5		/* PCI Express without FLR; PM */

static char console[8192];

static const char *const method_names[] = {
	[DEV_CLAIM_RESET_NONE] = "none",
	[DEV_CLAIM_RESET_FLR] = "function level reset",
	[DEV_CLAIM_RESET_PM] = "D3hot to D0",
};

/* A task claims @slot, sets INTx-disable and exits: check what the
 * claim's end did, a reset by @method or none. */
static void claim_end(struct ktest *t, unsigned int slot, const char *word,
		      enum dev_claim_reset_method method)
{
	unsigned int devfn = pci_devfn(slot, 0);
	uint32_t bars[PCI_BARS], line, decode, command;
	unsigned int done = dev_claim_resets_done();
	bool resets = method != DEV_CLAIM_RESET_NONE;

	KTEST_EXPECT_EQ(t, dev_claim_reset_method(0, devfn), method);
	kprintf("# 00:%02x.0: %s\n", slot,
		method_names[dev_claim_reset_method(0, devfn)]);
	for (unsigned int i = 0; i < PCI_BARS; i++)
		bars[i] = pci_config_read(0, devfn, PCI_BAR0 + i * 4, 4);
	line = pci_config_read(0, devfn, PCI_INTERRUPT_LINE, 1);
	decode = pci_config_read(0, devfn, PCI_COMMAND, 2) &
		 (PCI_COMMAND_IO | PCI_COMMAND_MEMORY);
	if (!user_task_run(t, word, 20, console, sizeof(console)))
		return;
	user_task_expect_checks(t, console, 3);
	thread_sleep_ticks(RESET_WAIT);
	KTEST_EXPECT_FALSE(t, dev_claim_resetting(0, devfn));
	KTEST_EXPECT_EQ(t, dev_claim_resets_done(), done + (resets ? 1 : 0));

	for (unsigned int i = 0; i < PCI_BARS; i++)
		KTEST_EXPECT_EQ(t, pci_config_read(0, devfn, PCI_BAR0 + i * 4,
						   4), bars[i]);
	KTEST_EXPECT_EQ(t, pci_config_read(0, devfn, PCI_INTERRUPT_LINE, 1),
			line);
	command = pci_config_read(0, devfn, PCI_COMMAND, 2);
	KTEST_EXPECT_EQ(t, command & PCI_COMMAND_MASTER, 0);
	KTEST_EXPECT_EQ(t, command & (PCI_COMMAND_IO | PCI_COMMAND_MEMORY),
			decode);
	/* reset by FLR, untouched without a reset (what QEMU does on D3hot
	 * to D0 is its device's affair) */
	if (method != DEV_CLAIM_RESET_PM)
		KTEST_EXPECT_EQ(t, command & INTX_DISABLE,
				resets ? 0 : INTX_DISABLE);
	pci_config_write(0, devfn, PCI_COMMAND, 2, command & ~INTX_DISABLE);
	/* free: the kernel can claim it, and give it back */
	KTEST_EXPECT_EQ(t, dev_claim_kernel(0, devfn), D_SUCCESS);
	KTEST_EXPECT_EQ(t, dev_claim_kernel_release(0, devfn), D_SUCCESS);
}

static void flr_function_reset(struct ktest *t)
{
	claim_end(t, NVME_SLOT, "claim_hold_nvme", DEV_CLAIM_RESET_FLR);
}

static void pm_function_cycled(struct ktest *t)
{
	claim_end(t, E1000E_SLOT, "claim_hold_e1000e", DEV_CLAIM_RESET_PM);
}

static void plain_function_only_quiesced(struct ktest *t)
{
	claim_end(t, E1000_SLOT, "claim_hold_e1000 ", DEV_CLAIM_RESET_NONE);
}

/* While a function is reset, a claim answers D_WOULD_BLOCK. */
static void claim_waits_for_a_reset(struct ktest *t)
{
	unsigned int devfn = pci_devfn(NVME_SLOT, 0);
	uint64_t flags = cpu_intr_save();

	dev_claim_reset_begin(0, devfn);
	KTEST_EXPECT_TRUE(t, dev_claim_resetting(0, devfn));
	KTEST_EXPECT_EQ(t, dev_claim_kernel(0, devfn), D_WOULD_BLOCK);
	cpu_intr_restore(flags);
	thread_sleep_ticks(RESET_WAIT);
	KTEST_EXPECT_FALSE(t, dev_claim_resetting(0, devfn));
	KTEST_EXPECT_EQ(t, dev_claim_kernel(0, devfn), D_SUCCESS);
	KTEST_EXPECT_EQ(t, dev_claim_kernel_release(0, devfn), D_SUCCESS);
}

static const struct ktest_case claim_reset_cases[] = {
	{ "flr_function_reset", flr_function_reset },
	{ "pm_function_cycled", pm_function_cycled },
	{ "plain_function_only_quiesced", plain_function_only_quiesced },
	{ "claim_waits_for_a_reset", claim_waits_for_a_reset },
};
KTEST_SUITE(claim_reset_suite, "claim-reset", claim_reset_cases);
