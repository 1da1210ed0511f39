/* SPDX-License-Identifier: GPL-2.0-only */
/* ISA claims: an I/O range of one owner, and the interrupt lines its driver asks for. */
/*
 * An ISA card cannot be enumerated: its driver names its ports, and
 * finds its line by making the card interrupt while it listens on every
 * free line (autoIRQ).  So an ISA claim is a port range that no other
 * claim, no PCI function and none of the kernel's own devices decode,
 * held by the kernel (its Linux world's card, lx_boot's ne_io=) or by
 * one task; its lines are registered one at a time through the claim,
 * any line nobody else holds, and given back one at a time (the
 * registration's port dies) or all with the claim.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "device/dev_claim.h"
#include "device/dev_claim_priv.h"
#include "device/dev_intr.h"
#include "device/device.h"
#include "device/ds_mig.h"
#include "ipc/ipc_port.h"
#include "kern/intr.h"
#include "kern/kalloc.h"
#include "kern/string.h"
#include "kern/task_port.h"
#include "x86_64/cpu.h"
#include "x86_64/pci_config.h"

#define IO_PORTS		0x10000
#define ISA_PORTS_MAX		0x400	/* an ISA card decodes 10 bits */
#define ISA_CLAIMS_MAX		8	/* alive at once, the kernel's too */
#define PCI_CLASS_BRIDGE	0x06

struct port_range {
	uint16_t from, to;
};

/* What the kernel itself or the board decodes: the system board's
 * ports below 0x100 (DMA, PIC, PIT, keyboard controller, RTC, FPU), the
 * PICs' edge/level registers, COM1 (the console), QEMU's debug exit,
 * the PCI configuration ports, Bochs' shutdown port. */
static const struct port_range kernel_ports[] = {
	{ 0x000, 0x0ff },
	{ 0x3f8, 0x3ff },
	{ 0x4d0, 0x4d1 },
	{ 0x501, 0x501 },
	{ 0xcf8, 0xcff },
	{ 0x8900, 0x8900 },
};

static bool overlaps(uint64_t from, uint64_t to, uint64_t base,
		     uint64_t size)
{
	return size != 0 && from < base + size && base <= to;
}

/* Whether @c's I/O BARs or fixed ports hold a port of [@from, @to]. */
static bool function_overlaps(const struct dev_claim *c, unsigned int from,
			      unsigned int to)
{
	for (unsigned int i = 0; i < PCI_BARS; i++)
		if (c->bars[i].io &&
		    overlaps(from, to, c->bars[i].base, c->bars[i].size))
			return true;
	for (unsigned int i = 0; i < c->nlegacy; i++)
		if (overlaps(from, to, c->legacy[i].from,
			     c->legacy[i].to - c->legacy[i].from + 1u))
			return true;
	return false;
}

/* Whether a function of bus 0 decodes a port of [@from, @to]: a claimed
 * one as its claim sized it, another sized now (nobody drives it).
 * Bridges are the platform's (their windows are not BARs).  Interrupts
 * off. */
static bool pci_overlaps(unsigned int from, unsigned int to)
{
	for (unsigned int devfn = 0; devfn < PCI_SLOTS * PCI_FUNCTIONS;
	     devfn++) {
		const struct dev_claim *held = NULL;
		struct dev_claim probe;

		if (pci_config_read(0, devfn, PCI_VENDOR_ID, 2) == 0xffff ||
		    pci_config_read(0, devfn, PCI_CLASS_REVISION + 3, 1) ==
		    PCI_CLASS_BRIDGE)
			continue;
		for (const struct dev_claim *c = dev_claims; c; c = c->next)
			if (!c->isa && c->bus == 0 && c->devfn == devfn)
				held = c;
		if (held == NULL) {
			memset(&probe, 0, sizeof(probe));
			probe.devfn = devfn;
			dev_claim_read_function(&probe);
			held = &probe;
		}
		if (function_overlaps(held, from, to))
			return true;
	}
	return false;
}

/* D_SUCCESS if [@base, @base + @size) may become an ISA claim, or why
 * not (the codes of dev_claim_isa).  Interrupts off. */
static io_return_t check_range(unsigned int base, unsigned int size)
{
	unsigned int to = base + size - 1, n = 0;

	for (size_t i = 0; i < sizeof(kernel_ports) / sizeof(*kernel_ports);
	     i++)
		if (overlaps(base, to, kernel_ports[i].from,
			     kernel_ports[i].to - kernel_ports[i].from + 1u))
			return D_ALREADY_OPEN;
	for (const struct dev_claim *c = dev_claims; c != NULL; c = c->next) {
		if (!c->isa)
			continue;
		if (overlaps(base, to, c->bars[0].base, c->bars[0].size))
			return D_ALREADY_OPEN;
		n++;
	}
	if (pci_overlaps(base, to))
		return D_ALREADY_OPEN;
	return n < ISA_CLAIMS_MAX ? D_SUCCESS : D_NO_MEMORY;
}

/* A new ISA claim of [@base, @base + @size) in the table (interrupts
 * off): D_SUCCESS with *@out, or why not. */
static io_return_t isa_new(unsigned int base, unsigned int size,
			   struct dev_claim **out)
{
	io_return_t rc = check_range(base, size);
	struct dev_claim *c;

	if (rc != D_SUCCESS)
		return rc;
	c = kzalloc(sizeof(*c));
	if (c == NULL)
		return D_NO_MEMORY;
	c->isa = true;
	c->refs = 1;
	c->irq = NO_IRQ;
	c->bars[0].base = base;
	c->bars[0].size = size;
	c->bars[0].io = true;
	c->next = dev_claims;
	dev_claims = c;
	*out = c;
	return D_SUCCESS;
}

static io_return_t check_args(int base, int size)
{
	if (size <= 0 || size > ISA_PORTS_MAX)
		return D_INVALID_SIZE;
	if (base < 0 || base > IO_PORTS - size)
		return D_INVALID_OPERATION;
	return D_SUCCESS;
}

/* A new ISA claim of [@base, @base + @size): a task's, its port's send
 * right in *@port, or the kernel's (@port NULL).  dev_claim_isa's codes. */
static io_return_t isa_claim(int base, int size, struct ipc_port **port)
{
	io_return_t rc = check_args(base, size);
	struct dev_claim *c;
	uint64_t flags;

	if (rc != D_SUCCESS)
		return rc;
	flags = cpu_intr_save();
	rc = isa_new((unsigned int)base, (unsigned int)size, &c);
	if (rc == D_SUCCESS && port != NULL)
		rc = dev_claim_give_port(c, port);
	cpu_intr_restore(flags);
	return rc;
}

io_return_t dev_claim_isa(int base, int size, struct ipc_port **port)
{
	return isa_claim(base, size, port);
}

io_return_t dev_claim_kernel_isa(int base, int size)
{
	return isa_claim(base, size, NULL);
}

/* The ISA claim whose range starts at @base (interrupts off), or NULL. */
static const struct dev_claim *isa_find(unsigned int base)
{
	for (const struct dev_claim *c = dev_claims; c != NULL; c = c->next)
		if (c->isa && c->bars[0].base == base)
			return c;
	return NULL;
}

bool dev_claim_isa_held(unsigned int base, bool *by_task)
{
	uint64_t flags = cpu_intr_save();
	const struct dev_claim *c = isa_find(base);

	if (c != NULL && by_task != NULL)
		*by_task = c->port != NULL;
	cpu_intr_restore(flags);
	return c != NULL;
}

unsigned int dev_claim_isa_lines(unsigned int base)
{
	uint64_t flags = cpu_intr_save();
	const struct dev_claim *c = isa_find(base);
	unsigned int mask = 0;

	for (unsigned int line = 0; c != NULL && line < INTR_LINES; line++)
		if (dev_intr_owned(line, c))
			mask |= 1u << line;
	cpu_intr_restore(flags);
	return mask;
}

/* Whether @line is a line of a PCI function a claim holds (the
 * kernel's or a task's; its PCI line or an ISA line it raises, as a
 * compatibility IDE channel's): that owner's, even before its driver
 * registers it.  Interrupts off. */
static bool pci_claims_line(unsigned int line)
{
	for (const struct dev_claim *c = dev_claims; c != NULL; c = c->next)
		if (!c->isa && (c->irq == line ||
				(c->legacy_lines & (1u << line))))
			return true;
	return false;
}

/* Whether ISA line @line may be registered through @c: any line of an
 * ISA claim, the ISA lines a PCI claim's function raises. */
static bool isa_line_of(const struct dev_claim *c, int line)
{
	if (line < 0 || line >= INTR_LINES)
		return false;
	return c->isa || (c->legacy_lines & (1u << line));
}

/* claim.defs's ISA routines (the stubs pass a looked-up claim, or
 * NULL). */

kern_return_t dc_claim_isa(ipc_port_t master_port, int io_base, int io_size,
			   ipc_port_t *claim)
{
	struct ipc_port *port;
	io_return_t rc;

	if (!dev_master_admits_drivers(master_port))
		return D_INVALID_OPERATION;
	rc = dev_claim_isa(io_base, io_size, &port);
	if (rc == D_SUCCESS)
		*claim = port;
	return rc;
}

kern_return_t dc_claim_isa_intr_register(claim_t claim, int line,
					 ipc_port_t notify_port)
{
	struct dev_claim *c = CLAIM(claim);
	uint64_t flags;
	io_return_t rc;

	if (c == NULL)
		return D_NO_SUCH_DEVICE;
	if (!isa_line_of(c, line) || dev_intr_kernel_line((unsigned int)line))
		return D_INVALID_OPERATION;
	flags = cpu_intr_save();
	rc = c->isa && pci_claims_line((unsigned int)line) ? D_ALREADY_OPEN :
	     dev_intr_attach((unsigned int)line, notify_port, c, false);
	cpu_intr_restore(flags);
	return rc;
}

kern_return_t dc_claim_isa_intr_ack(claim_t claim, int line)
{
	struct dev_claim *c = CLAIM(claim);

	if (c == NULL)
		return D_NO_SUCH_DEVICE;
	if (!isa_line_of(c, line))
		return D_INVALID_OPERATION;
	return dev_intr_ack_owner((unsigned int)line, c);
}
