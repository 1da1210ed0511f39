/* SPDX-License-Identifier: GPL-2.0-only */
/* Starting the Linux world at boot: drivers, then the Mach net devices. */
#ifndef MACH_GLUE_KERNEL_LX_BOOT_H
#define MACH_GLUE_KERNEL_LX_BOOT_H

/*
 * lx_boot - start the Linux world (lx_emul_init), enumerate PCI, run the
 * linked drivers' initcalls (their probes find their hardware), then let
 * the Linux net module (mach-glue/net/) serve the net devices they
 * registered and the Linux block module (mach-glue/block/) the disks
 * they found; from then on the world's console lines are rate-limited
 * (lx_host_console_limit).  Registered as the boot step of the word
 * "linux" (kern/boot_step.h): kmain runs it after device_init(); thread
 * context (it sleeps).  A
 * failing step is printed ("linux: ...") and ends the boot step; the
 * kernel goes on without the Linux devices.  Returns 0 or the failing
 * step's -errno.
 */
int lx_boot(void);

/*
 * lx_boot_bug_traps - let the kernel's invalid-opcode trap hand Linux's
 * WARN and BUG to linux-emu (lx_emul_bug_trap): a WARN is reported and
 * its code goes on, a BUG is reported and the trap ends the boot.
 * lx_boot does it once the world is started; tests that start the world
 * themselves call it.  Any context.
 */
void lx_boot_bug_traps(void);

#endif
