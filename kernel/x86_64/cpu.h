/* SPDX-License-Identifier: GPL-2.0-only */
/* Single x86_64 instructions as inline functions: port I/O, control registers, MSRs, TSC. */
#ifndef X86_64_CPU_H
#define X86_64_CPU_H

#include <stdint.h>

#define MSR_EFER	0xc0000080
#define EFER_LMA	(1u << 10)
#define CR0_PG		(1ul << 31)
#define CR4_PAE		(1ul << 5)

static inline void outb(uint16_t port, uint8_t v)
{
	__asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port));
}

static inline uint8_t inb(uint16_t port)
{
	uint8_t v;

	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline void outw(uint16_t port, uint16_t v)
{
	__asm__ volatile("outw %0, %1" : : "a"(v), "Nd"(port));
}

static inline uint16_t inw(uint16_t port)
{
	uint16_t v;

	__asm__ volatile("inw %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline void outl(uint16_t port, uint32_t v)
{
	__asm__ volatile("outl %0, %1" : : "a"(v), "Nd"(port));
}

static inline uint32_t inl(uint16_t port)
{
	uint32_t v;

	__asm__ volatile("inl %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline uint64_t read_cr0(void)
{
	uint64_t v;

	__asm__ volatile("mov %%cr0, %0" : "=r"(v));
	return v;
}

static inline uint64_t read_cr2(void)
{
	uint64_t v;

	__asm__ volatile("mov %%cr2, %0" : "=r"(v));
	return v;
}

static inline uint64_t read_cr3(void)
{
	uint64_t v;

	__asm__ volatile("mov %%cr3, %0" : "=r"(v));
	return v;
}

static inline void write_cr3(uint64_t v)
{
	__asm__ volatile("mov %0, %%cr3" : : "r"(v) : "memory");
}

static inline uint64_t read_cr4(void)
{
	uint64_t v;

	__asm__ volatile("mov %%cr4, %0" : "=r"(v));
	return v;
}

static inline uint64_t rdmsr(uint32_t msr)
{
	uint32_t lo, hi;

	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((uint64_t)hi << 32) | lo;
}

/* The time-stamp counter, fenced on both sides so that it neither starts
 * before earlier instructions finish nor lets later ones start early. */
static inline uint64_t rdtsc_fenced(void)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence; rdtsc; lfence" : "=a"(lo), "=d"(hi) : : "memory");
	return ((uint64_t)hi << 32) | lo;
}

static inline uint64_t read_rbp(void)
{
	uint64_t v;

	__asm__ volatile("mov %%rbp, %0" : "=r"(v));
	return v;
}

#define RFLAGS_IF	(1ul << 9)

static inline void cpu_intr_enable(void)
{
	__asm__ volatile("sti" : : : "memory");
}

static inline void cpu_intr_disable(void)
{
	__asm__ volatile("cli" : : : "memory");
}

/* Disable interrupts; returns the previous RFLAGS for cpu_intr_restore(). */
static inline uint64_t cpu_intr_save(void)
{
	uint64_t flags;

	__asm__ volatile("pushfq; popq %0; cli" : "=r"(flags) : : "memory");
	return flags;
}

/* Re-enable interrupts if @flags (from cpu_intr_save()) had them on. */
static inline void cpu_intr_restore(uint64_t flags)
{
	if (flags & RFLAGS_IF)
		cpu_intr_enable();
}

static inline __attribute__((noreturn)) void cpu_halt_forever(void)
{
	for (;;)
		__asm__ volatile("cli; hlt");
}

#endif
