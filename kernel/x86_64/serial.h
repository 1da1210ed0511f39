/* SPDX-License-Identifier: GPL-2.0-only */
/* The COM1 UART (16550) used as Graft's console. */
#ifndef X86_64_SERIAL_H
#define X86_64_SERIAL_H

#include <stdbool.h>

/* Program COM1 for 115200 baud, 8N1, FIFOs on, interrupts off. */
void serial_init(void);

/* Send one byte, waiting for the transmit holding register to empty (Bochs
 * drops bytes written to a full FIFO).  Callable from any context. */
void serial_putc(int c);

/* COM1's IRQ line (the console device reads input from it). */
#define SERIAL_IRQ	4

/* Raise (or stop raising) an interrupt on SERIAL_IRQ when a byte has
 * arrived.  Interrupts on or off. */
void serial_rx_interrupt(bool on);

/* Loop transmitted bytes back into the receiver instead of the line (the
 * UART's self-test mode), for tests of the receive path.  Call with
 * interrupts off and turn it off before they are on again: meanwhile
 * console output goes nowhere. */
void serial_loopback(bool on);

/* The next byte received, or -1 if none is waiting.  Any context. */
int serial_getc_nowait(void);
#endif
