/* SPDX-License-Identifier: GPL-2.0-only */
/* Port I/O for the user test programs that were granted ports. */
#ifndef TESTS_USER_USER_IO_H
#define TESTS_USER_USER_IO_H

#include <stdint.h>

/* A port the task was not granted raises #GP, which ends the task. */
__attribute__((unused))
static void outb(uint16_t port, uint8_t v)
{
	__asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port));
}

__attribute__((unused))
static uint8_t inb(uint16_t port)
{
	uint8_t v;

	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

#endif
