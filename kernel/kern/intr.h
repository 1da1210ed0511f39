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
 * Locking: one CPU; every function below but intr_dispatch() and
 * intr_init() may be called with interrupts on or off, from a handler too,
 * and keeps its state consistent by disabling interrupts around it.
 */

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

/*
 * intr_unregister - remove the handler @fn/@arg of @line; KERN_SUCCESS, or
 * KERN_INVALID_ARGUMENT if it is not registered.  Once it returns, the
 * handler is not called again; called from a handler of @line itself, it
 * takes effect from the next interrupt (that interrupt's handlers were
 * already chosen).
 */
kern_return_t intr_unregister(unsigned int line,
			      void (*fn)(unsigned int line, void *arg),
			      void *arg);

/* Number of handlers registered on @line; 0 for a line out of range. */
unsigned int intr_handler_count(unsigned int line);

/* Mask or unmask @line at the interrupt controller (only that line).  A
 * line out of range is a kernel bug: they panic. */
void intr_mask(unsigned int line);
void intr_unmask(unsigned int line);
bool intr_is_masked(unsigned int line);

/* Number of interrupts delivered on @line since boot (spurious ones not
 * counted); 0 for a line out of range. */
uint64_t intr_count(unsigned int line);

/* Number of spurious interrupts seen on @line since boot (only lines 7 and
 * 15 can have them); 0 for a line out of range. */
uint64_t intr_spurious_count(unsigned int line);

/*
 * intr_dispatch - called by trap_dispatch() for vectors INTR_VECTOR_BASE to
 * INTR_VECTOR_BASE + 15 with interrupts off: filters spurious IRQ 7/15
 * (counted apart, no handler runs), then runs the handlers.  An edge
 * triggered line is acknowledged at the controller before its handlers:
 * one that switches threads (the clock's tick hook) does not leave the
 * line blocked, and a new edge meanwhile waits in the controller until
 * interrupts are on again.  A level triggered line (a PCI function's,
 * pic_level_triggered) is acknowledged after them: its handlers must have
 * cleared the device's request or masked the line by then (else the
 * request is taken again) and must not switch threads; acknowledged
 * before, a request still asserted would be taken again at once and reach
 * the CPU as a spurious IRQ 15 once the handler cleared it.  Handlers run
 * with interrupts off and must not block.
 */
void intr_dispatch(unsigned int line);

/* intr_init - program the controller (all lines masked) and enable
 * interrupts at the CPU.  Called once at boot after idt_init(). */
void intr_init(void);

#endif
