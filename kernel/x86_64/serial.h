/* SPDX-License-Identifier: GPL-2.0-only */
/* The COM1 UART (16550) used as Graft's console. */
#ifndef X86_64_SERIAL_H
#define X86_64_SERIAL_H

/* Program COM1 for 115200 baud, 8N1, FIFOs on, interrupts off. */
void serial_init(void);

/* Send one byte, waiting for the transmit holding register to empty (Bochs
 * drops bytes written to a full FIFO).  Callable from any context. */
void serial_putc(int c);

#endif
