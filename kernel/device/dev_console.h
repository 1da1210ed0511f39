/* SPDX-License-Identifier: GPL-2.0-only */
/* The "console" device: the serial console as a Mach device. */
#ifndef DEVICE_DEV_CONSOLE_H
#define DEVICE_DEV_CONSOLE_H

#include <stddef.h>

/* dev_console_init - take COM1's receive interrupt (once, at boot). */
void dev_console_init(void);

/*
 * dev_console_input - @n bytes arrived on the console line: keep them
 * (up to the buffer's size; the rest is dropped and counted) and complete
 * the reads waiting for input, oldest first.  Called by the receive
 * interrupt handler, and by tests standing in for the line.  Any context.
 */
void dev_console_input(const char *bytes, size_t n);

/* Bytes dropped because the input buffer was full (for tests). */
extern unsigned int dev_console_dropped;

#endif
