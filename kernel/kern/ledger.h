/* SPDX-License-Identifier: GPL-2.0-only */
/* Ledgers: what a task holds in the kernel through its requests, and its limits. */
#ifndef KERN_LEDGER_H
#define KERN_LEDGER_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Every kernel resource a request creates for a task and that outlives
 * the request's message (a queued device request and its buffer, an
 * interrupt registration, a packet filter, an I/O permission object) is
 * charged to the ledger of the task that sent the request, and credited
 * back when the resource is released.  A charge beyond the item's limit
 * is refused, and the request fails with an error instead of taking what
 * other tasks need.  A ledger is counted: its task holds one reference
 * and every charged resource that may outlive the task holds one, so the
 * counts stay right whoever releases last.  The kernel task has no ledger
 * (NULL): its charges always succeed and are not counted.
 *
 * The limits are in docs/mach-interfaces.md ("Limits per task").
 *
 * Locking: one CPU; every function disables interrupts around the counts
 * (callers may hold them disabled); none blocks; ledger_charge,
 * ledger_credit and ledger_reference may run in an interrupt handler,
 * ledger_create and the last ledger_release may not (they allocate or
 * free).
 */
enum ledger_item {
	LEDGER_IO_REQUESTS,	/* device requests in flight */
	LEDGER_IO_BYTES,	/* their data buffers, in bytes */
	LEDGER_INTR_LINES,	/* interrupt lines registered */
	LEDGER_NET_FILTERS,	/* packet filters installed */
	LEDGER_IO_PERMS,	/* I/O permission objects alive */
	LEDGER_ITEMS
};

struct ledger;

/* The limit of @item per task. */
uint64_t ledger_limit(enum ledger_item item);

/* ledger_create - a ledger with nothing charged and one reference; NULL
 * if memory is short. */
struct ledger *ledger_create(void);

/* ledger_reference - one more reference to @ledger (NULL: nothing);
 * returns @ledger.  ledger_release - drop one; the last frees it (every
 * charge must have been credited back by then: a kernel bug otherwise,
 * panic). */
struct ledger *ledger_reference(struct ledger *ledger);
void ledger_release(struct ledger *ledger);

/*
 * ledger_charge - count @n more of @item against @ledger: true, or false
 * (nothing counted) if that would pass the item's limit.  ledger_credit
 * - give @n of @item back (more than was charged is a kernel bug:
 * panic).  A NULL @ledger (the kernel's) charges and credits nothing.
 */
bool ledger_charge(struct ledger *ledger, enum ledger_item item, uint64_t n);
void ledger_credit(struct ledger *ledger, enum ledger_item item, uint64_t n);

/* What @ledger has charged of @item now (0 for NULL). */
uint64_t ledger_used(const struct ledger *ledger, enum ledger_item item);

/* Ledgers alive (for leak checks in tests). */
unsigned int ledger_count(void);

#endif
