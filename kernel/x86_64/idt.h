/* SPDX-License-Identifier: GPL-2.0-only */
/* The interrupt descriptor table: 256 gates into trap_entry.S. */
#ifndef X86_64_IDT_H
#define X86_64_IDT_H

#define IDT_VECTORS	256

/* Fill all 256 gates (interrupt gates, ring 0; double fault and NMI on their
 * own IST stacks) and load the IDT.  Call after gdt_init(). */
void idt_init(void);

#endif
