/* SPDX-License-Identifier: GPL-2.0-only */
/* What dev_claim.c (the claims, PCI's) and dev_claim_isa.c (ISA's) share. */
#ifndef DEVICE_DEV_CLAIM_PRIV_H
#define DEVICE_DEV_CLAIM_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include <device/device_types.h>

#include "x86_64/pci_config.h"

struct ipc_port;
struct ledger;

#define NO_IRQ			0xff

struct claim_bar {
	uint64_t base, size;
	bool io;
};

/* I/O ports [@from, @to] granted to a task through the claim. */
struct claim_grant {
	struct claim_grant *next;
	struct ipc_port *task;		/* its task port (a reference) */
	uint16_t from, to;
};

/* A range of fixed I/O ports a function decodes beside its BARs. */
struct claim_ports {
	uint16_t from, to;
};

#define CLAIM_LEGACY_MAX	4

/* A memory BAR mapped into a task through the claim. */
struct claim_map {
	struct claim_map *next;
	struct ipc_port *task;		/* its task port (a reference) */
	uint64_t address;
	unsigned int bar;
};

/* DMA memory the claim owns, lent to a task. */
struct claim_dma {
	struct claim_dma *next;
	struct ipc_port *task;		/* its task port (a reference) */
	uint64_t address, phys, pages;
};

/*
 * A claim of a PCI function (@bus, @devfn), or of an ISA card's I/O
 * range (@isa: bars[0] is the range, as an I/O BAR, the others are
 * unimplemented; @bus and @devfn mean nothing; @irq is NO_IRQ, its lines
 * are registered one by one, dev_claim_isa.c).
 */
struct dev_claim {
	struct dev_claim *next;		/* the table, while it holds */
	unsigned int bus, devfn;
	bool isa;
	struct ipc_port *port;		/* NULL: the kernel's claim */
	struct ipc_port *holder;	/* the claiming task's port (a
					 * reference), NULL: the kernel's */
	/* the holder's direct map (claim_direct_map): RAM [0, direct_top)
	 * at direct_base; direct_top 0: none (dev_claim_direct.c) */
	uint64_t direct_base, direct_top;
	unsigned int refs;		/* the table's, and MIG calls' */
	uint32_t id, class_rev;
	unsigned int irq;		/* NO_IRQ: none */
	struct claim_bar bars[PCI_BARS];
	/* the fixed ports and ISA lines (bit n: line n) it decodes beside
	 * its BARs (dev_claim_legacy.c) */
	struct claim_ports legacy[CLAIM_LEGACY_MAX];
	unsigned int nlegacy, legacy_lines;
	struct claim_grant *grants;
	struct claim_map *maps;
	struct claim_dma *dma;
	struct ledger *ledger;		/* the claiming task's, for DMA */
};

/* The claim a claim_t names (claim.defs's intran gives the object). */
#define CLAIM(claim)	((struct dev_claim *)(claim))

/* The table of claims, newest first (interrupts off to walk or change
 * it). */
extern struct dev_claim *dev_claims;

/* dev_claim_read_function - read what a claim keeps of function
 * @c->devfn of @c->bus into @c: identity, line, BARs sized, the fixed
 * ports and lines it decodes beside them.  Interrupts
 * off; the function is nobody's (its decoding is off meanwhile). */
void dev_claim_read_function(struct dev_claim *c);

/* dev_claim_legacy_read - fill @c->legacy, @c->nlegacy and
 * @c->legacy_lines from @c->class_rev (dev_claim_read_function calls
 * it). */
void dev_claim_legacy_read(struct dev_claim *c);

/* dev_claim_grant - grant ports [@from, @to] to the calling task
 * through @c (once: a second grant of the same range does nothing), until
 * the claim ends.  D_SUCCESS; D_INVALID_OPERATION from the kernel's own
 * task; D_NO_MEMORY.  Interrupts on or off. */
io_return_t dev_claim_grant(struct dev_claim *c, uint16_t from, uint16_t to);

/* dev_claim_give_port - make @c (in the table, one reference) a claim
 * of the calling task: its port, its no-senders request, a send right
 * in *@port.  D_SUCCESS; D_NO_MEMORY (@c was unlinked and released).
 * Interrupts off. */
io_return_t dev_claim_give_port(struct dev_claim *c, struct ipc_port **port);

/* dev_claim_unlink - take @c out of the table; dev_claim_release - drop
 * a reference (the last frees it).  Interrupts off for unlink. */
void dev_claim_unlink(struct dev_claim *c);
void dev_claim_release(struct dev_claim *c);

/* dev_claim_reset_begin - start the reset of function @devfn of @bus,
 * its claim just ended (bus mastering off, lines detached), if it has a
 * way to be reset (dev_claim_reset_method): the reset thread finishes
 * it.  dev_claim_reset_init - start that thread (once, at boot).
 * Interrupts off for begin. */
void dev_claim_reset_begin(unsigned int bus, unsigned int devfn);
void dev_claim_reset_init(void);

#endif
