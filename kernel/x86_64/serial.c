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

#define UART_IER_RDI	0x01
#define UART_MCR_OUT2	0x08	/* lets the interrupt reach the PIC */
#define UART_MCR_LOOP	0x10
#define LSR_DR		0x01

static uint8_t mcr = 0x03;

void serial_rx_interrupt(bool on)
{
	mcr = on ? mcr | UART_MCR_OUT2 : mcr & ~UART_MCR_OUT2;
	outb(COM1 + UART_MCR, mcr);
	outb(COM1 + UART_IER, on ? UART_IER_RDI : 0);
}

void serial_loopback(bool on)
{
	mcr = on ? mcr | UART_MCR_LOOP : mcr & ~UART_MCR_LOOP;
	outb(COM1 + UART_MCR, mcr);
}

int serial_getc_nowait(void)
{
	if (!(inb(COM1 + UART_LSR) & LSR_DR))
		return -1;
	return inb(COM1 + UART_DATA);
}
