/* SPDX-License-Identifier: GPL-2.0-only */
/* printk: Linux's own vsnprintf formats, the host console prints. */
/*
 * Messages of every level reach the console, without their level marker
 * (there is no log buffer and no console_loglevel yet).  A message longer
 * than LX_PRINTK_MAX bytes is cut there and ends with "...".
 */
#include <linux/kernel.h>
#include <linux/printk.h>
#include <linux/string.h>

#include <lx_host.h>

#define LX_PRINTK_MAX	512

int vprintk(const char *fmt, va_list args)
{
	char line[LX_PRINTK_MAX];
	const char *text;
	int len;

	len = vscnprintf(line, sizeof(line), fmt, args);
	if (len == sizeof(line) - 1)
		memcpy(line + len - 4, "...\n", 4);
	text = printk_skip_level(line);
	lx_host_console_write(text, len - (text - line));
	return len;
}

int _printk(const char *fmt, ...)
{
	va_list args;
	int len;

	va_start(args, fmt);
	len = vprintk(fmt, args);
	va_end(args);
	return len;
}

/* _printk_deferred - printk from where the console may not be taken in
 * Linux (scheduler, ratelimit reports); here the console always may. */
int _printk_deferred(const char *fmt, ...) __alias(_printk);
