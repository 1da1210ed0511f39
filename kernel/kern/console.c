/* SPDX-License-Identifier: GPL-2.0-only */
/* The console: COM1 (what the harness reads) mirrored on the VGA screen. */
#include <stddef.h>

#include "kern/console.h"
#include "x86_64/cpu.h"
#include "x86_64/serial.h"
#include "x86_64/vga.h"

static char *capture_buf;
static size_t capture_size, capture_len;

void console_init(void)
{
	serial_init();
	vga_init();
}

void console_putc(int c)
{
	if (c == '\n')
		serial_putc('\r');
	serial_putc(c);
	vga_putc(c);
	if (capture_buf != NULL && capture_len + 1 < capture_size) {
		capture_buf[capture_len++] = (char)c;
		capture_buf[capture_len] = '\0';
	}
}

unsigned long console_hold(void)
{
	return cpu_intr_save();
}

void console_release(unsigned long held)
{
	cpu_intr_restore(held);
}

void console_write(const char *s, size_t n)
{
	while (n--)
		console_putc(*s++);
}

void console_capture_start(char *buf, size_t size)
{
	capture_len = 0;
	capture_size = size;
	if (size > 0)
		buf[0] = '\0';
	capture_buf = buf;
}

size_t console_capture_stop(void)
{
	capture_buf = NULL;
	return capture_len;
}
