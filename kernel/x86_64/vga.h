/* SPDX-License-Identifier: GPL-2.0-only */
/* A mirror of the console on the VGA text screen (what Bochs shows). */
#ifndef X86_64_VGA_H
#define X86_64_VGA_H

/* Clear the 80x25 text screen and home the cursor. */
void vga_init(void);

/* Draw one character, scrolling at the bottom.  Not reentrant. */
void vga_putc(int c);

#endif
