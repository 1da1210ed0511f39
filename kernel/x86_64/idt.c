/* SPDX-License-Identifier: GPL-2.0-only */
/* Builds and loads the IDT from the stub table of trap_entry.S. */
#include <stdint.h>

#include "x86_64/gdt.h"
#include "x86_64/idt.h"
#include "x86_64/trap.h"

#define GATE_INTERRUPT	0x8e	/* present, DPL 0, 64-bit interrupt gate */

struct idt_gate {
	uint16_t offset_low;
	uint16_t selector;
	uint8_t ist;
	uint8_t type;
	uint16_t offset_mid;
	uint32_t offset_high;
	uint32_t reserved;
} __attribute__((packed));

struct idt_pointer {
	uint16_t limit;
	uint64_t base;
} __attribute__((packed));

extern const uint64_t trap_stubs[IDT_VECTORS];

static struct idt_gate idt[IDT_VECTORS] __attribute__((aligned(16)));

static void idt_set(unsigned int vector, uint64_t handler, unsigned int ist)
{
	struct idt_gate *g = &idt[vector];

	g->offset_low = handler & 0xffff;
	g->selector = SEL_KCODE;
	g->ist = ist;
	g->type = GATE_INTERRUPT;
	g->offset_mid = (handler >> 16) & 0xffff;
	g->offset_high = handler >> 32;
	g->reserved = 0;
}

void idt_init(void)
{
	struct idt_pointer p;

	for (unsigned int v = 0; v < IDT_VECTORS; v++)
		idt_set(v, trap_stubs[v], 0);
	idt_set(TRAP_DF, trap_stubs[TRAP_DF], IST_DOUBLE_FAULT);
	idt_set(TRAP_NMI, trap_stubs[TRAP_NMI], IST_NMI);

	p.limit = sizeof(idt) - 1;
	p.base = (uint64_t)idt;
	__asm__ volatile("lidt %0" : : "m"(p));
}
