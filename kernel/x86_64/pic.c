/* SPDX-License-Identifier: GPL-2.0-only */
/* The 8259A pair: remapping, per-line masks, EOI, spurious interrupts. */
/*
 * Why the legacy PIC and not the IOAPIC and local APIC: Graft runs on one
 * CPU, so nothing needs the APICs' routing between processors; QEMU's pc
 * machine and Bochs both have the 8259A pair at the usual ports, so the
 * same code serves both emulators; and what the paper's section 3.5.2
 * needs from the controller -- masking one line while a driver outside
 * the kernel handles it, and unmasking it when the driver is done -- is
 * exactly the 8259A's interrupt mask register.  An IOAPIC driver can later
 * replace this file behind kern/intr.h without its callers noticing.
 *
 * Lines 0-7 sit on the master (ports 0x20/0x21), 8-15 on the slave
 * (0xa0/0xa1), whose output enters the master on input 2.  Reset leaves
 * the master on vectors 8-15, the CPU's exceptions, hence the remap.
 * The firmware sets the lines it gave PCI functions to level triggered
 * in the chipset's edge/level control registers (ELCR, ports
 * 0x4d0/0x4d1, PIIX3 and ICH9 alike); pic_init reads them.
 */
#include <stdbool.h>
#include <stdint.h>

#include "x86_64/cpu.h"
#include "x86_64/pic.h"

#define MASTER_CMD	0x20
#define MASTER_DATA	0x21
#define SLAVE_CMD	0xa0
#define SLAVE_DATA	0xa1

#define ICW1_ICW4	0x01	/* an ICW4 follows */
#define ICW1_INIT	0x10	/* start initialisation (edge, cascade) */
#define ICW4_8086	0x01	/* 8086 mode, normal end of interrupt */
#define OCW2_EOI	0x20	/* non-specific end of interrupt */
#define OCW3_READ_ISR	0x0b	/* next read of the command port: ISR */

#define SPURIOUS_BIT	0x80	/* input 7 of either controller */

#define ELCR_MASTER	0x4d0
#define ELCR_SLAVE	0x4d1
/* Lines the ELCR cannot make level triggered (the timer, keyboard,
 * cascade, RTC and FPU error): their bits are reserved. */
#define ELCR_RESERVED	((1u << 0) | (1u << 1) | (1u << 2) | (1u << 8) | \
			 (1u << 13))

/* Bit n set: line n is level triggered (pic_init). */
static uint16_t level;

/* Bit n set: line n masked, as asked through pic_mask/pic_unmask. */
static uint16_t wanted = 0xffff;

/* A short pause between initialisation words, which old 8259As need: a
 * write to the unused POST diagnostic port 0x80. */
static void pic_delay(void)
{
	outb(0x80, 0);
}

/* Write the masks the hardware must hold for @wanted. */
static void pic_write_masks(void)
{
	uint8_t master = wanted & 0xff;
	uint8_t slave = wanted >> 8;

	if (slave != 0xff)
		master &= ~(1u << PIC_CASCADE_LINE);
	outb(MASTER_DATA, master);
	outb(SLAVE_DATA, slave);
}

void pic_init(unsigned int vector_base)
{
	outb(MASTER_CMD, ICW1_INIT | ICW1_ICW4);
	pic_delay();
	outb(SLAVE_CMD, ICW1_INIT | ICW1_ICW4);
	pic_delay();
	outb(MASTER_DATA, vector_base);			/* ICW2: vectors */
	pic_delay();
	outb(SLAVE_DATA, vector_base + 8);
	pic_delay();
	outb(MASTER_DATA, 1u << PIC_CASCADE_LINE);	/* ICW3: slave on 2 */
	pic_delay();
	outb(SLAVE_DATA, PIC_CASCADE_LINE);		/* ICW3: its identity */
	pic_delay();
	outb(MASTER_DATA, ICW4_8086);
	pic_delay();
	outb(SLAVE_DATA, ICW4_8086);
	pic_delay();

	wanted = 0xffff;
	pic_write_masks();
	level = (inb(ELCR_MASTER) | (uint16_t)inb(ELCR_SLAVE) << 8) &
		~ELCR_RESERVED;
}

bool pic_level_triggered(unsigned int line)
{
	return level & (1u << line);
}

void pic_mask(unsigned int line)
{
	wanted |= 1u << line;
	pic_write_masks();
}

void pic_unmask(unsigned int line)
{
	wanted &= ~(1u << line);
	pic_write_masks();
}

bool pic_is_masked(unsigned int line)
{
	return wanted & (1u << line);
}

uint16_t pic_hw_mask(void)
{
	return inb(MASTER_DATA) | (uint16_t)inb(SLAVE_DATA) << 8;
}

static uint8_t pic_read_isr(uint16_t cmd_port)
{
	outb(cmd_port, OCW3_READ_ISR);
	return inb(cmd_port);
}

bool pic_spurious(unsigned int line)
{
	if (line == 7)
		return !(pic_read_isr(MASTER_CMD) & SPURIOUS_BIT);
	if (line == 15 && !(pic_read_isr(SLAVE_CMD) & SPURIOUS_BIT)) {
		/* The master did take a real request from the slave. */
		outb(MASTER_CMD, OCW2_EOI);
		return true;
	}
	return false;
}

void pic_eoi(unsigned int line)
{
	if (line >= 8)
		outb(SLAVE_CMD, OCW2_EOI);
	outb(MASTER_CMD, OCW2_EOI);
}
