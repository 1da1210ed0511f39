/* SPDX-License-Identifier: GPL-2.0-only */
/* DMA remapping (Intel VT-d): a driver task's PCI functions reach only the memory the kernel maps for them. */
#ifndef X86_64_DMAR_H
#define X86_64_DMAR_H

#include <stdbool.h>
#include <stdint.h>

#include <mach/kern_return.h>

/*
 * With one remapping unit on PCI segment 0 (the ACPI DMAR table's DRHD,
 * as QEMU's intel-iommu on q35 has), translation is on from dmar_init.
 * The unit covers every function (INCLUDE_PCI_ALL) or those its device
 * scopes list (endpoints; bridges with the buses below them: QEMU lists
 * the devices present at start).  Each function it covers, on the buses
 * the firmware numbered, is in one of three states:
 *   pass-through  its DMA reaches all memory, as without a unit: every
 *                 function at boot, and the kernel's own drivers'
 *                 (dmar_passthrough);
 *   confined      in its owner's domain (dmar_attach): its DMA reaches
 *                 the pages dmar_map put there, and the domain's sink
 *                 elsewhere; device address = physical address, so
 *                 drivers are given physical addresses as without a
 *                 unit;
 *   blocked       in nowhere's domain (dmar_block), which maps nothing
 *                 but its sink: a function whose task's claim ended,
 *                 until it is claimed again.
 * A domain belongs to an owner (a driver task: any unique pointer), is
 * made by the first dmar_attach of its owner, and goes, tables and
 * mappings with it, when its last function leaves it.
 *
 * The sink is a page of the domain's own that every address nothing
 * else maps leads to (below the unit's address width), so a device's
 * DMA there neither reaches other memory nor faults: a fault would
 * leave QEMU 7.2's IDE model with a transfer that never ends, and its
 * next cancel aborts QEMU.  A write into a sink is found by
 * dmar_absorbed_poll (the page emptied again); a read returns what is
 * there.  Addresses past the unit's width still fault.
 *
 * Without such a unit (none, several, no pass-through support, or
 * "dmar=off" on the command line)
 * every function is pass-through: the calls below succeed and do
 * nothing, and dmar_on says false.
 *
 * Faults are recorded by the unit; dmar_faults_poll and
 * dmar_absorbed_poll (every 100 ms, and the first from dmar_block) count
 * them and the writes sinks absorbed, and print the first ones.
 *
 * Locking: one CPU; every function disables interrupts while it works
 * and none blocks, so they may be called with interrupts on or off, not
 * from an interrupt handler.
 */

/* dmar_init - find the unit and turn translation on (see above); prints
 * one line either way.  Once, after clock_init, before any claim. */
void dmar_init(const char *cmdline);

/* Whether translation is on. */
bool dmar_on(void);

/*
 * dmar_attach - confine function @devfn of @bus to @owner's domain,
 * making the domain if @owner has none.  KERN_SUCCESS (also with
 * translation off, and for a function the unit does not cover, with a
 * console line saying it is not confined); KERN_INVALID_ARGUMENT (@bus
 * or @devfn out of range, @owner NULL); KERN_RESOURCE_SHORTAGE (no page
 * for a table, or every domain id in use).  Whatever the function could
 * reach before is out of its reach when this returns.
 */
kern_return_t dmar_attach(unsigned int bus, unsigned int devfn,
			  const void *owner);

/* dmar_block - function @devfn of @bus reaches nothing but a sink from
 * when it returns; its domain goes if it was the last function in it.
 * dmar_passthrough - all memory for it (the kernel's own driver). */
void dmar_block(unsigned int bus, unsigned int devfn);
void dmar_passthrough(unsigned int bus, unsigned int devfn);

/*
 * dmar_map - make [@pa, @pa + @bytes) (page aligned) reachable at the
 * same device address by @owner's functions, writable or read-only.
 * KERN_SUCCESS (also when @owner has no domain, or translation is off:
 * nothing to do); KERN_INVALID_ARGUMENT (not page aligned, past the
 * unit's address width); KERN_RESOURCE_SHORTAGE (no page for a table:
 * nothing of the range is left mapped).
 * dmar_unmap - take such a range out again; no function of @owner's
 * reaches it when this returns (the unit's caches invalidated).
 */
kern_return_t dmar_map(const void *owner, uint64_t pa, uint64_t bytes,
		       bool writable);
void dmar_unmap(const void *owner, uint64_t pa, uint64_t bytes);

/* dmar_faults_poll - read and clear the unit's fault records, counting
 * and printing them; returns how many DMA requests the unit refused
 * since boot.  dmar_absorbed_poll - empty the sinks devices wrote into,
 * counting and printing them; returns how many it found since boot.
 * dmar_domains - domains alive (not nowhere's).  dmar_state - 0
 * blocked, 1 confined, 2 pass-through, -1 not translated (for tests). */
uint64_t dmar_faults_poll(void);
uint64_t dmar_absorbed_poll(void);
unsigned int dmar_domains(void);
int dmar_state(unsigned int bus, unsigned int devfn);

#endif
