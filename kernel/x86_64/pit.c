/* SPDX-License-Identifier: GPL-2.0-only */
/* The 8254 timer: channel 0 as the tick, channel 2 as a polled one-shot. */
#include <stdbool.h>
#include <stdint.h>

#include "kern/panic.h"
#include "x86_64/cpu.h"
#include "x86_64/pit.h"

#define PIT_CH0		0x40
#define PIT_CH2		0x42
#define PIT_CMD		0x43

#define CMD_CH0		0x00
#define CMD_CH2		0x80
#define CMD_LOHI	0x30	/* low byte, then high byte of the count */
#define CMD_MODE0	0x00	/* interrupt on terminal count */
#define CMD_MODE2	0x04	/* rate generator */

#define PORT_B		0x61	/* system control port B */
#define PORTB_GATE2	0x01	/* channel 2 gate */
#define PORTB_SPEAKER	0x02	/* channel 2 output to the speaker */
#define PORTB_WRITABLE	0x0f	/* the bits a write sets; the rest are status */
#define PORTB_OUT2	0x20	/* channel 2 output (read only) */

void pit_ch0_periodic(unsigned int hz)
{
	uint32_t divisor;

	if (hz < 19 || hz > PIT_INPUT_HZ / 2)
		panic("PIT: no 16-bit divisor gives %u Hz", hz);
	divisor = (PIT_INPUT_HZ + hz / 2) / hz;
	outb(PIT_CMD, CMD_CH0 | CMD_LOHI | CMD_MODE2);
	outb(PIT_CH0, divisor & 0xff);
	outb(PIT_CH0, divisor >> 8);
}

void pit_ch2_oneshot(uint16_t count)
{
	uint8_t b = inb(PORT_B) & PORTB_WRITABLE;

	/* Gate open first: mode 0 then counts from the count's loading. */
	outb(PORT_B, (b & ~PORTB_SPEAKER) | PORTB_GATE2);
	outb(PIT_CMD, CMD_CH2 | CMD_LOHI | CMD_MODE0);	/* output goes low */
	outb(PIT_CH2, count & 0xff);
	outb(PIT_CH2, count >> 8);
}

bool pit_ch2_expired(void)
{
	return inb(PORT_B) & PORTB_OUT2;
}

void pit_ch2_stop(void)
{
	uint8_t b = inb(PORT_B) & PORTB_WRITABLE;

	outb(PORT_B, b & ~(PORTB_GATE2 | PORTB_SPEAKER));
}
