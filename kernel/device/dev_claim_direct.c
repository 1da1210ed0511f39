/* SPDX-License-Identifier: GPL-2.0-only */
/* A driver task's direct map (claim_direct_map): its DMA memory and the pages lent to it for streaming DMA, each at a fixed offset from its physical address. */
/*
 * A Linux world finds a page's physical address by subtracting one
 * constant from its virtual address (and back).  A driver task that
 * names the constant, @base, through one of its claims gets its claims'
 * DMA memory mapped at @base plus the memory's physical address; and
 * the proxy (dev_proxy_fwd.c) can then lend it the pages of a client's
 * request at @base plus theirs for the time the request is at the
 * server, so its device reads or writes them where they are, without a
 * copy.  RAM from 0 up to @top may appear there; the task keeps the
 * range free.  Physically contiguous pages are lent as one region.  A
 * lent page is mapped, never given: the proxy takes it
 * back when the server answers, after stopping the task's devices
 * (bus mastering off) if the server never answered.  A write's pages are
 * lent read-only: they may be the client's own, shared until it writes
 * them.  With DMA remapping on (x86_64/dmar.h), a lent page is also
 * mapped into the task's devices' domain, read-only for a write, and
 * out of it again before the proxy has it back.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "device/dev_claim.h"
#include "device/dev_claim_priv.h"
#include "device/ds_mig.h"
#include "ipc/ipc_port.h"
#include "kern/task.h"
#include "kern/task_port.h"
#include "vm/vm_map.h"
#include "vm/vm_page.h"
#include "x86_64/cpu.h"
#include "x86_64/dmar.h"
#include "x86_64/pci_config.h"

/* The largest @top: 64 TiB of RAM. */
#define DIRECT_TOP_MAX	(1ull << 46)

/* The claim holding @task's direct map (interrupts off), or NULL. */
static const struct dev_claim *direct_of(const struct ipc_port *task)
{
	for (const struct dev_claim *c = dev_claims; c != NULL; c = c->next)
		if (c->holder == task && c->direct_top != 0)
			return c;
	return NULL;
}

bool dev_claim_direct(const struct ipc_port *task, uint64_t *base,
		      uint64_t *top)
{
	uint64_t flags = cpu_intr_save();
	const struct dev_claim *c = direct_of(task);

	if (c != NULL) {
		*base = c->direct_base;
		*top = c->direct_top;
	}
	cpu_intr_restore(flags);
	return c != NULL;
}

/* claim.defs's claim_direct_map (the stub passes a looked-up claim, or
 * NULL): D_SUCCESS; D_NO_SUCH_DEVICE (no claim); D_INVALID_OPERATION (the
 * caller does not hold the claim; @base or @top 0 or not page aligned,
 * @top past 64 TiB, or the range past user space); D_ALREADY_OPEN (the
 * caller named its direct map already). */
kern_return_t dc_claim_direct_map(claim_t claim, vm_address_t base,
				  rpc_phys_addr_t top)
{
	struct dev_claim *c = CLAIM(claim);
	struct task *task = task_current();
	uint64_t flags;
	io_return_t rc = D_SUCCESS;

	if (c == NULL)
		return D_NO_SUCH_DEVICE;
	if (c->holder != task->itk_self || base == 0 || top == 0 ||
	    (base | top) % VM_PAGE_SIZE != 0 || top > DIRECT_TOP_MAX ||
	    base >= VM_MAX_ADDRESS || top > VM_MAX_ADDRESS - base)
		return D_INVALID_OPERATION;
	flags = cpu_intr_save();
	if (direct_of(task->itk_self) != NULL) {
		rc = D_ALREADY_OPEN;
	} else {
		c->direct_base = base;
		c->direct_top = top;
	}
	cpu_intr_restore(flags);
	return rc;
}

/* How many pages from @frames[@i] on (of @n) are physically
 * contiguous: they are lent as one region. */
static size_t run_of(const uint64_t *frames, size_t n, size_t i)
{
	size_t len = 1;

	while (i + len < n && frames[i + len] == frames[i] + len * VM_PAGE_SIZE)
		len++;
	return len;
}

void dev_claim_unlend(struct ipc_port *task, const uint64_t *frames,
		      size_t n)
{
	struct task *t = task_port_task(task);
	uint64_t base, top;
	size_t len;

	/* out of its devices' reach first, even if the task is gone: its
	 * claims (and their domain) may outlive it for a moment */
	for (size_t i = 0; i < n; i += len) {
		len = run_of(frames, n, i);
		dmar_unmap(task, frames[i], len * VM_PAGE_SIZE);
	}
	if (t == NULL || !dev_claim_direct(task, &base, &top))
		return;		/* gone with the task's map */
	for (size_t i = 0; i < n; i += len) {
		len = run_of(frames, n, i);
		(void)vm_map_take_back(t->map, base + frames[i], frames[i],
				       len * VM_PAGE_SIZE);
	}
}

io_return_t dev_claim_lend(struct ipc_port *task, const uint64_t *frames,
			   size_t n, bool writable)
{
	struct task *t = task_port_task(task);
	uint64_t base, top;

	if (t == NULL || !dev_claim_direct(task, &base, &top))
		return D_INVALID_OPERATION;
	for (size_t i = 0; i < n; i++)
		if (frames[i] % VM_PAGE_SIZE != 0 ||
		    frames[i] > top - VM_PAGE_SIZE)
			return D_INVALID_OPERATION;
	for (size_t i = 0, len; i < n; i += len) {
		uint64_t bytes;

		len = run_of(frames, n, i);
		bytes = len * VM_PAGE_SIZE;
		if (frames[i] > top - bytes ||
		    vm_map_lend_at(t->map, base + frames[i], frames[i],
				   bytes) != KERN_SUCCESS ||
		    (!writable && vm_map_protect(t->map, base + frames[i],
						 bytes, true, VM_PROT_READ) !=
		     KERN_SUCCESS) ||
		    dmar_map(task, frames[i], bytes, writable) !=
		    KERN_SUCCESS) {
			/* the runs before this one, and this one if it was
			 * mapped (take_back leaves what is not its) */
			dev_claim_unlend(task, frames, i + len);
			return D_INVALID_OPERATION;
		}
	}
	return D_SUCCESS;
}

void dev_claim_quiesce_task(const struct ipc_port *task)
{
	uint64_t flags = cpu_intr_save();

	for (struct dev_claim *c = dev_claims; c != NULL; c = c->next) {
		uint32_t command;

		if (c->isa || c->holder != task)
			continue;
		command = pci_config_read(c->bus, c->devfn, PCI_COMMAND, 2);
		pci_config_write(c->bus, c->devfn, PCI_COMMAND, 2,
				 command & ~PCI_COMMAND_MASTER);
	}
	cpu_intr_restore(flags);
}
