/* SPDX-License-Identifier: GPL-2.0-only */
/* Suite "linux-warn": a Linux WARN in an in-kernel driver prints its report and call chain and the driver goes on; WARN_ONCE once. */
/*
 * The rogue test driver (tests/drivers/rogue, rogue.act=warn) is started
 * alone on QEMU's pci-testdev at 00:04.0: its probe reaches a WARN_ON
 * that fires, then one WARN_ONCE twice, and says when it came back.  The
 * world is started here with the kernel's invalid-opcode fixup that the
 * linux boot step installs (lx_boot_bug_traps).
 */
#include <stddef.h>

#include "kern/console.h"
#include "kern/ktest.h"
#include "kern/string.h"
#include "linux-emu/include/lx_emul.h"
#include "mach-glue/kernel/lx_boot.h"
#include "tests/kernel/user_task.h"

#define ROGUE "rogue 0000:00:04.0: "

static char probe_log[8192];
static size_t probe_len;

/* How many times @needle occurs in what the probe printed. */
static int count(const char *needle)
{
	return (int)user_task_count_text(probe_log, needle);
}

static void expect_count(struct ktest *t, const char *needle, int n)
{
	if (count(needle) != n)
		ktest_fail(t, "expected \"%s\" %d time(s) in the driver's "
			   "output, got %d: \"%s\"", needle, n, count(needle),
			   probe_log);
}

/* First: the later cases read what the probe printed. */
static void driver_with_warnings_probes_and_comes_back(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, lx_emul_init(), 0);
	KTEST_EXPECT_EQ(t, lx_emul_pci_init(), 0);
	lx_boot_bug_traps();
	KTEST_EXPECT_EQ(t, lx_emul_params_set("rogue.act=warn"), 0);
	console_capture_start(probe_log, sizeof(probe_log) - 1);
	KTEST_EXPECT_EQ(t, lx_emul_driver_init("rogue"), 0);
	probe_len = console_capture_stop();
	probe_log[probe_len] = '\0';
	expect_count(t, ROGUE "act warn: WARN_ON\n", 1);
	expect_count(t, ROGUE "act warn: came back\n", 1);
	expect_count(t, ROGUE "rogue0 registered, act \"warn\"\n", 1);
}

/* WARN_ON and the first WARN_ONCE: two reports, each with the file and
 * line of its site, a call chain from the probe to its caller, and an
 * end line. */
static void each_warning_names_its_site_and_call_chain(struct ktest *t)
{
	expect_count(t, "WARNING: CPU: 0 PID: ", 2);
	expect_count(t, "rogue/rogue.c:", 2);
	expect_count(t, "Call Trace:\n", 2);
	/* the chain starts at the ud2, in the probe (the act is inlined) */
	expect_count(t, "] rogue_probe+0x", 2);
	if (count("] ? __pci_register_driver+0x") < 2)
		ktest_fail(t, "expected the probe's caller in both call "
			   "chains: \"%s\"", probe_log);
	expect_count(t, "---[ end trace ", 2);
	expect_count(t, "------------[ cut here ]------------\n", 2);
}

static void warn_once_reports_only_its_first_time(struct ktest *t)
{
	expect_count(t, "rogue: warned once (0)\n", 1);
	expect_count(t, "rogue: warned once (1)\n", 0);
}

/* An invalid opcode that is not a bug table's site is not resumed. */
static void other_addresses_are_not_bug_sites(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, lx_emul_bug_trap(0, 0), 0);
	KTEST_EXPECT_EQ(t, lx_emul_bug_trap(
		(unsigned long)driver_with_warnings_probes_and_comes_back, 0),
		0);
}

static const struct ktest_case linux_warn_cases[] = {
	{ "driver_with_warnings_probes_and_comes_back",
	  driver_with_warnings_probes_and_comes_back },
	{ "each_warning_names_its_site_and_call_chain",
	  each_warning_names_its_site_and_call_chain },
	{ "warn_once_reports_only_its_first_time",
	  warn_once_reports_only_its_first_time },
	{ "other_addresses_are_not_bug_sites",
	  other_addresses_are_not_bug_sites },
};
KTEST_SUITE(linux_warn_suite, "linux-warn", linux_warn_cases);
