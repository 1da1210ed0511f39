/* SPDX-License-Identifier: GPL-2.0-only */
/* Console output drawn into VGA text memory at 0xb8000. */
#include <stdint.h>

#include "x86_64/layout.h"
#include "x86_64/vga.h"

#define VGA_COLS	80
#define VGA_ROWS	25
#define VGA_ATTR	0x0700	/* light grey on black */

static volatile uint16_t *const screen =
	(volatile uint16_t *)(KERNEL_BASE + 0xb8000);
static unsigned int row, col;

void vga_init(void)
{
	for (unsigned int i = 0; i < VGA_COLS * VGA_ROWS; i++)
		screen[i] = VGA_ATTR | ' ';
	row = 0;
	col = 0;
}

static void vga_scroll(void)
{
	unsigned int i;

	for (i = 0; i < VGA_COLS * (VGA_ROWS - 1); i++)
		screen[i] = screen[i + VGA_COLS];
	for (; i < VGA_COLS * VGA_ROWS; i++)
		screen[i] = VGA_ATTR | ' ';
	row = VGA_ROWS - 1;
}

void vga_putc(int c)
{
	if (c == '\n') {
		col = 0;
		if (++row == VGA_ROWS)
			vga_scroll();
		return;
	}
	if (c == '\r')
		return;
	if (c == '\t') {
		do
			vga_putc(' ');
		while (col % 8);
		return;
	}
	screen[row * VGA_COLS + col] = VGA_ATTR | (uint8_t)c;
	if (++col == VGA_COLS) {
		col = 0;
		if (++row == VGA_ROWS)
			vga_scroll();
	}
}
