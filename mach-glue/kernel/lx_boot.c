/* SPDX-License-Identifier: GPL-2.0-only */
/* lx_boot: the Linux world's boot step (drivers and their Mach devices). */
/*
 * The step is switched on by the word "linux" on the kernel command line
 * rather than always: the linux-* test suites start the world themselves
 * (lx_emul_init answers -EBUSY a second time), and a machine without a
 * Linux-driven device has no use for the world's threads and memory.
 */
#include "kern/kprintf.h"
#include "linux-emu/include/lx_emul.h"
#include "mach-glue/kernel/lx_boot.h"
#include "mach-glue/net/dev_lxnet.h"

int lx_boot(void)
{
	int err, n;

	err = lx_emul_init();
	if (err < 0) {
		kprintf("linux: lx_emul_init failed (%d)\n", err);
		return err;
	}
	err = lx_emul_pci_init();
	if (err < 0) {
		kprintf("linux: PCI enumeration failed (%d)\n", err);
		return err;
	}
	n = lx_emul_initcalls_run();
	if (n < 0) {
		kprintf("linux: initcalls failed (%d)\n", n);
		return n;
	}
	n = dev_lxnet_start();
	kprintf("linux: %d net device(s) served\n", n);
	return 0;
}
