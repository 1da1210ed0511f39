/* SPDX-License-Identifier: GPL-2.0-only */
/* Polled output on the COM1 UART. */
#include "x86_64/cpu.h"
#include "x86_64/serial.h"

#define COM1		0x3f8
#define UART_DATA	0
#define UART_IER	1
#define UART_FCR	2
#define UART_LCR	3
#define UART_MCR	4
#define UART_LSR	5
#define LSR_THRE	0x20
#define LCR_DLAB	0x80
#define LCR_8N1		0x03

void serial_init(void)
{
	outb(COM1 + UART_IER, 0);
	outb(COM1 + UART_LCR, LCR_DLAB);
	outb(COM1 + UART_DATA, 1);	/* divisor 1: 115200 baud */
	outb(COM1 + UART_IER, 0);
	outb(COM1 + UART_LCR, LCR_8N1);
	outb(COM1 + UART_FCR, 0x07);	/* enable and clear FIFOs */
	outb(COM1 + UART_MCR, 0x03);	/* DTR, RTS */
}

void serial_putc(int c)
{
	while (!(inb(COM1 + UART_LSR) & LSR_THRE))
		;
	outb(COM1 + UART_DATA, (uint8_t)c);
}
