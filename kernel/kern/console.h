/* SPDX-License-Identifier: GPL-2.0-only */
/* Console output: the character sink that kprintf() and friends write to. */
#ifndef KERN_CONSOLE_H
#define KERN_CONSOLE_H

#include <stddef.h>

/*
 * console_putc - write one character to the console.
 * @c: the character; only its low 8 bits are written.
 *
 * Cannot fail and returns nothing.  Takes no locks.
 */
void console_putc(int c);

/*
 * console_write - write @n bytes starting at @s to the console.
 * @s: the bytes; NUL bytes are written like any other.
 * @n: how many bytes to write.
 *
 * Cannot fail and returns nothing.  Takes no locks.
 */
void console_write(const char *s, size_t n);

/*
 * console_hold - keep every other writer's output out until
 * console_release(@held, the value it returned): in the kernel,
 * interrupts off (no other thread runs, so a task's console write
 * cannot land inside a kernel line).  Nests.
 */
unsigned long console_hold(void);
void console_release(unsigned long held);

/*
 * console_init - bring up the serial port and the VGA text mirror.
 *
 * Call once, first thing at boot; output before it is lost.
 */
void console_init(void);

/*
 * console_capture_start - also copy everything printed into @buf.
 * @buf: where to copy; @size: its size (the copy stops, silently, when full,
 *       and is always NUL-terminated).
 *
 * For tests that check what the kernel printed.  Not nestable.
 */
void console_capture_start(char *buf, size_t size);

/*
 * console_capture_stop - stop copying; returns the number of bytes copied.
 */
size_t console_capture_stop(void);

#endif /* KERN_CONSOLE_H */
