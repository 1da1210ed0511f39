/* SPDX-License-Identifier: GPL-2.0-only */
/* printk: Linux's own vsnprintf formats, the host console prints; __printk_ratelimit. */
/*
 * Messages of every level reach the console, without their level marker
 * (there is no log buffer and no console_loglevel yet).  A message longer
 * than LX_PRINTK_MAX bytes is cut there and ends with "...".
 */
#include <linux/kernel.h>
#include <linux/printk.h>
#include <linux/ratelimit.h>
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

/* Linux's printk_ratelimit_state: 10 messages per 5 s. */
DEFINE_RATELIMIT_STATE(printk_ratelimit_state, 5 * HZ, 10);

/* __printk_ratelimit - nonzero if a message of @func may be printed now
 * (printk_ratelimit()); suppressed ones are counted and reported later
 * by lib/ratelimit.c. */
int __printk_ratelimit(const char *func)
{
	return ___ratelimit(&printk_ratelimit_state, func);
}
