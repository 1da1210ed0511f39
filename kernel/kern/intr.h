/* SPDX-License-Identifier: GPL-2.0-only */
/* Hardware interrupt lines: handlers, per-line masking, dispatch. */
#ifndef KERN_INTR_H
#define KERN_INTR_H

#include <stdbool.h>
#include <stdint.h>

#include <mach/kern_return.h>

#define INTR_LINES		16	/* legacy PIC lines 0-15 */
#define INTR_VECTOR_BASE	32	/* line n arrives on vector 32 + n */
#define INTR_MAX_HANDLERS	4	/* per line (shared PCI INTx lines) */

/*
 * intr_register - call @fn(@line, @arg) on every interrupt of @line.
 * Several handlers may share a line; each is called in registration order.
 * Does not unmask the line.  Returns KERN_SUCCESS, KERN_INVALID_ARGUMENT
 * (line out of range, fn NULL) or KERN_NO_SPACE (line has
 * INTR_MAX_HANDLERS handlers).
 */
kern_return_t intr_register(unsigned int line,
			    void (*fn)(unsigned int line, void *arg),
			    void *arg);

/* intr_unregister - remove the handler @fn/@arg of @line; KERN_SUCCESS, or
 * KERN_INVALID_ARGUMENT if it is not registered. */
kern_return_t intr_unregister(unsigned int line,
			      void (*fn)(unsigned int line, void *arg),
			      void *arg);

/* Mask or unmask @line at the interrupt controller (only that line). */
void intr_mask(unsigned int line);
void intr_unmask(unsigned int line);
bool intr_is_masked(unsigned int line);

/* Number of interrupts delivered on @line since boot (spurious ones not
 * counted). */
uint64_t intr_count(unsigned int line);

/*
 * intr_dispatch - called by trap_dispatch() for vectors INTR_VECTOR_BASE to
 * INTR_VECTOR_BASE + 15 with interrupts off: filters spurious IRQ 7/15,
 * runs the handlers, acknowledges the controller.  Handlers run with
 * interrupts off and must not block.
 */
void intr_dispatch(unsigned int line);

/* intr_init - program the controller (all lines masked) and enable
 * interrupts at the CPU.  Called once at boot after idt_init(). */
void intr_init(void);

#endif
