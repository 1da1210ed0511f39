/* SPDX-License-Identifier: GPL-2.0-only */
/* PCI through the server's claims: lx_host_pci_*, lx_host_ioremap, and the interrupt lines (lx_host_irq_*) of claimed functions, the ISA lines they raise, and ISA claims' (isa.c). */
/*
 * The server claims PCI functions (claim.defs) before its Linux world
 * scans: configuration space the world reads is that of its claims
 * (claim_pci_config_read; any other function reads as absent), its I/O
 * BARs are granted to the task, its memory BARs mapped on ioremap, its
 * interrupt line registered on request_irq.  The kernel refuses writes
 * to BARs, so the BAR registers are kept here as a device's would be:
 * a write stores the value, a read gives it back masked to the BAR's
 * size with the type bits (which is what the world's all-ones sizing
 * reads); the expansion ROM reads as absent.  A function that decodes
 * fixed ports beside its BARs (an IDE controller's channels in
 * compatibility mode) gets them granted with claim_legacy_grant, and the
 * ISA lines it raises (14, 15) are registered through its claim
 * (claim_isa_intr_register), as an ISA claim's are.
 */
#include <stdio.h>
#include <string.h>

#include <graft_user.h>
#include <graft/claim.h>
#include <device/device_types.h>

#include <lx_host.h>

#include "device/dev_error.h"

#include "lxdrv.h"
#include "lxdrv_glue.h"
#include "lxdrv_probe.h"

#define CLAIMS_MAX	8
#define BARS		6
#define IRQ_LINES	16
#define CLAIM_RESET_WAIT_MS	20
#define CLAIM_RESET_TRIES	100	/* 2 s */

struct bar {
	uint64_t base, size;
	bool io;
	uint32_t reg;			/* what the register holds */
	uint32_t type;			/* its read-only low bits */
	uintptr_t mapped;		/* claim_map's address, 0: not yet */
};

struct claim {
	mach_port_t port;
	unsigned int bus, devfn;
	unsigned int irq;		/* 0xff: none */
	bool bound;			/* a driver of the world holds it */
	struct bar bars[BARS];
};

struct line {
	struct claim *claim;		/* NULL: an ISA line (below) */
	mach_port_t isa_claim;		/* the claim an ISA line was
					 * registered through */
	mach_port_t notify;
	void (*fn)(unsigned int line);
	bool masked, unacked;
};

static struct claim claims[CLAIMS_MAX];
static unsigned int nclaims;
static struct line lines[IRQ_LINES];

static struct claim *find(unsigned int bus, unsigned int devfn)
{
	for (unsigned int i = 0; i < nclaims; i++)
		if (claims[i].bus == bus && claims[i].devfn == devfn)
			return &claims[i];
	return NULL;
}

/* Keep the claim on @slot.@fn of bus 0: read its BARs, grant its I/O
 * BARs and the fixed ports it decodes.  0, or -1 (printed). */
static int keep(mach_port_t port, unsigned int slot, unsigned int fn)
{
	struct claim *c = &claims[nclaims];
	int vd, cr, irq;
	kern_return_t kr;

	memset(c, 0, sizeof(*c));
	c->port = port;
	c->devfn = slot << 3 | fn;
	if (claim_pci_id(port, &vd, &cr, &irq) != D_SUCCESS)
		return -1;
	c->irq = irq;
	for (int i = 0; i < BARS; i++) {
		struct bar *b = &c->bars[i];
		rpc_phys_addr_t base, size;
		boolean_t io;
		int reg;

		if (claim_pci_bar(port, i, &base, &size, &io) != D_SUCCESS)
			return -1;
		b->base = base;
		b->size = size;
		b->io = io;
		if (claim_pci_config_read(port, 0x10 + 4 * i, 4, &reg) !=
		    D_SUCCESS)
			return -1;
		b->reg = size ? reg : 0;	/* unimplemented: hardwired 0 */
		b->type = reg & (io ? 0x3 : 0xf);
		if (io && size && claim_io_grant(port, i) != D_SUCCESS) {
			printf("lxdrv: 00:%02x.%u: no I/O grant of BAR %d\n",
			       slot, fn, i);
			return -1;
		}
	}
	kr = claim_legacy_grant(port);
	if (kr != D_SUCCESS && kr != D_INVALID_OPERATION) {
		/* D_INVALID_OPERATION: it decodes no fixed ports */
		printf("lxdrv: 00:%02x.%u: no grant of its fixed ports\n",
		       slot, fn);
		return -1;
	}
	printf("lxdrv: claimed 00:%02x.%u [%04x:%04x] irq %d\n", slot, fn,
	       vd & 0xffff, (unsigned int)vd >> 16, irq);
	nclaims++;
	return 0;
}

/* Wait @ms milliseconds: a receive that times out, on a port of its
 * own that never gets a message. */
static void wait_ms(mach_msg_timeout_t ms)
{
	static mach_port_t never = MACH_PORT_NULL;
	mach_msg_header_t in;

	if (never == MACH_PORT_NULL &&
	    mach_port_allocate(lxdrv_task, MACH_PORT_RIGHT_RECEIVE, &never) !=
	    KERN_SUCCESS)
		return;
	(void)mach_msg(&in, MACH_RCV_MSG | MACH_RCV_TIMEOUT, 0, sizeof(in),
		       never, ms, MACH_PORT_NULL);
}

int lxdrv_pci_claim(unsigned int slot, unsigned int fn)
{
	mach_port_t port;
	kern_return_t kr;

	if (nclaims == CLAIMS_MAX)
		return -1;
	/* a function its last owner left is being reset: D_WOULD_BLOCK
	 * for a few hundred milliseconds at most */
	for (unsigned int tries = 0;
	     (kr = claim_pci(lxdrv_master, 0, slot, fn, &port)) ==
	     D_WOULD_BLOCK && tries < CLAIM_RESET_TRIES; tries++)
		wait_ms(CLAIM_RESET_WAIT_MS);
	if (kr != D_SUCCESS)
		return -1;
	if (keep(port, slot, fn) != 0) {
		(void)mach_port_deallocate(lxdrv_task, port);
		return -1;
	}
	return 0;
}

mach_port_t lxdrv_pci_first_claim(void)
{
	return nclaims ? claims[0].port : MACH_PORT_NULL;
}

/* Give back the claims no driver bound (the first stays: it holds the
 * memory pool).  Returns how many stay. */
unsigned int lxdrv_pci_release_unbound(void)
{
	unsigned int kept = 0;

	for (unsigned int i = 0; i < nclaims; i++) {
		struct claim *c = &claims[i];

		if (c->bound || i == 0) {
			claims[kept++] = *c;
			continue;
		}
		(void)mach_port_deallocate(lxdrv_task, c->port);
	}
	nclaims = kept;
	return kept;
}

int lx_host_pci_claim(unsigned int bus, unsigned int devfn)
{
	struct claim *c = find(bus, devfn);

	if (!c)
		return -LX_EBUSY;
	c->bound = true;
	return 0;
}

void lx_host_pci_release(unsigned int bus, unsigned int devfn)
{
	struct claim *c = find(bus, devfn);

	if (c)
		c->bound = false;
}

/* The BAR whose register (or 64-bit upper half) is at @where, and in
 * *@upper whether it is the upper half; NULL if none. */
static struct bar *bar_at(struct claim *c, int where, bool *upper)
{
	int i = (where - 0x10) / 4;

	if (where < 0x10 || where >= 0x10 + 4 * BARS)
		return NULL;
	*upper = i > 0 && !c->bars[i - 1].io &&
		 (c->bars[i - 1].reg & 0x6) == 0x4;
	return *upper ? &c->bars[i - 1] : &c->bars[i];
}

static uint32_t bar_read(struct claim *c, int where, bool *is_bar)
{
	bool upper;
	struct bar *b = bar_at(c, where & ~3, &upper);
	uint64_t mask;
	uint32_t v;

	*is_bar = b != NULL || (where & ~3) == 0x30;
	if (!b)
		return 0;	/* the ROM: absent */
	if (!b->size)
		return 0;	/* unimplemented: hardwired 0 */
	mask = ~(b->size - 1);
	if (upper)
		v = (uint32_t)(mask >> 32) & c->bars[(where - 0x10) / 4].reg;
	else if (b->io)
		v = ((uint32_t)mask & b->reg & ~3u) | b->type;
	else
		v = ((uint32_t)mask & b->reg & ~0xfu) | b->type;
	return v >> (8 * (where & 3));
}

unsigned int lx_host_pci_config_read(unsigned int bus, unsigned int devfn,
				     int where, int size)
{
	struct claim *c = find(bus, devfn);
	unsigned int ones = size == 4 ? ~0u : (1u << (8 * size)) - 1;
	bool is_bar;
	uint32_t v;
	int val;

	if (!c)
		return ones;
	v = bar_read(c, where, &is_bar);
	if (is_bar)
		return v & ones;
	if (claim_pci_config_read(c->port, where, size, &val) != D_SUCCESS)
		return ones;
	return (unsigned int)val & ones;
}

void lx_host_pci_config_write(unsigned int bus, unsigned int devfn,
			      int where, int size, unsigned int val)
{
	struct claim *c = find(bus, devfn);
	bool upper;
	struct bar *b;

	if (!c)
		return;
	b = bar_at(c, where & ~3, &upper);
	if (b && size == 4)
		c->bars[(where - 0x10) / 4].reg = val;
	if (b || (where & ~3) == 0x30)
		return;		/* kept here (whole-register writes only) */
	if (claim_pci_config_write(c->port, where, size, val) != D_SUCCESS)
		printf("lxdrv: config write of %d bytes at %#x refused\n",
		       size, where);
}

void *lx_host_ioremap(unsigned long phys, unsigned long size)
{
	for (unsigned int i = 0; i < nclaims; i++) {
		for (int j = 0; j < BARS; j++) {
			struct bar *b = &claims[i].bars[j];
			vm_address_t va;

			if (b->io || !b->size || phys < b->base ||
			    size > b->size || phys - b->base > b->size - size)
				continue;
			if (!b->mapped) {
				if (claim_map(claims[i].port, j, &va) !=
				    D_SUCCESS)
					return NULL;
				b->mapped = va;
			}
			return (void *)(b->mapped + (phys - b->base));
		}
	}
	printf("lxdrv: ioremap of %#lx+%#lx: no claimed BAR holds it\n",
	       phys, size);
	return NULL;
}

/* A BAR stays mapped until its claim ends (claim_map maps once). */
void lx_host_iounmap(void *virt)
{
	(void)virt;
}

unsigned int lx_host_irq_lines(void)
{
	return IRQ_LINES;
}

static void ack(struct line *l)
{
	kern_return_t kr;

	if (!l->unacked)
		return;
	if (l->claim)
		kr = claim_intr_ack(l->claim->port);
	else
		kr = claim_isa_intr_ack(l->isa_claim, (int)(l - lines));
	if (kr == D_SUCCESS)
		l->unacked = false;
}

/* Register @notify for @line: the line of a claim of ours (*@c set),
 * else an ISA line (*@isa_claim set to the claim it went through): one
 * a claimed function raises beside its PCI line, or one our first ISA
 * claim may take (autoIRQ tries every line).  0, or -1. */
static int line_register(unsigned int line, mach_port_t notify,
			 struct claim **c, mach_port_t *isa_claim)
{
	mach_port_t isa = lxdrv_isa_first_claim();

	*c = NULL;
	*isa_claim = MACH_PORT_NULL;
	for (unsigned int i = 0; i < nclaims; i++)
		if (claims[i].irq == line)
			*c = &claims[i];
	if (*c)
		return claim_intr_register((*c)->port, notify,
					   MACH_MSG_TYPE_MAKE_SEND) ==
		       D_SUCCESS ? 0 : -1;
	/* D_INVALID_OPERATION from a claim whose function does not raise
	 * @line: try the next */
	for (unsigned int i = 0; i <= nclaims; i++) {
		mach_port_t port = i < nclaims ? claims[i].port : isa;

		if (port != MACH_PORT_NULL &&
		    claim_isa_intr_register(port, (int)line, notify,
					    MACH_MSG_TYPE_MAKE_SEND) ==
		    D_SUCCESS) {
			*isa_claim = port;
			return 0;
		}
	}
	return -1;
}

/* A notification: the line is masked at the kernel until acknowledged. */
static void notified(mach_msg_header_t *msg, void *arg)
{
	struct line *l = arg;
	unsigned int line = l - lines;

	(void)msg;
	l->unacked = true;
	if (l->masked || !l->fn)
		return;		/* lx_host_irq_unmask acknowledges */
	lxdrv_probe(LXDRV_PROBE_IRQ, line);
	l->fn(line);
	if (!l->masked)
		ack(l);
}

int lx_host_irq_attach(unsigned int line, void (*fn)(unsigned int line))
{
	struct claim *c = NULL;
	mach_port_t isa = MACH_PORT_NULL;
	struct line *l;

	if (line >= IRQ_LINES || lines[line].fn)
		return -1;
	l = &lines[line];
	if (mach_port_allocate(lxdrv_task, MACH_PORT_RIGHT_RECEIVE,
			       &l->notify) != KERN_SUCCESS)
		return -1;
	if (line_register(line, l->notify, &c, &isa) != 0 ||
	    lxdrv_port_watch(l->notify, notified, l) != 0) {
		(void)mach_port_mod_refs(lxdrv_task, l->notify,
					 MACH_PORT_RIGHT_RECEIVE, -1);
		return -1;
	}
	l->claim = c;
	l->isa_claim = isa;
	l->fn = fn;
	l->masked = true;
	l->unacked = false;
	return 0;
}

/* The registration ends with its port. */
void lx_host_irq_detach(unsigned int line)
{
	struct line *l = &lines[line % IRQ_LINES];

	if (line >= IRQ_LINES || !l->fn)
		lxdrv_die("lx_host_irq_detach of a line not attached");
	lxdrv_port_unwatch(l->notify);
	(void)mach_port_mod_refs(lxdrv_task, l->notify,
				 MACH_PORT_RIGHT_RECEIVE, -1);
	memset(l, 0, sizeof(*l));
}

void lx_host_irq_mask(unsigned int line)
{
	if (line < IRQ_LINES)
		lines[line].masked = true;
}

/* A notification held back while masked is answered now: the kernel
 * unmasks, and a level-triggered line still asserted notifies again. */
void lx_host_irq_unmask(unsigned int line)
{
	if (line >= IRQ_LINES)
		return;
	lines[line].masked = false;
	ack(&lines[line]);
}
