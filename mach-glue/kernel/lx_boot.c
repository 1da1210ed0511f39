/* SPDX-License-Identifier: GPL-2.0-only */
/* lx_boot: the Linux world's boot step (drivers and their Mach devices). */
/*
 * The step is switched on by the word "linux" on the kernel command line
 * rather than always: the linux-* test suites start the world themselves
 * (lx_emul_init answers -EBUSY a second time), and a machine without a
 * Linux-driven device has no use for the world's threads and memory.
 */
#include <stdbool.h>

#include "device/dev_claim.h"
#include "kern/boot_step.h"
#include "kern/bootinfo.h"
#include "kern/clock.h"
#include "kern/cmdline.h"
#include "kern/kprintf.h"
#include "kern/sched.h"
#include "kern/string.h"
#include "linux-emu/include/lx_emul.h"
#include "linux-emu/include/lx_emul_disk.h"
#include "mach-glue/block/dev_lxblk.h"
#include "mach-glue/kernel/lx_boot.h"
#include "mach-glue/kernel/lx_host_console.h"
#include "mach-glue/net/dev_lxnet.h"
#include "x86_64/trap.h"

/* ISA ne's I/O extent (Linux's NE_IO_EXTENT). */
#define NE_IO_PORTS	0x20

/* linux.disks=N waits at most this long for its disks (seconds), looking
 * every LX_BOOT_DISK_POLL ticks. */
#define LX_BOOT_DISK_WAIT	30
#define LX_BOOT_DISK_POLL	5

/* Whether linux.server= named ne (skip_server_drivers). */
static bool ne_to_server;

/*
 * The board's part: ISA cards cannot be enumerated, so the command line
 * names them, "ne_io=0x300" for an NE2000 there; its IRQ is left to ne's
 * autoIRQ.  Its ports become the kernel's ISA claim (dev_claim.h), so no
 * task can claim them.  A bad value, ports the claim refuses, or ne left
 * to a driver server: printed, and the card left out.
 */
static void add_isa_cards(void)
{
	uint64_t io;
	int err;

	if (!cmdline_find(bootinfo.cmdline, "ne_io", NULL, NULL))
		return;
	if (ne_to_server) {
		kprintf("linux: ne_io= ignored: ne is left to a driver server\n");
		return;
	}
	if (cmdline_u64(bootinfo.cmdline, "ne_io", &io) != 0 || io > 0xffff) {
		kprintf("linux: ne_io= is not an I/O port\n");
		return;
	}
	err = dev_claim_kernel_isa((int)io, NE_IO_PORTS);
	if (err != D_SUCCESS) {
		kprintf("linux: ISA ne at %#lx not added: its ports were "
			"refused (%d)\n", (unsigned long)io, err);
		return;
	}
	err = lx_emul_platform_isa_add("ne", 0, io, NE_IO_PORTS);
	if (err < 0)
		kprintf("linux: ISA ne at %#lx not added (%d)\n",
			(unsigned long)io, err);
}

/* linux.server=NAME,NAME...: drivers a user-mode server runs instead
 * (docs/driver-servers.md); the world here never starts them. */
static void skip_server_drivers(void)
{
	char list[128], *name = list, *end;
	int err;

	if (!cmdline_find(bootinfo.cmdline, "linux.server", NULL, NULL))
		return;
	if (!cmdline_copy(bootinfo.cmdline, "linux.server", list,
			  sizeof(list))) {
		kprintf("linux: linux.server= is longer than %zu bytes\n",
			sizeof(list) - 1);
		return;
	}
	for (; *name; name = end) {
		for (end = name; *end && *end != ','; end++)
			;
		if (*end)
			*end++ = '\0';
		err = lx_emul_driver_skip(name);
		if (err)
			kprintf("linux: linux.server=%s: no such driver here "
				"(%d)\n", name, err);
		else
			kprintf("linux: %s left to a driver server\n", name);
		if (err == 0 && strcmp(name, "ne") == 0)
			ne_to_server = true;
	}
}

static uint64_t disks_found(void)
{
	struct lx_emul_disk *d = NULL;
	uint64_t n = 0;

	while ((d = lx_emul_disk_next(d)) != NULL)
		n++;
	return n;
}

/*
 * linux.disks=N: wait until the drivers have found N disks, at most
 * LX_BOOT_DISK_WAIT seconds, before the block module serves them (as
 * Linux's rootwait waits for its root device).  A disk behind a bus its
 * driver enumerates in the background after the initcalls, such as a
 * USB disk (usbcore's hub_wq finds the device, usb-storage scans it
 * from a delayed work), is found only then.  Without the word, or with
 * a bad value (printed), nothing waits.
 */
static void wait_for_disks(void)
{
	uint64_t want, n, ticks = 0;

	if (!cmdline_find(bootinfo.cmdline, "linux.disks", NULL, NULL))
		return;
	if (cmdline_u64(bootinfo.cmdline, "linux.disks", &want) != 0) {
		kprintf("linux: linux.disks= is not a number\n");
		return;
	}
	while ((n = disks_found()) < want &&
	       ticks < LX_BOOT_DISK_WAIT * HZ) {
		thread_sleep_ticks(LX_BOOT_DISK_POLL);
		ticks += LX_BOOT_DISK_POLL;
	}
	if (n < want)
		kprintf("linux: %lu of %lu disk(s) found after %d s\n",
			(unsigned long)n, (unsigned long)want,
			LX_BOOT_DISK_WAIT);
}

static uint64_t linux_ud_fixup(uint64_t rip, uint64_t rsp)
{
	return lx_emul_bug_trap(rip, rsp);
}

void lx_boot_bug_traps(void)
{
	trap_ud_fixup_set(linux_ud_fixup);
}

int lx_boot(void)
{
	int err, n;

	err = lx_emul_init();
	if (err < 0) {
		kprintf("linux: lx_emul_init failed (%d)\n", err);
		return err;
	}
	lx_boot_bug_traps();
	err = lx_emul_pci_init();
	if (err < 0) {
		kprintf("linux: PCI enumeration failed (%d)\n", err);
		return err;
	}
	skip_server_drivers();
	add_isa_cards();
	err = lx_emul_params_set(bootinfo.cmdline);
	if (err < 0)
		kprintf("linux: bad driver parameter on the command line (%d)\n",
			err);
	n = lx_emul_initcalls_run();
	if (n < 0) {
		kprintf("linux: initcalls failed (%d)\n", n);
		return n;
	}
	n = dev_lxnet_start();
	kprintf("linux: %d net device(s) served\n", n);
	wait_for_disks();
	n = dev_lxblk_start(&dev_lxblk_linux);
	kprintf("linux: %d disk(s) served\n", n);
	lx_host_console_limit();
	return 0;
}

static void lx_boot_step(void)
{
	(void)lx_boot();	/* a failing step says why on the console */
}
BOOT_STEP(lx_boot_entry, "linux", lx_boot_step);
