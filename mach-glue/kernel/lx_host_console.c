/* SPDX-License-Identifier: GPL-2.0-only */
/* lx_host_console_write, lx_host_missing and lx_host_backtrace inside the Graft kernel. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kern/backtrace.h"
#include "kern/console.h"
#include "kern/klog.h"
#include "kern/panic.h"
#include "kern/string.h"
#include "linux-emu/include/lx_host.h"
#include "mach-glue/kernel/lx_host_console.h"
#include "x86_64/cpu.h"

/* Sources seen; when all are taken, lines of new names share the first,
 * "linux". */
#define LX_SOURCES	16

static struct klog_source sources[LX_SOURCES] = { { .name = "linux" } };
static unsigned int sources_used = 1;
static bool limited;
static bool mid_line;		/* the last write did not end its line */
static bool dropping;		/* ...and that line is being dropped */

void lx_host_console_limit(void)
{
	limited = true;
}

/* The source of a line starting with @text (interrupts off). */
static struct klog_source *source_of(const char *text, unsigned long len)
{
	size_t n = 0;

	while (n + 1 < len && n + 1 < KLOG_NAME_MAX &&
	       !(text[n] == ':' && text[n + 1] == ' ') && text[n] != '\n')
		n++;
	if (n + 1 >= len || text[n] != ':')
		return &sources[0];
	for (unsigned int i = 1; i < sources_used; i++)
		if (strncmp(sources[i].name, text, n) == 0 &&
		    sources[i].name[n] == '\0')
			return &sources[i];
	if (sources_used == LX_SOURCES)
		return &sources[0];
	klog_name(&sources[sources_used], text, n);
	return &sources[sources_used++];
}

void lx_host_console_write(const char *text, unsigned long len)
{
	uint64_t flags;
	bool drop;

	if (!limited || len == 0) {
		console_write(text, len);
		return;
	}
	flags = cpu_intr_save();
	drop = mid_line ? dropping : !klog_allow(source_of(text, len));
	mid_line = text[len - 1] != '\n';
	dropping = drop;
	cpu_intr_restore(flags);
	if (!drop)
		console_write(text, len);
}

void lx_host_missing(const char *name)
{
	panic("linux-emu: %s is not implemented", name);
}

void lx_host_backtrace(unsigned long ip, unsigned long sp)
{
	backtrace_print_scan(ip, sp);
}
