/* SPDX-License-Identifier: GPL-2.0-only */
/* Ledgers: per-task counts of kernel resources held through requests. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kern/kalloc.h"
#include "kern/ledger.h"
#include "kern/panic.h"
#include "x86_64/cpu.h"

struct ledger {
	unsigned int refs;
	uint64_t used[LEDGER_ITEMS];
};

/*
 * Two transfers of the largest size (DEV_IO_MAX, 16 MiB) may be in
 * flight at once; 1024
 * requests cover a sender keeping hundreds of frames outstanding.  Four
 * interrupt lines serve a driver server with a NIC and an IDE controller
 * of two channels.
 */
static const uint64_t limits[LEDGER_ITEMS] = {
	[LEDGER_IO_REQUESTS] = 1024,
	[LEDGER_IO_BYTES] = 32u << 20,
	[LEDGER_INTR_LINES] = 4,
	[LEDGER_NET_FILTERS] = 64,
	[LEDGER_IO_PERMS] = 64,
};

static unsigned int ledgers_alive;

uint64_t ledger_limit(enum ledger_item item)
{
	return limits[item];
}

unsigned int ledger_count(void)
{
	return ledgers_alive;
}

struct ledger *ledger_create(void)
{
	struct ledger *ledger = kzalloc(sizeof(*ledger));
	uint64_t flags;

	if (ledger == NULL)
		return NULL;
	ledger->refs = 1;
	flags = cpu_intr_save();
	ledgers_alive++;
	cpu_intr_restore(flags);
	return ledger;
}

struct ledger *ledger_reference(struct ledger *ledger)
{
	uint64_t flags = cpu_intr_save();

	if (ledger != NULL)
		ledger->refs++;
	cpu_intr_restore(flags);
	return ledger;
}

void ledger_release(struct ledger *ledger)
{
	uint64_t flags;

	if (ledger == NULL)
		return;
	flags = cpu_intr_save();
	if (ledger->refs == 0)
		panic("ledger %p: reference count underflow", (void *)ledger);
	if (--ledger->refs == 0) {
		for (int i = 0; i < LEDGER_ITEMS; i++)
			if (ledger->used[i] != 0)
				panic("ledger %p freed with %llu of item %d",
				      (void *)ledger,
				      (unsigned long long)ledger->used[i], i);
		ledgers_alive--;
		kfree(ledger);
	}
	cpu_intr_restore(flags);
}

bool ledger_charge(struct ledger *ledger, enum ledger_item item, uint64_t n)
{
	uint64_t flags;
	bool ok;

	if (ledger == NULL)
		return true;
	flags = cpu_intr_save();
	ok = n <= limits[item] && ledger->used[item] <= limits[item] - n;
	if (ok)
		ledger->used[item] += n;
	cpu_intr_restore(flags);
	return ok;
}

void ledger_credit(struct ledger *ledger, enum ledger_item item, uint64_t n)
{
	uint64_t flags;

	if (ledger == NULL)
		return;
	flags = cpu_intr_save();
	if (ledger->used[item] < n)
		panic("ledger %p: credit of %llu, %llu charged (item %d)",
		      (void *)ledger, (unsigned long long)n,
		      (unsigned long long)ledger->used[item], item);
	ledger->used[item] -= n;
	cpu_intr_restore(flags);
}

uint64_t ledger_used(const struct ledger *ledger, enum ledger_item item)
{
	return ledger != NULL ? ledger->used[item] : 0;
}
