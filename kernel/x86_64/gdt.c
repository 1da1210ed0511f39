/* SPDX-License-Identifier: GPL-2.0-only */
/* GDT and TSS of the boot CPU, with separate stacks for double faults and NMIs. */
#include <stdint.h>

#include "x86_64/gdt.h"

#define DESC_CODE64	0x00af9a000000ffffull
#define DESC_DATA	0x00cf92000000ffffull
#define DESC_DPL3	(3ull << 45)
#define DESC_CODE32	0x00cf9a000000ffffull
#define TSS_TYPE	0x89ull	/* present, 64-bit available TSS */

#define IST_STACK_SIZE	8192

struct tss gdt_tss;

static uint64_t gdt[8];
static uint8_t ist_stacks[2][IST_STACK_SIZE] __attribute__((aligned(16)));

struct gdt_pointer {
	uint16_t limit;
	uint64_t base;
} __attribute__((packed));

static void gdt_set_tss(uint64_t *slot, struct tss *tss)
{
	uint64_t base = (uint64_t)tss;
	uint64_t limit = sizeof(*tss) - 1;

	slot[0] = (limit & 0xffff) | ((base & 0xffffff) << 16) |
		  (TSS_TYPE << 40) | (((limit >> 16) & 0xf) << 48) |
		  (((base >> 24) & 0xff) << 56);
	slot[1] = base >> 32;
}

void gdt_init(void)
{
	struct gdt_pointer p;

	gdt[0] = 0;
	gdt[SEL_KCODE >> 3] = DESC_CODE64;
	gdt[SEL_KDATA >> 3] = DESC_DATA;
	gdt[SEL_UCODE32 >> 3] = DESC_CODE32 | DESC_DPL3;
	gdt[SEL_UDATA >> 3] = DESC_DATA | DESC_DPL3;
	gdt[SEL_UCODE >> 3] = DESC_CODE64 | DESC_DPL3;
	gdt_tss.ist[IST_DOUBLE_FAULT - 1] =
		(uint64_t)&ist_stacks[0][IST_STACK_SIZE];
	gdt_tss.ist[IST_NMI - 1] = (uint64_t)&ist_stacks[1][IST_STACK_SIZE];
	gdt_tss.iomap_base = sizeof(gdt_tss);	/* no bitmap: all ports denied */
	for (unsigned int i = 0; i < TSS_IOMAP_BYTES; i++)
		gdt_tss.iomap[i] = 0xff;
	gdt_tss.iomap_end = 0xff;
	gdt_set_tss(&gdt[SEL_TSS >> 3], &gdt_tss);

	p.limit = sizeof(gdt) - 1;
	p.base = (uint64_t)gdt;
	__asm__ volatile(
		"lgdt %0\n\t"
		"pushq %1\n\t"
		"leaq 1f(%%rip), %%rax\n\t"
		"pushq %%rax\n\t"
		"lretq\n"
		"1:\n\t"
		"movl %2, %%eax\n\t"
		"movl %%eax, %%ds\n\t"
		"movl %%eax, %%es\n\t"
		"movl %%eax, %%ss\n\t"
		"xorl %%eax, %%eax\n\t"
		"movl %%eax, %%fs\n\t"
		"movl %%eax, %%gs\n\t"
		"ltr %w3"
		:
		: "m"(p), "i"(SEL_KCODE), "i"(SEL_KDATA), "r"(SEL_TSS)
		: "rax", "memory");
}
