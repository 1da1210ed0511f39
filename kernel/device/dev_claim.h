/* SPDX-License-Identifier: GPL-2.0-only */
/* Claims of PCI functions and ISA I/O ranges: each has at most one owner, and a user-mode driver reaches its device only through its claim. */
#ifndef DEVICE_DEV_CLAIM_H
#define DEVICE_DEV_CLAIM_H

#include <stdbool.h>
#include <stddef.h>
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
 * ports of its I/O BARs and the fixed ports it decodes beside them (a
 * compatibility IDE channel's, dev_claim_legacy.c; granted to the asking
 * task until the claim ends), its memory BARs mapped uncached
 * (vm_map_lend), its interrupt line and the ISA lines it raises as
 * messages (kernel/device/dev_intr.h), and DMA
 * memory that belongs to the claim (contiguous, below a limit; charged
 * to the claiming task's ledger, LEDGER_DMA_BYTES), mapped at the task's
 * direct map if it named one (below), where the proxy also lends it the
 * pages of clients' requests for streaming DMA.
 *
 * An ISA claim (dev_claim_isa) holds an I/O range instead of a
 * function: granted as its BAR 0, with DMA memory as a PCI claim's, and
 * the interrupt lines its driver registers one by one (any line no other
 * owner holds: not the kernel's own, not a PCI claim's, not registered
 * nor handled by the kernel, not raised by a claimed function).  The
 * claim_pci_* routines answer
 * D_INVALID_OPERATION on it.  When it ends its lines go first (an ISA
 * card has no bus-mastering bit to clear), then as for a PCI claim.
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
 * bridge; D_WOULD_BLOCK while it is being reset after its last claim
 * ended (dev_claim_reset_method: at most about 120 ms; try again);
 * D_NO_MEMORY (also: none for its DMA remapping domain).  Under DMA
 * remapping (x86_64/dmar.h) the function is confined to the task's
 * domain; when the claim ends it is blocked (no DMA) before its DMA
 * memory is freed; a kernel claim puts it back in pass-through.
 */
io_return_t dev_claim_pci(unsigned int bus, unsigned int slot,
			  unsigned int function, struct ipc_port **port);

/*
 * dev_claim_kernel - claim function @devfn of @bus for the kernel's own
 * drivers; dev_claim_kernel_release - give it back.  D_SUCCESS,
 * D_ALREADY_OPEN (a task or the kernel holds it, or a bridge),
 * D_WOULD_BLOCK (being reset),
 * D_NO_SUCH_DEVICE, D_NO_MEMORY; release: D_SUCCESS or
 * D_NO_SUCH_DEVICE (the kernel held no such claim).
 */
io_return_t dev_claim_kernel(unsigned int bus, unsigned int devfn);
io_return_t dev_claim_kernel_release(unsigned int bus, unsigned int devfn);

/*
 * dev_claim_isa - claim.defs's claim_isa for the calling task: ports
 * [@base, @base + @size).  *@port gets a send right to the new claim's
 * port.  D_SUCCESS; D_INVALID_SIZE for @size out of 1-0x400;
 * D_INVALID_OPERATION for a range outside 0-0xffff; D_ALREADY_OPEN if a
 * port of it is another claim's (the kernel's or a task's), in an I/O
 * BAR or the legacy ports (compatibility IDE, VGA) of a function of bus
 * 0, or the kernel's own (the system board's below 0x100, COM1, the
 * PICs' 0x4d0-0x4d1, 0xcf8-0xcff, the emulators' exit ports);
 * D_NO_MEMORY (memory, or 8 ISA claims alive).
 * dev_claim_kernel_isa - the same range for the kernel's own drivers
 * (no port; held for good), same codes.
 */
io_return_t dev_claim_isa(int base, int size, struct ipc_port **port);
io_return_t dev_claim_kernel_isa(int base, int size);

/* Whether an ISA claim's range starts at @base (*@by_task: a task's, if
 * not NULL); the lines registered through it, bit n for line n (for
 * tests). */
bool dev_claim_isa_held(unsigned int base, bool *by_task);
unsigned int dev_claim_isa_lines(unsigned int base);

/*
 * A driver task's direct map (dev_claim_direct.c, claim_direct_map),
 * @task its task port.  dev_claim_direct - whether @task named one:
 * RAM [0, *@top) at *@base plus the physical address.  dev_claim_lend -
 * map each page @frames[i] (@n physical addresses, page aligned) into
 * @task there, read-only unless @writable: D_SUCCESS, or
 * D_INVALID_OPERATION (no direct map, a page past its top, an address
 * in use; nothing lent).  dev_claim_unlend -
 * take those pages back (nothing if @task died).
 * dev_claim_quiesce_task - switch bus mastering off in every PCI
 * function @task claimed: its devices stop reaching memory.
 * Interrupts on or off, not in an interrupt handler.
 */
bool dev_claim_direct(const struct ipc_port *task, uint64_t *base,
		      uint64_t *top);
io_return_t dev_claim_lend(struct ipc_port *task, const uint64_t *frames,
			   size_t n, bool writable);
void dev_claim_unlend(struct ipc_port *task, const uint64_t *frames,
		      size_t n);
void dev_claim_quiesce_task(const struct ipc_port *task);

/* Whether function @devfn of @bus is claimed, and how many claims of
 * tasks (PCI and ISA) are alive (for tests and leak checks). */
bool dev_claim_held(unsigned int bus, unsigned int devfn);
unsigned int dev_claim_count(void);

/* The MIG translations claim.defs names for claim_t are declared in
 * ds_mig.h (the generated stubs' types). */

/* dev_claim_init - register the claim ports' handler (once, from
 * device_init). */
void dev_claim_init(void);

/*
 * The reset of a function whose task's claim ended (dev_claim_reset.c):
 * dev_claim_reset_method - how function @devfn of @bus can be reset:
 * DEV_CLAIM_RESET_FLR (PCI Express Function Level Reset), _PM (D3hot to
 * D0, No_Soft_Reset clear) or _NONE; dev_claim_resetting - whether it is
 * being reset now; dev_claim_resets_done - how many resets completed
 * since boot.  Any context; never block.
 */
enum dev_claim_reset_method {
	DEV_CLAIM_RESET_NONE,
	DEV_CLAIM_RESET_FLR,
	DEV_CLAIM_RESET_PM,
};
enum dev_claim_reset_method dev_claim_reset_method(unsigned int bus,
						   unsigned int devfn);
bool dev_claim_resetting(unsigned int bus, unsigned int devfn);
unsigned int dev_claim_resets_done(void);

#endif
