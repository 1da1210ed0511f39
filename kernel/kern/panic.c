/* SPDX-License-Identifier: GPL-2.0-only */
/* panic(): report and stop. */
#include <stdarg.h>

#include "kern/backtrace.h"
#include "kern/kprintf.h"
#include "kern/machine.h"
#include "kern/panic.h"
#include "x86_64/cpu.h"

void panic(const char *fmt, ...)
{
	va_list ap;

	__asm__ volatile("cli");
	kprintf("*** PANIC: ");
	va_start(ap, fmt);
	kvprintf(fmt, ap);
	va_end(ap);
	kprintf("\n");
	backtrace_print((uint64_t)__builtin_return_address(0), read_rbp());
	panic_exit();
}

void panic_exit(void)
{
	machine_exit(MACHINE_EXIT_PANIC);
}
