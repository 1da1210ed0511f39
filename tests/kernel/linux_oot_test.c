/* SPDX-License-Identifier: GPL-2.0-only */
/* Suite "linux-oot": an out-of-tree Linux driver (tests/drivers/edu) dropped in, started alone, driving QEMU's edu device: ID, factorial, INTx, DMA, remove; an I2C client driver (tests/drivers/i2cnone) on Linux's I2C core. */
/*
 * The driver is ordinary Linux code of ours, linked as a local driver
 * (docs/porting-a-driver.md); it reports each result as one kernel log
 * line, which this side captures and checks, and it keeps its device
 * until the suite unregisters it (lx_selftest_oot.c); the other drivers'
 * initcalls run last and must leave it alone.  QEMU gives the
 * suite one edu device at 00:04.0 and no NIC (tests/harness/suites.py).
 */
#include <stdint.h>

#include "kern/console.h"
#include "kern/ktest.h"
#include "kern/string.h"
#include "linux-emu/include/lx_emul.h"
#include "tests/kernel/user_task.h"
#include "tests/linux-emu/lx_selftest_oot.h"

#define EDU "edu 0000:00:04.0: "

static char probe_log[4096];
static size_t probe_len;
static struct user_task_baseline before_probe;

/* How many times @needle occurs in the probe's console output. */
static int probe_log_count(const char *needle)
{
	return (int)user_task_count_text(probe_log, needle);
}

static void expect_line(struct ktest *t, const char *line)
{
	if (probe_log_count(line) != 1)
		ktest_fail(t, "expected \"%s\" once in the driver's output "
			   "\"%s\"", line, probe_log);
}

/* First: the later cases read what the probe printed. */
static void edu_driver_starts_alone_and_probes_once(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, lx_emul_init(), 0);
	KTEST_EXPECT_EQ(t, lx_emul_pci_init(), 0);
	user_task_baseline(&before_probe);
	console_capture_start(probe_log, sizeof(probe_log) - 1);
	KTEST_EXPECT_EQ(t, lx_emul_driver_init("edu"), 0);
	probe_len = console_capture_stop();
	probe_log[probe_len] = '\0';
	expect_line(t, EDU "probed, irq ");
	KTEST_EXPECT_EQ(t, lx_emul_selftest_oot_edu_bound(), 1);
}

static void a_driver_starts_once_and_only_by_its_name(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, lx_emul_driver_init("edu"), -16);	/* -EBUSY */
	KTEST_EXPECT_EQ(t, lx_emul_driver_init("no-such-driver"),
			-2);	/* -ENOENT */
	KTEST_EXPECT_EQ(t, probe_log_count(EDU "probed"), 1);
}

static void identification_register_reads_0x010000ed(struct ktest *t)
{
	expect_line(t, EDU "id 0x010000ed, version 1.0, alive\n");
}

static void device_computes_10_factorial(struct ktest *t)
{
	expect_line(t, EDU "factorial: 10! = 3628800\n");
}

static void raised_interrupt_is_handled_once_and_acknowledged(struct ktest *t)
{
	expect_line(t, EDU "interrupt: handled 1, status 0x5a\n");
}

static void dma_to_the_device_and_back_keeps_the_data(struct ktest *t)
{
	expect_line(t, EDU "dma: 256 bytes to the device and back, "
		    "0 differ\n");
}

static void unregistering_removes_and_gives_everything_back(struct ktest *t)
{
	char log[512];
	size_t n;
	int line;

	console_capture_start(log, sizeof(log) - 1);
	line = lx_emul_selftest_oot_unregister();
	n = console_capture_stop();
	log[n] = '\0';
	if (line)
		ktest_fail(t, "lx_emul_selftest_oot_unregister: expected 0, "
			   "failed at line %d", line);
	if (!kmemmem(log, n, EDU "removed\n"))
		ktest_fail(t, "expected \"" EDU "removed\" in \"%s\"", log);
	KTEST_EXPECT_EQ(t, lx_emul_selftest_oot_edu_bound(), 0);
	user_task_expect_baseline(t, &before_probe);
}

/* The i2cnone driver (tests/drivers/i2cnone), started after the I2C core
 * it uses: on a bus without adapters it registers, unregisters and
 * registers again, and is never probed. */
static void i2c_client_driver_registers_unprobed_and_unregisters(
	struct ktest *t)
{
	static const char line[] = "i2cnone: registered 0, unregistered, "
				   "registered again 0, probes 0\n";
	char log[512];
	size_t n;

	console_capture_start(log, sizeof(log) - 1);
	KTEST_EXPECT_EQ(t, lx_emul_driver_init("i2cnone"), 0);
	n = console_capture_stop();
	log[n] = '\0';
	if (!kmemmem(log, n, line))
		ktest_fail(t, "expected \"%s\" in \"%s\"", line, log);
}

/* Last: edu, unregistered above, must not be started a second time. */
static void all_initcalls_skip_the_driver_started_alone(struct ktest *t)
{
	char log[1024];
	size_t n;

	console_capture_start(log, sizeof(log) - 1);
	KTEST_EXPECT_TRUE(t, lx_emul_initcalls_run() >= 0);
	n = console_capture_stop();
	log[n] = '\0';
	KTEST_EXPECT_EQ(t, lx_emul_selftest_oot_edu_bound(), 0);
	if (kmemmem(log, n, "edu "))
		ktest_fail(t, "expected no edu line from the other drivers' "
			   "initcalls, got \"%s\"", log);
	KTEST_EXPECT_EQ(t, lx_emul_initcalls_run(), -16);	/* -EBUSY */
}

static const struct ktest_case linux_oot_cases[] = {
	{ "edu_driver_starts_alone_and_probes_once",
	  edu_driver_starts_alone_and_probes_once },
	{ "a_driver_starts_once_and_only_by_its_name",
	  a_driver_starts_once_and_only_by_its_name },
	{ "identification_register_reads_0x010000ed",
	  identification_register_reads_0x010000ed },
	{ "device_computes_10_factorial", device_computes_10_factorial },
	{ "raised_interrupt_is_handled_once_and_acknowledged",
	  raised_interrupt_is_handled_once_and_acknowledged },
	{ "dma_to_the_device_and_back_keeps_the_data",
	  dma_to_the_device_and_back_keeps_the_data },
	{ "unregistering_removes_and_gives_everything_back",
	  unregistering_removes_and_gives_everything_back },
	{ "i2c_client_driver_registers_unprobed_and_unregisters",
	  i2c_client_driver_registers_unprobed_and_unregisters },
	{ "all_initcalls_skip_the_driver_started_alone",
	  all_initcalls_skip_the_driver_started_alone },
};
KTEST_SUITE(linux_oot_suite, "linux-oot", linux_oot_cases);
