/* SPDX-License-Identifier: GPL-2.0-only */
/* What the host calls in linux-emu: the only global symbols of linux.o. */
/*
 * Every function here is implemented on the Linux side and callable from
 * Graft code (C types only).  The build makes every other symbol of the
 * Linux world local (tools/linux_link.py), so Linux's strlen and Graft's
 * never meet.
 */
#ifndef LX_EMUL_H
#define LX_EMUL_H

/* The preempt count Linux code sees (0 outside interrupts). */
int lx_emul_preempt_count(void);

/*
 * lx_emul_init - start the Linux world: build the struct page array for
 * the host's RAM, start jiffies and timers on the host's tick, the
 * softirq thread and the system workqueues' workers.  Once, from thread
 * context, before any other lx_emul_* call but lx_emul_preempt_count.
 * 0; -ENOMEM (no memory or no thread); -EBUSY if called again; -EINVAL
 * if the host's tick rate is not Linux's HZ.  Not called at boot yet: no
 * linked Linux code needs it until drivers are linked (issue 5).
 */
int lx_emul_init(void);

/* The pieces of lx_emul_init, for linux-emu's own files. */
int lx_emul_memory_init(void);
int lx_emul_timer_init(void);

/*
 * lx_emul_pci_init - enumerate PCI (configuration mechanism #1, bus 0 and
 * the buses behind configured bridges) and make a struct pci_dev for every
 * function; registering a PCI driver does it too if it was not done.
 * After lx_emul_init().  0; -EBUSY if done already; -ENOMEM.
 */
int lx_emul_pci_init(void);

/* Streaming DMA mappings that had to be bounced (the page lay beyond the
 * device's dma_mask) since boot. */
unsigned long lx_emul_dma_bounce_count(void);

/* The checks of the linux-* suites that run in the Linux world are
 * lx_emul_selftest_* too: tests/linux-emu/ declares them. */

#endif
