/* SPDX-License-Identifier: GPL-2.0-only */
/* The "console" device: the serial console as a Mach device. */
#ifndef DEVICE_DEV_CONSOLE_H
#define DEVICE_DEV_CONSOLE_H

/* dev_console_init - take COM1's receive interrupt (once, at boot). */
void dev_console_init(void);

#endif
