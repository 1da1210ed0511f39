/* SPDX-License-Identifier: GPL-2.0-only */
/* panic: a driver's fatal error stops the Linux world. */
/*
 * Linux prints the message and halts the machine.  Here the message is
 * printed as Linux prints it and BUG() follows (an invalid opcode): in
 * the kernel that is Graft's CPU exception panic, with its backtrace; in
 * a driver server the server faults and ends, and the kernel restarts it
 * if it was told to.  Either way nothing returns from it.
 */
#include <linux/bug.h>
#include <linux/kernel.h>
#include <linux/panic.h>
#include <linux/printk.h>

void panic(const char *fmt, ...)
{
	static char buf[512];
	va_list args;

	va_start(args, fmt);
	vscnprintf(buf, sizeof(buf), fmt, args);
	va_end(args);
	pr_emerg("Kernel panic - not syncing: %s\n", buf);
	BUG();
}
