/* SPDX-License-Identifier: GPL-2.0-only */
/* The two cascaded 8259A programmable interrupt controllers of the PC. */
#ifndef X86_64_PIC_H
#define X86_64_PIC_H

#include <stdbool.h>
#include <stdint.h>

#define PIC_LINES		16	/* 0-7 on the master, 8-15 on the slave */
#define PIC_CASCADE_LINE	2	/* the master input the slave drives */

/*
 * Nothing here takes a lock: callers run on the one CPU with interrupts
 * off (kern/intr.c wraps every call in cpu_intr_save/restore or runs from
 * intr_dispatch).
 */

/*
 * pic_init - initialise both controllers: line n raises vector
 * @vector_base + n (@vector_base a multiple of 8), normal (non-automatic)
 * end of interrupt, every line masked; each line's trigger stays as the
 * firmware set it in the chipset (pic_level_triggered).  Call once, with
 * interrupts off.
 */
void pic_init(unsigned int vector_base);

/*
 * pic_level_triggered - whether line @line (< PIC_LINES) is level
 * triggered (a PCI function's, as the firmware set the chipset's ELCR at
 * boot; never lines 0, 1, 2, 8, 13): its request stays asserted until the
 * device's handler clears it, and one still asserted at the end of
 * interrupt is taken again.  Known from pic_init on.
 */
bool pic_level_triggered(unsigned int line);

/*
 * pic_mask, pic_unmask - block or let through line @line (< PIC_LINES).
 * Unmasking a slave line (8-15) also opens the cascade input 2 on the
 * master; masking the last unmasked slave line closes it again, unless
 * line 2 itself was unmasked.
 */
void pic_mask(unsigned int line);
void pic_unmask(unsigned int line);

/* Whether @line is masked as the callers asked (line 2 may be open in the
 * hardware for the cascade while it reads as masked here). */
bool pic_is_masked(unsigned int line);

/* The interrupt mask registers as the hardware holds them: bit n set means
 * line n is masked (master in bits 0-7, slave in bits 8-15). */
uint16_t pic_hw_mask(void);

/*
 * pic_spurious - whether an interrupt that arrived on @line is spurious:
 * line 7 or 15 with its bit clear in the controller's in-service register
 * (the request went away before the CPU acknowledged it).  For a spurious
 * line 15 it has already sent the master the end of interrupt the cascade
 * needs; a spurious interrupt otherwise gets none.  False for other lines.
 */
bool pic_spurious(unsigned int line);

/* pic_eoi - end of interrupt for @line: to the slave and the master for
 * lines 8-15, to the master alone for 0-7. */
void pic_eoi(unsigned int line);

#endif
