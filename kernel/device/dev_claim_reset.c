/* SPDX-License-Identifier: GPL-2.0-only */
/* A PCI function reset when a task's claim of it ends: a function level reset, or a D3hot-to-D0 power cycle, then its addresses put back. */
/*
 * When a task's claim ends (dev_claim.c's end_claim: bus mastering off,
 * lines masked and detached), the function is reset if it can be, so
 * the next owner's driver starts from a device that forgot the dead
 * owner's rings and DMA addresses:
 *   flr  a PCI Express function whose Device Capabilities say it has
 *        Function Level Reset: Initiate FLR in its Device Control, then
 *        100 ms before the function is touched again;
 *   pm   else a function with the power management capability whose
 *        No_Soft_Reset bit is clear: put in D3hot, 10 ms, back to D0,
 *        10 ms (the D3hot-to-D0 transition resets such a function);
 *   none else (the function is only quiesced; its next driver's probe
 *        resets what it resets).
 * The reset clears the header, so the header's addresses and settings
 * are read before and written back after (BARs, expansion ROM, cache
 * line size, latency timer, interrupt line, and the command register's
 * I/O and memory decoding; bus mastering stays off).  The reset runs
 * without the caller: the waits are a kernel thread's ("pci-reset").
 * Meanwhile a claim of the function answers D_WOULD_BLOCK (try again).
 */
#include <stdbool.h>
#include <stdint.h>

#include "device/dev_claim.h"
#include "device/dev_claim_priv.h"
#include "kern/clock.h"
#include "kern/klog.h"
#include "kern/panic.h"
#include "kern/sched.h"
#include "kern/thread.h"
#include "x86_64/cpu.h"
#include "x86_64/pci_config.h"

#define PCI_STATUS		0x06	/* 16 bits */
#define PCI_STATUS_CAP_LIST	0x10
#define PCI_CAPABILITY_LIST	0x34	/* 8 bits */
#define PCI_CAP_ID_PM		0x01
#define PCI_PM_CTRL		4	/* PMCSR, 16 bits */
#define PCI_PM_CTRL_STATE	0x3
#define PCI_PM_D3HOT		0x3
#define PCI_PM_NO_SOFT_RESET	0x8
#define PCI_CAP_ID_EXP		0x10
#define PCI_EXP_DEVCAP		4	/* 32 bits */
#define PCI_EXP_DEVCAP_FLR	(1u << 28)
#define PCI_EXP_DEVCTL		8	/* 16 bits */
#define PCI_EXP_DEVCTL_FLR	0x8000
#define PCI_CAPS_MAX		48	/* a list longer than this loops */

#define HEADER_DWORDS		16
#define FLR_TICKS		10	/* 100 ms */
#define PM_TICKS		1	/* 10 ms */
#define RESET_PRIORITY		4
#define RESETS_MAX		16	/* resets under way at once */

static KLOG_SOURCE(reset_log, "claim");

/* A reset under way (@used): its function, its method, what happens at
 * @due. */
struct reset {
	bool used;
	unsigned int bus, devfn;
	enum dev_claim_reset_method method;
	bool in_d3;			/* pm: D0 is written at @due */
	uint64_t due;			/* clock_ticks() of the next step */
	uint32_t header[HEADER_DWORDS];
};

static struct reset resets[RESETS_MAX];	/* interrupts off to change */
static unsigned int resets_done;
static char reset_event;

/* The offset of capability @id in function @devfn of @bus, 0 if none. */
static unsigned int capability(unsigned int bus, unsigned int devfn,
			       unsigned int id)
{
	unsigned int at;

	if (!(pci_config_read(bus, devfn, PCI_STATUS, 2) &
	      PCI_STATUS_CAP_LIST))
		return 0;
	at = pci_config_read(bus, devfn, PCI_CAPABILITY_LIST, 1) & ~3u;
	for (unsigned int n = 0; at >= 0x40 && n < PCI_CAPS_MAX; n++) {
		if (pci_config_read(bus, devfn, at, 1) == id)
			return at;
		at = pci_config_read(bus, devfn, at + 1, 1) & ~3u;
	}
	return 0;
}

enum dev_claim_reset_method dev_claim_reset_method(unsigned int bus,
						   unsigned int devfn)
{
	unsigned int exp = capability(bus, devfn, PCI_CAP_ID_EXP);
	unsigned int pm;

	if (exp != 0 && (pci_config_read(bus, devfn, exp + PCI_EXP_DEVCAP, 4) &
			 PCI_EXP_DEVCAP_FLR))
		return DEV_CLAIM_RESET_FLR;
	pm = capability(bus, devfn, PCI_CAP_ID_PM);
	if (pm != 0 && !(pci_config_read(bus, devfn, pm + PCI_PM_CTRL, 2) &
			 PCI_PM_NO_SOFT_RESET))
		return DEV_CLAIM_RESET_PM;
	return DEV_CLAIM_RESET_NONE;
}

static void set_power_state(const struct reset *r, unsigned int state)
{
	unsigned int pm = capability(r->bus, r->devfn, PCI_CAP_ID_PM);
	uint32_t csr = pci_config_read(r->bus, r->devfn, pm + PCI_PM_CTRL, 2);

	pci_config_write(r->bus, r->devfn, pm + PCI_PM_CTRL, 2,
			 (csr & ~PCI_PM_CTRL_STATE) | state);
}

void dev_claim_reset_begin(unsigned int bus, unsigned int devfn)
{
	enum dev_claim_reset_method method = dev_claim_reset_method(bus,
								     devfn);
	struct reset *r = NULL;
	unsigned int exp;

	if (method == DEV_CLAIM_RESET_NONE)
		return;
	for (unsigned int i = 0; i < RESETS_MAX && r == NULL; i++)
		if (!resets[i].used)
			r = &resets[i];
	if (r == NULL) {
		klog(&reset_log, "claim: %02x:%02x.%u: %u resets under way "
		     "already: only quiesced\n", bus, devfn >> 3, devfn & 7,
		     RESETS_MAX);
		return;
	}
	r->used = true;
	r->bus = bus;
	r->devfn = devfn;
	r->method = method;
	for (unsigned int i = 0; i < HEADER_DWORDS; i++)
		r->header[i] = pci_config_read(bus, devfn, i * 4, 4);
	if (method == DEV_CLAIM_RESET_FLR) {
		exp = capability(bus, devfn, PCI_CAP_ID_EXP);
		pci_config_write(bus, devfn, exp + PCI_EXP_DEVCTL, 2,
				 pci_config_read(bus, devfn,
						 exp + PCI_EXP_DEVCTL, 2) |
				 PCI_EXP_DEVCTL_FLR);
		r->in_d3 = false;
		r->due = clock_ticks() + FLR_TICKS;
	} else {
		set_power_state(r, PCI_PM_D3HOT);
		r->in_d3 = true;
		r->due = clock_ticks() + PM_TICKS;
	}
	thread_wakeup(&reset_event);
}

bool dev_claim_resetting(unsigned int bus, unsigned int devfn)
{
	uint64_t flags = cpu_intr_save();
	bool found = false;

	for (unsigned int i = 0; i < RESETS_MAX && !found; i++)
		found = resets[i].used && resets[i].bus == bus &&
			resets[i].devfn == devfn;
	cpu_intr_restore(flags);
	return found;
}

unsigned int dev_claim_resets_done(void)
{
	return resets_done;
}

/* Write back what the reset cleared of @r's header: the BARs and ROM,
 * cache line size and latency timer, interrupt line, then decoding. */
static void restore(const struct reset *r)
{
	const unsigned int command = PCI_COMMAND_IO | PCI_COMMAND_MEMORY;

	for (unsigned int reg = PCI_BAR0; reg < PCI_BAR0 + PCI_BARS * 4;
	     reg += 4)
		pci_config_write(r->bus, r->devfn, reg, 4, r->header[reg / 4]);
	pci_config_write(r->bus, r->devfn, PCI_ROM_ADDRESS, 4,
			 r->header[PCI_ROM_ADDRESS / 4]);
	pci_config_write(r->bus, r->devfn, 0x0c, 2, r->header[0x0c / 4]);
	pci_config_write(r->bus, r->devfn, PCI_INTERRUPT_LINE, 1,
			 r->header[PCI_INTERRUPT_LINE / 4] & 0xff);
	pci_config_write(r->bus, r->devfn, PCI_COMMAND, 2,
			 r->header[PCI_COMMAND / 4] & command);
}

/* One step of every reset that is due (interrupts off); the ticks until
 * the next is due, 0 if none is left. */
static uint64_t step(void)
{
	uint64_t now = clock_ticks(), wait = 0;

	for (unsigned int i = 0; i < RESETS_MAX; i++) {
		struct reset *r = &resets[i];

		if (!r->used)
			continue;
		if (now >= r->due && r->in_d3) {
			set_power_state(r, 0);
			r->in_d3 = false;
			r->due = now + PM_TICKS;
		}
		if (now < r->due) {
			if (wait == 0 || r->due - now < wait)
				wait = r->due - now;
			continue;
		}
		restore(r);
		klog(&reset_log, "claim: %02x:%02x.%u: reset (%s)\n", r->bus,
		     r->devfn >> 3, r->devfn & 7,
		     r->method == DEV_CLAIM_RESET_FLR ? "function level reset" :
		     "D3hot to D0");
		resets_done++;
		r->used = false;
	}
	return wait;
}

static void resetter(void *arg)
{
	(void)arg;
	for (;;) {
		uint64_t flags = cpu_intr_save();
		uint64_t wait = step();

		assert_wait(&reset_event);
		if (wait != 0)
			thread_set_timeout(wait);
		cpu_intr_restore(flags);
		(void)thread_block();
	}
}

void dev_claim_reset_init(void)
{
	if (kernel_thread_create("pci-reset", RESET_PRIORITY, resetter, NULL,
				 NULL) != KERN_SUCCESS)
		panic("claim: cannot start the reset thread");
}
