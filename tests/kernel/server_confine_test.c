/* SPDX-License-Identifier: GPL-2.0-only */
/* Suite "server-confine": a driver server is refused what is not its device's, and one that faults ends alone. */
/*
 * The e1000 server (servers/lxdrv) drives eth0 at 03.0 throughout.  The
 * test server (the same objects over linux-test.o) runs the rogue
 * driver (tests/drivers/rogue) on QEMU's pci-testdev at 04.0, one server
 * per act, one after the other: an act that is refused leaves the
 * server running and serving rogue0 (it is then ended by the suite); an
 * act that faults ends the server's task while a client's write is in
 * flight (tests/user/confine_probe.c: D_DEVICE_DOWN, the name gone).
 * After each server the rogue function is unclaimed with bus mastering
 * off; at the end the e1000 server still holds its function and the
 * net-e1000 program passes against its eth0.
 */
#include <stdbool.h>
#include <stdint.h>

#include "device/dev_claim.h"
#include "kern/console.h"
#include "kern/kprintf.h"
#include "kern/ktest.h"
#include "kern/sched.h"
#include "kern/string.h"
#include "kern/task.h"
#include "tests/kernel/driver_server.h"
#include "tests/kernel/user_task.h"
#include "x86_64/pci_config.h"

#define NIC_SLOT		3	/* the e1000 server's */
#define ROGUE_SLOT		4	/* the test server's pci-testdev */
#define NET_PROBE_CHECKS	62	/* net_probe's, as in net_eth0_test.c */
#define SERVE_CHECKS		5	/* confine_probe mode=serve's */
#define FAULT_CHECKS		6	/* confine_probe mode=fault's */
#define MASTER_CHECKS		6	/* confine_probe mode=master's */
#define START_SECONDS		20

/*
 * One act of the rogue driver (its rogue.act=): @said are the lines its
 * server prints when the act is refused (the driver's and the server's
 * own), NULL for an act that faults; @fault is then the start of the
 * reason the kernel ends the server's task with, @tried the driver's
 * line before it tries, @back the line it would print had it come back.
 */
struct act {
	const char *name;
	const char *said[2];
	const char *fault, *tried, *back;
};

static char console[32768];

static bool rogue_mastering(void)
{
	return pci_config_read(0, pci_devfn(ROGUE_SLOT, 0), PCI_COMMAND, 2) &
	       PCI_COMMAND_MASTER;
}

static bool rogue_claimed(void)
{
	return dev_claim_held(0, pci_devfn(ROGUE_SLOT, 0));
}

/* Whether the last client's console (faults of its server included)
 * has @text. */
static bool client_said(const char *text)
{
	return kmemmem(console, strlen(console), text) != NULL;
}

/* Run the module with @word until @n tasks ended (it and the server
 * that faults under it), at most 20 s, its console in console. */
static bool client_run(struct ktest *t, const char *word, unsigned int n)
{
	unsigned int before = task_terminations;
	bool ended;

	if (!user_task_start(t, word, console, sizeof(console), NULL))
		return false;
	ended = user_task_wait(before, n, 20);
	console_capture_stop();
	if (!ended)
		ktest_fail(t, "expected %u task(s) to end under \"%s\", "
			   "%u did", n, word, task_terminations - before);
	return ended;
}

/* Whatever happened, leave the rogue function free for the next act: a
 * server still holding it (alive) is ended. */
static void rogue_server_end(struct ktest *t, struct task *server)
{
	unsigned int before = task_terminations;

	if (!rogue_claimed())
		return;
	task_terminate(server, "ended by the suite");
	if (!user_task_wait(before, 1, 5))
		ktest_fail(t, "the test server did not end when told to");
}

/* The server is gone: its claim released, the device quiesced. */
static void expect_rogue_released(struct ktest *t)
{
	KTEST_EXPECT_FALSE(t, rogue_claimed());
	KTEST_EXPECT_FALSE(t, rogue_mastering());
}

static void refused_act(struct ktest *t, const struct act *a)
{
	for (int i = 0; i < 2; i++)
		if (!driver_server_said(a->said[i]))
			ktest_fail(t, "expected \"%s\" from the server",
				   a->said[i]);
	if (!driver_server_said("lxdrv: rogue0 up"))
		ktest_fail(t, "the server did not publish rogue0");
	if (client_run(t, "mode=serve ", 1))
		user_task_expect_checks(t, console, SERVE_CHECKS);
	KTEST_EXPECT_TRUE(t, rogue_claimed());	/* still running */
}

static void faulting_act(struct ktest *t, const struct act *a)
{
	char line[64];

	if (client_run(t, "mode=fault ", 2))
		user_task_expect_checks(t, console, FAULT_CHECKS);
	ksnprintf(line, sizeof(line), "task lxdrv_test.elf terminated: %s",
		  a->fault);
	if (!client_said(line))
		ktest_fail(t, "expected \"%s\" on the console", line);
	if (!client_said(a->tried))
		ktest_fail(t, "expected \"%s\" before the fault", a->tried);
	if (client_said(a->back))
		ktest_fail(t, "the driver came back: \"%s\"", a->back);
}

static void act_run(struct ktest *t, const struct act *a)
{
	struct task *server = NULL;
	char word[32];

	ksnprintf(word, sizeof(word), "rogue.act=%s ", a->name);
	if (!driver_server_start_module(t, word, START_SECONDS, &server)) {
		if (rogue_claimed())
			rogue_server_end(t, server);
		return;
	}
	KTEST_EXPECT_TRUE(t, rogue_claimed());
	KTEST_EXPECT_TRUE(t, rogue_mastering());	/* the driver's */
	if (a->fault)
		faulting_act(t, a);
	else
		refused_act(t, a);
	rogue_server_end(t, server);
	expect_rogue_released(t);
}

static const struct act acts[] = {
	{ .name = "mmio",
	  .said = { "act mmio: refused",
		    "lxdrv: ioremap of 0xfee00000+0x1000: no claimed BAR" } },
	{ .name = "irq",
	  .said = { "act irq: refused (-16)",
		    "irq 14 for rogue: the line is not free" } },
	{ .name = "ports", .fault = "#GP",
	  .tried = "act ports: inb of port 0x1f0",
	  .back = "act ports: read" },
	{ .name = "null", .fault = "page fault at 0x0 ",
	  .tried = "act null: write to 0x0", .back = "act null: written" },
	{ .name = "wild", .fault = "page fault at 0xffffffff80000000 ",
	  .tried = "act wild: write to 0xffffffff80000000",
	  .back = "act wild: written" },
	{ .name = "warn",
	  .said = { "WARNING: CPU: 0 PID: ", "act warn: came back" } },
};

static void e1000_server_drives_eth0(struct ktest *t)
{
	if (!driver_server_start(t, START_SECONDS))
		return;
	KTEST_EXPECT_TRUE(t, dev_claim_held(0, pci_devfn(NIC_SLOT, 0)));
	KTEST_EXPECT_TRUE(t, driver_server_said("lxdrv: eth0 up"));
	KTEST_EXPECT_FALSE(t, rogue_claimed());
}

static void mmio_of_another_device_refused_server_goes_on(struct ktest *t)
{
	act_run(t, &acts[0]);
}

static void irq_of_another_device_refused_server_goes_on(struct ktest *t)
{
	act_run(t, &acts[1]);
}

static void ports_of_another_device_end_the_server_alone(struct ktest *t)
{
	act_run(t, &acts[2]);
}

static void null_write_ends_the_server_alone(struct ktest *t)
{
	act_run(t, &acts[3]);
}

static void kernel_address_write_ends_the_server_alone(struct ktest *t)
{
	act_run(t, &acts[4]);
}

/* A WARN in the server's driver: reported (its site, the call chain
 * from the ud2 in the probe) by the server's exception handler, and
 * the driver goes on to serve. */
static void warning_is_reported_and_the_server_goes_on(struct ktest *t)
{
	act_run(t, &acts[5]);
	if (!driver_server_said("rogue/rogue.c:"))
		ktest_fail(t, "the warning did not name its site");
	if (!driver_server_said("Call Trace:"))
		ktest_fail(t, "the warning printed no call chain");
}

/* A BUG in the server's driver, at probe: reported with its site, then
 * the server alone ends (its handler refuses the exception). */
static void bug_ends_the_server_alone_naming_its_site(struct ktest *t)
{
	unsigned int before = task_terminations;
	bool ended;

	if (!user_task_start(t, "rogue.act=bug ", console, sizeof(console),
			     NULL))
		return;
	ended = user_task_wait(before, 1, START_SECONDS);
	console_capture_stop();
	if (!ended) {
		ktest_fail(t, "the server did not end");
		return;
	}
	if (!client_said("kernel BUG at ") || !client_said("rogue/rogue.c:"))
		ktest_fail(t, "the BUG was not reported with its site");
	if (!client_said("task lxdrv_test.elf terminated: #UD"))
		ktest_fail(t, "the server did not end with the BUG's #UD");
	if (client_said("act bug: came back"))
		ktest_fail(t, "the driver came back from BUG()");
	expect_rogue_released(t);
}

/* The port a server is given (${driver-port}) opens no kernel device,
 * makes no I/O permission, and takes nothing of the e1000 server's. */
static void driver_port_gives_nothing_of_others(struct ktest *t)
{
	if (client_run(t, "mode=master ", 1))
		user_task_expect_checks(t, console, MASTER_CHECKS);
	KTEST_EXPECT_TRUE(t, dev_claim_held(0, pci_devfn(NIC_SLOT, 0)));
}

/* After every fault: the e1000 server still holds its function and the
 * net-e1000 program passes against its eth0. */
static void e1000_server_still_serves(struct ktest *t)
{
	KTEST_EXPECT_TRUE(t, dev_claim_held(0, pci_devfn(NIC_SLOT, 0)));
	if (!user_task_run(t, "net_probe mac=", 30, console, sizeof(console)))
		return;
	user_task_expect_checks(t, console, NET_PROBE_CHECKS);
}

static const struct ktest_case server_confine_cases[] = {
	{ "e1000_server_drives_eth0", e1000_server_drives_eth0 },
	{ "mmio_of_another_device_refused_server_goes_on",
	  mmio_of_another_device_refused_server_goes_on },
	{ "irq_of_another_device_refused_server_goes_on",
	  irq_of_another_device_refused_server_goes_on },
	{ "ports_of_another_device_end_the_server_alone",
	  ports_of_another_device_end_the_server_alone },
	{ "null_write_ends_the_server_alone",
	  null_write_ends_the_server_alone },
	{ "kernel_address_write_ends_the_server_alone",
	  kernel_address_write_ends_the_server_alone },
	{ "warning_is_reported_and_the_server_goes_on",
	  warning_is_reported_and_the_server_goes_on },
	{ "bug_ends_the_server_alone_naming_its_site",
	  bug_ends_the_server_alone_naming_its_site },
	{ "driver_port_gives_nothing_of_others",
	  driver_port_gives_nothing_of_others },
	{ "e1000_server_still_serves", e1000_server_still_serves },
};
KTEST_SUITE(server_confine_suite, "server-confine", server_confine_cases);
