/* SPDX-License-Identifier: GPL-2.0-only */
/* panic: a driver's fatal error stops the Linux world. */
/*
 * Linux prints the message and halts the machine.  Here the message is
 * printed as Linux prints it and BUG() follows, which the host's trap
 * reports and stops the world on (lx_bug.c): the kernel panics, a driver
 * server ends (restarted if the kernel was told to).  Nothing returns.
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
