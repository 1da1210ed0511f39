/* SPDX-License-Identifier: GPL-2.0-only */
/* Stopping the kernel on an unrecoverable error. */
#ifndef KERN_PANIC_H
#define KERN_PANIC_H

/* Print "*** PANIC: <message>" and a backtrace, then end the boot with
 * status panic.  For kernel bugs only: never for bad user input. */
void panic(const char *fmt, ...)
	__attribute__((noreturn, format(printf, 1, 2)));

/* End the boot with status panic after a report was printed. */
void panic_exit(void) __attribute__((noreturn));

#endif
