/* SPDX-License-Identifier: GPL-2.0-only */
/* The global descriptor table and the task-state segment. */
#ifndef X86_64_GDT_H
#define X86_64_GDT_H

/*
 * Selectors.  The user selectors follow the order SYSRET expects (32-bit
 * code, data, 64-bit code) so that system calls can use it later.
 */
#define SEL_KCODE	0x08
#define SEL_KDATA	0x10
#define SEL_UCODE32	0x1b
#define SEL_UDATA	0x23
#define SEL_UCODE	0x2b
#define SEL_TSS		0x30

/* Interrupt stack table slots (1-based, as IDT gates name them). */
#define IST_DOUBLE_FAULT	1
#define IST_NMI			2

/* Bytes of the I/O permission bitmap: one bit per port 0..0xffff. */
#define TSS_IOMAP_BYTES		8192

#ifndef __ASSEMBLER__
#include <stdint.h>

/*
 * The TSS with its I/O permission bitmap (a set bit denies the port to
 * user mode) and the 0xff byte the CPU needs after it; the segment limit
 * covers both.  iomap_base selects: offsetof(struct tss, iomap) when the
 * running task has a bitmap, sizeof(struct tss) (beyond the limit: every
 * port denied) when it has none.  x86_64/io_bitmap.c manages both.
 */
struct tss {
	uint32_t reserved0;
	uint64_t rsp[3];
	uint64_t reserved1;
	uint64_t ist[7];
	uint64_t reserved2;
	uint16_t reserved3;
	uint16_t iomap_base;
	uint8_t iomap[TSS_IOMAP_BYTES];
	uint8_t iomap_end;		/* always 0xff */
} __attribute__((packed));

/* Load Graft's GDT and TSS, reload every segment register.  Called once on
 * the boot CPU before interrupts are enabled. */
void gdt_init(void);

/* The boot CPU's TSS (read by tests; rsp[0] is set by the scheduler later). */
extern struct tss gdt_tss;
#endif

#endif
