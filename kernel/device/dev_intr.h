/* SPDX-License-Identifier: GPL-2.0-only */
/* The "irq" device: interrupt lines delivered as messages to user drivers. */
#ifndef DEVICE_DEV_INTR_H
#define DEVICE_DEV_INTR_H

#include <stdbool.h>

#include <device/device_types.h>

struct device;
struct ipc_port;

/*
 * dev_intr_register - device_intr_register on @dev (the "irq" device,
 * as on GNU Mach): from now on each interrupt of line @id masks the line
 * and sends a device_intr_notification_t (device/notify.h, id
 * DEVICE_INTR_NOTIFY) to @port (a send right, consumed on D_SUCCESS);
 * the line stays masked until dev_intr_ack.  Returns D_SUCCESS;
 * D_INVALID_OPERATION for another device, @flags other than 0, a line
 * out of range or one the kernel drives itself (0 clock, 2 cascade, 4
 * console), or a @port that is null, dead or a kernel object's;
 * D_ALREADY_OPEN if the line is registered, or has a kernel handler (a
 * Linux driver's: not shared); D_NO_MEMORY when the calling task holds
 * LEDGER_INTR_LINES lines already (kern/ledger.h), or memory is short.
 * A registration ends the moment its port dies: the line is masked and
 * free again, even if it was waiting for its acknowledgement.
 */
io_return_t dev_intr_register(struct device *dev, int id, int flags,
			      struct ipc_port *port);

/*
 * dev_intr_attach - the registration of dev_intr_register, for line
 * @line, tagged with @owner (a claim, kernel/device/dev_claim.h; NULL
 * for the irq device's): the same checks but the device's, and the same
 * codes; charged to the calling task's LEDGER_INTR_LINES if @charge
 * (an ISA claim's lines are not: they end with the claim, and autoIRQ
 * takes every free line for a moment).  dev_intr_ack_owner -
 * acknowledge @line for @owner: D_SUCCESS, or D_INVALID_OPERATION if
 * @owner has no registration of @line waiting for one.
 * dev_intr_detach - drop @owner's registration of @line if there is one
 * (the line is masked).  dev_intr_owned - whether @owner has a
 * registration of @line.  Interrupts on or off, not in an interrupt
 * handler.
 */
io_return_t dev_intr_attach(unsigned int line, struct ipc_port *port,
			    const void *owner, bool charge);
io_return_t dev_intr_ack_owner(unsigned int line, const void *owner);
void dev_intr_detach(unsigned int line, const void *owner);
bool dev_intr_owned(unsigned int line, const void *owner);

/*
 * dev_intr_ack - device_intr_ack: the driver behind @port (a send right,
 * consumed on D_SUCCESS) has handled the interrupt it was sent; unmask
 * the line.  D_SUCCESS; D_INVALID_OPERATION for another device, a port
 * with no registration, or a line not waiting for its acknowledgement.
 */
io_return_t dev_intr_ack(struct device *dev, struct ipc_port *port);

/* dev_intr_kernel_line - whether the kernel drives line @line itself (0
 * clock, 2 cascade, 4 console): never registered. */
bool dev_intr_kernel_line(unsigned int line);

/* dev_intr_init - start the thread that sends the notifications (once,
 * at boot). */
void dev_intr_init(void);

/* dev_intr_probe_set - the benchmarks' hook: @fn(@line) is called first
 * thing in the interrupt handler of a registered line (interrupt
 * context); NULL removes it. */
void dev_intr_probe_set(void (*fn)(unsigned int line));

/* Whether line @line has a registration, and how many lines have one
 * (for tests and leak checks). */
bool dev_intr_registered(unsigned int line);
unsigned int dev_intr_count(void);

#endif
