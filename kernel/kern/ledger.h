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
 * other tasks need.  A ledger lives while its task does and, after, while
 * anything is still charged to it (a request whose reply port another
 * task holds outlives its sender): a charged resource keeps the ledger
 * it names without a reference of its own.  The kernel task has no
 * ledger (NULL): its charges always succeed and are not counted.
 *
 * The limits are in docs/mach-interfaces.md ("Limits per task").
 *
 * Locking: one CPU; every function disables interrupts around the counts
 * (callers may hold them disabled); none blocks; ledger_charge may run
 * in an interrupt handler; ledger_create, ledger_release and
 * ledger_credit may not (they allocate or may free).
 */
enum ledger_item {
	LEDGER_IO_REQUESTS,	/* device requests in flight */
	LEDGER_IO_BYTES,	/* their data buffers, in bytes */
	LEDGER_INTR_LINES,	/* interrupt lines registered */
	LEDGER_NET_FILTERS,	/* packet filters installed */
	LEDGER_IO_PERMS,	/* I/O permission objects alive */
	LEDGER_DMA_BYTES,	/* DMA memory of its claims, in bytes */
	LEDGER_DEVICE_PROXIES,	/* devices it published (proxy.defs) */
	LEDGER_ITEMS
};

struct ledger;

/* ledger_create - a task's ledger, nothing charged; NULL if memory is
 * short.  ledger_release - its task is gone: the ledger is freed now if
 * nothing is charged, else by the credit that brings every item back to
 * 0.  NULL is ignored. */
struct ledger *ledger_create(void);
void ledger_release(struct ledger *ledger);

/*
 * ledger_charge - count @n more of @item against @ledger: true, or false
 * (nothing counted) if that would pass the item's limit.  ledger_credit
 * - give @n of @item back (more than was charged is a kernel bug:
 * panic); the last credit of a released ledger frees it.  A NULL
 * @ledger (the kernel's) charges and credits nothing.
 */
bool ledger_charge(struct ledger *ledger, enum ledger_item item, uint64_t n);
void ledger_credit(struct ledger *ledger, enum ledger_item item, uint64_t n);

/*
 * ledger_charge_io - a device request with @bytes of data: one
 * LEDGER_IO_REQUESTS and @bytes of LEDGER_IO_BYTES at once.  True; or
 * false, nothing counted, with *@refused the item whose limit refused
 * it.  ledger_credit_io - give both back.  As ledger_charge and
 * ledger_credit otherwise.
 */
bool ledger_charge_io(struct ledger *ledger, uint64_t bytes,
		      enum ledger_item *refused);
void ledger_credit_io(struct ledger *ledger, uint64_t bytes);

/* Ledgers alive (for leak checks in tests). */
unsigned int ledger_count(void);

#endif
