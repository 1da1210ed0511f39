/* SPDX-License-Identifier: GPL-2.0-only */
/* PCI claims: each function has at most one owner, and a user-mode driver reaches its device only through its claim. */
#ifndef DEVICE_DEV_CLAIM_H
#define DEVICE_DEV_CLAIM_H

#include <stdbool.h>
#include <stdint.h>

#include <device/device_types.h>

struct ipc_port;

/*
 * A PCI function belongs to at most one owner: the kernel (its Linux
 * world claims the functions its drivers bind, dev_claim_kernel), or the
 * holder of a claim port (claim.defs's claim_pci, for a user-mode
 * driver).  Bridges (class 0x06) are the platform's: never claimed.
 *
 * A task's claim gives it what its driver needs of that function and
 * nothing else: its identity and BARs (sized once, at the claim),
 * configuration space through the kernel (arbitrated: no task is given
 * ports 0xCF8-0xCFF; the BARs and the expansion ROM register cannot be
 * written, so a claim cannot move its device over another's), the I/O
 * ports of its I/O BARs (granted to the asking task until the claim
 * ends), its memory BARs mapped uncached (vm_map_lend) and
 * its interrupt line as messages (kernel/device/dev_intr.h), and DMA
 * memory that belongs to the claim (contiguous, below a limit; charged
 * to the claiming task's ledger, LEDGER_DMA_BYTES).  Not yet served
 * through a claim: ISA I/O ranges, and the pages of a client's buffer
 * for streaming DMA.
 *
 * A claim ends when the last send right to its port goes (the holder
 * deallocated it, or died).  Its device is then quiesced before anything
 * is given back: bus mastering off (PCI_COMMAND's master bit cleared),
 * the interrupt registration dropped and the line masked; then the I/O
 * grants are withdrawn and the BAR and DMA mappings removed from the
 * tasks still alive, and the DMA memory freed: no page is reused while
 * the device could still write it.
 *
 * Locking: one CPU; every function disables interrupts around the claim
 * table; none blocks.  Return codes are D_* (device_types.h).
 */

struct dev_claim;

/*
 * dev_claim_pci - claim.defs's claim_pci for the calling task: @bus
 * (0-255), @slot (0-31), @function (0-7).  *@port gets a send right to
 * the new claim's port.  D_SUCCESS; D_INVALID_OPERATION for numbers out
 * of range; D_NO_SUCH_DEVICE if no function answers there;
 * D_ALREADY_OPEN if it is claimed (by the kernel or a task) or is a
 * bridge; D_NO_MEMORY.
 */
io_return_t dev_claim_pci(unsigned int bus, unsigned int slot,
			  unsigned int function, struct ipc_port **port);

/*
 * dev_claim_kernel - claim function @devfn of @bus for the kernel's own
 * drivers; dev_claim_kernel_release - give it back.  D_SUCCESS,
 * D_ALREADY_OPEN (a task or the kernel holds it, or a bridge),
 * D_NO_SUCH_DEVICE, D_NO_MEMORY; release: D_SUCCESS or
 * D_NO_SUCH_DEVICE (the kernel held no such claim).
 */
io_return_t dev_claim_kernel(unsigned int bus, unsigned int devfn);
io_return_t dev_claim_kernel_release(unsigned int bus, unsigned int devfn);

/* Whether function @devfn of @bus is claimed, and how many claims of
 * tasks are alive (for tests and leak checks). */
bool dev_claim_held(unsigned int bus, unsigned int devfn);
unsigned int dev_claim_count(void);

/* The MIG translations claim.defs names for claim_t are declared in
 * ds_mig.h (the generated stubs' types). */

/* dev_claim_init - register the claim ports' handler (once, from
 * device_init). */
void dev_claim_init(void);

#endif
