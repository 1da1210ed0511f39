/* SPDX-License-Identifier: GPL-2.0-only */
/* Claims: one owner per PCI function (or ISA range, dev_claim_isa.c), quiesced when a task's claim ends. */
/*
 * A claim is a record of the table below.  The kernel's own (its Linux
 * world's drivers) have no port.  A task's has a kernel port of type
 * IKOT_CLAIM that asks for its own no-senders notification: when the
 * last send right goes, the claim ends (end_claim).  MIG calls on the
 * port hold a reference (dev_claim_lookup), so the record outlives its
 * end until they return.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <mach/mig_errors.h>
#include <mach/notify.h>

#include "device/dev_claim.h"
#include "device/dev_claim_priv.h"
#include "device/device.h"
#include "device/dev_intr.h"
#include "device/ds_mig.h"
#include "ipc/ipc_kmsg.h"
#include "ipc/ipc_kobject.h"
#include "ipc/ipc_port.h"
#include "kern/intr.h"
#include "kern/kalloc.h"
#include "kern/ledger.h"
#include "kern/panic.h"
#include "kern/string.h"
#include "kern/task.h"
#include "kern/task_port.h"
#include "vm/vm_map.h"
#include "vm/vm_page.h"
#include "x86_64/cpu.h"
#include "x86_64/dmar.h"
#include "x86_64/io_bitmap.h"
#include "x86_64/layout.h"
#include "x86_64/pci_config.h"

#define PCI_CLASS_BRIDGE	0x06

struct dev_claim *dev_claims;
static unsigned int task_claims;

unsigned int dev_claim_count(void)
{
	return task_claims;
}

static struct dev_claim *find(unsigned int bus, unsigned int devfn)
{
	for (struct dev_claim *c = dev_claims; c != NULL; c = c->next)
		if (!c->isa && c->bus == bus && c->devfn == devfn)
			return c;
	return NULL;
}

bool dev_claim_held(unsigned int bus, unsigned int devfn)
{
	uint64_t flags = cpu_intr_save();
	bool held = find(bus, devfn) != NULL;

	cpu_intr_restore(flags);
	return held;
}

void dev_claim_release(struct dev_claim *c)
{
	uint64_t flags = cpu_intr_save();

	if (c->refs == 0)
		panic("dev_claim: reference count underflow");
	if (--c->refs == 0)
		kfree(c);
	cpu_intr_restore(flags);
}

/* What register @reg of @c reads after all ones were written to it;
 * its value @orig is put back. */
static uint32_t probe(struct dev_claim *c, unsigned int reg, uint32_t orig)
{
	uint32_t v;

	pci_config_write(c->bus, c->devfn, reg, 4, ~0u);
	v = pci_config_read(c->bus, c->devfn, reg, 4);
	pci_config_write(c->bus, c->devfn, reg, 4, orig);
	return v;
}

/* Size BAR @i of @c (its decoding is off), whose register holds @orig.
 * Returns how many registers it took (2 for a 64-bit memory BAR). */
static unsigned int size_bar(struct dev_claim *c, unsigned int i,
			     uint32_t orig)
{
	unsigned int reg = PCI_BAR0 + 4 * i;
	bool io = orig & 1;
	bool wide = !io && ((orig >> 1) & 3) == 2 && i + 1 < PCI_BARS;
	uint32_t low = probe(c, reg, orig) & (io ? ~3u : ~0xfu);
	uint64_t mask, hi = 0;
	bool implemented;

	if (wide) {
		hi = pci_config_read(c->bus, c->devfn, reg + 4, 4);
		mask = (uint64_t)probe(c, reg + 4, (uint32_t)hi) << 32 | low;
		implemented = mask != 0;
	} else {
		/* the bits above what the BAR decodes count as set */
		mask = (io ? 0xffffffffffff0000ull : 0xffffffff00000000ull) |
		       low;
		implemented = low != 0;
	}
	c->bars[i].io = io;
	c->bars[i].base = (orig & (io ? ~3u : ~0xfu)) | hi << 32;
	c->bars[i].size = implemented ? ~mask + 1 : 0;
	return wide ? 2 : 1;
}

void dev_claim_read_function(struct dev_claim *c)
{
	uint32_t command = pci_config_read(c->bus, c->devfn, PCI_COMMAND, 2);

	c->id = pci_config_read(c->bus, c->devfn, PCI_VENDOR_ID, 4);
	c->class_rev = pci_config_read(c->bus, c->devfn, PCI_CLASS_REVISION,
				       4);
	c->irq = pci_config_read(c->bus, c->devfn, PCI_INTERRUPT_LINE, 1);
	if (c->irq >= 16 ||
	    pci_config_read(c->bus, c->devfn, PCI_INTERRUPT_PIN, 1) == 0)
		c->irq = NO_IRQ;	/* none, or it raises no PCI line */
	pci_config_write(c->bus, c->devfn, PCI_COMMAND, 2,
			 command & ~(PCI_COMMAND_IO | PCI_COMMAND_MEMORY));
	for (unsigned int i = 0; i < PCI_BARS;) {
		uint32_t orig = pci_config_read(c->bus, c->devfn,
						PCI_BAR0 + 4 * i, 4);

		i += size_bar(c, i, orig);
	}
	pci_config_write(c->bus, c->devfn, PCI_COMMAND, 2, command);
	dev_claim_legacy_read(c);
}

/* A new claim of @devfn on @bus, in the table (interrupts off).
 * D_SUCCESS with *@out, or why not. */
static io_return_t claim_new(unsigned int bus, unsigned int devfn,
			     struct dev_claim **out)
{
	struct dev_claim *c;

	if (pci_config_read(bus, devfn, PCI_VENDOR_ID, 2) == 0xffff)
		return D_NO_SUCH_DEVICE;
	if (find(bus, devfn) != NULL ||
	    pci_config_read(bus, devfn, PCI_CLASS_REVISION + 3, 1) ==
	    PCI_CLASS_BRIDGE)
		return D_ALREADY_OPEN;
	if (dev_claim_resetting(bus, devfn))
		return D_WOULD_BLOCK;
	c = kzalloc(sizeof(*c));
	if (c == NULL)
		return D_NO_MEMORY;
	c->bus = bus;
	c->devfn = devfn;
	c->refs = 1;
	dev_claim_read_function(c);
	c->next = dev_claims;
	dev_claims = c;
	*out = c;
	return D_SUCCESS;
}

void dev_claim_unlink(struct dev_claim *c)
{
	struct dev_claim **link = &dev_claims;

	while (*link != c)
		link = &(*link)->next;
	*link = c->next;
}

io_return_t dev_claim_pci(unsigned int bus, unsigned int slot,
			  unsigned int function, struct ipc_port **port)
{
	struct dev_claim *c;
	uint64_t flags;
	io_return_t rc;

	if (bus > 255 || slot >= PCI_SLOTS || function >= PCI_FUNCTIONS)
		return D_INVALID_OPERATION;
	flags = cpu_intr_save();
	rc = claim_new(bus, pci_devfn(slot, function), &c);
	if (rc == D_SUCCESS)
		rc = dev_claim_give_port(c, port);
	cpu_intr_restore(flags);
	return rc;
}

io_return_t dev_claim_give_port(struct dev_claim *c, struct ipc_port **port)
{
	/* a PCI function's DMA reaches only its task's memory from now */
	if (!c->isa && dmar_attach(c->bus, c->devfn,
				   task_current()->itk_self) != KERN_SUCCESS)
		c->port = NULL;
	else
		c->port = ipc_port_alloc_kernel(c, IKOT_CLAIM);
	if (c->port == NULL) {
		if (!c->isa)
			dmar_block(c->bus, c->devfn);
		dev_claim_unlink(c);
		dev_claim_release(c);
		return D_NO_MEMORY;
	}
	c->ledger = task_current()->ledger;
	c->holder = task_current()->itk_self;
	ipc_port_reference(c->holder);
	task_claims++;
	ipc_kobject_nsrequest_self(c->port, 1);
	*port = ipc_port_make_send(c->port);
	return D_SUCCESS;
}

io_return_t dev_claim_kernel(unsigned int bus, unsigned int devfn)
{
	struct dev_claim *c;
	uint64_t flags = cpu_intr_save();
	io_return_t rc = bus > 255 || devfn > 255 ? D_NO_SUCH_DEVICE :
			 claim_new(bus, devfn, &c);

	if (rc == D_SUCCESS)
		dmar_passthrough(bus, devfn);
	cpu_intr_restore(flags);
	return rc;
}

io_return_t dev_claim_kernel_release(unsigned int bus, unsigned int devfn)
{
	uint64_t flags = cpu_intr_save();
	struct dev_claim *c = find(bus, devfn);

	if (c == NULL || c->port != NULL) {
		cpu_intr_restore(flags);
		return D_NO_SUCH_DEVICE;
	}
	dev_claim_unlink(c);
	dev_claim_release(c);
	cpu_intr_restore(flags);
	return D_SUCCESS;
}

/* Withdraw grant @g's ports from its task if the task still lives. */
static void withdraw(struct claim_grant *g)
{
	struct task *task = task_port_task(g->task);

	if (task != NULL) {
		(void)io_bitmap_set(&task->io_bitmap, g->from, g->to, false);
		if (task == task_current())
			io_bitmap_load(task->io_bitmap);
	}
	ipc_port_release(g->task);
}

/* Take mapping @m out of its task if the task lives and still has it. */
static void unmap(struct dev_claim *c, struct claim_map *m)
{
	struct task *task = task_port_task(m->task);
	const struct claim_bar *b = &c->bars[m->bar];

	if (task != NULL)
		(void)vm_map_take_back(task->map, m->address, b->base,
				       b->size);
	ipc_port_release(m->task);
}

/* DMA memory @d, its device quiet: out of its task, back to the pages. */
static void dma_free(struct dev_claim *c, struct claim_dma *d)
{
	struct task *task = task_port_task(d->task);
	uint64_t bytes = d->pages * VM_PAGE_SIZE;

	if (task != NULL)
		(void)vm_map_take_back(task->map, d->address, d->phys, bytes);
	ipc_port_release(d->task);
	dmar_unmap(c->holder, d->phys, bytes);
	vm_page_free_contig(d->phys, d->pages);
	ledger_credit(c->ledger, LEDGER_DMA_BYTES, bytes);
}

/* The last send right to @c's port went: quiesce the device, then give
 * back what the claim held (interrupts off). */
static void end_claim(struct dev_claim *c)
{
	uint32_t command;

	dev_claim_unlink(c);
	task_claims--;
	if (!c->isa) {
		command = pci_config_read(c->bus, c->devfn, PCI_COMMAND, 2);
		pci_config_write(c->bus, c->devfn, PCI_COMMAND, 2,
				 command & ~PCI_COMMAND_MASTER);
	}
	if (!c->isa)
		dmar_block(c->bus, c->devfn);	/* no DMA until claimed */
	/* an ISA card cannot be told to stop: its lines go first; with a
	 * PCI function's, its ISA lines */
	for (unsigned int line = 0; line < INTR_LINES; line++)
		dev_intr_detach(line, c);
	if (!c->isa)
		dev_claim_reset_begin(c->bus, c->devfn);
	while (c->grants != NULL) {
		struct claim_grant *g = c->grants;

		c->grants = g->next;
		withdraw(g);
		kfree(g);
	}
	while (c->maps != NULL) {
		struct claim_map *m = c->maps;

		c->maps = m->next;
		unmap(c, m);
		kfree(m);
	}
	while (c->dma != NULL) {
		struct claim_dma *d = c->dma;

		c->dma = d->next;
		dma_free(c, d);
		kfree(d);
	}
	ipc_port_dealloc_kernel(c->port);
	c->port = NULL;
	ipc_port_release(c->holder);
	c->holder = NULL;
	dev_claim_release(c);
}

/* The claim port's own no-senders notification (as dev_port.c's). */
static void claim_no_senders(struct ipc_port *port)
{
	unsigned int kotype;
	struct dev_claim *c = ipc_port_kobject(port, &kotype);
	uint64_t flags;

	if (c == NULL || kotype != IKOT_CLAIM)
		return;
	flags = cpu_intr_save();
	if (ipc_kobject_no_senders(port))	/* else a new holder came */
		end_claim(c);
	cpu_intr_restore(flags);
}

claim_t dev_claim_lookup(ipc_port_t port)
{
	unsigned int kotype;
	struct dev_claim *c = ipc_port_kobject(port, &kotype);
	uint64_t flags;

	if (c == NULL || kotype != IKOT_CLAIM)
		return 0;
	flags = cpu_intr_save();
	c->refs++;
	cpu_intr_restore(flags);
	return (claim_t)c;
}

void dev_claim_deallocate(claim_t claim)
{
	if (claim != 0)
		dev_claim_release(CLAIM(claim));
}

/* claim.defs's routines (the stubs pass a looked-up claim, or NULL). */

kern_return_t dc_claim_pci(ipc_port_t master_port, int bus, int slot,
			   int function, ipc_port_t *claim)
{
	struct ipc_port *port;
	io_return_t rc;

	if (!dev_master_admits_drivers(master_port))
		return D_INVALID_OPERATION;
	if (bus < 0 || slot < 0 || function < 0)
		return D_INVALID_OPERATION;
	rc = dev_claim_pci((unsigned int)bus, (unsigned int)slot,
			   (unsigned int)function, &port);
	if (rc == D_SUCCESS)
		*claim = port;
	return rc;
}

/* The PCI claim @claim names in *@c: D_SUCCESS; D_NO_SUCH_DEVICE (no
 * claim), D_INVALID_OPERATION (an ISA claim: it has no PCI identity). */
static io_return_t pci_claim(claim_t claim, struct dev_claim **c)
{
	*c = CLAIM(claim);
	if (*c == NULL)
		return D_NO_SUCH_DEVICE;
	return (*c)->isa ? D_INVALID_OPERATION : D_SUCCESS;
}

kern_return_t dc_claim_pci_id(claim_t claim, int *vendor_device,
			      int *class_revision, int *irq)
{
	struct dev_claim *c;
	io_return_t rc = pci_claim(claim, &c);

	if (rc != D_SUCCESS)
		return rc;
	*vendor_device = (int)c->id;
	*class_revision = (int)c->class_rev;
	*irq = (int)c->irq;
	return D_SUCCESS;
}

kern_return_t dc_claim_pci_bar(claim_t claim, int bar, rpc_phys_addr_t *base,
			       rpc_phys_addr_t *size, boolean_t *io)
{
	struct dev_claim *c;
	io_return_t rc = pci_claim(claim, &c);

	if (rc != D_SUCCESS)
		return rc;
	if (bar < 0 || bar >= PCI_BARS)
		return D_INVALID_OPERATION;
	*base = c->bars[bar].base;
	*size = c->bars[bar].size;
	*io = c->bars[bar].io;
	return D_SUCCESS;
}

/* D_SUCCESS if @width bytes at @offset are a configuration access a
 * claim may make (@write: also not a BAR nor the ROM register). */
static io_return_t check_config(int offset, int width, bool write)
{
	if ((width != 1 && width != 2 && width != 4) || offset < 0 ||
	    offset + width > PCI_CONFIG_SIZE || (offset & (width - 1)))
		return D_INVALID_SIZE;
	if (write && offset < PCI_BAR0 + 4 * PCI_BARS &&
	    offset + width > PCI_BAR0)
		return D_READ_ONLY;
	if (write && offset < PCI_ROM_ADDRESS + 4 &&
	    offset + width > PCI_ROM_ADDRESS)
		return D_READ_ONLY;
	return D_SUCCESS;
}

kern_return_t dc_claim_pci_config_read(claim_t claim, int offset,
				       int width, int *value)
{
	struct dev_claim *c;
	io_return_t rc = pci_claim(claim, &c);

	if (rc == D_SUCCESS)
		rc = check_config(offset, width, false);
	if (rc == D_SUCCESS)
		*value = (int)pci_config_read(c->bus, c->devfn,
					      (unsigned int)offset,
					      (unsigned int)width);
	return rc;
}

kern_return_t dc_claim_pci_config_write(claim_t claim, int offset,
					int width, int value)
{
	struct dev_claim *c;
	io_return_t rc = pci_claim(claim, &c);

	if (rc == D_SUCCESS)
		rc = check_config(offset, width, true);
	if (rc == D_SUCCESS)
		pci_config_write(c->bus, c->devfn, (unsigned int)offset,
				 (unsigned int)width, (uint32_t)value);
	return rc;
}

io_return_t dev_claim_grant(struct dev_claim *c, uint16_t from, uint16_t to)
{
	struct task *task = task_current();
	struct claim_grant *g;
	uint64_t flags;
	kern_return_t kr;

	if (task == &kernel_task)
		return D_INVALID_OPERATION;
	flags = cpu_intr_save();
	for (g = c->grants; g != NULL; g = g->next) {
		if (g->from == from && g->to == to &&
		    g->task == task->itk_self) {
			cpu_intr_restore(flags);
			return D_SUCCESS;	/* granted already */
		}
	}
	g = kzalloc(sizeof(*g));
	if (g == NULL) {
		cpu_intr_restore(flags);
		return D_NO_MEMORY;
	}
	kr = io_bitmap_set(&task->io_bitmap, from, to, true);
	if (kr != KERN_SUCCESS) {
		cpu_intr_restore(flags);
		kfree(g);
		return D_NO_MEMORY;
	}
	io_bitmap_load(task->io_bitmap);
	g->from = from;
	g->to = to;
	g->task = task->itk_self;
	ipc_port_reference(g->task);
	g->next = c->grants;
	c->grants = g;
	cpu_intr_restore(flags);
	return D_SUCCESS;
}

kern_return_t dc_claim_io_grant(claim_t claim, int bar)
{
	struct dev_claim *c = CLAIM(claim);
	const struct claim_bar *b;

	if (c == NULL)
		return D_NO_SUCH_DEVICE;
	if (bar < 0 || bar >= PCI_BARS)
		return D_INVALID_OPERATION;
	b = &c->bars[bar];
	if (!b->io || b->size == 0 || b->base + b->size > 0x10000)
		return D_INVALID_OPERATION;
	return dev_claim_grant(c, (uint16_t)b->base,
			       (uint16_t)(b->base + b->size - 1));
}

kern_return_t dc_claim_map(claim_t claim, int bar, vm_address_t *address)
{
	struct dev_claim *c = CLAIM(claim);
	struct task *task = task_current();
	const struct claim_bar *b;
	struct claim_map *m;
	uint64_t va, flags;

	if (c == NULL)
		return D_NO_SUCH_DEVICE;
	if (bar < 0 || bar >= PCI_BARS || task == &kernel_task)
		return D_INVALID_OPERATION;
	b = &c->bars[bar];
	if (b->io || b->size == 0 || b->base % VM_PAGE_SIZE != 0 ||
	    b->size % VM_PAGE_SIZE != 0)
		return D_INVALID_OPERATION;
	flags = cpu_intr_save();
	for (m = c->maps; m != NULL; m = m->next) {
		if (m->bar == (unsigned int)bar && m->task == task->itk_self) {
			cpu_intr_restore(flags);
			return D_ALREADY_OPEN;	/* one mapping each */
		}
	}
	cpu_intr_restore(flags);
	m = kzalloc(sizeof(*m));
	if (m == NULL)
		return D_NO_MEMORY;
	flags = cpu_intr_save();
	if (vm_map_lend(task->map, &va, b->base, b->size, true) !=
	    KERN_SUCCESS) {
		cpu_intr_restore(flags);
		kfree(m);
		return D_NO_MEMORY;
	}
	m->address = va;
	m->bar = (unsigned int)bar;
	m->task = task->itk_self;
	ipc_port_reference(m->task);
	m->next = c->maps;
	c->maps = m;
	cpu_intr_restore(flags);
	*address = va;
	return D_SUCCESS;
}

kern_return_t dc_claim_dma_alloc(claim_t claim, vm_size_t size,
				rpc_phys_addr_t limit, vm_address_t *address,
				rpc_phys_addr_t *phys)
{
	struct dev_claim *c = CLAIM(claim);
	struct task *task = task_current();
	uint64_t pages, bytes, flags, pa, va, base = 0, top = 0;
	struct claim_dma *d;
	bool direct;

	if (c == NULL)
		return D_NO_SUCH_DEVICE;
	if (task == &kernel_task)
		return D_INVALID_OPERATION;
	if (size == 0 || size > DEV_IO_MAX)
		return D_INVALID_SIZE;
	pages = (size + VM_PAGE_SIZE - 1) / VM_PAGE_SIZE;
	bytes = pages * VM_PAGE_SIZE;
	direct = dev_claim_direct(task->itk_self, &base, &top);
	if (direct && (limit == 0 || limit > top))
		limit = top;		/* inside the direct map */
	if (limit != 0 && limit < bytes)
		return D_INVALID_SIZE;	/* no room below it */
	d = kzalloc(sizeof(*d));
	if (d == NULL)
		return D_NO_MEMORY;
	flags = cpu_intr_save();
	if (!ledger_charge(c->ledger, LEDGER_DMA_BYTES, bytes))
		goto err_d;
	if (vm_page_alloc_contig(pages, VM_PAGE_SIZE, 0,
				 limit != 0 ? limit : ~0ull, &pa) !=
	    KERN_SUCCESS)
		goto err_charged;
	memset(phys_to_virt(pa), 0, bytes);
	va = base + pa;
	if ((direct ? vm_map_lend_at(task->map, va, pa, bytes) :
	     vm_map_lend(task->map, &va, pa, bytes, false)) != KERN_SUCCESS)
		goto err_pages;
	if (dmar_map(c->holder, pa, bytes, true) != KERN_SUCCESS) {
		(void)vm_map_take_back(task->map, va, pa, bytes);
		goto err_pages;
	}
	d->address = va;
	d->phys = pa;
	d->pages = pages;
	d->task = task->itk_self;
	ipc_port_reference(d->task);
	d->next = c->dma;
	c->dma = d;
	cpu_intr_restore(flags);
	*address = va;
	*phys = pa;
	return D_SUCCESS;
err_pages:
	vm_page_free_contig(pa, pages);
err_charged:
	ledger_credit(c->ledger, LEDGER_DMA_BYTES, bytes);
err_d:
	cpu_intr_restore(flags);
	kfree(d);
	return D_NO_MEMORY;
}

kern_return_t dc_claim_intr_register(claim_t claim,
				     ipc_port_t notify_port)
{
	struct dev_claim *c = CLAIM(claim);
	if (c == NULL)
		return D_NO_SUCH_DEVICE;
	if (c->irq == NO_IRQ)
		return D_INVALID_OPERATION;
	return dev_intr_attach(c->irq, notify_port, c, true);
}

kern_return_t dc_claim_intr_ack(claim_t claim)
{
	struct dev_claim *c = CLAIM(claim);
	if (c == NULL)
		return D_NO_SUCH_DEVICE;
	return c->irq == NO_IRQ ? D_INVALID_OPERATION :
	       dev_intr_ack_owner(c->irq, c);
}

/* Generated from defs/claim.defs (kernel/device/local.mk). */
boolean_t claim_server(mach_msg_header_t *in, mach_msg_header_t *out);

/* The reply of claim.defs's routines: a mig_reply_header_t at most
 * with a few words. */
#define CLAIM_REPLY_MAX	128

/* The handler of claim ports (ipc_kobject.h): claim.defs, and the
 * port's own no-senders notification. */
static mach_msg_return_t claim_handle(struct ipc_kmsg *request,
				      struct ipc_kmsg **reply)
{
	struct ipc_kmsg_header *h = &request->header;
	struct ipc_kmsg *out;
	kern_return_t kr;

	*reply = NULL;
	if (h->id == MACH_NOTIFY_NO_SENDERS &&
	    MACH_MSGH_BITS_REMOTE(h->bits) == MACH_MSG_TYPE_PORT_SEND_ONCE) {
		claim_no_senders(h->remote);
		return MACH_MSG_SUCCESS;
	}
	out = ipc_kmsg_alloc(CLAIM_REPLY_MAX);
	if (out == NULL)
		return KERN_RESOURCE_SHORTAGE;
	(void)claim_server(ipc_kmsg_msg(request), ipc_kmsg_msg(out));
	kr = ((mig_reply_header_t *)ipc_kmsg_msg(out))->RetCode;
	*reply = out;
	return kr == KERN_SUCCESS ? MACH_MSG_SUCCESS : kr;
}

void dev_claim_init(void)
{
	ipc_kobject_set_handler(IKOT_CLAIM, claim_handle);
	dev_claim_reset_init();
}
