/* SPDX-License-Identifier: GPL-2.0-only */
/* Rate-limited kernel messages: a burst per window, then a count. */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kern/clock.h"
#include "kern/console.h"
#include "kern/klog.h"
#include "kern/kprintf.h"
#include "x86_64/cpu.h"

unsigned int klog_dropped;

/* The window of @arg (a source) ended with lines dropped: say so.  From
 * the tick interrupt, interrupts off. */
static void report(void *arg)
{
	struct klog_source *src = arg;

	kprintf("%s: %u messages suppressed\n", src->name, src->suppressed);
	src->suppressed = 0;
}

bool klog_allow(struct klog_source *src)
{
	uint64_t flags = cpu_intr_save();
	uint64_t now = clock_ticks();
	bool allow;

	if (now >= src->window_end) {
		src->window_end = now + KLOG_WINDOW;
		src->printed = 0;
	}
	allow = src->printed < KLOG_BURST;
	if (allow) {
		src->printed++;
	} else {
		if (src->suppressed++ == 0)
			timeout_set(&src->report, src->window_end - now,
				    report, src);
		klog_dropped++;
	}
	cpu_intr_restore(flags);
	return allow;
}

void klog(struct klog_source *src, const char *fmt, ...)
{
	char line[256];
	va_list ap;
	int len;

	if (!klog_allow(src))
		return;
	va_start(ap, fmt);
	len = kvsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (len >= (int)sizeof(line))
		len = sizeof(line) - 1;
	console_write(line, (size_t)len);
}

void klog_name(struct klog_source *src, const char *name, size_t len)
{
	uint64_t flags = cpu_intr_save();

	if (len >= KLOG_NAME_MAX)
		len = KLOG_NAME_MAX - 1;
	for (size_t i = 0; i < len; i++)
		src->name[i] = name[i];
	src->name[len] = '\0';
	cpu_intr_restore(flags);
}
