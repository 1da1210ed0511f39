/* SPDX-License-Identifier: GPL-2.0-only */
/* Rate-limited kernel messages: lines a task's requests can cause. */
#ifndef KERN_KLOG_H
#define KERN_KLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kern/clock.h"

/*
 * A source of console lines that user requests can cause (a refused
 * call, a failed transfer, a driver's error handler): at most KLOG_BURST
 * lines per KLOG_WINDOW ticks are printed; the rest of the window's lines
 * are counted, and when the window ends one line "NAME: N messages
 * suppressed" says how many went.  Whole lines only are kept or dropped,
 * so what is printed stays intact, and other sources are not affected.
 * Messages a task cannot cause (boot, panics) use kprintf directly.
 *
 * A source is a static struct klog_source: KLOG_SOURCE(var, "name").
 * Locking: one CPU; interrupts are disabled around the counts; any
 * context (an interrupt handler too), never blocks.
 */
#define KLOG_BURST	10
#define KLOG_WINDOW	(5 * HZ)
#define KLOG_NAME_MAX	40

struct klog_source {
	char name[KLOG_NAME_MAX];
	uint64_t window_end;		/* in ticks; 0: no window yet */
	unsigned int printed;		/* lines printed in this window */
	unsigned int suppressed;	/* lines dropped in this window */
	struct timeout report;		/* prints the suppressed count */
};

#define KLOG_SOURCE(var, source_name) \
	struct klog_source var = { .name = source_name }

/*
 * klog_allow - count one line of @src: true if it may be printed now,
 * false if it is to be dropped (counted, reported when the window ends).
 * klog - format @fmt (at most 256 bytes kept) and print it if
 * klog_allow lets it.  Each call is one line's worth (a message of
 * several "\n"-separated lines counts as one).
 */
bool klog_allow(struct klog_source *src);
void klog(struct klog_source *src, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* klog_name - set @src's name to the first @len bytes of @name (cut to
 * KLOG_NAME_MAX - 1), for sources made at run time.  Any context. */
void klog_name(struct klog_source *src, const char *name, size_t len);

/* Lines dropped by every source since boot (for tests). */
extern unsigned int klog_dropped;

#endif
